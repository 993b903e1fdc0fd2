"""The games and languages rules-kb reads, and their names: the one list every stage uses.

A page's title names Magic in full; a CLI line or a judge's note says "Magic", as players do.
"""

from __future__ import annotations

GAMES = ("dm", "mtg")
LANGS = ("ja", "en")
GAME_NAMES = {"dm": "Duel Masters", "mtg": "Magic: The Gathering"}
GAME_SHORT_NAMES = {"dm": "Duel Masters", "mtg": "Magic"}
LANG_NAMES = {"ja": "日本語", "en": "English"}
LANGS_FIRST = {"dm": ("ja", "en"), "mtg": ("en", "ja")}
"""Each game's languages, the one its rules are published in first."""
