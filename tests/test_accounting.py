"""Accounting counts what records cover, and finds gaps and double claims exactly."""

from rules_kb.ingest.accounting import account
from rules_kb.model import DocumentMeta, ParsedDocument, Residue

META = DocumentMeta("t", "t.txt", "0" * 64, "dm", ("en",), "fandom-text", "rules")


def parsed_with(text: str, *spans: tuple[int, int]) -> ParsedDocument:
    parsed = ParsedDocument(META, text)
    parsed.residue = [Residue(text[a:b], [(a, b)], "chrome") for a, b in spans]
    return parsed


def test_complete_when_every_non_whitespace_character_is_claimed_once():
    result = account(parsed_with("ab  cd\n", (0, 2), (4, 6)))
    assert result.complete and result.characters == 4 and result.percent == 100.0


def test_gap_is_reported_with_its_span():
    result = account(parsed_with("ab cd ef", (0, 2)))
    assert result.uncovered == ((3, 8),)  # "cd ef": runs split only by whitespace merge
    assert result.covered == 2 and result.characters == 6


def test_double_claim_is_reported():
    result = account(parsed_with("abcdef", (0, 4), (2, 6)))
    assert result.overlapping == ((2, 4),)
    assert not result.complete and result.covered == 6


def test_whitespace_needs_no_owner():
    assert account(parsed_with(" \n\t ")).complete
