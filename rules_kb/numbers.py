"""Rule numbers: parsing, normalising and ordering ``507``, ``507.1``, ``507.1a``, ``702.139``.

Sources write numbers with full-width digits (``５０７．２ａ``), trailing periods
(``100.1.``), capital letters (``200.3C``) and stray spaces (``701.23 b``). One parser
accepts all of them so that every consumer compares the same canonical value; the quirks
are reported separately (``number_quirks``) so parsers can file them as anomalies.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache, total_ordering

from rules_kb.errors import MalformedRuleNumber

# Canonical grammar after NFKC folding: a three-digit section, an optional rule number, an
# optional single subrule letter, an optional trailing period.
RULE_NUMBER = re.compile(r"(?P<section>[0-9]{3})(?:\.(?P<rule>[0-9]{1,3})(?:\s?(?P<letter>[A-Za-z]))?)?\.?")


def fold_width(text: str) -> str:
    """Fold full-width digits, letters and punctuation to ASCII (NFKC), nothing else."""
    return unicodedata.normalize("NFKC", text)


# How numbers order and print, as data: ``sort_key`` and ``__str__`` below, and the browser's copy
# of the grammar (``refs.TABLES["numbers"]``, read by site/assets/refs.js) so no script retypes them.
# Parts in order of comparison, what an absent part sorts as (a section before its rules, a rule
# before its subrules), and the section's printed digits (``007``).
NUMBER_PARTS = ("section", "rule", "letter")
ABSENT = {"rule": -1, "letter": ""}
SECTION_DIGITS = 3


@total_ordering
@dataclass(frozen=True, eq=True)
class RuleNumber:
    """A canonical rule number. Orders numerically: 702.9 < 702.10 < 702.139 < 702.139a."""

    section: int
    rule: int | None = None
    letter: str | None = None

    def __post_init__(self) -> None:
        # Cheap guard against RuleNumber("507.1") where RuleNumber.parse was meant.
        if not isinstance(self.section, int) or not (self.rule is None or isinstance(self.rule, int)):
            raise TypeError(f"RuleNumber fields must be ints; use RuleNumber.parse for text ({self.section!r})")

    @staticmethod
    def parse(raw: str) -> RuleNumber:
        """Parse one number, tolerating width, a trailing period, case and one inner space. A spelling
        read before gives the same (frozen) number back: a site build parses the same few thousand
        spellings hundreds of thousands of times, and the number keeps its sort key and spelling."""
        return _parse_spelling(raw)

    @property
    def depth(self) -> int:
        """0 for a section (507), 1 for a rule (507.1), 2 for a subrule (507.1a)."""
        return 0 if self.rule is None else (1 if self.letter is None else 2)

    @property
    def parent(self) -> RuleNumber | None:
        if self.letter is not None:
            return RuleNumber(self.section, self.rule)
        if self.rule is not None:
            return RuleNumber(self.section)
        return None

    @property
    def chapter(self) -> int:
        """The hundreds digit: Magic's 5 is turn structure, Duel Masters' 5 likewise."""
        return self.section // 100

    def sort_key(self) -> tuple[int, int, str]:
        # Made once per number and kept beside the fields, as the spelling is: a site build sorts
        # numbers millions of times (``sorted`` on a list of numbers calls ``__lt__``, two keys each).
        try:
            return self.__dict__["_key"]
        except KeyError:
            key = self.__dict__["_key"] = (self.section, ABSENT["rule"] if self.rule is None else self.rule,
                                           ABSENT["letter"] if self.letter is None else self.letter)
            return key

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, RuleNumber):
            return NotImplemented
        return self.sort_key() < other.sort_key()

    def __str__(self) -> str:
        # Spelled once per number: a full build prints numbers about eighteen million times (every
        # node id of a text). Kept outside the fields, so equality, hashing, ``asdict`` and pickles
        # (``__getstate__``) never see it.
        try:
            return self.__dict__["_spelled"]
        except KeyError:
            text = str(self.section).zfill(SECTION_DIGITS)
            if self.rule is not None:
                text += f".{self.rule}"
            if self.letter is not None:
                text += self.letter
            self.__dict__["_spelled"] = text
            return text

    def __getstate__(self) -> dict:
        return {name: self.__dict__[name] for name in NUMBER_PARTS}


def in_order(numbers) -> list[RuleNumber]:
    """``sorted(numbers)``, the same order, several times faster: one key per number and tuple
    comparisons, not two Python calls per comparison (the aligner sorts thousands of numbers
    for every pair of versions it aligns)."""
    return sorted(numbers, key=RuleNumber.sort_key)


def number_quirks(raw: str) -> list[str]:
    """Name what is unusual about how a number is written (empty for the canonical form)."""
    quirks = []
    folded = fold_width(raw)
    if folded != raw:
        quirks.append("full-width characters")
    stripped = folded.strip()
    if re.search(r"\d\s[A-Za-z]$", stripped.rstrip(".")):
        quirks.append("space before the subrule letter")
    if re.search(r"[A-Z]\.?$", stripped):
        quirks.append("capital subrule letter")
    return quirks


# Tournament documents number their sections ``1.``, ``1.10``, ``2.1.`` (the IPG), ``０．`` and
# ``8.1 -`` (Duel Masters), and their appendices ``A``, ``B``; after NFKC folding one grammar reads
# them all: a number or an appendix letter, dotted numbers below it, then an optional period and
# an optional dash (the Duel Masters contents print ``8.1 - 制限時間``).
SECTION_NUMBER = re.compile(r"(?P<head>[0-9]{1,3}|[A-Z])(?P<rest>(?:\.[0-9]{1,3})*)\.?(?:\s*[-‐–—])?")


@total_ordering
@dataclass(frozen=True, eq=True)
class SectionNumber:
    """A canonical section number of a tournament document: ``3.10``, ``0``, ``10.5``, ``B.2``.

    Orders naturally (1.9 < 1.10 < 2 < 10 < A): a contents check and a site's section list both
    need the document's own order, which the text order of the numbers is not.
    """

    parts: tuple[int | str, ...]

    def __post_init__(self) -> None:
        head = self.parts[0] if self.parts else None
        letter = isinstance(head, str) and len(head) == 1 and "A" <= head <= "Z"
        if not (isinstance(head, int) or letter) or not all(isinstance(p, int) for p in self.parts[1:]):
            raise TypeError(f"SectionNumber parts are a number or letter, then numbers ({self.parts!r}); "
                            "use SectionNumber.parse for text")

    @classmethod
    def parse(cls, raw: str) -> SectionNumber:
        """Parse ``1.10``, ``2.1.``, ``０．``, ``8.1 -`` or ``A`` (width, trailing period, dash tolerated)."""
        match = SECTION_NUMBER.fullmatch(fold_width(raw).strip())
        if match is None:
            raise MalformedRuleNumber(raw, "not a section number of the form 1, 1.10, 2.1. or A")
        head = match["head"]
        rest = tuple(int(p) for p in match["rest"].split(".")[1:])
        return cls((int(head) if head.isdigit() else head, *rest))

    @property
    def depth(self) -> int:
        """0 for a top-level section (``3``, ``A``), 1 for ``3.10``, and so on."""
        return len(self.parts) - 1

    @property
    def parent(self) -> SectionNumber | None:
        return SectionNumber(self.parts[:-1]) if len(self.parts) > 1 else None

    def sort_key(self) -> tuple[tuple[int, int | str], ...]:
        head = self.parts[0]
        return ((0, head) if isinstance(head, int) else (1, head), *((0, p) for p in self.parts[1:]))

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, SectionNumber):
            return NotImplemented
        return self.sort_key() < other.sort_key()

    def __str__(self) -> str:
        return ".".join(str(p) for p in self.parts)


@lru_cache(maxsize=1 << 16)  # bounded: a hostile note may spell numbers without end
def _parse_spelling(raw: str) -> RuleNumber:
    folded = fold_width(raw).strip()
    match = RULE_NUMBER.fullmatch(folded)
    if match is None:
        raise MalformedRuleNumber(raw, "not of the form 123, 123.4 or 123.4a")
    letter = match["letter"]
    rule = int(match["rule"]) if match["rule"] is not None else None
    return RuleNumber(int(match["section"]), rule, letter.lower() if letter else None)
