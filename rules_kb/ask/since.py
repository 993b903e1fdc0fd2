"""What became of one rule text since a version: followed release by release to today's rules.

A judge's note cites a number at a date; today the rule may hold other words, or another number,
or be gone. ``trail_since`` follows the text through every later version of its language that
can speak of it (every complete release, and the partial ones that print its current number),
with the same alignment and diff classes as ``diff``: a move carries the number along, a split
or a removal ends the trail. ``verdict_of`` sums the trail up against today's text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from rules_kb.compare.align import Pair, Scope, align_versions
from rules_kb.compare.changes import RowChange, compare_texts, row_of
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
    number: str  # the number after the step (the old one for split and removed)
    targets: tuple[str, ...] = ()  # a split's rules
    pair: Pair | None = field(default=None, repr=False, compare=False)  # what was compared, when it was kept
    game: str | None = None

    @cached_property
    def text_class(self) -> str | None:
        """unchanged, editorial, renumbered-reference, substantive; None for split and removed. Diffed
        only when asked: only a verdict of substance dates its changes (the site follows every text)."""
        if self.pair is None:
            return None
        if same_text(self.pair.old, self.pair.new):
            return UNCHANGED
        return row_of(self.pair, self.pair.new.lang, self.game).text_class


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
    return Follower(knowledge, game, lang).trail(label, number)


class Follower:
    """Follows texts of one game and language forward, remembering every trail it made: a note's
    citations of one rule share their trails, and the site's audit data follows every text.

    ``whole`` aligns each pair of versions once, whole (every text of a release is followed); else
    each step aligns only the stretch of the rule followed (a few citations).
    """

    def __init__(self, knowledge: Knowledge, game: str, lang: str, whole: bool = False) -> None:
        self.knowledge, self.game, self.lang, self.whole = knowledge, game, lang, whole
        self.labels = knowledge.catalog.version_labels(game, lang)
        self.places = {label: place for place, label in enumerate(self.labels)}
        self.trails: dict[tuple[str, RuleNumber], Trail] = {}
        self.alignments: dict[tuple[str, str], dict] = {}

    def trail(self, label: str, number: RuleNumber) -> Trail:
        """The trail of ``number`` in ``label``: its next step, then the trail of where it went."""
        key = (label, number)
        if key not in self.trails:
            self.trails[key] = self._follow(label, number)
        return self.trails[key]

    def _follow(self, label: str, number: RuleNumber) -> Trail:
        catalog = self.knowledge.catalog
        (first, *_) = catalog.rules_in(self.game, self.lang, label)[number]
        labels = self.labels  # walked by place: the site's audit data follows 240,000 texts, and a
        for place in range(self.places[label] + 1, len(labels)):  # search and a slice each were 3 CPU s
            later = labels[place]
            info = catalog.versions[(self.game, self.lang, later)]
            if later.startswith(BEFORE) or (not info.complete and number not in catalog.rules_in(
                    self.game, self.lang, later)):
                continue
            pair = self._pair(label, later, number)
            if pair is None:  # a partial version that does not print it: nothing known there
                continue
            if pair.kind in (SPLIT, REMOVED):
                step = Step(later, info.date, pair.kind, str(number), tuple(map(str, pair.targets)))
                return Trail(first, None, (step,), self.labels[-1])
            rest = self.trail(later, pair.new.number)
            if pair.kind == MOVED or not same_text(pair.old, pair.new):
                step = Step(later, info.date, pair.kind, str(pair.new.number), pair=pair, game=self.game)
                return Trail(first, rest.last, (step, *rest.steps), rest.newest)
            return Trail(first, rest.last, rest.steps, rest.newest)
        return Trail(first, first, (), self.labels[-1])

    def _pair(self, old: str, new: str, number: RuleNumber):
        catalog, forced = self.knowledge.catalog, self.knowledge.forced
        if not self.whole:
            alignment = align_versions(catalog, self.knowledge.alignments, self.game, self.lang, old, new, forced,
                                       Scope(rule=number))
            return next((p for p in alignment.pairs if p.old is not None and p.old.number == number), None)
        if (old, new) not in self.alignments:
            alignment = align_versions(catalog, self.knowledge.alignments, self.game, self.lang, old, new, forced)
            self.alignments[(old, new)] = {p.old.number: p for p in alignment.pairs if p.old is not None}
        return self.alignments[(old, new)].get(number)


def same_text(old: RuleText, new: RuleText) -> bool:
    """Identical words and examples: unchanged without a diff (most texts of most releases)."""
    return old.text == new.text and [e.text for e in old.examples] == [e.text for e in new.examples]


@dataclass(frozen=True)
class Outcome:
    """A trail summed up: the verdict, today's number, when it changed, and the whole change."""

    verdict: str
    now: str | None
    changed_on: tuple[str, ...]  # the versions that changed it in substance (or split or removed it)
    row: RowChange | None  # first text against today's, classed as diff classes a rule kept in place
    text_class: str | None = None  # the row's class (unchanged, without a row, when the words are the same)


def verdict_of(trail: Trail, game: str) -> Outcome:
    """unchanged, editorial (editorial or reference renumbering only), renumbered (same words under
    another number), substantive (with the versions that changed it), split or removed."""
    if (end := trail.end) is not None:
        return Outcome(end.kind, None, (end.version,), None)
    now = str(trail.last.number)
    moved = trail.last.number != trail.first.number
    if same_text(trail.first, trail.last):  # the words of today (a third of the site's texts): no diff
        return Outcome(RENUMBERED if moved else UNCHANGED, now, (), None, UNCHANGED)
    row = compare_texts(trail.first, trail.last, game)
    text_class = row.text_class
    if text_class == SUBSTANTIVE:
        changed = tuple(s.version for s in trail.steps if s.text_class == SUBSTANTIVE)
        changed = changed or tuple(s.version for s in trail.steps if s.text_class not in (None, UNCHANGED))
        return Outcome(SUBSTANTIVE, now, changed, row, text_class)
    if moved:
        return Outcome(RENUMBERED, now, (), row, text_class)
    verdict = EDITORIAL if text_class in (EDITORIAL, RENUMBERED_REFERENCE) else UNCHANGED
    return Outcome(verdict, now, (), row, text_class)


__all__ = ["IN_PLACE", "Outcome", "Step", "Trail", "trail_since", "verdict_of"]
