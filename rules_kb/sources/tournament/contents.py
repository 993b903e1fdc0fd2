"""A tournament document's own contents pages, read apart from its body: the independent check.

The outline finds sections from the body's headings; the contents pages list them again, with
dot leaders and page numbers (``1.10 Players.......8``, several entries run into one line by the
PDF's layout) or one a line without page numbers (the Duel Masters もくじ). An entry that the body
does not hold under the same number and title, in the same order, is a finding about the
document (the publisher's slips are real), reported as an anomaly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules_kb.model import ParsedDocument
from rules_kb.numbers import SectionNumber, fold_width
from rules_kb.sources.tournament.names import name_key

# English: an entry, its dot leaders (or a space: ``Byes 52``) and its page number. Read from the
# page numbers back (``_english_entries``): a pattern tried from every start of a long line without
# page numbers was quadratic (a 120 kB line took 31 s).
_PAGE = re.compile(r"(?<![0-9])[0-9]{1,3}(?=\s|$)")
_VISIBLE = re.compile(r"\S")
_APPENDIX = re.compile(r"Appendix\s+(?P<letter>[A-Z])\s*[—–-]\s*(?P<title>.+)", re.I)
_NUMBERED = re.compile(r"(?P<number>[0-9]{1,2}(?:\.[0-9]{1,2})*)\.?\s*(?:[-‐–]\s*)?(?P<title>\S.*)")


@dataclass(frozen=True)
class ContentsEntry:
    number: str  # canonical, "" where the contents print none (Introduction, Booster Draft Timing)
    title: str
    position: int


@dataclass(frozen=True)
class ContentsFinding:
    """A disagreement between contents and body. ``entry`` is the contents entry (``None`` for a
    section the contents omit); ``body_title`` the body's title under the entry's number (``None``
    when the body has no such section)."""

    entry: ContentsEntry | None
    body_title: str | None
    section: str | None = None  # the body section's number, when there is one


def read_entries(parsed: ParsedDocument) -> list[ContentsEntry]:
    """The entries of the document's contents pages (residue ``contents``), in printed order."""
    entries: list[ContentsEntry] = []
    for residue in (r for r in parsed.residue if r.kind == "contents"):
        for start, end in residue.spans:
            line = fold_width(parsed.text[start:end]) if parsed.meta.languages[:1] == ("ja",) \
                else parsed.text[start:end]
            pieces = [(text, start + at) for text, at in _english_entries(line)] \
                if parsed.meta.languages[:1] != ("ja",) else [(line.strip(), start)]
            entries.extend(entry for text, at in pieces if (entry := _entry(text, at)) is not None)
    return entries


def _english_entries(line: str) -> list[tuple[str, int]]:
    """``(entry, offset)`` of each ``entry.....page`` or ``entry page`` run into one line, in order:
    each page number ends the entry that starts at the first character after the previous one. One
    pass over the line (each page number looks back over its own leader only)."""
    found: list[tuple[str, int]] = []
    begin = _first_character(line, 0)
    for page in _PAGE.finditer(line):
        leader = _leader_start(line, page.start())
        if leader is None or begin is None or leader <= begin:
            continue  # no leader, or nothing before it: the digits are part of the next entry
        found.append((line[begin:leader], begin))
        begin = _first_character(line, page.end())
    return found


def _first_character(line: str, at: int) -> int | None:
    start = _VISIBLE.search(line, at)
    return start.start() if start else None


def _leader_start(line: str, digits: int) -> int | None:
    """Where the leader before a page number starts: two or more dots with the spaces around them,
    else the spaces before it; None when neither is there."""
    spaces = digits
    while spaces > 0 and line[spaces - 1].isspace():
        spaces -= 1
    dots = spaces
    while dots > 0 and line[dots - 1] == ".":
        dots -= 1
    if spaces - dots >= 2:
        while dots > 0 and line[dots - 1].isspace():
            dots -= 1
        return dots
    return spaces if spaces < digits else None


def contents_entries(parsed: ParsedDocument) -> list[tuple[str, str]]:
    """``(number, title)`` of every contents entry; the number is ``""`` where none is printed."""
    return [(entry.number, entry.title) for entry in read_entries(parsed)]


def _entry(text: str, position: int) -> ContentsEntry | None:
    if (appendix := _APPENDIX.fullmatch(text)) is not None:
        return ContentsEntry(appendix["letter"].upper(), appendix["title"].strip(), position)
    if (numbered := _NUMBERED.fullmatch(text)) is not None:
        return ContentsEntry(str(SectionNumber.parse(numbered["number"])), numbered["title"].strip(), position)
    if text in ("もくじ", "目次", "CONTENTS", "Contents"):
        return None
    return ContentsEntry("", text.strip(), position)


def check_contents(parsed: ParsedDocument) -> list[ContentsFinding]:
    """Every contents entry the body lacks, in order: same number and title (``name_key``), or,
    for an unnumbered entry, a section or sub-heading of that title; the body is read forwards."""
    targets: list[tuple[str, str, str]] = []  # (number, title key, the section's title), in body order
    for section in parsed.sections:
        targets.append((section.number, name_key(section.title), section.title))
        targets.extend(("", name_key(part.heading), section.title)
                       for part in section.parts if part.label == "subheading")
    findings: list[ContentsFinding] = []
    matched: set[int] = set()
    cursor = 0
    for entry in read_entries(parsed):
        key = name_key(entry.title)
        exact = next((i for i in range(cursor, len(targets))
                      if targets[i][1] == key and (not entry.number or targets[i][0] == entry.number)), None)
        same_number = None if exact is not None else next(
            (i for i in range(cursor, len(targets)) if entry.number and targets[i][0] == entry.number), None)
        found = exact if exact is not None else same_number
        if found is None:
            findings.append(ContentsFinding(entry, None))
            continue
        cursor = found + 1
        matched.add(found)
        if exact is None:
            findings.append(ContentsFinding(entry, targets[found][2], targets[found][0]))
    findings.extend(ContentsFinding(None, title, number) for i, (number, _, title) in enumerate(targets)
                    if number and i not in matched)
    return findings
