"""Releases nobody has shown the parser: real releases rewritten in the style of 1999-2007
files (hard-wrapped at 72 columns, subrules written ``309.2a.``, page banners between lines)
must give the same rules, texts and terms as the originals."""

from __future__ import annotations

import re
import textwrap

import pytest
from conftest import CORPUS

from rules_kb.ingest.decode import decode_document
from rules_kb.model import DocumentMeta
from rules_kb.sources.mtg_cr import release as mtg_cr

SUBRULE = re.compile(r"^(\d{3}\.\d+[a-z])( )")


RELEASES = ["mtg/CR-2008-10-01.txt", "mtg/CR-2015-07-17.txt", "mtg/CR-2024-11-08.txt"]


def meta() -> DocumentMeta:
    return DocumentMeta("old", "old.txt", "0" * 64, "mtg", ("en",), "mtg-cr", "rules", ("old",))


def old_style(text: str) -> str:
    """Hard-wrap every long line, give subrules a period, and drop a page banner in every 50 lines."""
    out = []
    for index, line in enumerate(text.split("\n")):
        line = SUBRULE.sub(r"\1.\2", line)
        out.extend(textwrap.wrap(line, 72, break_on_hyphens=False, break_long_words=False) or [""])
        if index % 50 == 49:
            out.append(f"- {index // 50 + 1} -")
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module", params=RELEASES)
def both(request):
    text = decode_document((CORPUS / request.param).read_bytes(), request.param).text
    return mtg_cr.parse(text, meta()), mtg_cr.parse(old_style(text), meta())


def squash(text: str) -> str:
    return " ".join(text.split())


def test_same_rule_numbers(both):
    original, rewrapped = both
    assert [str(r.number) for r in rewrapped.rules] == [str(r.number) for r in original.rules]


def test_same_texts_and_examples(both):
    original, rewrapped = both
    differ = [str(a.number) for a, b in zip(original.rules, rewrapped.rules, strict=True)
              if squash(a.text) != squash(b.text) or [squash(e.text) for e in a.examples] != [
                  squash(e.text) for e in b.examples]]
    assert differ == []


def test_same_glossary(both):
    original, rewrapped = both
    assert [(t.term, squash(t.definition)) for t in rewrapped.terms] == [
        (t.term, squash(t.definition)) for t in original.terms]


def test_banners_are_chrome_and_periods_are_reported(both):
    _, rewrapped = both
    assert any(r.kind == "chrome" and r.text == "- 20 -" for r in rewrapped.residue)
    assert any(a.code == "subrule-period" for a in rewrapped.anomalies)
