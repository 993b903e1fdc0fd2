"""Issue 38, items 5, 6 and 8: a DOCX is read as a stream, its entities never resolved and never a
reason to lose text; a PDF without pages says so. Real files made here with zipfile and PDFium, read
by `rules-kb parse` in a process whose memory is capped."""

from __future__ import annotations

import io
import resource
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from rules_kb.errors import SourceError
from rules_kb.ingest.documents import read_docx

RULES_KB = str(Path(sys.executable).parent / "rules-kb")
XMLNS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def docx(paragraphs: bytes, doctype: bytes = b"", repeat: int = 1) -> bytes:
    """A DOCX whose body holds ``paragraphs`` ``repeat`` times (streamed into the archive)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open("word/document.xml", "w", force_zip64=True) as out:
            out.write(doctype + f"<w:document {XMLNS}><w:body>".encode())
            block = paragraphs * 10_000
            for _ in range(repeat // 10_000):
                out.write(block)
            out.write(paragraphs * (repeat % 10_000))
            out.write(b"</w:body></w:document>")
    return buffer.getvalue()


def test_an_entity_is_kept_as_written_and_the_rest_of_its_paragraph_with_it():
    """Before: `HOST[&xxe;] PASS` became `HOST[` (the text after the entity was lost), 100% accounted."""
    data = docx(b"<w:p><w:r><w:t>100.1. HOST[&xxe;] PASS</w:t></w:r></w:p><w:p><w:r><w:t>next</w:t></w:r></w:p>",
                doctype=b'<!DOCTYPE w:document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>')
    assert read_docx(data, "entity.docx").text == "100.1. HOST[&xxe;] PASS\nnext\n"


def limited(megabytes: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))
    return apply


@pytest.mark.parametrize(("paragraph", "megabytes", "message"), [
    # 63 MB of empty paragraphs in a 92 kB file: before, 1.4 GB and over two minutes
    (b"<w:p/>", 63, "DOCX: word/document.xml is 63,000,113 bytes uncompressed (the limit is 16,777,216)"),
    # just under the limit: read a paragraph at a time, never as a tree
    (b"<w:p><w:r><w:t>x</w:t></w:r></w:p>", 16, ":0: unknown format: no parser recognises this text"),
])
def test_a_docx_that_expands_enormously_is_one_line_in_bounded_memory(tmp_path, paragraph, megabytes, message):
    path = tmp_path / "bomb.docx"
    repeat = (megabytes * 1000 * 1000 if megabytes > 16 else 16 * 1000 * 1000) // len(paragraph)
    path.write_bytes(docx(paragraph, repeat=repeat))
    assert path.stat().st_size < 200_000
    started = time.monotonic()
    done = subprocess.run([RULES_KB, "parse", str(path)], capture_output=True, text=True, timeout=120,
                          preexec_fn=limited(500))
    assert time.monotonic() - started < 60
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"Error: {path}") and message in done.stderr


def test_a_docx_whose_stream_outgrows_the_limit_is_stopped_while_reading(monkeypatch):
    """The count is of bytes decompressed, not of the size the header states."""
    from rules_kb.ingest import documents

    data = docx(b"<w:p><w:r><w:t>x</w:t></w:r></w:p>", repeat=1000)
    monkeypatch.setattr(documents, "MAX_DOCX_XML", 20_000)  # the stream passes it, whatever a header says
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.getinfo("word/document.xml").file_size > 30_000
    with pytest.raises(SourceError, match="over 20,000 bytes uncompressed"), \
            zipfile.ZipFile(io.BytesIO(data)) as archive, archive.open("word/document.xml") as stream:
        documents._read_paragraphs(stream, "grown.docx", [])


def test_a_pdf_without_pages_says_so(cli, tmp_path):
    """Before: `damaged PDF: Failed to load document (PDFium: Success).`"""
    import pypdfium2 as pdfium

    path = tmp_path / "empty.pdf"
    pdfium.PdfDocument.new().save(str(path))
    code, _, err = cli("parse", str(path))
    assert (code, err) == (1, f"Error: {path}:0: PDF with no pages: nothing to read\n")
    # PDFium's error code is what its last failing call left: after a damaged PDF it reads "Data format
    # error", and the empty one must still be told by what it declares.
    damaged = tmp_path / "damaged.pdf"
    damaged.write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 50)
    code, _, err = cli("parse", str(damaged))
    assert code == 1 and "damaged PDF" in err
    code, _, err = cli("parse", str(path))
    assert (code, err) == (1, f"Error: {path}:0: PDF with no pages: nothing to read\n")
