"""What became of one rule text since a version: followed release by release to today's rules.

A judge's note cites a number at a date; today the rule may hold other words, or another number,
or be gone. ``trail_since`` follows the text through every later version of its language that
can speak of it (every complete release, and the partial ones that print its current number),
with the same alignment and diff classes as ``diff``: a move carries the number along, a split
or a removal ends the trail. ``verdict_of`` sums the trail up against today's text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules_kb.compare.align import Scope
from rules_kb.compare.changes import RowChange, compare_texts, compare_versions
from rules_kb.compare.kinds import EDITORIAL, IN_PLACE, MOVED, REMOVED, RENUMBERED_REFERENCE, SPLIT, SUBSTANTIVE
from rules_kb.model import BEFORE, RuleText
from rules_kb.numbers import RuleNumber

if TYPE_CHECKING:  # either the in-memory Knowledge or the store's view of it (store.views)
    from rules_kb.assemble.knowledge import Knowledge

# The verdicts, in the order a summary counts them; the last three change what the rules say.
UNCHANGED, RENUMBERED = "unchanged", "renumbered"
VERDICTS = (UNCHANGED, EDITORIAL, RENUMBERED, SUBSTANTIVE, SPLIT, REMOVED)
CHANGED_IN_SUBSTANCE = (SUBSTANTIVE, SPLIT, REMOVED)


@dataclass(frozen=True)
class Step:
    """One version the text went through with a change: placement and text class as ``diff`` gives them."""

    version: str
    date: str | None
    kind: str  # in-place, moved, split or removed (compare.kinds placements)
    text_class: str | None  # unchanged, editorial, renumbered-reference, substantive; None for split/removed
    number: str  # the number after the step (the old one for split and removed)
    targets: tuple[str, ...] = ()  # a split's rules


@dataclass(frozen=True)
class Trail:
    """A text followed from ``start`` to the newest version that speaks of it."""

    first: RuleText
    last: RuleText | None  # None when split or removed
    steps: tuple[Step, ...]
    newest: str  # the newest version of the language

    @property
    def end(self) -> Step | None:
        """The split or removal that ended the trail, if any."""
        return self.steps[-1] if self.steps and self.steps[-1].kind in (SPLIT, REMOVED) else None


def trail_since(knowledge: Knowledge, game: str, lang: str, label: str, number: RuleNumber) -> Trail:
    """Follow ``number`` of version ``label`` forward to the newest version of ``game``/``lang``."""
    catalog = knowledge.catalog
    (first, *_) = catalog.rules_in(game, lang, label)[number]
    labels = catalog.version_labels(game, lang)
    current, text, previous, steps = number, first, label, []
    for later in labels[labels.index(label) + 1:]:
        info = catalog.versions[(game, lang, later)]
        if later.startswith(BEFORE) or (not info.complete and current not in catalog.rules_in(game, lang, later)):
            continue
        comparison = compare_versions(catalog, knowledge.alignments, game, lang, previous, later, knowledge.forced,
                                      Scope(rule=current))
        row = next((r for r in comparison.rows if r.pair.old is not None and r.pair.old.number == current), None)
        if row is None:  # a partial version that does not print it: nothing known there
            continue
        pair = row.pair
        if pair.kind in (SPLIT, REMOVED):
            steps.append(Step(later, info.date, pair.kind, None, str(current), tuple(map(str, pair.targets))))
            return Trail(first, None, tuple(steps), labels[-1])
        if pair.kind == MOVED or row.text_class != UNCHANGED:
            steps.append(Step(later, info.date, pair.kind, row.text_class, str(pair.new.number)))
        current, text, previous = pair.new.number, pair.new, later
    return Trail(first, text, tuple(steps), labels[-1])


@dataclass(frozen=True)
class Outcome:
    """A trail summed up: the verdict, today's number, when it changed, and the whole change."""

    verdict: str
    now: str | None
    changed_on: tuple[str, ...]  # the versions that changed it in substance (or split or removed it)
    row: RowChange | None  # first text against today's, classed as diff classes a rule kept in place


def verdict_of(trail: Trail, game: str) -> Outcome:
    """unchanged, editorial (editorial or reference renumbering only), renumbered (same words under
    another number), substantive (with the versions that changed it), split or removed."""
    if (end := trail.end) is not None:
        return Outcome(end.kind, None, (end.version,), None)
    row = compare_texts(trail.first, trail.last, game)
    moved = trail.last.number != trail.first.number
    text_class = row.text_class
    if text_class == SUBSTANTIVE:
        changed = tuple(s.version for s in trail.steps if s.text_class == SUBSTANTIVE)
        changed = changed or tuple(s.version for s in trail.steps if s.text_class not in (None, UNCHANGED))
        return Outcome(SUBSTANTIVE, str(trail.last.number), changed, row)
    if moved:
        return Outcome(RENUMBERED, str(trail.last.number), (), row)
    verdict = EDITORIAL if text_class in (EDITORIAL, RENUMBERED_REFERENCE) else UNCHANGED
    return Outcome(verdict, str(trail.last.number), (), row)


__all__ = ["IN_PLACE", "Outcome", "Step", "Trail", "trail_since", "verdict_of"]
