"""Lossless accounting: every non-whitespace character belongs to exactly one record."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import chain, pairwise

from rules_kb.model import ParsedDocument, Span


@dataclass(frozen=True)
class Accounting:
    """Coverage of one document's non-whitespace characters by its records."""

    characters: int
    covered: int
    uncovered: tuple[Span, ...]
    overlapping: tuple[Span, ...]

    @property
    def percent(self) -> float:
        return 100.0 if self.characters == 0 else 100.0 * self.covered / self.characters

    @property
    def complete(self) -> bool:
        return not self.uncovered and not self.overlapping


def record_spans(parsed: ParsedDocument) -> list[Span]:
    """Every span claimed by any record of the document, in no particular order."""
    return list(
        chain(
            chain.from_iterable(r.spans for r in parsed.rules),
            chain.from_iterable(e.spans for r in parsed.rules for e in r.examples),
            chain.from_iterable(h.spans for h in parsed.headings),
            chain.from_iterable(t.spans for t in parsed.terms),
            chain.from_iterable(x.spans for x in parsed.residue),
            chain.from_iterable(s.spans for s in parsed.sections),
            chain.from_iterable(p.spans for s in parsed.sections for p in s.parts),
        )
    )


def account(parsed: ParsedDocument) -> Accounting:
    """Count covered, uncovered and doubly covered non-whitespace characters.

    A sweep over span boundaries: whitespace is counted per segment with a regex, so the
    work is done in C and scales with the number of spans, not of characters.
    """
    text = parsed.text
    events: dict[int, int] = {0: 0, len(text): 0}
    for start, end in record_spans(parsed):
        start, end = max(start, 0), min(end, len(text))
        if start < end:
            events[start] = events.get(start, 0) + 1
            events[end] = events.get(end, 0) - 1
    uncovered: list[Span] = []
    overlapping: list[Span] = []
    covered = characters = depth = 0
    boundaries = sorted(events)
    for here, there in pairwise(boundaries):
        depth += events[here]
        segment = text[here:there]
        solid = len(segment) - len(_WHITESPACE.findall(segment))
        if not solid:
            continue
        characters += solid
        if depth >= 1:
            covered += solid
        if depth != 1:
            _extend(uncovered if depth == 0 else overlapping, text, here, there)
    return Accounting(characters, covered, tuple(uncovered), tuple(overlapping))


_WHITESPACE = re.compile(r"\s")


def _extend(runs: list[Span], text: str, start: int, end: int) -> None:
    """Add the trimmed run, merging with the previous one when only whitespace separates them."""
    while text[start].isspace():
        start += 1
    while text[end - 1].isspace():
        end -= 1
    if runs and not text[runs[-1][1]:start].strip():
        runs[-1] = (runs[-1][0], end)
    else:
        runs.append((start, end))
