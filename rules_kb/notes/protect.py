"""The parts of a note the linker must not touch, per format, as patterns.

Markdown: fenced and indented code, code spans, inline and reference links (and images),
reference definitions, autolinks, raw HTML tags and the content of ``<a>``, ``<code>``,
``<pre>``, ``<textarea>`` (and the like) elements written inline, bare URLs. Plain text: URLs and the footnote list a
previous run appended. Inside HTML text nodes: URLs.

The patterns use only syntax Python and JavaScript read alike (named groups and backreferences
are translated by ``notes.assets``), since the site's link page runs these very patterns.
Protected spans are masked with U+FFFC before references are searched, so offsets still match
the input and no reference can reach across a protected span.
"""

from __future__ import annotations

import re

MASK = "\ufffc"
_URL = r"(?:[Hh][Tt][Tt][Pp][Ss]?://|www\.)[^\s<>]*[^\s<>.,;:!?)\]'\"」』）。、]"
_ELEMENTS = "|".join(name for tag in ("a", "code", "pre", "kbd", "samp", "script", "style", "textarea", "title",
                                                "template") for name in
                     (tag, tag.upper()))
PROTECTED: dict[str, list[str]] = {
    "md": [
        # a backtick fence's info string holds no backtick (CommonMark 4.5): ```CR 509.1a`` is text
        r"^[ ]{0,3}(?P<fence>`{3,}(?![^\n]*`)|~{3,})[^\n]*"
        r"(?:\n(?![ ]{0,3}(?P=fence))[^\n]*)*(?:\n[ ]{0,3}(?P=fence)[^\n]*)?",
        r"(?:(?<=\n\n)|(?<![\s\S]))(?:(?:[ ]{4}|\t)[^\n]*(?:\n|(?![\s\S])))+",
        # a code span ends within its paragraph: it never reaches across a blank line
        r"(?<!`)(?P<ticks>`+)(?!`)(?:[^\n]|\n(?![ \t]*\n))*?(?<!`)(?P=ticks)(?!`)",
        r"!?\[(?:[^\[\]\n]|\[[^\[\]\n]*\])*\](?:\([^)\n]*\)|\[[^\]\n]*\])",
        r"^[ ]{0,3}\[[^\]\n]+\]:[^\n]*",
        rf"<(?P<element>{_ELEMENTS})(?![A-Za-z0-9])[^>]*>[\s\S]*?</(?P=element)\s*>",
        r"<!--[\s\S]*?-->|</?[A-Za-z][^>\n]*>|<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]*>",
        _URL,
    ],
    "text": [r"^\[[0-9]+\]:[^\n]*", _URL],
    "html": [_URL],
}
# In plain text a linked reference is followed by its footnote number: ``rule 509.1a[1]``.
FOOTNOTE_MARK = r"\[(?P<footnote>[0-9]+)\]"


def protected_pattern(fmt: str) -> str:
    """One alternation of a format's protected patterns."""
    return "|".join(f"(?:{pattern})" for pattern in PROTECTED[fmt])


_COMPILED = {fmt: re.compile(protected_pattern(fmt), re.M) for fmt in PROTECTED}


def mask_protected(text: str, fmt: str) -> str:
    """``text`` with every protected span replaced by U+FFFC (line ends kept, so positions hold)."""
    pieces = []
    position = 0
    for match in _COMPILED[fmt].finditer(text):
        if match.end() == match.start():
            continue
        pieces.append(text[position : match.start()])
        pieces.append("".join(char if char == "\n" else MASK for char in match.group()))
        position = match.end()
    pieces.append(text[position:])
    return "".join(pieces)
