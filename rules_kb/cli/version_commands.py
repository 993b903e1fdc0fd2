"""Which versions the corpus holds: the labels every other command's --version takes."""

from __future__ import annotations

import argparse
import json

from rules_kb.cli.common import GAME_HELP, LANG_HELP, answer, game_option, lang_option, print_text
from rules_kb.games import GAMES, LANGS


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

    rows = answer(args, lambda knowledge: version_rows(knowledge, args.game, args.lang))
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    print_text(args, "\n".join(version_lines(rows)))
    return 0


def version_lines(rows: list[dict]) -> list[str]:
    """One heading per game and language, then one aligned line per version."""
    out: list[str] = []
    groups: dict[tuple[str, str], list[dict]] = {}
    for row in rows:
        groups.setdefault((row["game"], row["lang"]), []).append(row)
    for (game, lang), group in groups.items():
        if out:
            out.append("")
        out.append(f"{game} {lang}: {len(group)} versions, {sum(r['complete'] for r in group)} complete")
        width = max(len(r["label"]) for r in group)
        for row in group:
            kind = "complete" if row["complete"] else "partial (" + ", ".join(row["kinds"]) + ")"
            out.append(f"  {row['label']:<{width}}  {row['date'] or '----------'}  {row['rules']:>5} rules  {kind}  "
                       f"[{', '.join(row['documents'])}]")
    return out or ["no versions"]
