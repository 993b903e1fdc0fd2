"""デュエル・マスターズ 競技イベント運営ルール, with its ペナルティガイドライン (sections 9-13), as printed.

A title and ``2025 年 5 月 1 日発効``, a もくじ without page numbers (one entry a line, ending where
the body repeats its first entry), ``0. はじめに`` to ``13. ペナルティ一覧`` with ``1.10`` and
``8.1 -`` subsections, and for each infraction ``ペナルティ：【警告】``, ``定義：``, ``理念：``,
``追加措置：``, ``例：`` parts. The PDF has no running headers, footers or page numbers.
"""

from __future__ import annotations

import re

from rules_kb.model import DocumentMeta, ParsedDocument, Section
from rules_kb.numbers import SectionNumber, fold_width
from rules_kb.sources.common import iso_date
from rules_kb.sources.tournament.document import parse_document
from rules_kb.sources.tournament.names import normalise_penalty
from rules_kb.sources.tournament.outline import Heading, Profile
from rules_kb.sources.tournament.paragraphs import Paragraph

# After width folding: ``10.3 タイトル``, ``0. はじめに``, ``8.1 - 制限時間``, ``8.3- スイス式…``.
_HEADING = re.compile(r"(?P<number>[0-9]{1,2}(?:\.[0-9]{1,2})?\.?)[ \t]*(?:[-‐–][ \t]*)?[ \t](?P<title>\S.{0,70})")
_EFFECTIVE = re.compile(r"(?P<year>[0-9]{4})\s*年\s*(?P<month>[0-9]{1,2})\s*月\s*(?P<day>[0-9]{1,2})\s*日\s*発効")
PART_HEADS = (("ペナルティ：", "penalty"), ("追加措置：", "additional-remedy"), ("処置例：", "examples"),
              ("定義：", "definition"), ("理念：", "philosophy"), ("例：", "examples"))


def find_effective_date(text: str) -> str | None:
    """``2025-05-01`` from ``2025 年 5 月 1 日発効`` (full-width digits folded)."""
    match = _EFFECTIVE.search(fold_width(text))
    return iso_date((match["year"], match["month"], match["day"])) if match else None


def find_contents(paragraphs: list[Paragraph]) -> set[int]:
    """From もくじ to the paragraph before the body repeats the contents' first entry."""
    start = next((i for i, p in enumerate(paragraphs[:20]) if p.text in ("もくじ", "目次")), None)
    if start is None or start + 1 >= len(paragraphs):
        return set()
    first = paragraphs[start + 1].text
    end = next((j for j in range(start + 2, len(paragraphs)) if paragraphs[j].text == first), start + 1)
    return set(range(start, end))


def read_heading(index: int, paragraph: Paragraph) -> Heading | None:
    """``10.3 ゲーム上の誤り ─ 過剰なカードを引いた``: a short line that is no sentence."""
    if len(paragraph.spans) != 1:
        return None
    match = _HEADING.fullmatch(fold_width(paragraph.text))
    if match is None or "。" in match["title"] or match["title"][0] in "(（「【":
        return None
    number = SectionNumber.parse(match["number"])
    if number.depth == 0 and not match["number"].endswith("."):
        return None  # top-level sections print their period: ``0. はじめに``
    title = paragraph.text[match.start("title"):].strip()
    return Heading(index, number, title, paragraph.spans)


def is_subheading(section: Section, paragraph: Paragraph, following: Paragraph | None) -> bool:
    """9.2's penalty names (【注意】, 【警告】, …) over their definitions."""
    return section.category is None and normalise_penalty(paragraph.text) is not None


COMPETITION = Profile(document="competition", japanese=True, read_heading=read_heading,
                      find_contents=find_contents, find_date=find_effective_date, part_heads=PART_HEADS,
                      is_subheading=is_subheading)


def parse_competition(text: str, meta: DocumentMeta) -> ParsedDocument:
    return parse_document(COMPETITION, text, meta)


def sniff_competition(text: str) -> int:
    head = text[:300]
    return 90 if "競技イベント運営ルール" in head and "発効" in head else 0
