"""PukiWiki inline markup: readable text, footnotes carved out, rule numbers cited.

Records keep ``spans`` over the *raw* source and ``text`` in readable form, so a reader sees
what the wiki shows while accounting still covers every source character. Footnotes
(``((…))``) and tags (``&tag(…);``) become records of their own: their spans are cut out of
the enclosing item's spans, which is why an item may have several spans.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from rules_kb.model import Span
from rules_kb.numbers import RuleNumber, fold_width
from rules_kb.sources.common import trim_span

_TAG = re.compile(r"&tag\((?P<args>[^()\n]*)\);")
_LINK = re.compile(r"\[\[(?P<inner>[^\[\]\n]*)\]\]")
_URL_ALIAS = re.compile(r"(?P<label>.+?):(?:https?|ftp)://")
_INLINE_BODY = re.compile(r"&\w+(?:\([^(){}\n]*\))?\{(?P<body>[^{}\n]*)\};")
_INLINE_EMPTY = re.compile(r"&(?!br;)\w+(?:\([^()\n]*\))?;")
_FORMAT_PREFIX = re.compile(r"^(?:(?:BG)?COLOR\([^()]*\):|SIZE\(\d+\):|(?:LEFT|CENTER|RIGHT):)+")
_RED = re.compile(r"&color\((?:red|#f00|#ff0000)\b", re.IGNORECASE)
_LEADING_NUMBER = re.compile(r"\s*(\d{3}(?:\.\d{1,3}[a-z]?)?)\.?(?!\d)")


@dataclass
class Piece:
    """A carved-out inline element: its readable text and raw span."""

    text: str
    span: Span


@dataclass
class Carved:
    """One item's raw text with footnotes and tags removed, and what was removed."""

    raw: str
    spans: list[Span]
    footnotes: list[Piece] = field(default_factory=list)
    tags: list[Piece] = field(default_factory=list)


def carve(text: str, start: int, end: int) -> Carved:
    """Split ``text[start:end]`` into the item itself, its footnotes and its tags."""
    removed: list[tuple[int, int, str]] = []
    for match in _TAG.finditer(text, start, end):
        removed.append((match.start(), match.end(), "tag"))
    for note_start, note_end in _footnotes(text, start, end):
        if not any(a <= note_start < b for a, b, _ in removed):
            removed.append((note_start, note_end, "footnote"))
    removed.sort()
    carved = Carved("", [])
    pos = start
    raw_parts = []
    for a, b, kind in removed:
        raw_parts.append(text[pos:a])
        _add_span(carved.spans, text, pos, a)
        inner = text[a + 2 : b - 2] if kind == "footnote" else _TAG.fullmatch(text, a, b)["args"]
        piece = Piece(render(inner), (a, b))
        (carved.footnotes if kind == "footnote" else carved.tags).append(piece)
        pos = b
    raw_parts.append(text[pos:end])
    _add_span(carved.spans, text, pos, end)
    carved.raw = "".join(raw_parts)
    return carved


def _add_span(spans: list[Span], text: str, start: int, end: int) -> None:
    span = trim_span(text, start, end)
    if span[0] < span[1]:
        spans.append(span)


def _footnotes(text: str, start: int, end: int) -> list[Span]:
    """Outermost ``((…))`` ranges; an unclosed one is left in the text."""
    notes = []
    i = start
    while i < end:
        if text.startswith("((", i):
            close = _note_close(text, i, end)
            if close is not None:
                notes.append((i, close))
                i = close
                continue
        i += 1
    return notes


def _note_close(text: str, i: int, end: int) -> int | None:
    depth = 0
    while i < end:
        if text.startswith("((", i):
            depth += 1
            i += 2
        elif text.startswith("))", i):
            depth -= 1
            i += 2
            if depth == 0:
                return i
        else:
            i += 1
    return None


def render(raw: str) -> str:
    """Readable text of inline markup: links by label, decorations dropped, ``&br;`` as a newline."""
    text = join_lost_breaks(raw)
    text = _LINK.sub(_link_label, text)
    previous = None
    while previous != text:  # nested &color(){&size(){…};};
        previous, text = text, _INLINE_BODY.sub(r"\g<body>", text)
    text = _INLINE_EMPTY.sub("", text).replace("&br;", "\n")
    text = text.replace("'''", "").replace("''", "").replace("%%", "")
    text = _FORMAT_PREFIX.sub("", text)
    return text.removesuffix("~").strip()


def render_cells(raw: str) -> str:
    """Readable text of a table row: non-empty cells joined by `` | ``."""
    body = raw.strip()
    cells = body.split("|")[1:-1]
    readable = [render(cell) for cell in cells]
    return " | ".join(cell for cell in readable if cell and cell not in (">", "~"))


def _link_label(match: re.Match[str]) -> str:
    inner = match["inner"]
    if ">" in inner:
        return inner.split(">", 1)[0]
    alias = _URL_ALIAS.match(inner)
    return alias["label"] if alias else inner


def join_lost_breaks(raw: str) -> str:
    """Drop whitespace between two wide (CJK) characters; a lost line break left it there."""
    return re.sub(r"\s+", lambda m: _joiner(raw, m.start(), m.end()), raw)


def _joiner(raw: str, start: int, end: int) -> str:
    if start > 0 and end < len(raw) and _is_wide(raw[start - 1]) and _is_wide(raw[end]):
        return ""
    return " "


def _is_wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in ("W", "F")


def is_marked_red(raw: str) -> bool:
    """Whether the item carries dmwiki's red emphasis (``&color(red){…};``)."""
    return _RED.search(raw) is not None


def leading_cite(readable: str) -> tuple[str, ...]:
    """The number a contents entry starts with (``100.ゲームに必要なもの`` → ``100``)."""
    match = _LEADING_NUMBER.match(fold_width(readable))
    return (str(RuleNumber.parse(match[1])),) if match else ()

