"""Decoding: every encoding and line-end convention the corpus holds, normalised once."""


import pytest
from conftest import CORPUS

from rules_kb.ingest.decode import decode_document

# (file, encoding detected, line ends as published) — checkable with `file` and `xxd`.
RELEASES = [
    ("mtg/CR-2008-10-01.txt", "utf-8", "LF"),
    ("mtg/CR-2013-04-29.txt", "utf-16-be", "CRLF"),
    ("mtg/CR-2015-07-17.txt", "windows-1252", "CRLF"),
    ("mtg/CR-2016-09-30.txt", "utf-16-le", "CRLF"),
    ("mtg/CR-2019-05-03.txt", "utf-8-sig", "CRLF+CR"),
    ("mtg/CR-2022-11-18.txt", "utf-16-be", "CRLF+CR"),
    ("mtg/CR-2024-11-08.txt", "utf-8-sig", "CRLF"),
]


@pytest.mark.parametrize(("name", "encoding", "line_ends"), RELEASES)
def test_release_encodings(name, encoding, line_ends):
    decoded = decode_document((CORPUS / name).read_bytes(), name)
    assert decoded.encoding == encoding
    assert decoded.line_ends == line_ends
    assert decoded.text.split("\n", 1)[0].replace("_", "") == "Magic: The Gathering Comprehensive Rules"
    assert "\r" not in decoded.text and "\ufeff" not in decoded.text


def test_windows_1252_punctuation_is_decoded():
    text = decode_document((CORPUS / "mtg/CR-2015-07-17.txt").read_bytes(), "x").text
    assert "Æther" in text or "Aether" in text
    assert "\u2019" in text and "\u2014" in text  # right single quote and em dash, bytes 0x92 and 0x97


def test_truncated_multibyte_character_is_dropped_and_reported():
    data = "507.1 非ターン".encode()[:-1]
    decoded = decode_document(data, "cut.txt")
    assert decoded.text == "507.1 非ター"
    assert decoded.notes[0][1] == "truncated-character"


def test_bare_cr_becomes_lf_so_spans_are_stable():
    assert decode_document(b"a\rb\r\nc\n", "x").text == "a\nb\nc\n"
