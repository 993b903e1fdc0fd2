"""Rejoining the rulebook's lines: hard wraps at PDF line width versus real line ends.

The extraction leaves one clue: a line that ended for real (a paragraph end, a rule's
short title such as ``101.1. カードの効果はルールに勝つ``, an item of a list of card
names) carries trailing whitespace; a line wrapped at the PDF's width usually does not
(``…ルールに直接矛盾していると`` / ``きは、…``). A few wrapped lines carry a stray space
too, so a trailing blank counts as a real line end only when the line is also visibly
shorter than its neighbours (the column width changes across the PDF, so "full" is
judged locally, not against one global width) and the next line could start a line of
its own (not a particle such as ``は``: ``…アクションとして`` / ``は捨てる動作…``).

Wrapped lines are joined with nothing between Japanese characters, with one space
between two Latin letters or digits when the break carried a blank, and with one space
inside a card name (``《蒼き王道 `` / ``ドギラゴン超》``: that space is the name's own).
Real line ends are kept as ``\\n``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from rules_kb.sources.common import Line

# A line is "full" (wrapped at the column width) if it is at least this share of the
# widest line near it.
_FULL_SHARE = 0.92
_WINDOW = 2
# No line of its own starts with these (particles, prolonged sound, small kana, closing
# punctuation): a line starting with one continues the line before it.
_CONTINUES = "はがをにでとのもへやーっゃゅょぁぃぅぇぉ、。，）」』】"


def display_width(text: str) -> int:
    """Columns a string takes in the PDF: wide and full-width characters count twice."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


class WidthProfile:
    """Display widths of a document's lines, to tell a full line from a short one."""

    def __init__(self, lines: Sequence[Line]) -> None:
        self._widths = [display_width(line.text.rstrip()) for line in lines]
        self._index = {line.start: i for i, line in enumerate(lines)}

    def is_short(self, line: Line) -> bool:
        """True if ``line`` ends well before the widest non-blank line within two lines of it."""
        i = self._index[line.start]
        near = [w for w in self._widths[max(0, i - _WINDOW): i + _WINDOW + 1] if w]
        return self._widths[i] < _FULL_SHARE * max(near, default=0)


def join_lines(pieces: Sequence[tuple[Line, str]], widths: WidthProfile) -> str:
    """Join the text ``pieces`` (a line and the part of it that is content) of one record.

    Linear in the number of pieces: the card-name bracket balance is kept as a running count
    (counting brackets in the text joined so far made N lines cost O(N²)).
    """
    parts: list[str] = []
    open_names = 0  # 《 minus 》 in the text joined so far
    for index, (_, content) in enumerate(pieces):
        content = content.strip()
        if not content:
            continue
        if parts:
            parts.append(_separator(parts[-1][-1], open_names > 0, content, pieces[index - 1][0], widths))
        parts.append(content)
        open_names += content.count("《") - content.count("》")
    return "".join(parts)


def _separator(last: str, in_card_name: bool, after: str, previous: Line, widths: WidthProfile) -> str:
    ended_blank = previous.text != previous.text.rstrip()
    if ended_blank and not in_card_name and after[0] not in _CONTINUES and widths.is_short(previous):
        return "\n"
    if ended_blank and (in_card_name or (_is_latin(last) and _is_latin(after[0]))):
        return " "
    return ""


def _is_latin(char: str) -> bool:
    return char.isascii() and char.isalnum()
