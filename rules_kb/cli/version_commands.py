"""Which versions the corpus holds: the labels every other command's --version takes."""

from __future__ import annotations

import argparse

from rules_kb.cli.common import GAME_HELP, LANG_HELP, answer, game_option, lang_option, print_text
from rules_kb.games import GAMES, LANGS
from rules_kb.visible import people_json


def register(commands: argparse._SubParsersAction) -> None:
    help_text = "list every version of each game and language, oldest first, with date, kind and rule count"
    versions = commands.add_parser("versions", help=help_text, description=help_text + (
        ". The labels are what --version, diff, --pin and the site's addresses take."))
    versions.add_argument("--game", type=game_option, choices=GAMES, help=f"only this game: {GAME_HELP}")
    versions.add_argument("--lang", type=lang_option, choices=LANGS, help=f"only this language: {LANG_HELP}")
    versions.add_argument("--json", action="store_true", help="print JSON instead of text")
    versions.set_defaults(handler=run_versions)


def run_versions(args: argparse.Namespace) -> int:
    from rules_kb.ask.versions import version_rows
    from rules_kb.render.textformat import versions_text

    rows = answer(args, lambda knowledge: version_rows(knowledge, args.game, args.lang))
    if args.json:
        print(people_json([row.to_record() for row in rows], indent=2))
        return 0
    print_text(args, versions_text(rows))
    return 0
