"""Rule-number lines of the Magic Comprehensive Rules and the checks that keep them in order.

A line that starts with something like a number is only a *candidate*: it becomes a rule
start when its number fits between its neighbours. That is what lets hard-wrapped releases
(a continuation line can start with ``509.1a.``) and typo numbers (``306.1c`` printed under
306.3) be told apart from real rule starts without guessing from the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules_kb.numbers import RuleNumber

# A printed number at the start of a line. Besides the canonical ``100.``, ``100.1.`` and
# ``100.1a`` it admits the deviations found in real releases: a space inside the number
# (``702. 37a``), a missing rule part (``306.b``), no period or a stray one, a capital
# letter, leading spaces and no space before the text (``901.4.All``).
_NUMBERED = re.compile(
    r"(?P<indent>[ \t]*)"
    r"(?P<raw>(?P<section>\d{3})"
    r"(?:\.(?P<inner> ?)(?P<rule>\d{1,3})(?P<letter>[a-zA-Z](?![a-zA-Z]))?"
    r"|\.(?P<bare>[a-z])(?=[\s.]))?"
    r"(?P<dot>\.)?)"
    r"(?P<sep>[^\S\n]*)(?P<rest>.*)"
)

# Deviation codes (anomaly slugs): what each one means and what the parser does about it.
_NUMBER_KEPT = "canonical number used; written_as keeps the printed form"
_SPACING_IGNORED = "whitespace ignored; line read normally"
DEVIATIONS = {
    "leading-space": ("line indented before its number", _SPACING_IGNORED),
    "rule-missing-period": ("rule number written without its trailing period", _NUMBER_KEPT),
    "subrule-period": ("subrule number written with a trailing period", _NUMBER_KEPT),
    "space-in-number": ("space inside the rule number", _NUMBER_KEPT),
    "missing-space": ("no space between the number and the text", _SPACING_IGNORED),
    "odd-separator": (
        "the number is separated from its text by whitespace other than spaces and tabs "
        "(an em space, a vertical tab, a form feed, an information separator, NEL, a Unicode "
        "line or paragraph separator)",
        "read as a separator: the number starts a rule",
    ),
    "capital-letter": ("subrule letter written in capitals", _NUMBER_KEPT),
    "indented-example": ("example line indented", _SPACING_IGNORED),
    "odd-number-characters": (
        "rule number written with full-width characters, or with no-break, zero-width or "
        "direction-control characters in or around it",
        "read as the number a reader sees; written_as keeps the printed form",
    ),
    "overlong-number": (
        "a paragraph starts with a number of four or more digits, which no Magic rule has",
        "read as a continuation of the rule before it",
    ),
    "text-after-heading": (
        "unnumbered text after a section heading, before its first rule",
        "kept as residue 'orphan'; the heading keeps its own line",
    ),
    "number-like-continuation": (
        "a line inside a paragraph starts with a number that does not fit the sequence "
        "(a wrapped citation)",
        "read as a continuation of the rule before it",
    ),
}


@dataclass
class Candidate:
    """A body line that starts like a rule number, before the sequence check."""

    index: int  # line index in the document
    raw: str  # the number as printed
    number: RuleNumber | None  # None when the printed form has no canonical reading
    letter: str | None  # the printed subrule letter, lowercased (also for ``306.b``)
    text_offset: int  # where the rule text starts inside the line
    paragraph_start: bool  # the line follows a blank line or a heading
    quirks: list[str] = field(default_factory=list)

    @property
    def canonical_form(self) -> str:
        """How Magic prints this number: ``100.``, ``100.1.``, ``100.1a``."""
        if self.number is None:
            return ""
        return str(self.number) + ("" if self.number.depth == 2 else ".")


# Characters a reader does not see as part of a number: no-break and narrow spaces, zero-width
# characters and direction controls; and full-width forms, which a reader reads as ASCII.
_INVISIBLE = "\u00a0\u2007\u202f\u200b\u200c\u200d\u2060\ufeff\u200e\u200f\u202a-\u202e\u2066-\u2069"
_ODD_CHARACTER = re.compile(f"[{_INVISIBLE}\u3000\uff01-\uff5e]")
_DROPPED = re.compile(f"[{_INVISIBLE.replace(chr(0xa0), '').replace(chr(0x2007), '').replace(chr(0x202f), '')}]")
_HEAD = 24  # characters at the start of a line that can hold a number and its separator
OVERLONG_NUMBER = re.compile(r"[ \t]*\d{4,}\.\d")


def read_candidate(index: int, text: str, paragraph_start: bool) -> Candidate | None:
    """Read a numbered line, or None when the line does not start with a rule number.

    Odd characters at the start of the line (``１００．１ａ``, ``100.1.`` + NBSP, a zero-width
    space inside the number) are read as a reader sees them and noted as a quirk.
    """
    if _ODD_CHARACTER.search(text, 0, _HEAD) is None:
        return _read(index, text, paragraph_start)
    head, positions = _clean_head(text[:_HEAD])
    candidate = _read(index, head + text[_HEAD:], paragraph_start)
    if candidate is None:
        return None
    positions += list(range(_HEAD, len(text) + 1))
    start = positions[candidate.text_offset - len(candidate.raw) - _separator_length(head, candidate)]
    candidate.text_offset = positions[candidate.text_offset]
    candidate.raw = text[start:candidate.text_offset].strip()
    candidate.quirks.append("odd-number-characters")
    return candidate


def _separator_length(head: str, candidate: Candidate) -> int:
    before = head[:candidate.text_offset]
    return len(before) - len(before.rstrip(" \t"))


def _clean_head(head: str) -> tuple[str, list[int]]:
    """``head`` as a reader reads it, with each kept character's position in the original."""
    kept: list[str] = []
    positions: list[int] = []
    for position, char in enumerate(head):
        if _DROPPED.match(char):
            continue
        if "\uff01" <= char <= "\uff5e":
            char = chr(ord(char) - 0xFEE0)
        elif char in "\u00a0\u2007\u202f\u3000":
            char = " "
        kept.append(char)
        positions.append(position)
    positions.append(len(head))
    return "".join(kept), positions


def _read(index: int, text: str, paragraph_start: bool) -> Candidate | None:
    match = _NUMBERED.match(text)
    if match is None or "." not in match["raw"]:
        return None
    rest, sep = match["rest"], match["sep"]
    if rest and not sep and not (rest[0].isupper() or rest[0] in "\"“'"):
        return None  # ``100.5x`` or ``2008.10`` is not a number followed by text
    if match["inner"] and match["rule"] is None:
        return None
    number, letter = _canonical(match)
    candidate = Candidate(index, match["raw"], number, letter, match.start("rest"), paragraph_start)
    candidate.quirks = _quirks(match, number)
    return candidate


def _canonical(match: re.Match[str]) -> tuple[RuleNumber | None, str | None]:
    section = int(match["section"])
    if match["bare"]:
        return None, match["bare"]
    if match["rule"] is None:
        return RuleNumber(section), None
    letter = match["letter"].lower() if match["letter"] else None
    return RuleNumber(section, int(match["rule"]), letter), letter


def _quirks(match: re.Match[str], number: RuleNumber | None) -> list[str]:
    quirks = []
    if match["indent"]:
        quirks.append("leading-space")
    if number is not None and number.depth == 1 and not match["dot"]:
        quirks.append("rule-missing-period")
    if number is not None and number.depth == 2 and match["dot"]:
        quirks.append("subrule-period")
    if match["inner"]:
        quirks.append("space-in-number")
    if match["rest"] and not match["sep"]:
        quirks.append("missing-space")
    if match["sep"].strip(" \t"):
        quirks.append("odd-separator")
    if match["letter"] and match["letter"].isupper():
        quirks.append("capital-letter")
    return quirks


def next_letters(letter: str | None) -> tuple[str, ...]:
    """Letters that may follow ``letter``: Magic skips ``l`` and ``o``, some releases may not."""
    if letter is None:
        return ("a",)
    plain = chr(ord(letter) + 1)
    skipped = plain
    while skipped in "lo":
        skipped = chr(ord(skipped) + 1)
    return (skipped,) if skipped == plain else (skipped, plain)


def is_successor(previous: RuleNumber | None, number: RuleNumber) -> bool:
    """True when ``number`` comes right after ``previous`` with nothing missing between."""
    if previous is None:
        return number.rule is None and number.section % 100 == 0
    if number.rule is None:
        starts_chapter = number.section % 100 == 0 and number.chapter > previous.chapter
        return number.section == previous.section + 1 or starts_chapter
    if number.section != previous.section:
        return False
    if number.letter is not None:
        return number.rule == previous.rule and number.letter in next_letters(previous.letter)
    return number.rule == (previous.rule or 0) + 1


def fits(previous: RuleNumber | None, number: RuleNumber, following: RuleNumber | None) -> bool:
    """True when ``number`` sits between its neighbours.

    The following number only counts when it is itself after ``previous``: a typo in the
    next line must not make this line look out of place.
    """
    if previous is not None and number <= previous:
        return False
    if following is None or (previous is not None and following <= previous):
        return True
    return number < following


def repair(previous: RuleNumber | None, candidate: Candidate) -> RuleNumber | None:
    """The number a misprinted one most likely stands for, judged from the line before it.

    A subrule whose letter is the next one under the current rule is filed there
    (``306.1c`` after 306.3b is 306.3c, ``306.b`` after 306.3a is 306.3b); a rule whose
    number is the next one of the current section is filed there (``311.2.`` after 312.1).
    """
    if previous is None or previous.rule is None:
        return None
    if candidate.letter is not None:
        if candidate.letter in next_letters(previous.letter):
            return RuleNumber(previous.section, previous.rule, candidate.letter)
        return None
    number = candidate.number
    if number is not None and number.depth == 1 and number.rule == previous.rule + 1:
        return RuleNumber(previous.section, number.rule)
    return None


def successors(previous: RuleNumber) -> list[RuleNumber]:
    """The numbers that may come next after ``previous`` in a well-formed release."""
    section, rule, letter = previous.section, previous.rule, previous.letter
    found = [RuleNumber(section + 1)]
    if rule is None:
        return [RuleNumber(section, 1), *found]
    found.insert(0, RuleNumber(section, rule + 1))
    found[:0] = [RuleNumber(section, rule, following) for following in next_letters(letter)]
    return found


def misread(previous: RuleNumber | None, candidate: Candidate, following: RuleNumber | None) -> RuleNumber | None:
    """The expected number a misprint stands for: the one successor of ``previous`` that fits
    before ``following`` and is one keystroke away from what is printed (a digit dropped,
    added, swapped or mistyped), as a reader corrects ``505.54.`` between 505.4 and 505.5a,
    ``501.2.`` under 510.1 or ``432.2b`` under 423.2a. None when no single such number exists.
    """
    if previous is None or candidate.number is None or candidate.number == previous:
        return None
    printed = str(candidate.number)
    fitting = [number for number in successors(previous)
               if fits(previous, number, following) and _one_keystroke(printed, str(number))]
    return fitting[0] if len(fitting) == 1 else None


def _one_keystroke(printed: str, meant: str) -> bool:
    """True when the strings differ by one insertion, deletion, substitution or adjacent swap."""
    if printed == meant or abs(len(printed) - len(meant)) > 1:
        return False
    if len(printed) == len(meant):
        diffs = [i for i, (a, b) in enumerate(zip(printed, meant, strict=True)) if a != b]
        if len(diffs) == 1:
            return True
        first = diffs[0]
        return diffs == [first, first + 1] and printed[first] == meant[first + 1] and printed[first + 1] == meant[first]
    shorter, longer = sorted((printed, meant), key=len)
    return any(longer[:i] + longer[i + 1:] == shorter for i in range(len(longer)))
