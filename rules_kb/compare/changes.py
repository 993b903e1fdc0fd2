"""What changed between two versions: alignment rows with token diffs and a class each.

A row's kind (the vocabulary of ``compare.kinds``) is ``unchanged``, ``editorial`` (spelling
only: Sudachi normalised forms equal, typo fixes, hyphenation), ``renumbered-reference`` (every
change of substance is numbering: a rule number inside a cross-reference, "See rule 116" -> "See
rule 117", the rule cited was renumbered; or the ordinal opening an enumerated step, "Second, ..."
-> "Third, ...", a step was inserted before it: the rule says the same), ``substantive``, ``moved``
(renumbered; with its own text class), ``split``, ``added`` or ``removed``. Examples are compared
too: an example changed, added or dropped is a change, and the row names it (a substantive row
whose text is unchanged must say why).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from rules_kb.compare.align import align_versions
from rules_kb.compare.alignment import Alignment, Pair, Scope
from rules_kb.compare.diff import TokenDiff, diff_tokens
from rules_kb.compare.kinds import IN_PLACE, ROW_KINDS, SUBSTANTIVE_KINDS, count_kinds
from rules_kb.compare.memory import AlignmentMemo
from rules_kb.compare.similarity import comparable_text
from rules_kb.ingest.curated import ForcedMatch
from rules_kb.kb.catalog import Catalog
from rules_kb.model import RuleText
from rules_kb.refs import find_references


@dataclass
class RowChange:
    pair: Pair
    diff: TokenDiff | None
    example_diffs: list[TokenDiff] = field(default_factory=list)
    compared_prefix: bool = False  # one side is cut off in its source: only the common part was compared
    examples_removed: list[str] = field(default_factory=list)  # old examples with no counterpart in the new text
    examples_added: list[str] = field(default_factory=list)
    game: str | None = None  # for the reference grammar's range expansion

    @cached_property
    def text_class(self) -> str:
        """unchanged / editorial / renumbered-reference / substantive for the text and examples together."""
        diffs = [d for d in [self.diff, *self.example_diffs] if d is not None]
        if self.examples_removed or self.examples_added:
            return "substantive"
        classes = {d.classification for d in diffs}
        if "substantive" in classes:
            substantive = [d for d in diffs if d.classification == "substantive"]
            if all(only_references_renumbered(d, self.game) for d in substantive):
                return "renumbered-reference"
            return "substantive"
        if "editorial" in classes:
            return "editorial"
        return "unchanged"

    @property
    def substantive(self) -> bool:
        """Whether the row changes what the rules say (a move with unchanged text does not)."""
        return self.kind in SUBSTANTIVE_KINDS or (self.kind == "moved" and self.text_class == "substantive")

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


def compare_versions(catalog: Catalog, memo: AlignmentMemo, game: str, lang: str, old: str, new: str,
                     forced: list[ForcedMatch] = (), within: Scope | None = None) -> Comparison:
    """Align two versions and diff every paired rule, token by token."""
    alignment = align_versions(catalog, memo, game, lang, old, new, forced, within)
    rows = [_diff_pair(pair, lang, game) for pair in alignment.pairs]
    return Comparison(alignment, rows)


# The ordinal that opens an enumerated step ("Second, the active player gets priority."):
# a step inserted or dropped before it renumbers it, the step itself says the same.
_STEP_ORDINAL = re.compile(
    r"(?:First|Second|Third|Fourth|Fifth|Sixth|Seventh|Eighth|Ninth|Tenth|Eleventh|Twelfth)(?=,)")


def only_references_renumbered(diff: TokenDiff, game: str | None = None) -> bool:
    """Whether every change of substance in ``diff`` is numbering only, on both sides: a number
    inside a rule reference, or the ordinal that opens an enumerated step.

    "See rule 116.3" -> "See rule 117.3": the cited rule was renumbered and the citing rule
    says the same; "Second, the active player gets priority." -> "Third, ...": a step was
    inserted before it. A changed number outside a reference ("1 damage" -> "2 damage") or an
    ordinal elsewhere ("the second main phase") is not this.
    """
    substantive = diff.substantive_changes
    if not substantive:
        return False
    old_text, new_text = diff.old_text(), diff.new_text()
    old_refs = [(r.start, r.end) for r in find_references(old_text, game=game)]
    new_refs = [(r.start, r.end) for r in find_references(new_text, game=game)]
    old_refs += [(m.start(), m.end()) for m in [_STEP_ORDINAL.match(old_text)] if m]
    new_refs += [(m.start(), m.end()) for m in [_STEP_ORDINAL.match(new_text)] if m]
    in_references: list[tuple[str, str]] = []
    old_at = new_at = 0
    for op in diff.ops:
        if op.tag != "equal":
            inside_old = any(s <= old_at and old_at + len(op.old) <= e for s, e in old_refs)
            inside_new = any(s <= new_at and new_at + len(op.new) <= e for s, e in new_refs)
            if op.old and op.new and inside_old and inside_new:
                in_references.append((op.old, op.new))
        old_at += len(op.old)
        new_at += len(op.new)
    return all(any(old in o and new in n for o, n in in_references) for old, new in substantive)


def compare_texts(old: RuleText, new: RuleText, game: str | None = None) -> RowChange:
    """Two texts of one number compared as ``diff`` compares a rule kept in place, so a rule page
    names each change with the class the comparison of the same two versions gives it."""
    return _diff_pair(Pair(IN_PLACE, old, new, 1.0), new.lang, game)


def row_of(pair: Pair, lang: str, game: str | None = None) -> RowChange:
    """One aligned pair diffed and classed, as a comparison row (``audit`` follows a text pair by pair)."""
    return _diff_pair(pair, lang, game)


def _diff_pair(pair: Pair, lang: str, game: str | None = None) -> RowChange:
    if pair.old is None or pair.new is None:
        return RowChange(pair, None, game=game)
    old, new = comparable_text(pair.old), comparable_text(pair.new)
    cut = pair.old.truncated or pair.new.truncated
    if cut:
        old, new = _common_extent(old, new, lang, old_is_cut=pair.old.truncated, new_is_cut=pair.new.truncated)
    text_diff = diff_tokens(old, new, lang)
    examples = [] if cut else [
        diff_tokens(a.text, b.text, lang) for a, b in zip(pair.old.examples, pair.new.examples, strict=False)]
    shared = min(len(pair.old.examples), len(pair.new.examples))
    removed = [] if cut else [e.text for e in pair.old.examples[shared:]]
    added = [] if cut else [e.text for e in pair.new.examples[shared:]]
    return RowChange(pair, text_diff, examples, compared_prefix=cut, examples_removed=removed,
                     examples_added=added, game=game)


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
