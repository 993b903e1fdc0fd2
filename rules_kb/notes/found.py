"""What linking a note finds and gives back, whatever the note's format: the references outside
its protected parts, the linked note and the problems of references left alone. Shared by
``notes.link`` (Markdown, text) and ``notes.markup`` (HTML), which therefore need not import
each other both ways.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_kb.notes.protect import mask_protected
from rules_kb.notes.resolve import LinkOptions
from rules_kb.refs import NoteReference, SectionReference, find_note_references, find_section_references, overlap_test


@dataclass(frozen=True)
class Problem:
    """A reference left unlinked: where it starts in the input, and why."""

    offset: int
    raw: str
    message: str


@dataclass(frozen=True)
class LinkedNote:
    text: str
    problems: tuple[Problem, ...]
    links: int


def find_in(text: str, fmt: str, options: LinkOptions) -> list[NoteReference | SectionReference]:
    """References outside the format's protected parts (HTML text nodes use ``"html"``): rules, and
    tournament sections where no rule reference stands, in order."""
    masked = mask_protected(text, fmt)
    rules = find_note_references(masked, game=options.game)
    taken = overlap_test((r.start, r.end) for r in rules)
    sections = [s for s in find_section_references(masked) if not taken(s.start, s.end)]
    return sorted([*rules, *sections], key=lambda r: r.start)
