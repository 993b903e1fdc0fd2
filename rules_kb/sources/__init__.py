"""One parser per source format. Each is a pure function ``parse(text, meta) -> ParsedDocument``.

Parsers take decoded text, never paths; they never raise on defects in the text (those
become anomalies) and raise ``ParseError`` only when the text is not of their format.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from rules_kb.errors import ParseError
from rules_kb.model import DocumentMeta, ParsedDocument

Parser = Callable[[str, DocumentMeta], ParsedDocument]

# format name -> module under rules_kb.sources exposing ``parse``.
FORMATS: dict[str, str] = {
    "fandom-text": "fandom",
    "fandom-module": "fandom_module",
    "dm-change-notice": "change_notice",
    "pukiwiki": "pukiwiki",
    "mtg-rulings": "mtg_rulings",
    "dm-rulebook": "dm_rulebook",
    "mtg-cr": "mtg_cr",
}


def get_parser(format_name: str, document: str = "?") -> Parser:
    """The parse function for a format name, or ``ParseError`` listing the known ones."""
    module = FORMATS.get(format_name)
    if module is None:
        known = ", ".join(sorted(FORMATS))
        raise ParseError(document, f"unknown format {format_name!r} (known: {known})")
    return import_module(f"rules_kb.sources.{module}").parse
