"""What kind of change one changed stretch of a diff is: editorial (spelling only) or substantive.

The verdict is ``unchanged`` (identical texts), ``editorial`` (every change is spelling
only) or ``substantive``. Editorial kinds, decided here and tried in this order:

* ``width``: full-width vs half-width forms (``５０７`` / ``507``, ``（`` / ``(``), by NFKC;
* ``punctuation``: ``。``/``.`` and ``、``/``,`` (seed 002's 506.1 ends with a half-width
  ``.``), and any change made of punctuation tokens only: a comma or period added or
  dropped, a card name put in ``《》``, ``_`` italics marks, ``®`` / ``™``. Dashes are
  not in it: ``-1/-1`` / ``+1/+1`` is a rule change, and CR-2009-05-01 has ``?`` where
  the other releases have ``--`` (a lossy conversion upstream) which must show;
* ``quotes``: typographic vs ASCII quotes (``it’s`` / ``it's``);
* ``case``: upper vs lower case;
* ``contraction``: ``is not`` / ``isn't``, ``cannot`` / ``can't`` (the 1.20 → 1.38
  retouch of the English 507.1a made both);
* ``hyphenation``: hyphens and spaces inside a word (``nonactive`` / ``non-active``,
  ``non-active`` / ``non active``), only between letters;
* ``spelling`` (Japanese): tokens with equal Sudachi normalized form *and* equal part of
  speech, inflection included (プレイヤー / プレーヤー, すべて / 全て, 取り除く / 取除く);
  an equal normalized form with another inflection (選ん / 選び) is grammar, not spelling;
* ``typo`` (English): one word for one word, same first letter, difflib character ratio
  ≥ 0.8, and not two inflections of one stem (``blocked`` / ``blocker``, ``creature`` /
  ``creatures`` are substantive; ``creatue`` / ``creature`` is a typo);
* ``relative-pronoun`` (English): ``which`` / ``that`` introducing the same clause (the
  1.20 → 1.38 retouch of 507.1a: "creature which cannot be blocked" / "that can't be
  blocked"); tried last, after the other folds, so it only names changes nothing else
  explains;
* ``whitespace``: whitespace only.

Anything else, including a replaced stretch whose token counts differ and that no fold
explains, is substantive: when unsure, a change is shown as substantive, never hidden.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from cydifflib import SequenceMatcher  # difflib's, compiled: the same opcodes (tests/test_diff.py)

from rules_kb.tokens import QUOTE_FOLD, Token, fold_latin

WHITESPACE = re.compile(r"\s+")
_HYPHENS = re.compile(r"[-\u2010\u2011\s]+")
_WORD_HYPHENS = frozenset("-\u2010\u2011")
# Punctuation whose addition, removal or exchange never changes what a rule says: Unicode
# punctuation except dashes (a "-" or "−" before a digit is a sign: -1/-1 vs +1/+1), plus
# the trademark signs Magic swaps between releases (® / ™). Symbols such as + are words.
_EDITORIAL_PUNCTUATION_CATEGORIES = frozenset({"Po", "Ps", "Pe", "Pi", "Pf", "Pc"})
_TRADEMARKS = frozenset("®™©")
_JA_PUNCTUATION = str.maketrans({"。": ".", "、": ","})
_CONTRACTIONS = re.compile(r"\b(?:can't|cannot|won't|(\w+)n't)\b")
WHICH = re.compile(r"\bwhich\b")
# Endings that turn one English word into another form of it: a change between two of
# these on one stem (block-ed / block-er) is grammar, not a typo.
_INFLECTIONS = frozenset({"", "s", "es", "d", "ed", "r", "er", "ers", "ing", "'s", "n", "en", "ly", "est"})
TYPO_MIN_RATIO = 0.8


@dataclass(frozen=True)
class Change:
    """One changed stretch and its kind: an editorial kind (see module doc) or ``substantive``."""

    old: str
    new: str
    reason: str

    @property
    def editorial(self) -> bool:
        return self.reason != "substantive"


# --- what kind of change --------------------------------------------------------------------

# Cumulative folds: the first after which both sides are equal names the change.
FOLDS: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("width", lambda s: unicodedata.normalize("NFKC", WHITESPACE.sub(" ", s))),
    ("punctuation", lambda s: s.translate(_JA_PUNCTUATION)),
    ("quotes", lambda s: s.translate(QUOTE_FOLD)),
    ("case", str.lower),
    ("contraction", lambda s: _CONTRACTIONS.sub(_expand_contraction, s)),
    ("hyphenation", lambda s: _HYPHENS.sub("", s)),
    ("relative-pronoun", lambda s: WHICH.sub("that", s)),
)


def _expand_contraction(match: re.Match[str]) -> str:
    word = match.group(0)
    if match.group(1):
        return f"{match.group(1)} not"
    return {"won't": "will not"}.get(word, "can not")


def classify_change(
    old_tokens: list[Token], new_tokens: list[Token], lang: str, old: str, new: str, hyphens_in_words: bool = False
) -> list[Change]:
    """Name one changed stretch (``old`` with its tokens replaced by ``new``) editorial or not.

    A stretch of equal token counts is judged token by token, so that two typo fixes in a
    row are two editorial changes; otherwise it is judged as a whole. ``hyphens_in_words``
    says that every hyphen token of the stretch joins two letters in its text
    (``non-active``), which makes adding or removing it hyphenation.
    """
    reason = _fold_reason(old, new) or _punctuation_reason(old_tokens, new_tokens, hyphens_in_words)
    if reason:
        return [Change(old, new, reason)]
    if old_tokens and len(old_tokens) == len(new_tokens):
        pairs = [(a, b) for a, b in zip(old_tokens, new_tokens, strict=True) if a.surface != b.surface]
        reasons = [_token_reason(a, b, lang) for a, b in pairs]
        if all(reasons):
            return [Change(a.surface, b.surface, r) for (a, b), r in zip(pairs, reasons, strict=True) if r]
    return [Change(old, new, "substantive")]


def _fold_reason(old: str, new: str) -> str | None:
    letters = _has_letter(old) and _has_letter(new)
    for reason, fold in FOLDS:
        old, new = fold(old), fold(new)
        if old == new:
            # Dropping a lone "-" is hyphenation only between letters, never before a digit.
            return reason if reason != "hyphenation" or letters else None
    return None


def _has_letter(text: str) -> bool:
    return any(ch.isalpha() for ch in text)


def _punctuation_reason(old_tokens: list[Token], new_tokens: list[Token], hyphens_in_words: bool = False) -> str | None:
    tokens = old_tokens + new_tokens
    if hyphens_in_words and all(t.surface in _WORD_HYPHENS for t in tokens):
        return "hyphenation"
    if all(_is_editorial_punctuation(t.surface) or (hyphens_in_words and t.surface in _WORD_HYPHENS) for t in tokens):
        return "punctuation"
    return None


def _is_editorial_punctuation(surface: str) -> bool:
    return all(_is_editorial_character(ch) for ch in surface)


def _is_editorial_character(ch: str) -> bool:
    return unicodedata.category(ch) in _EDITORIAL_PUNCTUATION_CATEGORIES or ch in _TRADEMARKS


class _PunctuationDropper(dict):
    """A ``str.translate`` table deleting editorial punctuation; each character is judged once."""

    def __missing__(self, code: int) -> int | None:
        value = None if _is_editorial_character(chr(code)) else code
        self[code] = value
        return value


DROP_PUNCTUATION = _PunctuationDropper()


def hyphens_inside_words(tokens: list[Token], text: str) -> bool:
    """True when every hyphen token among ``tokens`` has a letter right before and after it."""
    return all(
        t.start > 0 and t.end < len(text) and text[t.start - 1].isalpha() and text[t.end].isalpha()
        for t in tokens
        if t.surface in _WORD_HYPHENS
    )


def _token_reason(a: Token, b: Token, lang: str) -> str | None:
    reason = _fold_reason(a.surface, b.surface) or _punctuation_reason([a], [b])
    if reason:
        return reason
    if lang == "ja" and a.pos and a.normalized == b.normalized and a.pos == b.pos:
        return "spelling"
    if lang == "en" and is_typo(a.surface, b.surface):
        return "typo"
    return None


def is_typo(old: str, new: str) -> bool:
    """True when ``old`` and ``new`` look like one word mistyped, not two forms of a word."""
    a, b = fold_latin(old), fold_latin(new)
    if not a.replace("'", "").isalpha() or not b.replace("'", "").isalpha() or a[0] != b[0]:
        return False
    if SequenceMatcher(None, a, b, autojunk=False).ratio() < TYPO_MIN_RATIO:
        return False
    stem = _common_prefix_length(a, b)
    return not (a[stem:] in _INFLECTIONS and b[stem:] in _INFLECTIONS)


def _common_prefix_length(a: str, b: str) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    return n
