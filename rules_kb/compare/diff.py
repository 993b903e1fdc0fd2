"""Token-level diff of two texts of one rule, in one language, with a verdict on the change.

Tokens (see ``tokens``) are compared by surface with ``difflib.SequenceMatcher``
(``autojunk=False``: the junk heuristic would ignore frequent tokens such as ``the`` or
``の`` in long rules and produce nonsense). The diff then goes back to the text: each op
carries the exact pieces of both originals, whitespace included, so joining the old pieces
gives the old text and joining the new pieces the new text, character for character.
Whitespace next to a change goes into the change only where the two sides differ there.

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

Some edits span several stretches, so they are judged on the whole text (English only), after
the folds above, when a stretch was left substantive; each applies to both texts alike:

* ``dash``: a hyphen or an en dash joining two letters or digits ("506.6a-f" / "506.6a–f",
  2014); a dash before a number ("-1/-1") is never folded;
* ``pronoun``: 2018's gender-neutral wording ("he or she draws" / "they draw", "his or her" /
  "their" / "that player's", "him or her" / "them"), with the verb agreeing;
* ``numeral``: a number in digits or in words ("2" / "two", 2018's example of 801.5b);
* ``list-order``: the items of one list reordered ("turns, phases, or steps" / "steps,
  phases, or turns", 2024's 500.12);
* ``commentary``: a sentence about the document rather than the game added or dropped ("This
  is a change from previous rules.", 2016's 510.2);
* ``wording``: a phrase in ``EQUIVALENT_PHRASES``, each one seen in a release pair and read
  in context there (the list stays short: a phrase belongs only if it means the same in every
  rule that uses it).

Anything else, including a replaced stretch whose token counts differ and that no fold
explains, is substantive: when unsure, a change is shown as substantive, never hidden.
Aligning whole versions (which rule pairs with which) is not done here.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import lru_cache

from rules_kb.tokens import QUOTE_FOLD, Token, fold_latin, tokenize

_WHITESPACE = re.compile(r"\s+")
_HYPHENS = re.compile(r"[-\u2010\u2011\s]+")
_WORD_HYPHENS = frozenset("-\u2010\u2011")
# Punctuation whose addition, removal or exchange never changes what a rule says: Unicode
# punctuation except dashes (a "-" or "−" before a digit is a sign: -1/-1 vs +1/+1), plus
# the trademark signs Magic swaps between releases (® / ™). Symbols such as + are words.
_EDITORIAL_PUNCTUATION_CATEGORIES = frozenset({"Po", "Ps", "Pe", "Pi", "Pf", "Pc"})
_TRADEMARKS = frozenset("®™©")
_JA_PUNCTUATION = str.maketrans({"。": ".", "、": ","})
_CONTRACTIONS = re.compile(r"\b(?:can't|cannot|won't|(\w+)n't)\b")
_WHICH = re.compile(r"\bwhich\b")
# Endings that turn one English word into another form of it: a change between two of
# these on one stem (block-ed / block-er) is grammar, not a typo.
_INFLECTIONS = frozenset({"", "s", "es", "d", "ed", "r", "er", "ers", "ing", "'s", "n", "en", "ly", "est"})
TYPO_MIN_RATIO = 0.8


@dataclass(frozen=True)
class DiffOp:
    """One piece of the diff: ``tag`` is ``equal``, ``delete``, ``insert`` or ``replace``."""

    tag: str
    old: str
    new: str


@dataclass(frozen=True)
class Change:
    """One changed stretch and its kind: an editorial kind (see module doc) or ``substantive``."""

    old: str
    new: str
    reason: str

    @property
    def editorial(self) -> bool:
        return self.reason != "substantive"


@dataclass
class TokenDiff:
    """Two texts, the ops that turn one into the other, and every change with its kind.

    ``similarity`` is difflib's ratio over token surfaces (1.0 for two empty texts).
    """

    old: str
    new: str
    lang: str
    ops: list[DiffOp]
    similarity: float
    changes: list[Change] = field(default_factory=list)

    @property
    def classification(self) -> str:
        if self.old == self.new:
            return "unchanged"
        if all(change.editorial for change in self.changes):
            return "editorial"
        return "substantive"

    @property
    def editorial_changes(self) -> list[tuple[str, str, str]]:
        """``(old, new, reason)`` per editorial change, e.g. ``("creatue", "creature", "typo")``."""
        return [(c.old, c.new, c.reason) for c in self.changes if c.editorial]

    @property
    def substantive_changes(self) -> list[tuple[str, str]]:
        return [(c.old, c.new) for c in self.changes if not c.editorial]

    def old_text(self) -> str:
        return "".join(op.old for op in self.ops)

    def new_text(self) -> str:
        return "".join(op.new for op in self.ops)


def diff_tokens(old: str, new: str, lang: str) -> TokenDiff:
    """Tokenize both texts and diff them; ``diff_token_lists`` reuses tokens already made.

    Identical texts (most rows of a comparison) skip tokenizing: the result is the one the
    full path gives, a single equal op and no change.
    """
    if old == new:
        return TokenDiff(old, new, lang, [DiffOp("equal", old, old)] if old else [], 1.0, [])
    return _diff_changed(old, new, lang)


# Comparing each release with the newest meets the same two texts again and again (a rule kept
# for forty releases, then edited, gives forty identical rows), so changed pairs are memoised.
# The results are shared: nothing may mutate a TokenDiff it was given.
DIFF_MEMO = 20_000


@lru_cache(maxsize=DIFF_MEMO)
def _diff_changed(old: str, new: str, lang: str) -> TokenDiff:
    return diff_token_lists(old, new, tokenize(old, lang), tokenize(new, lang), lang)


def diff_token_lists(old: str, new: str, old_tokens: list[Token], new_tokens: list[Token], lang: str) -> TokenDiff:
    """Diff two texts already tokenized (an aligner compares one text with many)."""
    matcher = SequenceMatcher(None, [t.surface for t in old_tokens], [t.surface for t in new_tokens], autojunk=False)
    builder = _OpBuilder(old, new, old_tokens, new_tokens, lang)
    old_at = new_at = 0  # how far each text has been emitted
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            builder.change(old_at, old_tokens[i1].start, new_at, new_tokens[j1].start)
            builder.equal_run(old_tokens[i1:i2], new_tokens[j1:j2])
            old_at, new_at = old_tokens[i2 - 1].end, new_tokens[j2 - 1].end
    builder.change(old_at, len(old), new_at, len(new))
    similarity = 1.0 if not old_tokens and not new_tokens else matcher.ratio()
    changes = builder.changes
    if lang == "en" and any(not c.editorial for c in changes):
        reason = rewording_reason(old, new)
        if reason:
            changes = [c if c.editorial else Change(c.old, c.new, reason) for c in changes]
    return TokenDiff(old, new, lang, builder.merged_ops(), similarity, changes)


class _OpBuilder:
    """Collects ops and changes in text order, from equal runs and the stretches between them."""

    def __init__(self, old: str, new: str, old_tokens: list[Token], new_tokens: list[Token], lang: str) -> None:
        self.old, self.new, self.lang = old, new, lang
        self.old_tokens, self.new_tokens = old_tokens, new_tokens
        self.ops: list[DiffOp] = []
        self.changes: list[Change] = []
        self._equal: list[str] = []  # equal text not yet made an op

    def equal_run(self, old_tokens: list[Token], new_tokens: list[Token]) -> None:
        """Tokens that match; the whitespace between them may still differ."""
        old_from, new_from = old_tokens[0].start, new_tokens[0].start
        if self.old[old_from : old_tokens[-1].end] == self.new[new_from : new_tokens[-1].end]:
            self._emit("equal", self.old[old_from : old_tokens[-1].end], "")  # the usual case: one op
            return
        for k in range(1, len(old_tokens)):
            old_gap = self.old[old_tokens[k - 1].end : old_tokens[k].start]
            new_gap = self.new[new_tokens[k - 1].end : new_tokens[k].start]
            if old_gap != new_gap:
                self._emit("equal", self.old[old_from : old_tokens[k - 1].end], "")
                self._whitespace(old_gap, new_gap)
                old_from, new_from = old_tokens[k].start, new_tokens[k].start
        self._emit("equal", self.old[old_from : old_tokens[-1].end], "")

    def change(self, old_start: int, old_end: int, new_start: int, new_end: int) -> None:
        """The text between two equal runs: changed tokens and the whitespace around them."""
        old, new = self.old[old_start:old_end], self.new[new_start:new_end]
        head = _common_whitespace_prefix(old, new)
        tail = _common_whitespace_suffix(old[len(head) :], new[len(head) :])
        middle_old, middle_new = old[len(head) : len(old) - len(tail)], new[len(head) : len(new) - len(tail)]
        self._emit("equal", head, "")
        a = self.old_tokens[_within(self.old_tokens, old_start, old_end)]
        b = self.new_tokens[_within(self.new_tokens, new_start, new_end)]
        if a or b:
            self._emit(_tag(middle_old, middle_new), middle_old, middle_new)
            hyphens_in_words = _hyphens_inside_words(a, self.old) and _hyphens_inside_words(b, self.new)
            self.changes.extend(
                classify_change(a, b, self.lang, middle_old.strip(), middle_new.strip(), hyphens_in_words)
            )
        else:
            self._whitespace(middle_old, middle_new)
        self._emit("equal", tail, "")

    def _whitespace(self, old: str, new: str) -> None:
        if old == new:
            self._emit("equal", old, "")
        else:
            self._emit(_tag(old, new), old, new)
            self.changes.append(Change(old, new, "whitespace"))

    def _emit(self, tag: str, old: str, new: str) -> None:
        """Append an op; ``equal`` pieces (``new`` ignored) join the equal op before them."""
        if tag == "equal":
            if old:
                self._equal.append(old)
            return
        self._flush_equal()
        self.ops.append(DiffOp(tag, old, new))

    def _flush_equal(self) -> None:
        if self._equal:
            text = "".join(self._equal)
            self.ops.append(DiffOp("equal", text, text))
            self._equal.clear()

    def merged_ops(self) -> list[DiffOp]:
        self._flush_equal()
        return self.ops


def _within(tokens: list[Token], start: int, end: int) -> slice:
    """The tokens lying in characters ``start:end`` (tokens are sorted by offset)."""
    return slice(bisect_left(tokens, start, key=_start_of), bisect_left(tokens, end, key=_start_of))


def _start_of(token: Token) -> int:
    return token.start


def _tag(old: str, new: str) -> str:
    if not old:
        return "insert"
    return "delete" if not new else "replace"


def _common_whitespace_prefix(a: str, b: str) -> str:
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n] and a[n].isspace():
        n += 1
    return a[:n]


def _common_whitespace_suffix(a: str, b: str) -> str:
    n = 0
    while n < len(a) and n < len(b) and a[-1 - n] == b[-1 - n] and a[-1 - n].isspace():
        n += 1
    return a[len(a) - n :]


# --- what kind of change --------------------------------------------------------------------

# Cumulative folds: the first after which both sides are equal names the change.
_FOLDS: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("width", lambda s: unicodedata.normalize("NFKC", _WHITESPACE.sub(" ", s))),
    ("punctuation", lambda s: s.translate(_JA_PUNCTUATION)),
    ("quotes", lambda s: s.translate(QUOTE_FOLD)),
    ("case", str.lower),
    ("contraction", lambda s: _CONTRACTIONS.sub(_expand_contraction, s)),
    ("hyphenation", lambda s: _HYPHENS.sub("", s)),
    ("relative-pronoun", lambda s: _WHICH.sub("that", s)),
)


# --- edits judged on the whole text (see module doc) ----------------------------------------

# Subject forms whose verb agrees with "they" once folded; objects and possessives follow.
_GENDERED_SUBJECT = re.compile(r"\b(?:he or she|she or he|that player)\b(\s+)([a-z']+)")
_GENDERED = (
    (re.compile(r"\b(?:himself or herself|herself or himself)\b"), "themselves"),
    (re.compile(r"\b(?:him or her|her or him)\b"), "them"),
    (re.compile(r"\b(?:his or her|her or his|that player's)\b"), "their"),
    (re.compile(r"\b(?:he or she|she or he)\b"), "they"),
)
_THIRD_PERSON = {"is": "are", "has": "have", "was": "were", "does": "do"}
# Verbs that keep their form after "they" (modals, past tenses the rules use).
_SAME_AFTER_THEY = frozenset({"can", "could", "may", "might", "must", "shall", "should", "will", "would",
                              "did", "had", "chose", "controlled", "cast", "left", "owned", "put", "not"})
_SIBILANT_ES = ("sses", "shes", "ches", "xes", "zes", "oes")
# A list of one-word items, each with an optional article: "turns, phases, or steps".
_ITEM = r"(?:(?:a|an|the) )?[a-z]+"
_LIST = re.compile(rf"\b{_ITEM}(?:, {_ITEM})+,? (?:or|and) {_ITEM}\b")
_LIST_SEPARATOR = re.compile(r",? (?:or|and) |, ")
_COMMENTARY = re.compile(r"\s*\bthis (?:rule )?is a change from (?:the )?previous rules\.?")
# Phrases that mean the same wherever the rules use them; each with the edit where it was read.
EQUIVALENT_PHRASES: tuple[tuple[str, str, str], ...] = (
    ("whether or not", "whether", "2018-04-27 805.3a"),
    ("blocks the named creature", "blocks the specified creature", "2024-11-08 509.3d (was 509.5d)"),
    ("if any of the creatures require", "if any of the chosen creatures require", "2009-07-08 508.1g, 509.1d"),
    ("if the effect that put a creature", "if the effect that puts a creature", "2016-09-30 508.3a"),
)


def rewording_reason(old: str, new: str) -> str | None:
    """Name an English edit that only shows on the whole text, or None (see module doc)."""
    a, b = _prepare(old), _prepare(new)
    for reason, fold in _WHOLE_FOLDS:
        a, b = fold(a), fold(b)
        if _finish(a) == _finish(b):
            return reason
    return None


def _prepare(text: str) -> str:
    for reason, fold in _FOLDS:
        if reason == "hyphenation":
            break
        text = fold(text)
    return text


_HYPHEN_IN_WORD = re.compile(r"(?<=[a-z])[-\u2010\u2011 ](?=[a-z])")


def _finish(text: str) -> str:
    """The rest of the folds, and punctuation dropped (punctuation alone is editorial); dashes
    stay ("Artifact -- Equipment" / "Artifact ? Equipment" is a lossy conversion, shown)."""
    text = _WHICH.sub("that", text)
    text = text.translate(_DROP_PUNCTUATION)
    return _HYPHEN_IN_WORD.sub("", _WHITESPACE.sub(" ", text).strip())


def _fold_pronouns(text: str) -> str:
    text = _GENDERED_SUBJECT.sub(lambda m: "they" + m.group(1) + _plural_verb(m.group(2)), text)
    for pattern, replacement in _GENDERED:
        text = pattern.sub(replacement, text)
    return _GENDERED_SUBJECT.sub(lambda m: "they" + m.group(1) + _plural_verb(m.group(2)), text)


def _plural_verb(word: str) -> str:
    """The verb after "he or she" as it reads after "they" (draws -> draw, is -> are)."""
    if word in _THIRD_PERSON:
        return _THIRD_PERSON[word]
    if word in _SAME_AFTER_THEY or word.endswith(("ed", "ss")) or not word.endswith("s"):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(_SIBILANT_ES):
        return word[:-2]
    return word[:-1]


def _sort_lists(text: str) -> str:
    return _LIST.sub(lambda m: ", ".join(sorted(_LIST_SEPARATOR.split(m.group(0)))), text)


_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                 "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                 "nineteen", "twenty")
_NUMBER_WORD = re.compile(r"\b(" + "|".join(_NUMBER_WORDS) + r")\b")


def _fold_numerals(text: str) -> str:
    return _NUMBER_WORD.sub(lambda m: str(_NUMBER_WORDS.index(m.group(1))), text)


def _drop_commentary(text: str) -> str:
    return _COMMENTARY.sub("", text)


def _fold_equivalent_phrases(text: str) -> str:
    """Each phrase and its equivalent become one mark, longest phrase first ("whether or not"
    before "whether")."""
    marks = sorted(((phrase, f"\x00{i}\x00") for i, entry in enumerate(EQUIVALENT_PHRASES) for phrase in entry[:2]),
                   key=lambda pm: -len(pm[0]))
    for phrase, mark in marks:
        text = text.replace(phrase, mark)
    return text


_RANGE_DASH = re.compile(r"(?<=[a-z0-9])[\u2010\u2011\u2012\u2013](?=[a-z0-9])")


def _fold_range_dashes(text: str) -> str:
    return _RANGE_DASH.sub("-", text)


_WHOLE_FOLDS: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("dash", _fold_range_dashes),
    ("pronoun", _fold_pronouns),
    ("numeral", _fold_numerals),
    ("list-order", _sort_lists),
    ("commentary", _drop_commentary),
    ("wording", _fold_equivalent_phrases),
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
    for reason, fold in _FOLDS:
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


_DROP_PUNCTUATION = _PunctuationDropper()


def _hyphens_inside_words(tokens: list[Token], text: str) -> bool:
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
