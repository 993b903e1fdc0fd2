"""What linking a note finds and gives back, whatever the note's format: the references outside
its protected parts, the linked note and the problems of references left alone. Shared by
``notes.link`` (Markdown, text) and ``notes.markup`` (HTML), which therefore need not import
each other both ways.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_kb.notes.protect import mask_protected
from rules_kb.notes.resolve import LinkOptions
from rules_kb.refs import NoteReference, find_note_references


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


def find_in(text: str, fmt: str, options: LinkOptions) -> list[NoteReference]:
    """References outside the format's protected parts (HTML text nodes use ``"html"``)."""
    return find_note_references(mask_protected(text, fmt), game=options.game)
