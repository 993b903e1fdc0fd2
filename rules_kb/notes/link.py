"""Linking a note: find references outside protected parts, resolve them, write the links.

Markdown gets ``[rule 509.1a](URL)``, plain text gets ``rule 509.1a[1]`` with a footnote list
appended, HTML gets ``<a href="URL">`` around the reference in the source (``notes.markup``).
Everything else stays byte for byte, and a linked note comes back unchanged when linked again:
links, footnoted references and footnote lists are protected.
"""

from __future__ import annotations

import bisect
import re

from rules_kb.notes.found import LinkedNote, Problem, find_in
from rules_kb.notes.index import NoteIndex
from rules_kb.notes.protect import FOOTNOTE_MARK
from rules_kb.notes.resolve import LinkOptions, resolve

FORMATS = ("md", "html", "text")
_FOOTNOTE_MARK = re.compile(FOOTNOTE_MARK)
FOOTNOTE_LINE = re.compile(r"^\[(?P<footnote>[0-9]+)\]:", re.M)


def line_and_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of ``offset``: one position of a text (``Lines`` for many)."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


class Lines:
    """Where each line of a text starts, found once: the line and column of every citation of a note
    without counting its line breaks from the start again for each (that count was the largest part
    of ``link``'s 15 s on a 3.9 MB note)."""

    def __init__(self, text: str) -> None:
        self.starts = [0, *(match.end() for match in re.finditer("\n", text))]

    def line_and_column(self, offset: int) -> tuple[int, int]:
        """As ``line_and_column(text, offset)``."""
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1


def link_note(text: str, fmt: str, options: LinkOptions, index: NoteIndex) -> LinkedNote:
    """The note with its references linked, and the problems of those left alone."""
    if fmt == "html":
        from rules_kb.notes.markup import link_html  # bs4 and lxml only when HTML is asked for

        return link_html(text, options, index)
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}")
    pieces: list[str] = []
    problems: list[Problem] = []
    footnotes: dict[str, int] = {}
    first_footnote = max((int(m["footnote"]) for m in FOOTNOTE_LINE.finditer(text)), default=0) + 1
    position = links = 0
    for reference in find_in(text, fmt, options):
        for item in resolve(reference, options, index):
            if fmt == "text" and _FOOTNOTE_MARK.match(text, item.end):
                continue  # linked by an earlier run
            if item.problem is not None:
                problems.append(Problem(item.start, text[item.start : item.end], item.problem))
                continue
            pieces.append(text[position : item.start])
            if fmt == "md":
                pieces.append(f"[{text[item.start : item.end]}]({item.url})")
            else:
                number = footnotes.setdefault(item.url, first_footnote + len(footnotes))
                pieces.append(f"{text[item.start : item.end]}[{number}]")
            position = item.end
            links += 1
    pieces.append(text[position:])
    linked = "".join(pieces)
    if footnotes:
        linked += _footnote_list(linked, footnotes, first_footnote > 1)
    return LinkedNote(linked, tuple(problems), links)


def _footnote_list(text: str, footnotes: dict[str, int], continuing: bool) -> str:
    """``[n]: URL`` lines after the text; a blank line first unless a list is being continued."""
    head = "" if text.endswith("\n") else "\n"
    head += "" if continuing else "\n"
    return head + "".join(f"[{number}]: {url}\n" for url, number in footnotes.items())
