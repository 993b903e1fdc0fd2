"""A long note (a judge's whole rulings file, a season of notes pasted at once): `link` and `audit`
find in it what they find in each of its parts, and read its entries and lines once, not once for
each citation (found again for each, a 3.9 MB note took `audit` 297 s and `link` 15 s; now 7 s and 3 s,
``benchmarks/bench_notes.py``)."""

from __future__ import annotations

import json
import re

import pytest
from conftest import CORPUS, FIXTURES

from rules_kb.notes import audit, link
from rules_kb.refs import find_section_references, overlap_test

SEED_004 = next((CORPUS / "seeds").glob("004_*.txt"))
AMBIGUOUS = FIXTURES / "notes" / "en-ambiguous.md"
COPIES = 40


def repeated(text: str, copies: int = COPIES) -> tuple[str, list[int]]:
    """``text`` ``copies`` times, a blank line between; with the line each copy starts after."""
    joined = "\n\n".join([text.rstrip("\n")] * copies) + "\n"
    step = text.rstrip("\n").count("\n") + 2
    return joined, [k * step for k in range(copies)]


class Counting:
    """A compiled pattern that counts its ``finditer`` calls."""

    def __init__(self, pattern: re.Pattern) -> None:
        self.pattern, self.calls = pattern, 0

    def finditer(self, text: str):
        self.calls += 1
        return self.pattern.finditer(text)


def test_a_long_note_is_audited_as_each_of_its_copies_is(cli, tmp_path, monkeypatch):
    text = SEED_004.read_text(encoding="utf-8")
    code, out, _ = cli("audit", str(SEED_004), "--json")
    one = json.loads(out)["citations"]
    note, shifts = repeated(text)
    path = tmp_path / "rulings.txt"
    path.write_text(note, encoding="utf-8")
    entries = Counting(audit.ENTRY_START)
    monkeypatch.setattr(audit, "ENTRY_START", entries)

    def refuse(*args):
        raise AssertionError("a line counted from the note's start again")

    monkeypatch.setattr(link, "line_and_column", refuse)
    long_code, long_out, _ = cli("audit", str(path), "--json")
    many = json.loads(long_out)["citations"]
    assert (long_code, len(many)) == (code, COPIES * len(one)) and len(one) == 20
    assert many == [{**found, "line": found["line"] + shift} for shift in shifts for found in one]
    assert entries.calls == 1  # the entries found once for the whole note


def test_a_long_note_is_linked_as_each_of_its_copies_is(cli, tmp_path):
    text = AMBIGUOUS.read_text(encoding="utf-8")
    code, out, err = cli("link", str(AMBIGUOUS))
    one = err.splitlines()
    assert code == 1 and one  # numbers both games hold, left alone and said so
    note, shifts = repeated(text)
    path = tmp_path / "notes.md"
    path.write_text(note, encoding="utf-8")
    long_code, long_out, long_err = cli("link", str(path))
    expected = []
    for shift in shifts:
        for problem in one:
            _, line, rest = problem.split(":", 2)
            expected.append(f"{path}:{int(line) + shift}:{rest}")
    assert long_code == 1 and long_err.splitlines() == expected
    assert long_out.rstrip("\n") == "\n\n".join([out.rstrip("\n")] * COPIES)


def test_lines_and_entries_answer_as_a_scan_from_the_start_does():
    """Every offset of a note with tags and entries: the bisections give what the scans gave."""
    text = SEED_004.read_text(encoding="utf-8") + "\n- 509.1a [CR 2024-11-08] and 509.1b\n\n1. x [DM 2021-09-07]\n"
    lines = link.Lines(text)
    tags = audit.date_tags(text)
    entries = audit.Entries(text, tags)
    starts = [0] + [m.end() for m in audit.ENTRY_START.finditer(text)]
    assert len(tags) > 10 and len(starts) > 10
    for at in range(len(text) + 1):
        assert lines.line_and_column(at) == link.line_and_column(text, at)
        start = max(s for s in starts if s <= at)
        end = min((s for s in starts if s > at), default=len(text))
        assert entries.bounds(at) == (start, end)
        inside = [t for t in tags if start <= t[0] < end]
        after = [t for t in inside if t[0] >= at]
        chosen = after[0] if after else (inside[-1] if inside else None)
        assert entries.tag_for(at) == (None if chosen is None else (chosen[2], chosen[3]))
        assert entries.in_tag(at) == any(s <= at < e for s, e, _, _ in tags)


@pytest.mark.parametrize("spans", [[], [(3, 5)], [(0, 10), (2, 3), (12, 14)], [(5, 9), (1, 2), (1, 7), (20, 21)]])
def test_overlap_test_answers_as_testing_every_span_does(spans):
    overlaps = overlap_test(spans)
    for start in range(0, 24):
        for end in range(start + 1, 25):
            assert overlaps(start, end) == any(s < end and start < e for s, e in spans), (start, end)


def test_the_sections_of_a_long_note_are_those_of_each_copy():
    one = "競技イベント運営ルール 10.3〔遅刻〕と〔ドロー〕、MTR 4.2 〔Slow Play〕\n"
    found = [(r.start, r.raw, r.number, r.name) for r in find_section_references(one)]
    assert found == [(0, "競技イベント運営ルール 10.3", "10.3", None), (16, "〔遅刻〕", None, "遅刻"),
                     (21, "〔ドロー〕", None, "ドロー"), (27, "MTR 4.2", "4.2", None),
                     (35, "〔Slow Play〕", None, "Slow Play")]
    many = [(r.start, r.raw, r.number, r.name) for r in find_section_references(one * COPIES)]
    assert many == [(start + k * len(one), *rest) for k in range(COPIES) for start, *rest in found]
