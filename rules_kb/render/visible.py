"""Control characters made visible, for every line the CLI writes to a terminal and every page.

Text from sources, paths and arguments can carry escape sequences (``ESC]0;title BEL``,
``ESC[2J``) that a terminal would obey, and newlines that would split a one-line error.
Each such character is shown as a Python-style escape instead (``\\x1b``, ``\\n``,
``\\u2028``); everything else, Japanese included, passes through unchanged.
"""

from __future__ import annotations

import re

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# C0 and C1 controls and DEL, line and paragraph separators, and the bidirectional
# embedding, override and isolate controls that can reorder what a reader sees.
_INVISIBLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def make_visible(text: str, keep_newlines: bool = False) -> str:
    """``text`` with every control character escaped; ``keep_newlines`` leaves ``\\n`` as is."""
    if keep_newlines:
        return "\n".join(_INVISIBLE.sub(_escape, line) for line in text.split("\n"))
    return _INVISIBLE.sub(_escape, text)



_PAGE_INVISIBLE = re.compile(_INVISIBLE.pattern.replace("\x00-\x1f", "\x00-\x08\x0b-\x1f"))


def visible_page(page: str) -> str:
    """A finished page (HTML or Markdown) with every control character but newline and tab escaped."""
    return _PAGE_INVISIBLE.sub(_escape, page)
