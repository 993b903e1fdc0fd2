"""Lineage: which text continues which, the one place eras of a rule number are decided.

Successive texts of a number in one game and language are one rule, except where an era
ends: a complete release lacks the number (a later holder is another rule), or the
alignment of two adjacent complete releases moved or removed the rule holding the number
and another rule took it (Magic's 309: Planes, then Dungeons in 2022). Alignment also gives
the ``renumbered`` moves. The result is data; ``kb.graph`` draws it as ``next_version`` and
``renumbered`` edges, so nothing edits a built graph.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

from rules_kb.compare.align import align_pair
from rules_kb.compare.alignment import Alignment
from rules_kb.compare.kinds import MOVED
from rules_kb.compare.memory import AlignmentMemo
from rules_kb.ingest.curated import ForcedMatch
from rules_kb.kb.catalog import Catalog
from rules_kb.kb.ids import text_id
from rules_kb.model import RuleText
from rules_kb.numbers import RuleNumber


@dataclass(frozen=True)
class Move:
    """A rule renumbered from one complete release to the next."""

    old: RuleText
    new: RuleText
    similarity: float
    forced: bool


@dataclass
class Lineage:
    """Which texts continue which: ``successions`` (same number, next version, same rule)
    and ``moves`` (renumbered), each in the order the graph draws them."""

    successions: list[tuple[RuleText, RuleText]] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)


def trace_lineage(catalog: Catalog, memo: AlignmentMemo, forced: list[ForcedMatch] = ()) -> Lineage:
    """Successions and moves for every game and language, in a fixed order.

    Only adjacent complete versions are aligned (what a lineage is made of); the alignments
    stay in ``memo``, so later diffs over the same releases are free.
    """
    successions = _successions(catalog)
    broken: set[tuple[str, str]] = set()
    moves: list[Move] = []
    for game, lang in _games_and_languages(catalog):
        complete = [label for label in catalog.version_labels(game, lang)
                    if catalog.versions[(game, lang, label)].complete and catalog.rules_in(game, lang, label)]
        for old, new in pairwise(complete):
            alignment = align_pair(catalog, memo, game, lang, old, new, tuple(forced))
            broken |= _taken_numbers(catalog, alignment)
            moves += [Move(pair.old, pair.new, pair.similarity, pair.forced)
                      for pair in alignment.pairs if pair.kind == MOVED]
    kept = [(older, newer) for older, newer in successions if (text_id(older), text_id(newer)) not in broken]
    return Lineage(kept, moves)


def _games_and_languages(catalog: Catalog) -> list[tuple[str, str]]:
    return sorted({(game, lang) for game, lang, _ in catalog.versions})


def _successions(catalog: Catalog) -> list[tuple[RuleText, RuleText]]:
    """Each text linked to the texts of its number in the next version holding the number."""
    out: list[tuple[RuleText, RuleText]] = []
    for game, lang in _games_and_languages(catalog):
        last_seen: dict[RuleNumber, list[RuleText]] = {}
        for label in catalog.version_labels(game, lang):
            present = catalog.rules_in(game, lang, label)
            for number, rules in sorted(present.items()):
                out += [(previous, rule) for previous in last_seen.get(number, []) for rule in rules]
                last_seen[number] = rules
            if catalog.versions[(game, lang, label)].complete and present:
                # A complete release without the number ends its era: a later holder is another rule.
                for number in [n for n in last_seen if n not in present]:
                    del last_seen[number]
    return out


def _taken_numbers(catalog: Catalog, alignment: Alignment) -> set[tuple[str, str]]:
    """(old text, new text) pairs sharing a number whose old rule moved or went away."""
    new_rules = catalog.rules_in(alignment.game, alignment.lang, alignment.new_version)
    return {(text_id(pair.old), text_id(successor))
            for pair in alignment.pairs if pair.old is not None and pair.new_number != pair.old_number
            for successor in new_rules.get(pair.old_number, [])}
