"""A Duel Masters rulebook PDF goes the way of the text into the ``dm-rulebook`` parser.

No official Duel Masters PDF is in our data, so this checks a stand-in (tests/pdf_standin.py):
the Ver.1.48 extraction printed by Chromium on A4 with the CJK font, a running header, a footer
with page numbers, every line of the extraction a printed line. What the stand-in proves and
what it cannot (a real file's fonts, columns and wraps) is said in the README.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import CORPUS
from pdf_standin import HEADER, render_standin

from rules_kb.ingest.corpus import load_manifest
from rules_kb.ingest.pipeline import parse_bytes

META = next(meta for meta in load_manifest(CORPUS) if meta.id == "dm-rulebook-ja-1.48")

# Rules whose text the stand-in gives differently, with the reason (the title plus the text is the
# same characters in every one but the first three).
DIFFERENCES = {
    "110.1": "Chromium draws 「 before ( in '(「' and PDFium reads glyphs in drawing order: '「(' in the PDF",
    "400.6": "the same '(「' printed as '「('",
    "608.2a": "the same '(「' printed as '「('",
    "101.4": "its title line ends within 4 characters of the column's edge: read as wrapped, joined to the text",
    "804.1b": "its first line ends 5+ characters short of the column (half-width digits in it): read as a "
              "paragraph's end, so the parser takes it for the rule's title",
    "805.1a": "the same: a short wrapped first line taken for a title",
    "806.1e": "the same: a short wrapped first line taken for a title",
    "810.1": "the same: a short wrapped first line taken for a title",
    "810.4": "the same: a short wrapped first line taken for a title",
    "811.2a": "the same: a short wrapped first line taken for a title",
}


def _squeeze(text: str | None) -> str:
    return "".join((text or "").split())


@pytest.fixture(scope="module")
def standin(browser, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("dm-pdf")
    return render_standin(browser, CORPUS / META.file, folder / "dm_rule_20251217.pdf")


@pytest.fixture(scope="module")
def both(standin):
    text = parse_bytes((CORPUS / META.file).read_bytes(), META)
    pdf = parse_bytes(standin.read_bytes(), replace(META, file=str(standin)))
    return text, pdf


def test_the_standin_is_an_a4_pdf_with_header_footer_and_page_numbers(standin):
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(standin)
    try:
        width, height = pdf[0].get_size()
        assert (round(width), round(height)) == (596, 843)  # A4 in points
        first = pdf[1].get_textpage().get_text_range()
        assert HEADER in first and "- 2 -" in first
        assert len(pdf) > 40
    finally:
        pdf.close()


def test_the_pdf_gives_the_rules_of_the_text(both):
    text, pdf = both
    assert pdf.accounting.complete
    before = {str(rule.number): rule for rule in text.parsed.rules}
    after = {str(rule.number): rule for rule in pdf.parsed.rules}
    assert list(after) == list(before) and len(before) == 853  # the same numbers in the same order
    different = {number for number in before
                 if (_squeeze(before[number].text), _squeeze(before[number].title))
                 != (_squeeze(after[number].text), _squeeze(after[number].title))}
    for number in sorted(different):
        print(f"\n{number}: text {before[number].title!r} {before[number].text[:40]!r}\n"
              f"{' ' * len(number)}  PDF  {after[number].title!r} {after[number].text[:40]!r}")
    print(f"\n{len(before) - len(different)} of {len(before)} rules identical "
          f"({1 - len(different) / len(before):.2%}); the rest listed with their reason in DIFFERENCES")
    assert different == set(DIFFERENCES)
    for number in different - {"110.1", "400.6", "608.2a"}:  # no character lost or gained, only the title split
        assert _squeeze(before[number].title) + _squeeze(before[number].text) == \
            _squeeze(after[number].title) + _squeeze(after[number].text)
    assert [[_squeeze(e.text) for e in r.examples] for r in before.values()] == \
        [[_squeeze(e.text) for e in r.examples] for r in after.values()]
    assert sorted(a.code for a in text.parsed.anomalies) == \
        sorted(a.code for a in pdf.parsed.anomalies if a.code != "page-furniture")


def test_headers_footers_and_page_numbers_never_reach_a_rule(both, standin):
    _, pdf = both
    furniture = [a for a in pdf.parsed.anomalies if a.code == "page-furniture"]
    import pypdfium2 as pdfium

    pages = len(pdfium.PdfDocument(standin))
    assert len(furniture) == 2 * pages  # one header and one page number a page, each reported
    assert {re.sub(r"\d+", "#", a.message.split("'")[1]) for a in furniture} == {HEADER.replace("1.48", "#.#"),
                                                                                  "- # -"}
    for rule in pdf.parsed.rules:
        assert "総合ゲームルール Ver." not in rule.text and not re.search(r"- \d+ -", rule.text), rule.number


def test_adding_the_pdf_states_version_and_date_from_its_title_block(cli, standin, tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "manifest.toml").write_text("# test corpus\n", encoding="utf-8")
    code, out, err = cli("--corpus", str(corpus), "add", str(standin))
    assert code == 0, err
    assert out.splitlines()[0] == ("added dm-rulebook-1.48 as dm/dm_rule_20251217.pdf: format dm-rulebook, "
                                   "pdf paragraphs, dm ja, version 1.48 (2025-12-17), full")
    assert "853 rules, 111 examples" in out and "100.00% accounted" in out
