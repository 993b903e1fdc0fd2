"""PukiWiki line structure, including lines whose line breaks were lost.

PukiWiki is line-oriented: a block's kind is decided by the first characters of its line
(``*`` heading, ``-``/``+`` list item, ``|`` table row, ``#`` block plugin, ``//`` comment).
Some of our sources lost every line break (each became a space), so a line start has to be
recovered from the markup itself. The rules, each with the reason it is safe:

* a recovered line start always follows whitespace: the lost break became a space;
* it never lies inside ``[[…]]``, ``((…))`` or ``&plugin(…){…};``: those inline elements
  cannot span lines in PukiWiki, so a marker inside them is text;
* some blocks end in a way the markup fixes: a heading at its ``[#anchor]``, a table row
  at its closing ``|`` (optionally ``|h``/``|f``/``|c``), a block plugin at its closing
  parenthesis; a ``*`` or ``|`` that does not close like that is text;
* ``-``/``+`` must be followed by a non-space (``A - B`` is a dash), and not by a signed
  number (``パワー -1000 する``: digits then a space or punctuation); digits followed by
  a word are an item (``-1.ゲームの基本``, ``-2021年9月7日に…``);
* recovery is only applied to a physical line showing a sure sign of flattening (a heading
  with its anchor, or ``#author(``, after whitespace): genuine PukiWiki never has those
  mid-line, and lines that kept their breaks must not be split at hyphens.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules_kb.sources.common import iter_lines, trim_span

# Sure signs that one physical line holds several PukiWiki lines.
_FLATTENED = re.compile(r"\s(?:#author\(|#region\w*\(|\*{1,3}[^\s*][^\n]{0,160}?\[#[A-Za-z0-9_-]+\](?=\s|$))")
_START = re.compile(
    r"(?P<plugin>\#[A-Za-z]\w*(?=[({\s]|$))"
    r"|(?P<heading>\*{1,3}(?=[^\s*]))"
    r"|(?P<rule>-{4,})"
    r"|(?P<list>(?:-{1,3}(?!-)|\+{1,3}(?!\+))(?=\S)(?!\d+(?:[\s,、。)）]|$)))"
    r"|(?P<row>\|)"
    r"|(?P<comment>//)"
    r"|(?P<align>(?:LEFT|CENTER|RIGHT):)"
    r"|(?P<close>\}\})"
    r"|(?P<tag>&tag\()"
)
HEADING = re.compile(
    r"(?P<marks>\*{1,3})(?P<body>(?:\[\[[^\]\n]*\]\]|[^\[\]\n]){0,160}?)\s*\[#(?P<anchor>[A-Za-z0-9_-]+)\](?=\s|$)"
)
_PLUGIN_NAME = re.compile(r"#[A-Za-z]\w*")
_INLINE_OPEN = re.compile(r"&\w+(?:\([^()\n]*\))?\{")


@dataclass(frozen=True)
class SourceLine:
    """One PukiWiki line: its trimmed span and how it was found."""

    start: int
    end: int
    recovered: bool = False  # its start was a lost line break
    blank_before: bool = False  # an empty line precedes it (only visible when breaks survive)
    indented: bool = False  # starts with whitespace: preformatted text in PukiWiki


@dataclass(frozen=True)
class FlattenedLine:
    """A physical line that held several PukiWiki lines."""

    start: int
    recovered: int


def split_lines(text: str) -> tuple[list[SourceLine], list[FlattenedLine]]:
    """Every PukiWiki line of ``text``, recovering lost line breaks where the text shows them."""
    lines: list[SourceLine] = []
    flattened: list[FlattenedLine] = []
    blank = False
    for physical in iter_lines(text):
        start, end = physical.span()
        if start == end:
            blank = True
            continue
        if _FLATTENED.search(text, start, end):
            pieces = _split_flattened(text, start, end)
            flattened.append(FlattenedLine(start, len(pieces) - 1))
            lines.append(SourceLine(pieces[0][0], pieces[0][1], False, blank))
            lines.extend(SourceLine(s, e, True) for s, e in pieces[1:])
        else:
            lines.append(SourceLine(start, end, False, blank, indented=start > physical.start))
        blank = False
    return lines, flattened


def _split_flattened(text: str, start: int, end: int) -> list[tuple[int, int]]:
    pieces = []
    pos = start
    while pos < end:
        stop = _fixed_end(text, pos, end) or _next_start(text, pos, end)
        pieces.append(trim_span(text, pos, stop))
        pos = stop
        while pos < end and text[pos].isspace():
            pos += 1
    return pieces


def _fixed_end(text: str, pos: int, end: int) -> int | None:
    """Where a block whose end the markup fixes stops, or None for free-running blocks."""
    match = _START.match(text, pos, end)
    kind = match.lastgroup if match else None
    if kind == "heading":
        heading = HEADING.match(text, pos, end)
        return heading.end() if heading else None
    if kind == "row":
        return row_end(text, pos, end)
    if kind == "plugin":
        return plugin_end(text, pos, end)
    if kind == "close":
        return pos + 2
    if kind == "tag":
        close = text.find(");", pos, end)
        return close + 2 if close >= 0 else None
    return None


def _is_start(text: str, pos: int, end: int) -> bool:
    match = _START.match(text, pos, end)
    if match is None:
        return False
    if match.lastgroup == "heading":
        return HEADING.match(text, pos, end) is not None
    if match.lastgroup == "row":
        return row_end(text, pos, end) is not None
    return True


def _next_start(text: str, pos: int, end: int) -> int:
    """The next recovered line start after ``pos`` (outside inline brackets), or ``end``."""
    depth = 0
    i = pos
    while i < end:
        step = _bracket_step(text, i, end, depth)
        if step is not None:
            depth, i = step
            continue
        if i > pos and depth == 0 and text[i - 1].isspace() and _is_start(text, i, end):
            return i
        i += 1
    return end


def _bracket_step(text: str, i: int, end: int, depth: int) -> tuple[int, int] | None:
    """If an inline bracket opens or closes at ``i``: the new depth and where to continue."""
    pair = text[i : i + 2]
    if pair in ("[[", "(("):
        return depth + 1, i + 2
    if pair in ("]]", "))", "};") and depth:
        return depth - 1, i + 2
    opener = _INLINE_OPEN.match(text, i, end)
    if opener:
        return depth + 1, opener.end()
    return None


def row_end(text: str, pos: int, end: int) -> int | None:
    """End of the table row starting at ``pos``: after its last ``|`` and row marker."""
    depth = 0
    i = pos + 1
    while i < end:
        step = _bracket_step(text, i, end, depth)
        if step is not None:
            depth, i = step
            continue
        if depth == 0 and text[i] == "|":
            j = i + 1
            if j < end and text[j] in "hfcHFC":
                j += 1
            if j >= end or text[j].isspace():
                return j
        i += 1
    return None


def plugin_end(text: str, pos: int, end: int) -> int:
    """End of ``#name(args){{``: after the closing parenthesis and any block opener."""
    i = _PLUGIN_NAME.match(text, pos, end).end()
    if i < end and text[i] == "(":
        i = _closing_paren(text, i, end)
    while i < end and text[i] == "{":
        i += 1
    return i


def _closing_paren(text: str, i: int, end: int) -> int:
    """Position after the parenthesis closing the one at ``i`` (quoted strings skipped)."""
    depth = 0
    quoted = False
    while i < end:
        char = text[i]
        if char == '"':
            quoted = not quoted
        elif not quoted and char == "(":
            depth += 1
        elif not quoted and char == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return end


def unclosed_brackets(text: str, start: int, end: int) -> list[int]:
    """Positions of ``[[`` and ``((`` that no closer matches before the end of the line."""
    openers: list[int] = []
    i = start
    while i < end:
        pair = text[i : i + 2]
        if pair in ("[[", "(("):
            openers.append(i)
            i += 2
        elif pair in ("]]", "))") and openers:
            openers.pop()
            i += 2
        else:
            i += 1
    return openers


def block_kind(text: str, line: SourceLine) -> str:
    """What the line is: heading, list, definition, row, plugin, comment, rule, align, close, tag, pre or text."""
    if line.indented:
        return "pre"
    if text[line.start] == ":" and "|" in text[line.start : line.end]:
        return "definition"
    match = _START.match(text, line.start, line.end)
    if match is not None:
        return match.lastgroup or "text"
    # Within a line that kept its breaks any leading -/+ is a list marker (``- item``, ``-1000``).
    return "list" if text[line.start] in "-+" else "text"
