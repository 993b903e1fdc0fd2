"""Magic: The Gathering Tournament Rules (MTR) and Infraction Procedure Guide (IPG), as printed.

Both come from one publisher and share a layout: a title and ``Effective April 21, 2025``,
contents with dot leaders (the PDF runs several entries into one line), unnumbered introductory
sections, ``1.`` / ``1.10`` (MTR) or ``1.`` / ``2.1.`` (IPG) headings, lettered appendices, a
trademark colophon. The IPG prints each infraction's penalty after its title on the heading line
(``2.1. Game Play Error — Missed Trigger No Penalty``) and its parts under plain headings.
"""

from __future__ import annotations

import re
from datetime import datetime

from rules_kb.model import DocumentMeta, ParsedDocument, Section
from rules_kb.numbers import SectionNumber
from rules_kb.sources.common import trim_span
from rules_kb.sources.tournament.document import parse_document
from rules_kb.sources.tournament.names import SEPARATORS, normalise_penalty
from rules_kb.sources.tournament.outline import Heading, Profile
from rules_kb.sources.tournament.paragraphs import Paragraph

_MTR_HEADING = re.compile(r"(?P<number>[0-9]{1,2}(?:\.[0-9]{1,2})?\.?)[ \t]+(?P<title>[A-Z][^\n]{0,90}?)")
_IPG_HEADING = re.compile(r"(?P<number>[0-9]{1,2}\.(?:[0-9]{1,2}\.)?)[ \t]+(?P<title>[A-Z][^\n]{0,110}?)"
                          r"(?:[ \t]+(?P<penalty>No Penalty|Warning|Game Loss|Match Loss|Disqualification))?")
_APPENDIX = re.compile(r"Appendix[ \t]+(?P<letter>[A-Z])[ \t]*[—–-][ \t]*(?P<title>\S.{0,90})", re.I)
_EFFECTIVE = re.compile(r"Effective\s+(?P<month>[A-Z][a-z]+)\s+(?P<day>[0-9]{1,2}),\s+(?P<year>[0-9]{4})")
_DOT_LEADERS = re.compile(r"\.{4,}\s*[0-9]{1,3}\b")
_SUBHEADING = re.compile(r"[A-Z][A-Za-z’' -]{2,40}")
COLOPHON = re.compile(r"All trademarks are property of Wizards of the Coast")
PART_HEADS = (("Additional Remedy", "additional-remedy"), ("Definition", "definition"),
              ("Examples", "examples"), ("Philosophy", "philosophy"), ("Upgrade:", "upgrade"))


def find_effective_date(text: str) -> str | None:
    """``2025-04-21`` from ``Effective April 21, 2025``."""
    match = _EFFECTIVE.search(text)
    if match is None:
        return None
    try:
        day = datetime.strptime(f"{match['month']} {match['day']} {match['year']}", "%B %d %Y")
    except ValueError:
        return None
    return day.strftime("%Y-%m-%d")


def find_contents(paragraphs: list[Paragraph]) -> set[int]:
    """The contents pages: the ``CONTENTS`` title and every early paragraph with dot leaders."""
    early = range(min(len(paragraphs), 60))
    return {i for i in early if _DOT_LEADERS.search(paragraphs[i].text) or paragraphs[i].text == "CONTENTS"}


def read_heading(index: int, paragraph: Paragraph, pattern: re.Pattern[str] = _MTR_HEADING) -> Heading | None:
    """A numbered heading (``1.10 Players``, ``2.1. … Missed Trigger No Penalty``) or an appendix's."""
    if len(paragraph.spans) != 1:
        return None
    start, end = paragraph.spans[0]
    if (appendix := _APPENDIX.fullmatch(paragraph.text)) is not None:
        return Heading(index, SectionNumber.parse(appendix["letter"].upper()), appendix["title"].strip(),
                       paragraph.spans, appendix=True)
    match = pattern.fullmatch(paragraph.text)
    if match is None or match["title"].rstrip().endswith((".", ":", ";", ",")):
        return None
    penalty = match.groupdict().get("penalty")
    if penalty is not None and not any(mark in match["title"] for mark in SEPARATORS):
        return None  # a penalty follows an infraction's "Category — Name" only
    title_end = end - (len(paragraph.text) - match.end("title"))
    penalty_span = trim_span(paragraph.text, match.start("penalty"), match.end("penalty"), start) if penalty else None
    return Heading(index, SectionNumber.parse(match["number"]), match["title"].strip(),
                   (trim_span(paragraph.text, 0, title_end - start, start),), penalty, penalty_span)


def is_subheading(section: Section, paragraph: Paragraph, following: Paragraph | None) -> bool:
    """IPG 1.1's penalty names; an appendix's short title-like line over a sentence (Booster Draft Timing)."""
    if section.category is None and normalise_penalty(paragraph.text) is not None:
        return True
    if not section.number[:1].isalpha() or following is None or not _SUBHEADING.fullmatch(paragraph.text):
        return False
    return len(following.text) > 40 and following.text.endswith((".", ":"))


MTR = Profile(document="mtr", japanese=False, read_heading=read_heading, find_contents=find_contents,
              find_date=find_effective_date, part_heads=PART_HEADS, front_titles=("introduction",),
              is_subheading=is_subheading, colophon=COLOPHON)
IPG = Profile(document="ipg", japanese=False,
              read_heading=lambda index, paragraph: read_heading(index, paragraph, _IPG_HEADING),
              find_contents=find_contents, find_date=find_effective_date, part_heads=PART_HEADS,
              front_titles=("introduction", "framework of this document"), is_subheading=is_subheading,
              colophon=COLOPHON)


def parse_mtr(text: str, meta: DocumentMeta) -> ParsedDocument:
    return parse_document(MTR, text, meta)


def parse_ipg(text: str, meta: DocumentMeta) -> ParsedDocument:
    return parse_document(IPG, text, meta)


def sniff_mtr(text: str) -> int:
    head = text[:400]
    return 90 if "TOURNAMENT RULES" in head.upper() and "Effective" in head \
        and "Tournament Fundamentals" in text[:20000] else 0


def sniff_ipg(text: str) -> int:
    head = text[:400]
    return 90 if "INFRACTION PROCEDURE GUIDE" in head.upper() and "Effective" in head else 0
