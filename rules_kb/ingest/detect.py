"""Guess what an unknown file is: format (by asking every parser), game and languages.

Used by ``rules-kb parse`` and ``rules-kb add``; the manifest records the answer so that
ingesting the corpus never guesses.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from rules_kb.errors import ParseError
from rules_kb.games import DOCUMENTS
from rules_kb.model import DocumentMeta

# A format must be at least this sure of itself, and clearly ahead of the runner-up.
MIN_SCORE = 40
_KANA = re.compile(r"[\u3040-\u30ff]")


def score_formats(text: str) -> list[tuple[int, str]]:
    """Every format's sniff score for ``text``, best first (ties by name)."""
    from rules_kb.sources.registry import FORMATS  # every parser: imported only when guessing

    scores = []
    for name, source in FORMATS.items():
        scores.append((int(source.sniff(text)), name))
    return sorted(scores, key=lambda pair: (-pair[0], pair[1]))


def detect_format(text: str, document: str) -> str:
    """The format whose parser is confident about ``text``, or ``ParseError``."""
    scores = score_formats(text)
    if not scores or scores[0][0] < MIN_SCORE:
        best = f" (best guess {scores[0][1]} at {scores[0][0]}/100)" if scores else ""
        raise ParseError(document, f"unknown format: no parser recognises this text{best}", 0)
    if len(scores) > 1 and scores[1][0] == scores[0][0]:
        raise ParseError(document, f"ambiguous format: {scores[0][1]} and {scores[1][1]} both score "
                                   f"{scores[0][0]}/100; pass --format", 0)
    return scores[0][1]


def detect_languages(text: str) -> tuple[str, ...]:
    """``ja`` when the text has kana, ``en`` when it has English prose, in that order of appearance."""
    kana = _KANA.search(text)
    english = re.search(r"\b(the|and|of|rules?)\b", text, re.IGNORECASE)
    found = sorted(
        (m.start(), lang) for m, lang in ((kana, "ja"), (english, "en")) if m is not None
    )
    return tuple(lang for _, lang in found) or ("en",)


def _published_in(detected: tuple[str, ...], game: str, document: str) -> tuple[str, ...]:
    """The detected languages a document is published in (English words in a Japanese-only document
    are quotations), else the first it is published in."""
    kind = DOCUMENTS.get((game, document))
    langs = kind.langs if kind is not None else detected
    return tuple(lang for lang in detected if lang in langs) or langs[:1]


def describe_file(path: Path, data: bytes, text: str, *, format_name: str | None = None,
                  game: str | None = None, languages: tuple[str, ...] | None = None,
                  versions: tuple[str, ...] = (), dates: tuple[str, ...] = ()) -> DocumentMeta:
    """A manifest entry for a file outside the corpus, from flags where given, else guessed."""
    from rules_kb.sources.registry import FORMATS, get_parser

    fmt = format_name or detect_format(text, str(path))
    get_parser(fmt, str(path))  # an unknown --format: the error lists the known ones
    source = FORMATS[fmt]
    return DocumentMeta(
        id=re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-") or "document",
        file=str(path),
        sha256=hashlib.sha256(data).hexdigest(),
        game=game or source.game,
        languages=languages or _published_in(detect_languages(text), game or source.game, source.document),
        format=fmt,
        kind=source.kind,
        document=source.document,
        versions=versions,
        dates=dates,
    )
