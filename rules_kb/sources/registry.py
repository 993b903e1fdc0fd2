"""Which parser reads which format: the manifest's ``format`` names, mapped in plain code.

Each format has a pure ``parse(text, meta) -> ParsedDocument`` and a ``sniff(text) -> 0..100``
that says how sure it is that a text is of its format (format detection asks every one), and
names what it holds: the game, the document (``games.DOCUMENTS``) and the manifest ``kind``
(the document's own text, ``rules``, or a text about it: a change notice, commentary, rulings).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules_kb.errors import ParseError
from rules_kb.games import CR
from rules_kb.model import DocumentMeta, ParsedDocument
from rules_kb.sources.change_notice import notice
from rules_kb.sources.dm_rulebook import rulebook
from rules_kb.sources.fandom import module, text
from rules_kb.sources.mtg_cr import release
from rules_kb.sources.mtg_rulings import rulings
from rules_kb.sources.pukiwiki import page
from rules_kb.sources.tournament import duel_masters, magic

Parser = Callable[[str, DocumentMeta], ParsedDocument]


@dataclass(frozen=True)
class SourceFormat:
    parse: Parser
    sniff: Callable[[str], int]
    game: str
    document: str = CR
    kind: str = "rules"


FORMATS: dict[str, SourceFormat] = {
    "fandom-text": SourceFormat(text.parse, text.sniff, "dm"),
    "fandom-module": SourceFormat(module.parse, module.sniff, "dm"),
    "dm-change-notice": SourceFormat(notice.parse, notice.sniff, "dm", kind="change-notice"),
    "pukiwiki": SourceFormat(page.parse, page.sniff, "dm", kind="commentary"),
    "mtg-rulings": SourceFormat(rulings.parse, rulings.sniff, "mtg", kind="rulings"),
    "dm-rulebook": SourceFormat(rulebook.parse, rulebook.sniff, "dm"),
    "mtg-cr": SourceFormat(release.parse, release.sniff, "mtg"),
    "mtg-mtr": SourceFormat(magic.parse_mtr, magic.sniff_mtr, "mtg", document="mtr"),
    "mtg-ipg": SourceFormat(magic.parse_ipg, magic.sniff_ipg, "mtg", document="ipg"),
    "dm-competition": SourceFormat(duel_masters.parse_competition, duel_masters.sniff_competition, "dm",
                                   document="competition"),
}


def get_parser(format_name: str, document: str = "?") -> Parser:
    """The parse function for a format name, or ``ParseError`` listing the known ones."""
    source = FORMATS.get(format_name)
    if source is None:
        known = ", ".join(sorted(FORMATS))
        raise ParseError(document, f"unknown format {format_name!r} (known: {known})")
    return source.parse
