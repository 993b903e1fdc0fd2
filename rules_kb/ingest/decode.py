"""Bytes to text, once, for every document.

Every encoding quirk of the sources is handled here and nowhere else:

* byte-order marks select UTF-8, UTF-16 LE or UTF-16 BE (Magic shipped all three);
* without a BOM, strict UTF-8 is tried first; Windows-1252 is accepted only when the bytes
  decode cleanly as Windows-1252 *and* contain its typographic punctuation (curly quotes,
  dashes, the trademark sign), which real Windows-1252 rules text always has and random
  invalid UTF-8 does not;
* a multi-byte character cut off by the end of the file (the corpus excerpts were cut at
  2,000 bytes) is dropped and reported, not refused;
* NUL bytes without a UTF-16 BOM mean a binary or damaged file and are refused;
* line ends ``\\r\\n``, ``\\r`` and ``\\n`` all become ``\\n``, so character offsets
  (spans) are offsets into this normalised text.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field

from rules_kb.errors import SourceError
from rules_kb.ingest.documents import extract_document

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# Bytes 0x80-0x9F that Windows-1252 maps to typographic punctuation and signs.
_CP1252_MARKERS = re.compile(rb"[\x80\x85\x91-\x97\x99]")
_LINE_END = re.compile(r"\r\n|\r")


@dataclass
class Decoded:
    text: str
    encoding: str
    line_ends: str
    notes: list[tuple[int, str, str, str]] = field(default_factory=list)
    """(position, code, message, decision) for defects that did not stop decoding."""


def decode_document(data: bytes, document: str) -> Decoded:
    """Decode one document's bytes, or raise ``SourceError`` naming the first bad offset.

    A PDF or DOCX is read by ``documents.extract_document`` (its text, as the publisher's TXT
    would hold it); Word 97 ``.doc`` and RTF are refused there with what to do instead.
    """
    if not data.strip():
        raise SourceError(document, "empty file", 0)
    extracted = extract_document(data, document)
    if extracted is not None:
        return Decoded(extracted.text, extracted.kind, "paragraphs", extracted.notes)
    notes: list[tuple[int, str, str, str]] = []
    encoding = _encoding_from_bom(data)
    if encoding is not None:
        raw = _decode_strict(data, encoding, document)
    elif b"\x00" in data:
        problem, position = _describe_nul(data)
        raise SourceError(document, problem, position)
    else:
        encoding, raw = _decode_without_bom(data, document, notes)
    if raw.startswith("\ufeff"):
        raw = raw[1:]
    if "\x00" in raw:
        position = _raw_byte_offset(data, encoding, raw, raw.index("\x00"))
        raise SourceError(document, "binary content: NUL character after decoding", position)
    line_ends = _describe_line_ends(raw)
    text = _LINE_END.sub("\n", raw)
    if not text.strip():
        raise SourceError(document, "empty file (only whitespace after decoding)", 0)
    return Decoded(text, encoding, line_ends, notes)


def _bom_length(data: bytes) -> int:
    return next((len(bom) for bom, _ in _BOMS if data.startswith(bom)), 0)


def _raw_byte_offset(data: bytes, encoding: str, raw: str, index: int) -> int:
    """Byte offset of ``raw[index]`` (decoded text, BOM removed, line ends as in the file)."""
    codec = "utf-8" if encoding == "utf-8-sig" else encoding
    return _bom_length(data) + len(raw[:index].encode(codec))


def byte_offset(data: bytes, decoded: Decoded, position: int) -> int | None:
    """Byte offset in the file of ``decoded.text[position]``, undoing BOM removal and line-end folding.

    Meant for error messages (it decodes the file again); spans stay character offsets. A PDF's
    or DOCX's text has no byte offset in the file: ``None``.
    """
    if decoded.encoding in ("pdf", "docx"):
        return None
    codec = "utf-8" if decoded.encoding == "utf-8-sig" else decoded.encoding
    start = _bom_length(data)
    raw = data[start:].decode(codec, errors="ignore")
    folded = 0  # characters removed by folding ``\r\n`` to ``\n`` before ``position``
    for match in _LINE_END.finditer(raw):
        if match.start() - folded >= position:
            break
        folded += len(match.group()) - 1
    return start + len(raw[: position + folded].encode(codec))


def _encoding_from_bom(data: bytes) -> str | None:
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    return None


def _decode_strict(data: bytes, encoding: str, document: str) -> str:
    if encoding.startswith("utf-16") and len(data) % 2:
        raise SourceError(document, f"corrupt {encoding}: odd number of bytes ({len(data)})", len(data) - 1)
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        # utf-8-sig reports offsets after the BOM it removed; UTF-16 ones count the BOM.
        position = exc.start + (len(codecs.BOM_UTF8) if encoding == "utf-8-sig" else 0)
        raise SourceError(document, f"corrupt {encoding}: {exc.reason}", position) from None


def _decode_without_bom(data: bytes, document: str, notes: list) -> tuple[str, str]:
    try:
        return "utf-8", data.decode("utf-8")
    except UnicodeDecodeError as exc:
        first_error = exc
    if first_error.reason == "unexpected end of data" and first_error.end == len(data):
        kept = data[: first_error.start]
        try:
            text = kept.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            if not text.strip():
                raise SourceError(document, "invalid UTF-8: the file holds only an incomplete multi-byte "
                                            "character (and whitespace)", first_error.start)
            cut = len(data) - first_error.start
            notes.append(
                (len(text), "truncated-character",
                 f"the file ends inside a multi-byte UTF-8 character ({cut} byte(s) at byte {first_error.start})",
                 "dropped the incomplete bytes; the document is treated as truncated")
            )
            return "utf-8", text
    if _CP1252_MARKERS.search(data):
        try:
            return "windows-1252", data.decode("cp1252")
        except UnicodeDecodeError:
            pass
    raise SourceError(
        document,
        f"invalid UTF-8 ({first_error.reason}) and not Windows-1252 text either",
        first_error.start,
    )


def _describe_nul(data: bytes) -> tuple[str, int]:
    """Say why NUL bytes make a file unreadable, and where the damage starts."""
    head = data[:256]
    odd_nuls = head[1::2].count(0)
    even_nuls = head[0::2].count(0)
    # UTF-16 text without its BOM has NULs in one byte of each pair only; a binary (an ELF
    # executable, an image) has them in both.
    if max(odd_nuls, even_nuls) >= len(head) // 4 and min(odd_nuls, even_nuls) <= max(odd_nuls, even_nuls) // 8:
        order = "LE" if odd_nuls > even_nuls else "BE"
        return (
            f"corrupt UTF-16 {order}: the byte-order mark is missing or replaced "
            f"(file starts {data[:4].hex(' ')}); refused rather than guessed",
            0,
        )
    return "binary content: NUL byte in a text document", data.index(b"\x00")


def _describe_line_ends(raw: str) -> str:
    kinds = []
    crlf = raw.count("\r\n")
    if crlf:
        kinds.append("CRLF")
    if raw.count("\r") > crlf:
        kinds.append("CR")
    if raw.count("\n") > crlf:
        kinds.append("LF")
    return "+".join(kinds) or "none"
