"""The numbered part of the Magic Comprehensive Rules: chapters, sections, rules, examples.

Two passes: the first reads every line that looks like a rule number and decides, with
its neighbours, which of them really start a rule (and under which number); the second
walks the lines once and builds the records.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules_kb.model import Example, Heading, ParsedDocument, Residue, RuleText, Span
from rules_kb.numbers import RuleNumber
from rules_kb.sources.common import Line
from rules_kb.sources.mtg_cr.numbers import (
    DEVIATIONS,
    Candidate,
    fits,
    is_successor,
    read_candidate,
    repair,
)

_WRAPPED_HYPHEN = re.compile(r"[A-Za-z]-$")
_CHAPTER = re.compile(r"(?P<number>\d{1,2})\.\s+(?P<title>\S.*)")
_EXAMPLE = re.compile(r"\s*Examples?:")
# Page furniture of printed or paginated releases: rules of dashes, bare page numbers,
# "Page 12" lines and the running title repeated at the top of a page.
BANNER = re.compile(
    r"[-=_*~. ]+|-? ?\d{1,3} ?-?|(?:Page|p\.) ?\d+(?: of \d+)?"
    r"|_?Magic(?:: The Gathering)?_? Comprehensive Rules.{0,30}",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Release:
    """What every record of one document shares."""

    document: str
    version: str
    date: str | None
    wrapped: bool  # hard-wrapped release: continuation lines join with a space

    def join(self, before: str, line: str) -> str:
        """Append a continuation line: a wrapped line rejoins with a space (none after a
        hyphen that ends a word), a further paragraph of an unwrapped release keeps its
        line break."""
        if not before:
            return line
        if not self.wrapped:
            return before + "\n" + line
        if _WRAPPED_HYPHEN.search(before):
            return before + line
        return before + " " + line


@dataclass
class Tally:
    """Counts deviations of one kind so a document reports one anomaly per kind, not thousands."""

    first: dict[str, int] = field(default_factory=dict)
    numbers: dict[str, list[str]] = field(default_factory=dict)

    def add(self, code: str, position: int, printed: str) -> None:
        self.first.setdefault(code, position)
        self.numbers.setdefault(code, []).append(printed)

    def report(self, parsed: ParsedDocument) -> None:
        for code in DEVIATIONS:
            if code not in self.first:
                continue
            printed = self.numbers[code]
            shown = ", ".join(printed[:8]) + (", …" if len(printed) > 8 else "")
            meaning, decision = DEVIATIONS[code]
            parsed.anomaly(self.first[code], code, f"{meaning}: {len(printed)} line(s) in this document ({shown})",
                           decision)


@dataclass
class _Builder:
    """The rule being assembled while its lines are read."""

    rule: RuleText
    text: str
    example: Example | None = None


def parse_body(lines: list[Line], start: int, end: int, release: Release, parsed: ParsedDocument) -> None:
    """Turn body lines ``start``..``end`` into headings, rule texts and examples."""
    tally = Tally()
    decisions = _decide_numbers(lines, start, end, tally, parsed)
    builder: _Builder | None = None
    chapter = 0
    blank_before = True
    for index in range(start, end):
        line = lines[index]
        stripped = line.stripped
        if not stripped:
            blank_before = True
            continue
        decision = decisions.get(index)
        if decision is not None:
            _finish(builder, release)
            builder = _start_rule(line, decision, release, parsed)
        elif blank_before and (heading := _chapter(line, chapter, parsed)) is not None:
            _finish(builder, release)
            builder = None
            chapter = heading
        elif _EXAMPLE.match(line.text):
            _add_example(builder, line, tally, parsed)
        elif BANNER.fullmatch(stripped):
            parsed.residue.append(Residue(stripped, [line.span()], "chrome"))
            continue  # page furniture neither starts nor ends a paragraph
        else:
            _continue(builder, line, release, parsed)
        blank_before = False
    _finish(builder, release)
    tally.report(parsed)


def _decide_numbers(
    lines: list[Line], start: int, end: int, tally: Tally, parsed: ParsedDocument
) -> dict[int, tuple[Candidate, RuleNumber]]:
    """Which numbered lines start a rule, and under which number (line index -> decision)."""
    candidates = _candidates(lines, start, end)
    decisions: dict[int, tuple[Candidate, RuleNumber]] = {}
    previous: RuleNumber | None = None
    for position, candidate in enumerate(candidates):
        following = next((c.number for c in candidates[position + 1:position + 3] if c.number), None)
        number = _judge(previous, candidate, following, lines[candidate.index].start, tally, parsed)
        if number is None:
            continue
        for quirk in candidate.quirks:
            tally.add(quirk, lines[candidate.index].start, candidate.raw)
        decisions[candidate.index] = (candidate, number)
        previous = number
    return decisions


def _candidates(lines: list[Line], start: int, end: int) -> list[Candidate]:
    found = []
    paragraph_start = True
    for index in range(start, end):
        text = lines[index].text
        if not text.strip():
            paragraph_start = True
            continue
        if BANNER.fullmatch(text.strip()):
            continue
        candidate = read_candidate(index, text, paragraph_start)
        if candidate is not None:
            found.append(candidate)
        paragraph_start = _CHAPTER.fullmatch(text.strip()) is not None or (
            candidate is not None and candidate.number is not None and candidate.number.depth == 0
        )
    return found


def _judge(
    previous: RuleNumber | None,
    candidate: Candidate,
    following: RuleNumber | None,
    position: int,
    tally: Tally,
    parsed: ParsedDocument,
) -> RuleNumber | None:
    """The number a candidate line is filed under, or None when it is not a rule start."""
    number = candidate.number
    # A paragraph that repeats the next number is the first of a duplicate pair.
    repeated = number is not None and number == following and candidate.paragraph_start
    if number is not None and (fits(previous, number, following) or (repeated and fits(previous, number, None))):
        if not is_successor(previous, number):
            parsed.anomaly(position, "numbering-gap", f"{number} follows {previous}: numbers between are missing",
                           "kept; nothing is inferred for the missing numbers")
        return number
    repaired = repair(previous, candidate) if candidate.paragraph_start else None
    if repaired is not None and fits(previous, repaired, following):
        code = "malformed-number" if number is None else "number-out-of-parent"
        parsed.anomaly(position, code, f"{candidate.raw!r} printed after {previous}",
                       f"filed as {repaired} (the next number in sequence); written_as keeps {candidate.raw!r}")
        return repaired
    if not candidate.paragraph_start:
        tally.add("number-like-continuation", position, f"{candidate.raw} after {previous}")
        return None
    if number is None:
        parsed.anomaly(position, "malformed-number", f"{candidate.raw!r} printed after {previous}",
                       "no number can be inferred; read as a continuation of the rule before it")
        return None
    code = "duplicate-number" if previous == number else "out-of-sequence"
    parsed.anomaly(position, code, f"{number} printed after {previous}",
                   "kept as a rule under its printed number")
    return number


def _chapter(line: Line, last: int, parsed: ParsedDocument) -> int | None:
    """Record ``1. Game Concepts`` as a heading and return its number, or None if not one."""
    stripped = line.stripped
    match = _CHAPTER.fullmatch(stripped)
    if match is None or line.text != line.text.lstrip() or len(stripped) > 80 or stripped.endswith("."):
        return None
    number = int(match["number"])
    if number <= last:
        return None
    if number != last + 1:
        parsed.anomaly(line.start, "chapter-out-of-sequence", f"chapter {number} follows chapter {last}",
                       "kept as a chapter heading")
    parsed.headings.append(Heading(stripped, [line.span()], level=1))
    return number


def _start_rule(line: Line, decision: tuple[Candidate, RuleNumber], release: Release,
                parsed: ParsedDocument) -> _Builder:
    candidate, number = decision
    body = line.text[candidate.text_offset:].strip()
    written_as = candidate.raw if candidate.raw != str(number) + ("" if number.depth == 2 else ".") else None
    rule = RuleText(
        game="mtg", lang="en", version=release.version, number=number, text="",
        document=release.document, spans=[line.span()], date=release.date, written_as=written_as,
    )
    if number.depth == 0:
        rule.title = body
    parsed.rules.append(rule)
    return _Builder(rule, "" if number.depth == 0 else body)


def _add_example(builder: _Builder | None, line: Line, tally: Tally, parsed: ParsedDocument) -> None:
    if builder is None:
        _orphan(line, parsed, "an example before any rule")
        return
    # The span covers the ``Example:`` label; the text does not (printers add their own label).
    example = Example(line.text[_EXAMPLE.match(line.text).end():].strip(), [line.span()])
    builder.rule.examples.append(example)
    builder.example = example
    if line.text != line.text.lstrip():
        tally.add("indented-example", line.start, f"example of {builder.rule.number}")


def _continue(builder: _Builder | None, line: Line, release: Release, parsed: ParsedDocument) -> None:
    """A line that is not a rule start: a wrapped line or a further paragraph of the rule."""
    if builder is None:
        _orphan(line, parsed, "text before any rule")
        return
    span: Span = line.span()
    if builder.example is not None:
        builder.example.text = release.join(builder.example.text, line.stripped)
        builder.example.spans.append(span)
        return
    if builder.rule.title is not None:
        builder.rule.title = release.join(builder.rule.title, line.stripped)
    else:
        builder.text = release.join(builder.text, line.stripped)
    builder.rule.spans.append(span)


def _orphan(line: Line, parsed: ParsedDocument, what: str) -> None:
    parsed.anomaly(line.start, "orphan-line", f"{what}: {line.stripped[:60]!r}", "kept as residue 'orphan'")
    parsed.residue.append(Residue(line.stripped, [line.span()], "orphan"))


def _finish(builder: _Builder | None, release: Release) -> None:
    if builder is not None:
        builder.rule.text = builder.text
