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
from rules_kb.sources.common import LONGEST_RULE, Line
from rules_kb.sources.mtg_cr.numbers import (
    DEVIATIONS,
    OVERLONG_NUMBER,
    Candidate,
    fits,
    is_successor,
    misread,
    read_candidate,
    repair,
)

_WRAPPED_HYPHEN = re.compile(r"[A-Za-z]-$")
_CHAPTER = re.compile(r"(?P<number>\d{1,2})\.\s+(?P<title>\S.*)")
_EXAMPLE = re.compile(r"\s*Examples?:")
# The longest real rule text (205.3m, the list of creature types) is under 3,000 characters;
# a rule several times as long has swallowed lines that are not its own (a missed heading).
MAX_RULE_TEXT = LONGEST_RULE
_MAX_TITLE = 100  # a section title may wrap once in a hard-wrapped release, never more
_SENTENCE_END = re.compile(r"[.!?)\"”’]$")
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
        return before + self.separator(before[-2:]) + line

    def separator(self, tail: str) -> str:
        """What goes between text ending in ``tail`` (its last two characters) and the next line."""
        if not self.wrapped:
            return "\n"
        return "" if _WRAPPED_HYPHEN.search(tail) else " "


class Paragraphs:
    """Text joined line by line in linear time: pieces are kept in a list and joined once.

    Joining onto the accumulated string (and searching it for a wrapped hyphen) made a rule
    with N continuation lines cost O(N²): 960 KB of continuation lines ran past 300 s.
    """

    def __init__(self, release: Release, first: str = "") -> None:
        self.release = release
        self.pieces: list[str] = []
        self.tail = ""  # the last two characters of the joined text
        if first:
            self.add(first)

    def add(self, line: str) -> None:
        if self.pieces:
            separator = self.release.separator(self.tail)
            self.pieces.append(separator)
            self.tail = (self.tail + separator + line)[-2:]
        else:
            self.tail = line[-2:]
        self.pieces.append(line)

    def __str__(self) -> str:
        return "".join(self.pieces)


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
    text: Paragraphs
    title: Paragraphs | None = None
    example: Example | None = None
    example_text: Paragraphs | None = None

    def finish_example(self) -> None:
        if self.example is not None and self.example_text is not None:
            self.example.text = str(self.example_text)


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
            _finish(builder, parsed)
            builder = _start_rule(line, decision, release, parsed)
        elif (blank_before or _runs_on(lines, index, end)) and (
                heading := _chapter(line, chapter, parsed, run_on=not blank_before)) is not None:
            _finish(builder, parsed)
            builder = None
            chapter = heading
        elif _EXAMPLE.match(line.text):
            _add_example(builder, line, release, tally, parsed)
        elif BANNER.fullmatch(stripped):
            parsed.residue.append(Residue(stripped, [line.span()], "chrome"))
            continue  # page furniture neither starts nor ends a paragraph
        else:
            _continue(builder, line, tally, parsed)
        blank_before = False
    _finish(builder, parsed)
    tally.report(parsed)


def _decide_numbers(
    lines: list[Line], start: int, end: int, tally: Tally, parsed: ParsedDocument
) -> dict[int, tuple[Candidate, RuleNumber]]:
    """Which numbered lines start a rule, and under which number (line index -> decision)."""
    candidates = _candidates(lines, start, end, tally)
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


def _candidates(lines: list[Line], start: int, end: int, tally: Tally) -> list[Candidate]:
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
        elif paragraph_start and OVERLONG_NUMBER.match(text):
            tally.add("overlong-number", lines[index].start, text.split()[0][:16])
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
    meant = misread(previous, candidate, following)
    if meant is not None:
        parsed.anomaly(position, "misprinted-number",
                       f"{candidate.raw!r} printed between {previous} and {following or 'the end'} "
                       f"(characters {position}-{position + len(candidate.raw)})",
                       f"filed as {meant}, the number the sequence expects; written_as keeps {candidate.raw!r}")
        return meant
    if number is None:
        parsed.anomaly(position, "malformed-number", f"{candidate.raw!r} printed after {previous}",
                       "no number can be inferred; read as a continuation of the rule before it")
        return None
    code = "duplicate-number" if previous == number else "out-of-sequence"
    parsed.anomaly(position, code, f"{number} printed after {previous}",
                   "kept as a rule under its printed number")
    return number


def _runs_on(lines: list[Line], index: int, end: int) -> bool:
    """A line right under a finished sentence with a blank line after it: maybe a chapter
    heading whose blank line before was dropped (five releases of 2014-2018 do that)."""
    return _SENTENCE_END.search(lines[index - 1].stripped) is not None and (
        index + 1 >= end or not lines[index + 1].stripped)


def _chapter(line: Line, last: int, parsed: ParsedDocument, run_on: bool = False) -> int | None:
    """Record ``1. Game Concepts`` as a heading and return its number, or None if not one.

    A heading printed without the blank line before it (``run_on``) counts only as the very
    next chapter, so a wrapped line reading like ``2. Something`` is not taken for one.
    """
    stripped = line.stripped
    match = _CHAPTER.fullmatch(stripped)
    if match is None or line.text != line.text.lstrip() or len(stripped) > 80 or stripped.endswith("."):
        return None
    number = int(match["number"])
    if number <= last or (run_on and number != last + 1):
        return None
    if run_on:
        parsed.anomaly(line.start, "heading-without-blank",
                       f"chapter heading {stripped!r} is printed on the line right after a rule, without a blank line",
                       "read as the chapter heading, which ends the rule before it")
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
    parsed.rules.append(rule)
    if number.depth == 0:
        return _Builder(rule, Paragraphs(release), title=Paragraphs(release, body))
    return _Builder(rule, Paragraphs(release, body))


def _add_example(builder: _Builder | None, line: Line, release: Release, tally: Tally,
                 parsed: ParsedDocument) -> None:
    if builder is None:
        _orphan(line, parsed, "an example before any rule")
        return
    # The span covers the ``Example:`` label; the text does not (printers add their own label).
    unlabelled = line.text[_EXAMPLE.match(line.text).end():].strip()
    example = Example(unlabelled, [line.span()])
    builder.rule.examples.append(example)
    builder.finish_example()
    builder.example = example
    builder.example_text = Paragraphs(release, unlabelled)
    if line.text != line.text.lstrip():
        tally.add("indented-example", line.start, f"example of {builder.rule.number}")


def _continue(builder: _Builder | None, line: Line, tally: Tally, parsed: ParsedDocument) -> None:
    """A line that is not a rule start: a wrapped line or a further paragraph of the rule.

    A section title takes at most one wrapped line and stays short; anything more after a
    heading is unrecognised text, kept as residue and reported, not folded into the title.
    """
    if builder is None:
        _orphan(line, parsed, "text before any rule")
        return
    span: Span = line.span()
    if builder.example is not None and builder.example_text is not None:
        builder.example_text.add(line.stripped)
        builder.example.spans.append(span)
        return
    title = builder.title
    if title is not None and (not title.release.wrapped or len(title.pieces) > 1
                              or len(str(title)) + 1 + len(line.stripped) > _MAX_TITLE):
        tally.add("text-after-heading", line.start, f"after {builder.rule.number}")
        parsed.residue.append(Residue(line.stripped, [span], "orphan"))
        return
    (title if title is not None else builder.text).add(line.stripped)
    builder.rule.spans.append(span)


def _orphan(line: Line, parsed: ParsedDocument, what: str) -> None:
    parsed.anomaly(line.start, "orphan-line", f"{what}: {line.stripped[:60]!r}", "kept as residue 'orphan'")
    parsed.residue.append(Residue(line.stripped, [line.span()], "orphan"))


def _finish(builder: _Builder | None, parsed: ParsedDocument) -> None:
    if builder is not None:
        builder.rule.text = str(builder.text)
        if len(builder.rule.text) > MAX_RULE_TEXT:
            rule = builder.rule
            parsed.anomaly(rule.spans[0][0], "overlong-rule",
                           f"rule {rule.number} runs to {len(rule.text):,} characters over {len(rule.spans):,} lines "
                           f"(characters {rule.spans[0][0]}-{rule.spans[-1][1]}); no real rule exceeds 3,000",
                           "kept as parsed; rules-kb add refuses such a release unless --force")
        if builder.title is not None:
            builder.rule.title = str(builder.title)
        builder.finish_example()
