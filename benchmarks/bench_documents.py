"""Reading the publishers' PDF and DOCX: seconds per file, and the libraries it was chosen among.

For each PDF and DOCX in shared/corpus/mtg-current/publisher-formats: the text extraction alone
(``extract_document``) and the whole parse (extraction + mtg-cr parser + accounting). Then the
PDF text extraction of 2024-11-08 by each candidate library that is installed (pypdfium2 is a
dependency; pypdf and pdfminer.six are measured when present: ``pip install pypdf pdfminer.six``),
and the DOCX by lxml (ours) and python-docx when present.

Run: .venv/bin/python benchmarks/bench_documents.py
"""

from __future__ import annotations

import importlib.util
import time
import zipfile
from dataclasses import replace
from pathlib import Path

from rules_kb.ingest.corpus import load_manifest
from rules_kb.ingest.documents import extract_document
from rules_kb.ingest.pipeline import parse_bytes

ROOT = Path(__file__).resolve().parent.parent
SHARED = next((p for p in (ROOT.parent / "shared", ROOT.parent.parent / "shared") if p.is_dir()),
              ROOT.parent / "shared")
FORMATS = SHARED / "corpus" / "mtg-current" / "publisher-formats"


def timed(action) -> tuple[float, object]:
    started = time.perf_counter()
    result = action()
    return time.perf_counter() - started, result


def main() -> None:
    meta = next(m for m in load_manifest(ROOT / "corpus") if m.id == "mtg-cr-2024-11-08")
    print("file                    bytes      extract s  parse s  rules  terms  pages")
    for path in sorted(FORMATS.iterdir()):
        data = path.read_bytes()
        seconds, extracted = timed(lambda data=data, path=path: extract_document(data, path.name))
        label = path.stem.removeprefix("CR-")
        parse_seconds, item = timed(lambda data=data, label=label, path=path: parse_bytes(
            data, replace(meta, id=f"mtg-cr-{label}", file=str(path), versions=(label,))))
        print(f"{path.name:22}  {len(data):>9,}  {seconds:9.2f}  {parse_seconds:7.2f}  {len(item.parsed.rules):5}"
              f"  {len(item.parsed.terms):5}  {extracted.pages or '-':>5}")
    sample = FORMATS / "CR-2024-11-08.pdf"
    print(f"\nPDF text extraction of {sample.name}, by library:")
    for name, extract in pdf_libraries():
        seconds, text = timed(lambda extract=extract: extract(sample))
        print(f"  {name:12} {seconds:6.2f} s  {len(text):,} characters")
    docx = FORMATS / "CR-2024-11-08.docx"
    print(f"\nDOCX text of {docx.name}, by library:")
    seconds, extracted = timed(lambda: extract_document(docx.read_bytes(), docx.name))
    print(f"  {'lxml (ours)':12} {seconds:6.2f} s  {len(extracted.text):,} characters")
    if importlib.util.find_spec("docx") is not None:
        import docx as python_docx

        seconds, text = timed(lambda: "\n".join(p.text for p in python_docx.Document(str(docx)).paragraphs))
        print(f"  {'python-docx':12} {seconds:6.2f} s  {len(text):,} characters")
    with zipfile.ZipFile(docx) as archive:
        print(f"  (word/document.xml: {archive.getinfo('word/document.xml').file_size:,} bytes)")


def pdf_libraries():
    import pypdfium2 as pdfium

    def with_pdfium(path: Path) -> str:
        pdf = pdfium.PdfDocument(path)
        try:
            return "\f".join(page.get_textpage().get_text_range() for page in pdf)
        finally:
            pdf.close()

    yield "pypdfium2", with_pdfium
    if importlib.util.find_spec("pypdf") is not None:
        import pypdf

        yield "pypdf", lambda path: "\f".join(page.extract_text() for page in pypdf.PdfReader(path).pages)
    if importlib.util.find_spec("pdfminer") is not None:
        from pdfminer.high_level import extract_text

        yield "pdfminer.six", lambda path: extract_text(str(path))


if __name__ == "__main__":
    main()
