"""Offsets in errors are byte offsets into the file as given (BOM and CRLF included)."""

from __future__ import annotations

import codecs

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_kb.errors import SourceError
from rules_kb.ingest.decode import byte_offset, decode_document


@pytest.mark.parametrize(("data", "offset", "words"), [
    # Before: 9, the offset after the BOM that utf-8-sig removed.
    (codecs.BOM_UTF8 + b"507.1 ok \xc3\x28 bad", 12, "corrupt utf-8-sig"),
    # Before: 2, a count of characters after decoding.
    (codecs.BOM_UTF16_LE + "ab\x00c".encode("utf-16-le"), 6, "NUL character after decoding"),
    (codecs.BOM_UTF16_BE + "日本\x00".encode("utf-16-be"), 6, "NUL character after decoding"),
    (codecs.BOM_UTF8 + "ルール\x00".encode(), 12, "NUL character after decoding"),
])
def test_decoding_errors_give_byte_offsets(data, offset, words):
    with pytest.raises(SourceError) as error:
        decode_document(data, "f.txt")
    assert error.value.position == offset and words in error.value.problem
    assert data[offset:offset + 1] in (b"\xc3", b"\x00")


@pytest.mark.parametrize("data", [b"\xe3\x81", b"\n \xe3"])
def test_a_lone_truncated_character_is_invalid_not_empty(data):
    """Before: 'empty file (only whitespace after decoding)' at offset 0."""
    with pytest.raises(SourceError, match="holds only an incomplete multi-byte character") as error:
        decode_document(data, "f.txt")
    assert error.value.position == data.index(data.lstrip()[:1])


ENCODINGS = [("utf-8", b""), ("utf-8-sig", b""), ("utf-16-le", codecs.BOM_UTF16_LE),
             ("utf-16-be", codecs.BOM_UTF16_BE)]


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n\x00"),
                              max_size=12), min_size=1, max_size=8),
       ends=st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=8, max_size=8),
       which=st.sampled_from(ENCODINGS))
def test_byte_offset_finds_each_character_in_the_original_bytes(lines, ends, which):
    raw = "x" + "".join(line + end for line, end in zip(lines, ends, strict=False))
    encoding, bom = which
    data = bom + raw.encode(encoding)
    decoded = decode_document(data, "f.txt")
    codec = "utf-8" if encoding == "utf-8-sig" else encoding
    for position, char in enumerate(decoded.text):
        at = byte_offset(data, decoded, position)
        expected = ("\r" if char == "\n" and data[at:].startswith("\r".encode(codec)) else char).encode(codec)
        assert data[at:at + len(expected)] == expected
