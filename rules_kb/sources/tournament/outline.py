"""The outline every tournament document shares: front matter, contents, numbered sections with
labelled parts, appendices, a colophon. A ``Profile`` says how one publisher prints each of them.

Headings are recognised by their number *and* their place in the sequence: the documents hold
numbered lists (``1. Match points`` inside MTR 3.1, ``4. 対戦相手が…`` inside DM 3.1) that look
like headings. A top-level ``N.`` counts only when it follows ``N-1`` and the next heading-like
number after it is ``N.1`` or ``N+1``; a subsection ``N.K`` only inside ``N``, never going back.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from rules_kb.model import DocumentMeta, ParsedDocument, Residue, Section, SectionPart, Span
from rules_kb.numbers import SectionNumber
from rules_kb.sources.tournament.names import normalise_penalty, split_title
from rules_kb.sources.tournament.paragraphs import Paragraph, read_paragraphs


@dataclass(frozen=True)
class Heading:
    """A paragraph that may open a section: its number, title and a penalty printed beside it."""

    index: int
    number: SectionNumber
    title: str
    title_spans: tuple[Span, ...]
    penalty: str | None = None
    penalty_span: Span | None = None
    numbered: bool = True
    appendix: bool = False


@dataclass(frozen=True)
class Profile:
    """What one publisher's document looks like (see ``magic`` and ``duel_masters``)."""

    document: str  # the document kind: "mtr", "ipg", "competition"
    japanese: bool
    read_heading: Callable[[int, Paragraph], Heading | None]
    find_contents: Callable[[list[Paragraph]], set[int]]
    find_date: Callable[[str], str | None]
    part_heads: tuple[tuple[str, str], ...]  # (printed lead-in, label), longest first
    front_titles: tuple[str, ...] = ()  # unnumbered sections before section 1, casefolded
    is_subheading: Callable[[Section, Paragraph, Paragraph | None], bool] = lambda *_: False
    colophon: re.Pattern[str] | None = None


@dataclass
class Outline:
    """The paragraphs of a document and the role the outline gave each."""

    paragraphs: list[Paragraph]
    contents: set[int]
    colophon: int
    headings: list[Heading] = field(default_factory=list)


def accept_headings(candidates: list[Heading], parsed: ParsedDocument) -> list[Heading]:
    """The candidates that are the document's section headings, by their place in the sequence."""
    accepted: list[Heading] = []
    top: int | None = None
    last_sub: int | None = None
    letter: str | None = None
    for position, heading in enumerate(candidates):
        parts = heading.number.parts
        if heading.appendix:
            if parts[0] == (chr(ord(letter) + 1) if letter else "A"):
                letter = str(parts[0])
                accepted.append(heading)
            continue
        if letter is not None or not isinstance(parts[0], int):
            continue  # numbered headings end where the appendices begin
        if len(parts) == 1:
            if (parts[0] in (0, 1) if top is None else parts[0] == top + 1) \
                    and _leads_on(heading, candidates[position + 1:], top):
                top, last_sub = parts[0], None
                accepted.append(heading)
        elif len(parts) == 2 and parts[0] == top and (last_sub is None or parts[1] >= last_sub):
            if parts[1] == last_sub:
                parsed.anomaly(heading.title_spans[0][0], "duplicate-section-number",
                               f"section {heading.number} is printed twice (the second: {heading.title!r})",
                               "kept both, in document order, under the printed number")
            last_sub = parts[1]
            accepted.append(heading)
    return accepted


def _leads_on(heading: Heading, rest: list[Heading], top: int | None) -> bool:
    """Whether the next plausible heading after a top-level ``N.`` is ``N.1``-like or ``N+1.``."""
    number = heading.number.parts[0]
    for later in rest:
        parts = later.number.parts
        if later.appendix:
            return True
        if len(parts) == 2 and parts[0] in (number, top):
            return parts[0] == number
        if len(parts) == 1 and parts[0] == number + 1:
            return True
    return True


def outline_document(profile: Profile, text: str, parsed: ParsedDocument) -> Outline:
    """Paragraphs, contents, colophon and accepted headings of ``text``."""
    paragraphs = read_paragraphs(text, japanese=profile.japanese)
    contents = profile.find_contents(paragraphs)
    colophon = next((i for i, p in enumerate(paragraphs)
                     if profile.colophon is not None and profile.colophon.match(p.text)), len(paragraphs))
    candidates = [heading for i, p in enumerate(paragraphs[:colophon]) if i not in contents
                  and (heading := profile.read_heading(i, p)) is not None]
    outline = Outline(paragraphs, contents, colophon, accept_headings(candidates, parsed))
    first = outline.headings[0].index if outline.headings else colophon
    front = [i for i in range(first) if i not in contents
             and paragraphs[i].text.casefold() in profile.front_titles]
    # Unnumbered front sections take the number the Duel Masters document prints for its own
    # introduction (0. はじめに): 0, then 0.1, 0.2 for any more.
    for order, index in enumerate(front):
        number = SectionNumber((0,) if order == 0 else (0, order))
        outline.headings.insert(order, Heading(index, number, paragraphs[index].text,
                                               paragraphs[index].spans, numbered=False))
    return outline


def assemble_sections(profile: Profile, outline: Outline, parsed: ParsedDocument, version: str) -> None:
    """Sections, parts and residue from an outline: every paragraph goes to exactly one record."""
    meta = parsed.meta
    starts = {heading.index: heading for heading in outline.headings}
    section: Section | None = None
    pieces: list[str] = []
    for index, paragraph in enumerate(outline.paragraphs):
        if index in outline.contents or index >= outline.colophon or (section is None and index not in starts):
            kind = "contents" if index in outline.contents else (
                "colophon" if index >= outline.colophon else "front")
            parsed.residue.append(Residue(paragraph.text, list(paragraph.spans), kind))
            continue
        if index in starts:
            _finish(section, pieces)
            section, pieces = _open_section(starts[index], meta, profile.document, version), []
            parsed.sections.append(section)
            continue
        after = index + 1  # the next paragraph of the same section, if any
        following = outline.paragraphs[after] if after < outline.colophon and after not in starts \
            and after not in outline.contents else None
        _add_paragraph(profile, section, pieces, paragraph, following)
    _finish(section, pieces)


def _open_section(heading: Heading, meta: DocumentMeta, document: str, version: str) -> Section:
    category, name = split_title(heading.title)
    section = Section(game=meta.game, lang=meta.languages[0] if meta.languages else "", document=document,
                      version=version, number=str(heading.number), title=heading.title, text="",
                      spans=list(heading.title_spans), document_id=meta.id, category=category, name=name,
                      date=version, numbered=heading.numbered)
    if heading.penalty is not None and heading.penalty_span is not None:
        section.parts.append(SectionPart("penalty", "", heading.penalty, [heading.penalty_span]))
        section.penalty = normalise_penalty(heading.penalty)
    return section


def _add_paragraph(profile: Profile, section: Section, pieces: list[str], paragraph: Paragraph,
                   following: Paragraph | None) -> None:
    """A body paragraph: a part's lead-in opens a part, else it extends the open part or the text."""
    for lead, label in profile.part_heads:
        # a lead-in ending with a colon opens a paragraph (Upgrade: …, 例：…); others stand alone
        if paragraph.text.startswith(lead) if lead.endswith((":", "：")) else paragraph.text == lead:
            rest = paragraph.text[len(lead):].strip()
            section.parts.append(SectionPart(label, lead.strip(), rest, list(paragraph.spans)))
            if label == "penalty" and rest and section.penalty is None:
                section.penalty = normalise_penalty(rest)
            return
    if profile.is_subheading(section, paragraph, following):
        section.parts.append(SectionPart("subheading", paragraph.text, "", list(paragraph.spans)))
        return
    if section.parts and section.parts[-1].heading:  # a penalty printed on the heading line is closed
        part = section.parts[-1]
        part.text = f"{part.text}\n{paragraph.text}" if part.text else paragraph.text
        part.spans.extend(paragraph.spans)
        if part.label == "penalty" and section.penalty is None:
            section.penalty = normalise_penalty(paragraph.text)
        return
    pieces.append(paragraph.text)
    section.spans.extend(paragraph.spans)


def _finish(section: Section | None, pieces: list[str]) -> None:
    if section is not None:
        section.text = "\n".join(pieces)
