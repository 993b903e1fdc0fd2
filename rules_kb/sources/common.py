"""Small text helpers shared by the parsers: lines with offsets, trimmed spans, numbers."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from rules_kb.model import ParsedDocument, Span

# A rule number at the start of a line as sources print it: ASCII or full-width digits,
# optional rule and letter, optional trailing period. Used to *find* candidates; the
# canonical value always comes from ``RuleNumber.parse``.
NUMBER_AT_START = re.compile(
    r"(?P<number>[0-9０-９]{3}(?:[.．][0-9０-９]{1,3}(?:[a-zA-Zａ-ｚＡ-Ｚ])?)?[.．]?)"
)


@dataclass(frozen=True)
class Line:
    """One line of a decoded document: its text and where it starts."""

    start: int
    text: str

    @property
    def end(self) -> int:
        return self.start + len(self.text)

    @property
    def stripped(self) -> str:
        return self.text.strip()

    def span(self) -> Span:
        """The line's span without surrounding whitespace."""
        return trim_span(self.text, 0, len(self.text), offset=self.start)


def iter_lines(text: str) -> Iterator[Line]:
    """Yield every line (newline excluded) with its start offset."""
    start = 0
    for piece in text.split("\n"):
        yield Line(start, piece)
        start += len(piece) + 1


def iso_date(parts: tuple[str, ...]) -> str:
    """``2021-09-07`` from the year, month and day a source printed (``2021.9.7``, ``2021/09/07``)."""
    year, month, day = (int(part) for part in parts)
    return f"{year:04d}-{month:02d}-{day:02d}"


class LineReader(Protocol):
    """A parser that classifies a document one line at a time, then settles what is pending."""

    parsed: ParsedDocument

    def read(self, line: Line) -> None: ...

    def finish(self) -> None: ...


def read_by_line(reader: LineReader) -> ParsedDocument:
    """Feed every line of the reader's document to it, then let it finish."""
    for line in iter_lines(reader.parsed.text):
        reader.read(line)
    reader.finish()
    return reader.parsed


def trim_span(text: str, start: int, end: int, offset: int = 0) -> Span:
    """Shrink ``text[start:end]`` to exclude surrounding whitespace; offset shifts the result."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start + offset, end + offset)


# The longest real rule text in the corpus is 2,683 characters (Magic's 205.3m, the list of
# creature types, 2024-11-08); a text past this limit is rules run together (a heading or
# numbers the parser missed), never one rule.
LONGEST_RULE = 10_000


def report_overlong_rules(parsed: ParsedDocument) -> None:
    """An anomaly for each rule text over ``LONGEST_RULE`` characters: every parser is checked
    (one that reported the rule itself, with more detail, is left as it is)."""
    reported = {a.position for a in parsed.anomalies if a.code == "overlong-rule"}
    for rule in parsed.rules:
        if len(rule.text) > LONGEST_RULE and (rule.spans[0][0] if rule.spans else 0) not in reported:
            parsed.anomaly(rule.spans[0][0] if rule.spans else 0, "overlong-rule",
                           f"rule {rule.number} is {len(rule.text):,} characters long, more than any real rule "
                           f"({LONGEST_RULE:,})", "kept as parsed; the text probably runs several rules or a "
                           "glossary together")
