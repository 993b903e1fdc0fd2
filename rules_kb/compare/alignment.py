"""What an alignment is: pairs of rules of two versions, each with its placement, and the scope
a question reports (``Scope``). The aligner (``compare.align``) makes them; composing, matching
and the store read and write them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules_kb.compare.kinds import IN_PLACE, MOVED, PLACEMENTS, count_kinds
from rules_kb.errors import MalformedRuleNumber
from rules_kb.ingest.curated import ForcedMatch
from rules_kb.kb.catalog import Catalog
from rules_kb.model import RuleText
from rules_kb.numbers import RULE_NUMBER, RuleNumber, fold_width


@dataclass(frozen=True, slots=True)
class Pair:
    """One row of an alignment. ``kind`` is a placement (``compare.kinds``): in-place, moved,
    split, added, removed; what happened to the text is the comparison's business.

    ``split``: no rule continues the old one as such (none was paired with it), but its
    sentences are found in ``targets``, rules that continue other rules or are new (Magic's
    309.3 went into 509.4a and 509.4f in 2009); not a deletion.
    """

    kind: str
    old: RuleText | None
    new: RuleText | None
    similarity: float
    forced: bool = False
    targets: tuple[RuleNumber, ...] = ()

    @property
    def old_number(self) -> RuleNumber | None:
        return self.old.number if self.old else None

    @property
    def new_number(self) -> RuleNumber | None:
        return self.new.number if self.new else None


@dataclass
class Alignment:
    game: str
    lang: str
    old_version: str
    new_version: str
    old_complete: bool
    new_complete: bool
    pairs: list[Pair] = field(default_factory=list)
    unknown_old: list[RuleNumber] = field(default_factory=list)
    unknown_new: list[RuleNumber] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return count_kinds((p.kind for p in self.pairs), PLACEMENTS)

    def pair_for_old(self, number: RuleNumber) -> Pair | None:
        return next((p for p in self.pairs if p.old_number == number), None)


def pick_texts(catalog: Catalog, game: str, lang: str, label: str) -> dict[RuleNumber, RuleText]:
    """One text per number: the first document listed for the version (manifest order)."""
    return {number: rules[0] for number, rules in catalog.rules_in(game, lang, label).items()}


# A scope written as one word (the compare page's "rules" field, site/assets/compare.js reads it
# exported): a chapter, one digit (5: rules 500-599, as ``diff --section 5``), or a rule and its
# subrules (509, 509.1, 509.1a, as ``diff --rule``), after width folding.
SCOPE = re.compile(rf"(?P<chapter>[0-9])|{RULE_NUMBER.pattern}")


@dataclass(frozen=True)
class Scope:
    """Which rules a comparison reports: one rule and its subrules, one chapter, or all."""

    rule: RuleNumber | None = None
    chapter: int | None = None

    @classmethod
    def parse(cls, raw: str) -> Scope:
        """``5`` (a chapter) or ``509``, ``509.1a`` (a rule and its subrules), as ``SCOPE`` reads them."""
        folded = fold_width(raw).strip()
        match = SCOPE.fullmatch(folded)
        if match is None:
            raise MalformedRuleNumber(raw, "not a chapter (5) or a rule (509, 509.1a)")
        return cls(chapter=int(match["chapter"])) if match["chapter"] else cls(rule=RuleNumber.parse(folded))

    def contains(self, number: RuleNumber) -> bool:
        if self.chapter is not None and number.chapter != self.chapter:
            return False
        return self.rule is None or descends(number, self.rule)

    def bounds(self) -> tuple[str, str]:
        """Bounds of the number strings the scope can hold (``low <= number < high``; more may
        fall between, 702.20 between 702.2 and 702.2~, and are filtered by ``contains``): a
        question about one rule reads only its stretch of the store's number index."""
        if self.rule is not None:
            top = self.rule if self.rule.depth < 2 else self.rule.parent
            prefix = f"{top.section:03d}" if top.depth == 0 else f"{top.section:03d}.{top.rule}"
            return (prefix, prefix + "~")  # "~" sorts after every letter, digit and ".
        if self.chapter is not None:  # chapter 9: "900" up to "9~" (not "1000", which sorts before "900")
            return (f"{self.chapter * 100:03d}", f"{self.chapter}~")
        return ("", "~")

    def part(self) -> str | None:
        """The one alignment part every pair of the scope is filed under (the store cuts alignments by
        rule: ``store.records.part_of``): 702.2 for 702.2 or 702.2c; None for a section or more.
        Reading it alone skips 702.20-702.29, which the bounds take in."""
        if self.rule is None or self.rule.depth == 0:
            return None
        top = self.rule if self.rule.depth < 2 else self.rule.parent
        return f"{top.section:03d}.{top.rule}"

    def describe(self) -> str:
        if self.rule is not None:
            return f"rule {self.rule}"
        return f"section {self.chapter}" if self.chapter is not None else "all rules"


def pair_key(game: str, lang: str, old_label: str, new_label: str, forced: tuple[ForcedMatch, ...]) -> tuple:
    """The key of an adjacent alignment: its versions and the forced matches that concern them."""
    relevant = tuple(m for m in forced if (m.game, m.lang, m.old_version, m.new_version) ==
                     (game, lang, old_label, new_label))
    return (game, lang, old_label, new_label, relevant)


def descends(number: RuleNumber, root: RuleNumber) -> bool:
    if number.section != root.section:  # most numbers asked about are in another section: no walk
        return False
    while number is not None:
        if number == root:
            return True
        number = number.parent
    return False


def inside(pair: Pair, scope: Scope) -> bool:
    return any(n is not None and scope.contains(n) for n in (pair.old_number, pair.new_number))


def pair_order(pair: Pair) -> tuple:
    number = pair.old_number or pair.new_number
    return (number.sort_key(), pair.new_number.sort_key() if pair.new_number else (0, 0, ""))


def placement(old: RuleText, new: RuleText) -> str:
    return IN_PLACE if old.number == new.number else MOVED
