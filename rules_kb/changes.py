"""What changed between two versions: alignment rows with token diffs and a class each.

A row's class is ``unchanged``, ``editorial`` (spelling only: Sudachi normalised forms equal,
typo fixes, hyphenation), ``substantive``, ``moved`` (renumbered; with its own text class),
``added`` or ``removed``. Examples are compared too: an example changed is a change.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules_kb.align import Alignment, Pair, align_versions, comparable_text
from rules_kb.catalog import Catalog
from rules_kb.curated import ForcedMatch
from rules_kb.diff import TokenDiff, diff_tokens
from rules_kb.numbers import RuleNumber


@dataclass
class RowChange:
    pair: Pair
    diff: TokenDiff | None
    example_diffs: list[TokenDiff] = field(default_factory=list)

    @property
    def text_class(self) -> str:
        """unchanged / editorial / substantive for the text and examples together."""
        diffs = [d for d in [self.diff, *self.example_diffs] if d is not None]
        classes = {d.classification for d in diffs}
        if self.pair.old is not None and self.pair.new is not None and \
                len(self.pair.old.examples) != len(self.pair.new.examples):
            return "substantive"
        for level in ("substantive", "editorial"):
            if level in classes:
                return level
        return "unchanged"

    @property
    def kind(self) -> str:
        if self.pair.kind in ("added", "removed", "moved"):
            return self.pair.kind
        return self.text_class


@dataclass
class Comparison:
    alignment: Alignment
    rows: list[RowChange]

    def counts(self) -> dict[str, int]:
        counts = {k: 0 for k in ("unchanged", "editorial", "substantive", "moved", "added", "removed")}
        for row in self.rows:
            counts[row.kind] += 1
        return counts


def compare_versions(catalog: Catalog, game: str, lang: str, old: str, new: str,
                     forced: list[ForcedMatch] = (), within: RuleNumber | None = None) -> Comparison:
    """Align two versions and diff every paired rule, token by token."""
    alignment = align_versions(catalog, game, lang, old, new, forced, within)
    rows = [_diff_pair(pair, lang) for pair in alignment.pairs]
    return Comparison(alignment, rows)


def _diff_pair(pair: Pair, lang: str) -> RowChange:
    if pair.old is None or pair.new is None:
        return RowChange(pair, None)
    text_diff = diff_tokens(comparable_text(pair.old), comparable_text(pair.new), lang)
    examples = [diff_tokens(a.text, b.text, lang) for a, b in zip(pair.old.examples, pair.new.examples, strict=False)]
    return RowChange(pair, text_diff, examples)
