"""Linking references in HTML: text nodes found by a real parser, links spliced into the source.

The source is never re-serialised (that would change quoting, entities and whitespace): the
parser tells which text may be linked, and the links go into the original bytes. To learn
where a text node's reference sits in the source, every place the reference's text occurs in
the source gets a numbered marker of private-use characters, and the source is parsed again:
the marker that ends up at the reference's start in an eligible text node names the place.
Markers falling in attributes, comments, ``<a>``, ``<code>`` or ``<pre>`` are simply never read.
"""

from __future__ import annotations

import html
import warnings

from bs4 import BeautifulSoup, MarkupResemblesLocatorWarning, NavigableString

from rules_kb.notes.found import LinkedNote, Problem, find_in
from rules_kb.notes.index import NoteIndex
from rules_kb.notes.resolve import LinkOptions, resolve

# Text under these is left alone: links, code, and elements whose text is not markup.
SKIPPED = frozenset({"a", "code", "pre", "kbd", "samp", "script", "style", "textarea", "title", "template"})
UNLOCATED = "cannot be located in the HTML source (written with character references?); position unknown"
MARK_START, MARK_END, MARK_ZERO = "\ue000", "\ue001", 0xE010  # digits are U+E010..U+E019


def eligible_texts(source: str) -> list[str]:
    """The text nodes, in document order, that may hold links."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)  # a short note may look like a URL
        soup = BeautifulSoup(source, "lxml")
    return [
        str(node) for node in soup.descendants
        if type(node) is NavigableString and not any(parent.name in SKIPPED for parent in node.parents)
    ]


def _marker(number: int) -> str:
    return MARK_START + "".join(chr(MARK_ZERO + int(digit)) for digit in str(number)) + MARK_END


def _read_markers(text: str) -> tuple[str, dict[int, list[int]]]:
    """The text without markers, and the marker numbers found at each offset of that text."""
    clean: list[str] = []
    found: dict[int, list[int]] = {}
    position = 0
    while position < len(text):
        char = text[position]
        if char == MARK_START:
            end = text.find(MARK_END, position)
            if end < 0:
                break
            digits = "".join(str(ord(c) - MARK_ZERO) for c in text[position + 1 : end])
            found.setdefault(len(clean), []).append(int(digits))
            position = end + 1
            continue
        clean.append(char)
        position += 1
    return "".join(clean), found


def _occurrences(source: str, raws: set[str]) -> list[int]:
    """Every offset where one of ``raws`` starts in the source, in order."""
    places = set()
    for raw in raws:
        at = source.find(raw)
        while at >= 0:
            places.add(at)
            at = source.find(raw, at + 1)
    return sorted(places)


def link_html(source: str, options: LinkOptions, index: NoteIndex) -> LinkedNote:
    """``source`` with ``<a href>`` around each resolvable reference found in its text nodes."""
    raws = {ref.raw for text in eligible_texts(source) for ref in find_in(text, "html", options)}
    places = _occurrences(source, raws)
    marked = []
    previous = 0
    for number, place in enumerate(places):
        marked.append(source[previous:place])
        marked.append(_marker(number))
        previous = place
    marked.append(source[previous:])
    splices: list[tuple[int, int, str]] = []
    problems: list[Problem] = []
    for text in eligible_texts("".join(marked)):
        clean, markers = _read_markers(text)
        for reference in find_in(clean, "html", options):
            at = next((places[n] for n in markers.get(reference.start, [])
                       if source.startswith(reference.raw, places[n])), None)
            if at is None:
                problems.append(Problem(0, reference.raw, UNLOCATED))
                continue
            shift = at - reference.start
            for item in resolve(reference, options, index):
                if item.problem is not None:
                    problems.append(Problem(item.start + shift, clean[item.start : item.end], item.problem))
                else:
                    splices.append((item.start + shift, item.end + shift, item.url))
    pieces = []
    previous = 0
    for start, end, url in sorted(splices):
        pieces.append(source[previous:start])
        pieces.append(f'<a href="{html.escape(url)}">{source[start:end]}</a>')
        previous = end
    pieces.append(source[previous:])
    return LinkedNote("".join(pieces), tuple(sorted(problems, key=lambda p: p.offset)), len(splices))
