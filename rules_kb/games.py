"""The registry: every game rules-kb reads and every document each game publishes.

Stages ask this module rather than spelling ``"dm"``/``"mtg"`` or a document's name themselves,
so adding a game or a document kind is one entry here plus its parser (``sources/registry.py``
maps formats to these entries); see docs/architecture.md, "Adding a game or a document".

A game's comprehensive rules are the document ``cr``; beside them a game may publish tournament
documents (Magic's MTR and IPG, Duel Masters' 競技イベント運営ルール), numbered by sections
(``3.10``) rather than rules (``509.1a``). Every document is versioned by what it calls itself:
a release date or a version number; nothing here assumes a document has one version.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Game:
    """A game: its names, languages and how its rules are cited and ranged."""

    id: str
    name: str
    """On pages: the game in full."""
    short_name: str
    """In CLI lines and notes: the game as players say it."""
    langs: tuple[str, ...]
    """Its languages, the one its rules are published in first, first."""
    aliases: tuple[str, ...]
    """What ``--game`` accepts besides the id (folded to lower case)."""
    skip_letters: str = ""
    """Subrule letters a range skips unless it names them (Magic never letters a rule l or o)."""
    old_releases_drawn: bool = False
    """Whether the site draws an older release's chapter pages from its JSON in the browser rather
    than writing them as HTML: for a game with a release every few months (Magic: over a hundred),
    which would otherwise pass the static hosts' file and size limits (docs/url-scheme.md)."""


@dataclass(frozen=True)
class DocumentKind:
    """One document a game publishes, in every version it has had."""

    id: str
    game: str
    names: dict[str, str]
    """Its title in each language it is published in (pages, headings)."""
    short: str
    """How a judge's note names it (``MTR``, ``IPG``, ``CR``)."""
    tags: tuple[str, ...]
    """Reference tags that name this document in a note (``MTR 3.10``, ``総合ルール 507.3c``)."""
    numbering: str
    """``rule`` (``509.1a``: numbers.RuleNumber) or ``section`` (``3.10``: numbers.SectionNumber)."""
    publisher_pages: tuple[str, ...] = field(default=())
    """The pages where the publisher links each new release (``rules-kb updates`` reads them)."""
    release_file: str = ""
    """For a document released as one dated PDF: a pattern of the file's name on the publisher's
    page, with groups year, month (number or English name) and day (``MTG_IPG_2024Sep23_EN.pdf``).
    The comprehensive rules have readers of their own (``releases/updates.py``)."""

    @property
    def langs(self) -> tuple[str, ...]:
        return tuple(self.names)

    @property
    def url_prefix(self) -> str:
        """The site folder of its pages: the comprehensive rules keep the game's own folder."""
        return f"/{self.game}/" if self.id == CR else f"/{self.game}/{self.id}/"

    def name(self, lang: str) -> str:
        """Its title in ``lang``, else in the language it is published in first."""
        return self.names.get(lang) or next(iter(self.names.values()))


CR = "cr"

REGISTRY: dict[str, Game] = {
    game.id: game for game in (
        Game("dm", "Duel Masters", "Duel Masters", ("ja", "en"),
             ("duelmasters", "duel-masters", "duel_masters", "duel masters", "デュエマ", "デュエル・マスターズ")),
        Game("mtg", "Magic: The Gathering", "Magic", ("en", "ja"),
             ("magic", "mtgcr", "magic: the gathering", "magic the gathering", "mg"), skip_letters="lo",
             old_releases_drawn=True),
    )
}

DOCUMENTS: dict[tuple[str, str], DocumentKind] = {
    (kind.game, kind.id): kind for kind in (
        DocumentKind(CR, "dm", {"ja": "総合ゲームルール", "en": "Comprehensive Rules"}, "DM",
                     ("DM", "総合ゲームルール", "総合ルール"), "rule", ("https://dm.takaratomy.co.jp/rule/",)),
        DocumentKind(CR, "mtg", {"en": "Comprehensive Rules"}, "CR", ("MTG", "CR"), "rule",
                     ("https://magic.wizards.com/en/rules",)),
        DocumentKind("mtr", "mtg", {"en": "Magic: The Gathering Tournament Rules"}, "MTR",
                     ("MTR", "Magic Tournament Rules", "Tournament Rules"), "section",
                     ("https://magic.wizards.com/en/rules",), r"MTG_MTR_(\d{4})_?([A-Za-z]+)_?(\d{1,2})_EN\.pdf"),
        DocumentKind("ipg", "mtg", {"en": "Magic: The Gathering Infraction Procedure Guide"}, "IPG",
                     ("IPG", "Infraction Procedure Guide"), "section",
                     ("https://magic.wizards.com/en/rules",), r"MTG_IPG_(\d{4})_?([A-Za-z]+)_?(\d{1,2})_EN\.pdf"),
        DocumentKind("competition", "dm", {"ja": "競技イベント運営ルール"}, "競技イベント運営ルール",
                     ("競技イベント運営ルール", "運営ルール"), "section",
                     ("https://dm.takaratomy.co.jp/rule/",), r"dm_competition_rule_(\d{4})(\d{2})(\d{2})\.pdf"),
    )
}

# Views of the registry that pages and lines read by key.
GAMES = tuple(REGISTRY)
LANGS = ("ja", "en")
GAME_NAMES = {game.id: game.name for game in REGISTRY.values()}
GAME_SHORT_NAMES = {game.id: game.short_name for game in REGISTRY.values()}
LANG_NAMES = {"ja": "日本語", "en": "English"}
LANGS_FIRST = {game.id: game.langs for game in REGISTRY.values()}
"""Each game's languages, the one its rules are published in first, first."""


def game_of_alias(raw: str) -> str | None:
    """The game id a spelling names (``magic``, ``DM``, ``デュエマ``), or None."""
    key = raw.strip().lower()
    for game in REGISTRY.values():
        if key == game.id or key in game.aliases:
            return game.id
    return None


def documents_of(game: str) -> list[DocumentKind]:
    """A game's documents, its comprehensive rules first."""
    return [kind for (g, _), kind in DOCUMENTS.items() if g == game]


def tournament_documents() -> list[DocumentKind]:
    """Every document numbered by sections (the tournament documents), in registry order."""
    return [kind for kind in DOCUMENTS.values() if kind.numbering == "section"]


def document_kind(game: str, document: str) -> DocumentKind:
    """The registry entry of one game's document; KeyError names what exists."""
    try:
        return DOCUMENTS[(game, document)]
    except KeyError:
        known = ", ".join(f"{g}/{d}" for g, d in DOCUMENTS)
        raise KeyError(f"no document {document!r} of game {game!r} (known: {known})") from None


def document_tags() -> dict[str, tuple[str, str]]:
    """Every reference tag -> (game, document): ``MTR`` -> (mtg, mtr), ``総合ルール`` -> (dm, cr)."""
    return {tag: (kind.game, kind.id) for kind in DOCUMENTS.values() for tag in kind.tags}
