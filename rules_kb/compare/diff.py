"""Token-level diff of two texts of one rule, in one language, with a verdict on the change.

Tokens (see ``tokens``) are compared by surface with ``difflib.SequenceMatcher``
(``autojunk=False``: the junk heuristic would ignore frequent tokens such as ``the`` or
``の`` in long rules and produce nonsense). The diff then goes back to the text: each op
carries the exact pieces of both originals, whitespace included, so joining the old pieces
gives the old text and joining the new pieces the new text, character for character.
Whitespace next to a change goes into the change only where the two sides differ there.

Each changed stretch is named editorial or substantive by ``compare.editorial`` (the editorial
kinds), or, when that leaves it substantive, on the whole text by ``compare.rewording``.
Aligning whole versions (which rule pairs with which) is not done here.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache

from cydifflib import SequenceMatcher  # difflib's, compiled: the same opcodes (tests/test_diff.py)

from rules_kb.compare.editorial import Change, classify_change, hyphens_inside_words
from rules_kb.compare.rewording import forget_folds, rewording_reason
from rules_kb.compare.similarity import word_set
from rules_kb.tokens import Token, tokenize


@dataclass(frozen=True)
class DiffOp:
    """One piece of the diff: ``tag`` is ``equal``, ``delete``, ``insert`` or ``replace``."""

    tag: str
    old: str
    new: str


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
# for forty releases, then edited, gives forty identical rows), so changed pairs are memoised, the
# most recently used kept. The results are shared: nothing may mutate a TokenDiff it was given.
# A site build also hands in the records of the diffs its previous build made (``seeded``): a
# build after one more release diffs only the pairs that release brought.
DIFF_MEMO = 40_000
_memo: OrderedDict[tuple[str, str, str], TokenDiff] = OrderedDict()
_seeds: dict[str, object] = {}  # pair_digest -> token_diff_record, from the previous build
_used: dict[tuple[str, str, str], TokenDiff] | None = None  # every changed pair asked inside ``seeded``


def _diff_changed(old: str, new: str, lang: str) -> TokenDiff:
    key = (old, new, lang)
    found = _memo.get(key)
    if found is None:
        found = token_diff_from_record(old, new, lang, _seeds.get(pair_digest(old, new, lang))) if _seeds else None
        if found is None:
            found = diff_token_lists(old, new, _tokens(old, lang), _tokens(new, lang), lang)
        _memo[key] = found
        if len(_memo) > DIFF_MEMO:
            _memo.popitem(last=False)
    else:
        _memo.move_to_end(key)
    if _used is not None:
        _used[key] = found
    return found


@lru_cache(maxsize=2048)
def _tokens(text: str, lang: str) -> tuple[Token, ...]:
    """A text's tokens, kept for the next pair that holds it: the compare data diffs each wording
    of a rule with every other wording (pairs in order of their first text), so a text comes back
    many times in a row."""
    return tuple(tokenize(text, lang))


def forget_texts() -> None:
    """Drop what is kept per text (tokens, whole-text folds, word sets): a writer that has aligned
    and diffed a whole history calls it when done, so that the rest of its process does not carry
    them (tens of megabytes at the whole corpus)."""
    _tokens.cache_clear()
    forget_folds()
    word_set.cache_clear()


@contextmanager
def seeded(records: dict[str, object]) -> Iterator[dict[tuple[str, str, str], TokenDiff]]:
    """Inside the block, a changed pair not yet diffed is read from ``records`` (``token_diff_record``s by
    ``pair_digest``) when it is there; yields every changed pair asked in the block, ``(old, new,
    lang)`` -> its diff, for the caller to keep for the next time."""
    global _seeds, _used
    _seeds, _used = records, {}
    try:
        yield _used
    finally:
        _seeds, _used = {}, None


def pairs_asked() -> dict[tuple[str, str, str], TokenDiff]:
    """The changed pairs asked so far inside ``seeded`` (a copy; empty outside it)."""
    return dict(_used) if _used is not None else {}


def note_asked(pairs: dict[tuple[str, str, str], TokenDiff]) -> None:
    """Count pairs another process asked inside its copy of this ``seeded`` block as asked here, so
    the caller keeps them too (``site/groups.py``: the second process's pages diffed them)."""
    if _used is not None:
        _used.update(pairs)


def pair_digest(old: str, new: str, lang: str) -> str:
    """What a diff depends on besides the code: the two texts and the language."""
    return hashlib.sha256(f"{lang}\0{old}\0{new}".encode()).hexdigest()[:32]


def token_diff_record(diff: TokenDiff) -> list:
    """A diff without its texts (the key holds them): each op as its length (an equal op) or its
    two lengths, the similarity, and each change as ``[old, new, reason]``."""
    ops = [len(op.old) if op.tag == "equal" else [len(op.old), len(op.new)] for op in diff.ops]
    return [ops, diff.similarity, [[c.old, c.new, c.reason] for c in diff.changes]]


def token_diff_from_record(old: str, new: str, lang: str, record: object) -> TokenDiff | None:
    """The diff ``token_diff_record`` wrote for these two texts; None when ``record`` is missing or does not
    fit them (a cache from other texts is never trusted)."""
    try:
        op_lengths, similarity, changes = record  # type: ignore[misc]
        ops, at_old, at_new = [], 0, 0
        for lengths in op_lengths:
            if isinstance(lengths, int):
                piece = old[at_old:at_old + lengths]
                if lengths <= 0 or piece != new[at_new:at_new + lengths] or len(piece) != lengths:
                    return None
                ops.append(DiffOp("equal", piece, piece))
                at_old, at_new = at_old + lengths, at_new + lengths
                continue
            a, b = lengths
            if a < 0 or b < 0 or a + b == 0:
                return None
            ops.append(DiffOp(_tag(old[at_old:at_old + a], new[at_new:at_new + b]), old[at_old:at_old + a],
                              new[at_new:at_new + b]))
            at_old, at_new = at_old + a, at_new + b
        if at_old != len(old) or at_new != len(new) or not isinstance(similarity, float):
            return None
        return TokenDiff(old, new, lang, ops, similarity, [Change(*map(str, change)) for change in changes])
    except (TypeError, ValueError):
        return None


def diff_token_lists(old: str, new: str, old_tokens: Sequence[Token], new_tokens: Sequence[Token], lang: str
                     ) -> TokenDiff:
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

    def __init__(self, old: str, new: str, old_tokens: Sequence[Token], new_tokens: Sequence[Token], lang: str
                 ) -> None:
        self.old, self.new, self.lang = old, new, lang
        self.old_tokens, self.new_tokens = old_tokens, new_tokens
        self.ops: list[DiffOp] = []
        self.changes: list[Change] = []
        self._equal: list[str] = []  # equal text not yet made an op

    def equal_run(self, old_tokens: Sequence[Token], new_tokens: Sequence[Token]) -> None:
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
            hyphens_in_words = hyphens_inside_words(a, self.old) and hyphens_inside_words(b, self.new)
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


def _within(tokens: Sequence[Token], start: int, end: int) -> slice:
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
