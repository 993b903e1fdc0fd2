"""What changed between two versions: alignment rows with token diffs and a class each.

A row's kind (the vocabulary of ``compare.kinds``) is ``unchanged``, ``editorial`` (spelling
only: Sudachi normalised forms equal, typo fixes, hyphenation), ``substantive``, ``moved``
(renumbered; with its own text class), ``split``, ``added`` or ``removed``.
Examples are compared too: an example changed is a change.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules_kb.compare.align import Alignment, Pair, Scope, align_versions
from rules_kb.compare.diff import TokenDiff, diff_tokens
from rules_kb.compare.kinds import IN_PLACE, ROW_KINDS, count_kinds
from rules_kb.compare.similarity import comparable_text
from rules_kb.ingest.curated import ForcedMatch
from rules_kb.kb.catalog import Catalog


@dataclass
class RowChange:
    pair: Pair
    diff: TokenDiff | None
    example_diffs: list[TokenDiff] = field(default_factory=list)
    compared_prefix: bool = False  # one side is cut off in its source: only the common part was compared

    @property
    def text_class(self) -> str:
        """unchanged / editorial / substantive for the text and examples together."""
        diffs = [d for d in [self.diff, *self.example_diffs] if d is not None]
        classes = {d.classification for d in diffs}
        if self.pair.old is not None and self.pair.new is not None and not self.compared_prefix and \
                len(self.pair.old.examples) != len(self.pair.new.examples):
            return "substantive"
        for level in ("substantive", "editorial"):
            if level in classes:
                return level
        return "unchanged"

    @property
    def kind(self) -> str:
        """The text class of a rule kept in place, else where it went (``compare.kinds``)."""
        return self.text_class if self.pair.kind == IN_PLACE else self.pair.kind


@dataclass
class Comparison:
    alignment: Alignment
    rows: list[RowChange]

    def counts(self) -> dict[str, int]:
        return count_kinds((row.kind for row in self.rows), ROW_KINDS)


def compare_versions(catalog: Catalog, game: str, lang: str, old: str, new: str,
                     forced: list[ForcedMatch] = (), within: Scope | None = None) -> Comparison:
    """Align two versions and diff every paired rule, token by token."""
    alignment = align_versions(catalog, game, lang, old, new, forced, within)
    rows = [_diff_pair(pair, lang) for pair in alignment.pairs]
    return Comparison(alignment, rows)


def _diff_pair(pair: Pair, lang: str) -> RowChange:
    if pair.old is None or pair.new is None:
        return RowChange(pair, None)
    old, new = comparable_text(pair.old), comparable_text(pair.new)
    cut = pair.old.truncated or pair.new.truncated
    if cut:
        old, new = _common_extent(old, new, lang, old_is_cut=pair.old.truncated, new_is_cut=pair.new.truncated)
    text_diff = diff_tokens(old, new, lang)
    examples = [] if cut else [
        diff_tokens(a.text, b.text, lang) for a, b in zip(pair.old.examples, pair.new.examples, strict=False)]
    row = RowChange(pair, text_diff, examples, compared_prefix=cut)
    return row


def _common_extent(old: str, new: str, lang: str, *, old_is_cut: bool, new_is_cut: bool) -> tuple[str, str]:
    """Trim a text cut off by its source (an excerpt) and the other text to what both cover.

    The cut side loses its last, possibly partial word; the other side is cut where the diff
    has consumed all of the cut side, so the missing tail is not reported as a deletion.
    """
    if old_is_cut:
        old = _drop_partial_word(old)
    if new_is_cut:
        new = _drop_partial_word(new)
    if old_is_cut == new_is_cut:
        return old, new
    short, long_ = (old, new) if old_is_cut else (new, old)
    diff = diff_tokens(short, long_, lang)
    consumed_short = consumed_long = 0
    for op in diff.ops:
        if consumed_short >= len(short):
            break
        consumed_short += len(op.old)
        consumed_long += len(op.new)
    long_ = long_[:consumed_long]
    return (short, long_) if old_is_cut else (long_, short)


def _drop_partial_word(text: str) -> str:
    cut = max(text.rfind(" "), text.rfind("、"), text.rfind("。"))
    return text[: cut + 1].rstrip() if cut > 0 else text
