"""The glossary of the Magic Comprehensive Rules: a term line, its definition, a blank line.

Definitions may run over several lines (indented paragraphs, numbered senses, examples in
old releases); all of them belong to the entry. One release drops the blank line between
two entries, so a short unpunctuated line inside a definition starts a new entry.
"""

from __future__ import annotations

import re

from rules_kb.model import ParsedDocument, Residue, Term
from rules_kb.sources.common import Line
from rules_kb.sources.mtg_cr.body import BANNER, Paragraphs, Release

# A line that reads like a term rather than part of a definition: short, flush left,
# capitalised, not a sentence, not a numbered sense, not an example.
_TERM_LIKE = re.compile(r"(?!Examples?:)[A-Z\"“'‘].{0,48}[^.:;,)\"”'’\s]")
# How the line before a term ends: a definition ends a sentence, a wrapped line does not.
_SENTENCE_END = re.compile(r"[.!?)\"”’:]\s*$")


def parse_glossary(lines: list[Line], start: int, end: int, release: Release, parsed: ParsedDocument) -> None:
    """Turn glossary lines ``start``..``end`` into terms; page banners between them are chrome.

    A definition that ends with a colon introduces a list (the expansion symbols of early
    releases): the one-line or indented blocks after it are its items, not terms.
    """
    listing: Term | None = None
    for block in _blocks(lines, start, end, parsed):
        if listing is not None and (len(block) == 1 or block[0].text != block[0].text.lstrip()):
            for line in block:
                listing.definition = _join_item(listing.definition, line.stripped)
                listing.spans.append(line.span())
            continue
        listing = None
        for entry in _split_run_together(block, parsed):
            term = _term(entry, release, parsed)
            parsed.terms.append(term)
            listing = term if term.definition.endswith(":") else None


def _join_item(before: str, item: str) -> str:
    """List items keep one line each, whether the release is hard-wrapped or not."""
    return before + "\n" + item


def _blocks(lines: list[Line], start: int, end: int, parsed: ParsedDocument) -> list[list[Line]]:
    """Runs of non-blank lines; page furniture (hard-wrapped releases) neither starts nor ends one."""
    blocks: list[list[Line]] = []
    current: list[Line] = []
    for index in range(start, end):
        line = lines[index]
        if BANNER.fullmatch(line.stripped):
            parsed.residue.append(Residue(line.stripped, [line.span()], "chrome"))
        elif line.stripped:
            current.append(line)
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def _split_run_together(block: list[Line], parsed: ParsedDocument) -> list[list[Line]]:
    """Split a block where a term line follows a definition without the blank line between."""
    entries = [block[:2]]
    for position in range(2, len(block)):
        line = block[position]
        starts_entry = (
            position + 1 < len(block)
            and line.text == line.text.lstrip()
            and _SENTENCE_END.search(block[position - 1].text) is not None
            and _TERM_LIKE.fullmatch(line.stripped) is not None
        )
        if starts_entry:
            parsed.anomaly(line.start, "glossary-missing-blank",
                           f"term {line.stripped!r} follows the definition of {entries[-1][0].stripped!r} "
                           "without a blank line", "read as a new glossary entry")
            entries.append([line])
        else:
            entries[-1].append(line)
    return entries


def _term(entry: list[Line], release: Release, parsed: ParsedDocument) -> Term:
    head, definition = entry[0], entry[1:]
    if not definition:
        parsed.anomaly(head.start, "glossary-no-definition", f"glossary term {head.stripped!r} has no definition",
                       "kept as a term with an empty definition")
    text = Paragraphs(release)  # joined once: linear in the number of lines
    for line in definition:
        text.add(line.stripped)
    return Term(head.stripped, str(text), [line.span() for line in entry], game="mtg", lang="en",
                version=release.version)
