"""Rule references: the fixture cases, corpus-wide invariants, and a round-trip property."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from conftest import CORPUS, FIXTURES
from hypothesis import given
from hypothesis import strategies as st

from rules_kb.errors import SourceError
from rules_kb.ingest.corpus import load_manifest, read_document_bytes
from rules_kb.ingest.decode import decode_document
from rules_kb.model import DocumentMeta
from rules_kb.numbers import RuleNumber
from rules_kb.refs import Reference, find_references

FIXTURE = FIXTURES / "refs.txt"
OPEN, CLOSE = "⟦", "⟧"
CONSTRUCTED = "constructed"


@dataclass(frozen=True)
class Case:
    title: str
    source: str
    game: str | None
    text: str
    expected: tuple[tuple[int, int, tuple[str, ...]], ...]
    line: int

    @property
    def is_negative(self) -> bool:
        return not self.expected


def read_fixture(path: Path) -> list[Case]:
    """Read ``=== title`` blocks: ``from:``, optional ``game:``, marked input, ``---``, numbers."""
    cases = []
    lines = path.read_text(encoding="utf-8").split("\n")
    starts = [index for index, line in enumerate(lines) if line.startswith("=== ")]
    for number, start in enumerate(starts):
        stop = starts[number + 1] if number + 1 < len(starts) else len(lines)
        cases.append(_read_case(lines[start:stop], start + 1))
    return cases


def _read_case(block: list[str], line: int) -> Case:
    title = block[0][4:].strip()
    fields: dict[str, str] = {}
    body = 1
    while body < len(block) and block[body].split(":", 1)[0] in ("from", "game"):
        key, value = block[body].split(":", 1)
        fields[key] = value.strip()
        body += 1
    separator = block.index("---", body)
    marked = "\n".join(block[body:separator])
    outputs = [row for row in block[separator + 1 :] if row.strip() and not row.startswith("#")]
    text, spans = _strip_markers(marked, line)
    if outputs == ["(none)"]:
        outputs = []
    if len(outputs) != len(spans):
        raise ValueError(f"fixture line {line}: {len(spans)} marked spans but {len(outputs)} expected lines")
    expected = tuple((start, end, tuple(row.split())) for (start, end), row in zip(spans, outputs, strict=True))
    source = fields.get("from", "")
    game = fields.get("game") or _game_of(source)
    return Case(title, source, game, text, expected, line)


def _strip_markers(marked: str, line: int) -> tuple[str, list[tuple[int, int]]]:
    text: list[str] = []
    spans: list[tuple[int, int]] = []
    opened: int | None = None
    for char in marked:
        if char == OPEN and opened is None:
            opened = len(text)
        elif char == CLOSE and opened is not None:
            spans.append((opened, len(text)))
            opened = None
        elif char in (OPEN, CLOSE):
            raise ValueError(f"fixture line {line}: unbalanced {char}")
        else:
            text.append(char)
    if opened is not None:
        raise ValueError(f"fixture line {line}: {OPEN} never closed")
    return "".join(text), spans


@cache
def manifest_by_file() -> dict[str, DocumentMeta]:
    return {meta.file: meta for meta in load_manifest(CORPUS)}


def _game_of(source: str) -> str | None:
    meta = manifest_by_file().get(source)
    return None if meta is None else meta.game


@cache
def decoded(file: str) -> str:
    meta = manifest_by_file()[file]
    return decode_document(read_document_bytes(CORPUS, meta), meta.file).text


@cache
def decoded_corpus() -> dict[str, str]:
    """Every manifest document that decodes (a corrupt file is the decoder's business)."""
    texts = {}
    for file in sorted(manifest_by_file()):
        try:
            texts[file] = decoded(file)
        except SourceError:
            continue
    return texts


CASES = read_fixture(FIXTURE)


def summarize(reference: Reference) -> tuple[int, int, tuple[str, ...]]:
    return reference.start, reference.end, tuple(str(number) for number in reference.numbers)


@pytest.mark.parametrize("case", CASES, ids=[f"L{case.line}-{case.title}" for case in CASES])
def test_fixture_case(case: Case) -> None:
    found = find_references(case.text, game=case.game)
    assert [summarize(reference) for reference in found] == list(case.expected)
    assert all(reference.raw == case.text[reference.start : reference.end] for reference in found)


@pytest.mark.parametrize(
    "case",
    [case for case in CASES if case.source != CONSTRUCTED],
    ids=lambda case: f"L{case.line}",
)
def test_fixture_input_is_corpus_wording(case: Case) -> None:
    assert case.source in manifest_by_file(), f"unknown corpus file {case.source!r}"
    assert case.text in decoded(case.source)


def test_fixture_is_large_enough() -> None:
    from_corpus = [case for case in CASES if case.source != CONSTRUCTED]
    assert len(from_corpus) >= 60
    assert sum(case.is_negative for case in from_corpus) >= 20


def test_magic_2024_citation_forms() -> None:
    """Facts checkable in CR-2024-11-08: how often it cites 704 and the 601.2f–h range."""
    text = decoded("mtg/CR-2024-11-08.txt")
    references = find_references(text, game="mtg")
    raws = [reference.raw for reference in references]
    assert raws.count("rules 601.2b and 601.2f–h") == 32  # grep -c agrees
    assert "rule702.72" not in raws  # the 2009 typo was fixed by 2024
    cited = {number for reference in references for number in reference.numbers}
    assert RuleNumber.parse("704.5m") in cited
    assert RuleNumber.parse("704.5l") not in cited  # Magic skips l: 704.5k is followed by 704.5m


@pytest.mark.parametrize("file", sorted(decoded_corpus()))
def test_invariants_over_corpus(file: str) -> None:
    """Spans in order and non-overlapping, raw equal to the text, at least one number, no repeats."""
    text = decoded_corpus()[file]
    references = find_references(text, game=manifest_by_file()[file].game)
    previous_end = 0
    for reference in references:
        assert previous_end <= reference.start < reference.end <= len(text)
        assert text[reference.start : reference.end] == reference.raw
        assert reference.raw == reference.raw.strip()
        assert reference.numbers
        assert len(set(reference.numbers)) == len(reference.numbers)
        previous_end = reference.end


_ranges = st.tuples(
    st.integers(0, 999),
    st.none() | st.integers(1, 999),
    st.sampled_from([None, *"abcdefghijkmnpqrstuvwxyz"]),
)


@given(_ranges, st.sampled_from(["rule ", "Rule ", "rules ", "See rule ", "(参考:", "総合ルール "]))
def test_formatted_number_is_found(parts: tuple[int, int | None, str | None], prefix: str) -> None:
    section, rule, letter = parts
    number = RuleNumber(section, rule, letter if rule is not None else None)
    text = f"{prefix}{number}."
    found = find_references(text)
    assert [reference.numbers for reference in found] == [(number,)]
    assert found[0].end == len(text) - 1  # the sentence's period is not part of the reference


@given(st.integers(0, 999), st.integers(1, 999), st.sampled_from(list("abcdefghijk")), st.integers(1, 8))
def test_letter_range_expands(section: int, rule: int, first: str, width: int) -> None:
    last = chr(ord(first) + width)
    found = find_references(f"see rules {section:03d}.{rule}{first}–{last}", game="dm")
    letters = [number.letter for number in found[0].numbers]
    assert letters == [chr(code) for code in range(ord(first), ord(last) + 1)]


def test_unknown_game_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        find_references("rule 100.1", game="yugioh")
