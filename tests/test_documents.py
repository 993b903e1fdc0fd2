"""The publishers' PDF and DOCX give the rules their TXT gives; other formats are refused in one line.

Wizards published 2024-11-08 and 2019-05-03 as TXT, PDF and DOCX (shared/corpus/mtg-current/
publisher-formats, byte for byte): each PDF and DOCX is parsed as the corpus's TXT is, and
the two parses are compared rule by rule, modulo whitespace. The differences are printed
(`pytest -s` shows them); the few that exist are listed below with their reason.
"""

from __future__ import annotations

import hashlib
import io
import time
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from conftest import CORPUS, SHARED

from rules_kb.errors import SourceError
from rules_kb.ingest.corpus import load_manifest
from rules_kb.ingest.documents import extract_document
from rules_kb.ingest.pipeline import parse_bytes

FORMATS = SHARED / "corpus" / "mtg-current" / "publisher-formats"
MANIFEST = {meta.id: meta for meta in load_manifest(CORPUS)}

# Glossary entries a PDF gives differently from the TXT, with the reason (read in the PDF).
GLOSSARY_DIFFERENCES = {
    ("2024-11-08", "pdf"): {
        "Exile": "the PDF leaves paragraph space between the entry's senses 1. and 2., as between entries: "
                 "sense 2 is read as an entry of its own",
        "2. To put an object into the exile zone from whatever zone it’s currently in. An “exiled” card is "
        "one that’s been put into the exile zone.": "the same: Exile's sense 2 as an entry",
    },
    ("2019-05-03", "pdf"): {
        "Exile": "as in 2024-11-08: sense 2 read as an entry of its own",
        "2. To put an object into the exile zone from whatever zone it’s currently in. An “exiled” card is "
        "one that’s been put into the exile zone.": "the same: Exile's sense 2 as an entry",
        "Defending Team": "absorbs the next entry: the term 'Delayed Triggered Ability' opens page 201 after a "
                          "full page 200 and nothing in the layout tells it from a wrapped line",
        "Delayed Triggered Ability": "read as the end of 'Defending Team' (above)",
    },
}


def _words(text: str) -> str:
    return " ".join(text.split())


@dataclass
class Reading:
    rules: dict[str, str]
    examples: dict[str, list[str]]
    terms: dict[str, str]
    seconds: float


def read(path: Path, label: str) -> Reading:
    meta = replace(MANIFEST[f"mtg-cr-{label}"], file=str(path))
    start = time.perf_counter()
    item = parse_bytes(path.read_bytes(), meta)
    seconds = time.perf_counter() - start
    assert item.accounting.complete, f"{path}: {item.accounting.percent:.2f}% accounted"
    parsed = item.parsed
    return Reading({str(r.number): _words(r.text) for r in parsed.rules},
                   {str(r.number): [_words(e.text) for e in r.examples] for r in parsed.rules},
                   {t.term: _words(t.definition) for t in parsed.terms}, seconds)


@pytest.mark.parametrize("kind", ["docx", "pdf"])
@pytest.mark.parametrize("label", ["2024-11-08", "2019-05-03"])
def test_publisher_format_gives_the_rules_of_the_txt(label, kind):
    txt = read(CORPUS / f"mtg/CR-{label}.txt", label)
    other = read(FORMATS / f"CR-{label}.{kind}", label)
    print(f"\nCR-{label}.{kind}: parsed in {other.seconds:.2f} s (the TXT in {txt.seconds:.2f} s)")
    assert set(other.rules) == set(txt.rules)  # 0 differences in rule numbers
    different = sorted(number for number in txt.rules if other.rules[number] != txt.rules[number])
    identical = 1 - len(different) / len(txt.rules)
    print(f"  {len(txt.rules)} rules, {identical:.2%} of texts identical; differing: {different or 'none'}")
    assert identical >= 0.995
    assert other.examples == txt.examples
    terms = sorted(term for term in txt.terms.keys() | other.terms.keys()
                   if txt.terms.get(term) != other.terms.get(term))
    for term in terms:
        print(f"  glossary {term[:40]!r}: TXT {txt.terms.get(term, '(none)')[:60]!r} / "
              f"{kind.upper()} {other.terms.get(term, '(none)')[:60]!r}")
    assert set(terms) == set(GLOSSARY_DIFFERENCES.get((label, kind), {}))
    assert len(other.terms) >= len(txt.terms) - 1


def test_the_2023_02_03_docx_in_the_corpus_and_its_pdf_agree():
    """2023-02-03 has no TXT: the corpus holds its DOCX; its PDF, read independently, says the same."""
    meta = MANIFEST["mtg-cr-2023-02-03"]
    assert meta.file == "mtg/CR-2023-02-03.docx"
    assert (CORPUS / meta.file).read_bytes() == (FORMATS / "CR-2023-02-03.docx").read_bytes()
    docx = read(CORPUS / meta.file, "2023-02-03")
    pdf = read(FORMATS / "CR-2023-02-03.pdf", "2023-02-03")
    assert len(docx.rules) == 2942 and pdf.rules == docx.rules and pdf.examples == docx.examples
    assert docx.rules["702.4b"].startswith("If at least one attacking or blocking creature has first strike")


def test_docx_paragraphs_are_the_txt_lines():
    """Wizards' TXT is its DOCX saved as text: paragraph for line, the same characters (the TXT ends
    with one more blank line)."""
    text = extract_document((FORMATS / "CR-2024-11-08.docx").read_bytes(), "docx").text
    raw = (CORPUS / "mtg/CR-2024-11-08.txt").read_bytes().decode("utf-8-sig")
    assert text.splitlines() == raw.replace("\r\n", "\n").replace("\r", "\n").rstrip("\n").splitlines()


def test_a_wrap_after_a_printed_hyphen_is_joined_and_reported():
    """Page 217 of the 2024-11-08 PDF breaks 'non-repetitive' after its hyphen."""
    extracted = extract_document((FORMATS / "CR-2024-11-08.pdf").read_bytes(), "pdf")
    assert "non-repetitive" in extracted.text and "non- repetitive" not in extracted.text
    wraps = [note for note in extracted.notes if note[1] == "wrap-in-word"]
    assert any("page 217" in note[2] and "non-" in note[2] for note in wraps)
    assert extracted.pages == 295


# --- refused formats ------------------------------------------------------------------------


def scanned_pdf(source: Path) -> bytes:
    """A PDF of one page that is only a picture of a real page (what a scanner gives)."""
    import pypdfium2 as pdfium

    original = pdfium.PdfDocument(source)
    bitmap = original[0].render(scale=1)
    scan = pdfium.PdfDocument.new()
    width, height = original[0].get_size()
    page = scan.new_page(width, height)
    image = pdfium.PdfImage.new(scan)
    image.set_bitmap(bitmap)
    image.set_matrix(pdfium.PdfMatrix().scale(width, height))
    page.insert_obj(image)
    page.gen_content()
    buffer = io.BytesIO()
    scan.save(buffer)
    return buffer.getvalue()


def zipped(name: str, data: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(name, data)
    return buffer.getvalue()


REFUSED = {
    # The first bytes of every Word 97-2003 document (the OLE2 compound-file signature).
    "rules.doc": (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504), "Word 97-2003 .doc is not read: save it as .docx"),
    "rules.rtf": (b"{\\rtf1\\ansi\\deff0 {\\fonttbl {\\f0 Times;}}\\f0 100.1. These Magic rules apply.\\par}",
                  "RTF is not read: save it as .docx or plain text"),
    "rules.zip": (zipped("CR.txt", b"100.1. These Magic rules apply."), "a ZIP archive that is not a Word .docx"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_unread_formats_are_refused_in_one_line_naming_the_format(cli, tmp_path, name):
    data, message = REFUSED[name]
    path = tmp_path / name
    path.write_bytes(data)
    code, out, err = cli("parse", str(path))
    assert code == 1 and out == ""
    assert err == f"Error: {path}:0: {err.split(': ', 2)[2]}" and message in err and err.count("\n") == 1


def test_a_scanned_pdf_is_refused_not_added_empty(cli, tmp_path):
    path = tmp_path / "scan.pdf"
    path.write_bytes(scanned_pdf(FORMATS / "CR-2024-11-08.pdf"))
    with pytest.raises(SourceError, match="no text layer"):
        extract_document(path.read_bytes(), str(path))
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "manifest.toml").write_text("# test corpus\n", encoding="utf-8")
    before = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in corpus.rglob("*") if p.is_file()}
    code, out, err = cli("--corpus", str(corpus), "add", str(path), "--game", "mtg", "--version", "2024-11-08")
    assert code == 1 and out == ""
    assert err.startswith(f"Error: {path}:0: PDF with no text layer (1 page(s), no text)") and err.count("\n") == 1
    assert {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in corpus.rglob("*") if p.is_file()} == before


def test_a_damaged_docx_is_one_error_line(cli, tmp_path):
    path = tmp_path / "cut.docx"
    path.write_bytes((FORMATS / "CR-2024-11-08.docx").read_bytes()[:200_000])
    code, _, err = cli("parse", str(path))
    assert code == 1 and err.startswith(f"Error: {path}: damaged DOCX: ") and err.count("\n") == 1


# --- add takes the publishers' formats ------------------------------------------------------


def test_add_takes_a_pdf_and_copies_its_bytes(cli, tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "manifest.toml").write_text("# test corpus\n", encoding="utf-8")
    source = FORMATS / "CR-2019-05-03.pdf"
    code, out, err = cli("--corpus", str(corpus), "add", str(source), "--version", "2019-05-03")
    assert code == 0, err
    assert out.startswith("added mtg-cr-2019-05-03 as mtg/CR-2019-05-03.pdf: format mtg-cr, pdf paragraphs, mtg en, "
                          "version 2019-05-03 (2019-05-03), full\n")
    assert "2463 rules, 243 examples, 555 terms" in out and "100.00% accounted" in out
    (meta,) = load_manifest(corpus)
    assert (corpus / meta.file).read_bytes() == source.read_bytes()


def test_a_truncated_pdf_is_one_error_line(cli, tmp_path):
    path = tmp_path / "cut.pdf"
    path.write_bytes((FORMATS / "CR-2024-11-08.pdf").read_bytes()[:100_000])
    code, out, err = cli("parse", str(path))
    assert code == 1 and out == ""
    assert err == f"Error: {path}: damaged PDF: Failed to load document (PDFium: Data format error).\n"


def test_reading_a_pdf_twice_gives_the_same_text():
    data = (FORMATS / "CR-2019-05-03.pdf").read_bytes()
    first, second = extract_document(data, "a"), extract_document(data, "b")
    assert first.text == second.text and first.notes == second.notes
