"""Lossless accounting: every non-whitespace character belongs to exactly one record."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain

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
        )
    )


def account(parsed: ParsedDocument) -> Accounting:
    """Count covered, uncovered and doubly covered non-whitespace characters."""
    text = parsed.text
    owners = bytearray(len(text))
    for start, end in record_spans(parsed):
        for i in range(max(start, 0), min(end, len(text))):
            if owners[i] < 2:
                owners[i] += 1
    uncovered: list[Span] = []
    overlapping: list[Span] = []
    covered = characters = 0
    for i, char in enumerate(text):
        if char.isspace():
            continue
        characters += 1
        count = owners[i]
        if count == 1:
            covered += 1
        elif count == 0:
            _extend(uncovered, i)
        else:
            covered += 1
            _extend(overlapping, i)
    return Accounting(characters, covered, tuple(uncovered), tuple(overlapping))


def _extend(runs: list[Span], i: int) -> None:
    if runs and runs[-1][1] == i:
        runs[-1] = (runs[-1][0], i + 1)
    else:
        runs.append((i, i + 1))
