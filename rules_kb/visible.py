"""Control characters made visible, for every line the CLI writes to a terminal, every page, and
all JSON meant for people (the site's JSON that pages draw, the CLI's ``--json``).

Text from sources, paths and arguments can carry escape sequences (``ESC]0;title BEL``,
``ESC[2J``) that a terminal would obey, and newlines that would split a one-line error.
Each such character is shown as a Python-style escape instead (``\\x1b``, ``\\n``,
``\\u2028``); everything else, Japanese included, passes through unchanged.
"""

from __future__ import annotations

import json
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


def visible_data(value: object) -> object:
    """``value`` with every string made visible as a page shows it (newline and tab kept)."""
    if isinstance(value, str):
        return _PAGE_INVISIBLE.sub(_escape, value)
    if isinstance(value, dict):
        return {visible_data(key): visible_data(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [visible_data(item) for item in value]
    return value


# What in ``json.dumps(..., ensure_ascii=False)`` output can stand for an invisible character: a raw
# one (json escapes only C0 controls) or json's own escape of a C0 control other than \n and \t.
# A false alarm (a literal backslash before r) only costs the exact pass.
_JSON_SUSPECT = re.compile(r"\\[bfr]|\\u00[01][0-9a-f]|" + _INVISIBLE.pattern.replace("\x00-\x1f", ""))


def people_json(value: object, **options) -> str:
    """JSON of ``value`` whose strings show control characters as the pages do (``\\u202e``, ``\\x1b``):
    the one writer of JSON a person sees, drawn into a page by the site's scripts or printed by
    ``--json``. ``options`` are ``json.dumps``'s; the text is unchanged when no string holds one."""
    text = json.dumps(value, ensure_ascii=False, **options)
    if _JSON_SUSPECT.search(text) is None:
        return text
    return json.dumps(visible_data(value), ensure_ascii=False, **options)


_RAW_IN_JSON = re.compile(_INVISIBLE.pattern.replace("\x00-\x1f", ""))


def escaped_json(value: object, **options) -> str:
    """JSON of ``value`` for programs (the model's JSON Lines) that is still safe on a terminal: the
    data is unchanged, but every invisible character json would write raw is written ``\\u202e``."""
    text = json.dumps(value, ensure_ascii=False, **options)
    return _RAW_IN_JSON.sub(lambda match: f"\\u{ord(match.group()):04x}", text)

