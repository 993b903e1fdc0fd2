"""Comparisons: diff between two versions, and the story of a rule."""

from __future__ import annotations

import argparse

from rules_kb.cli.common import (
    GAME_HELP,
    LANG_HELP,
    RULE_HELP,
    JoinWords,
    answer,
    game_option,
    lang_option,
    note,
    print_text,
)
from rules_kb.games import CR, DOCUMENTS, GAMES, LANGS
from rules_kb.visible import people_json

# Alignment and diffing are imported by the handlers that use them (not by show or history).


def register(commands: argparse._SubParsersAction) -> None:
    diff = commands.add_parser(
        "diff", help="what changed between two versions of one game and language",
        description="Align two versions rule by rule (unchanged, editorial, substantive, moved, added, removed) "
        "and show token diffs. Any two versions, not only neighbours. Partial versions (excerpts, change "
        "notices) are compared only on what they contain.")
    diff.add_argument("old", help="old version label, e.g. 2008-10-01 or 1.38")
    diff.add_argument("new", help="new version label")
    diff.add_argument("--game", type=game_option, choices=GAMES, required=True, help=GAME_HELP)
    diff.add_argument("--lang", type=lang_option, choices=LANGS, required=True, help=LANG_HELP)
    where = diff.add_mutually_exclusive_group()
    where.add_argument("--rule", help="only this rule and its subrules (e.g. 509)")
    where.add_argument("--section", type=int, metavar="N", help="only chapter N (e.g. 5 for rules 500-599)")
    shown = diff.add_mutually_exclusive_group()
    shown.add_argument("--all", action="store_true", help="also list unchanged rules")
    shown.add_argument("--substantive", action="store_true",
                       help="only rows that change what the rules say: substantive, split, added, removed, moved "
                       "with substantive edits (not editorial, not renumbered-reference, not a bare move)")
    diff.add_argument("--color", action="store_true",
                      help="colour deletions red and insertions green even in a pipe (default: on a terminal, "
                      "unless NO_COLOR is set)")
    diff.add_argument("--document", choices=sorted({d for _, d in DOCUMENTS}), default=CR,
                      help="which of the game's documents: cr, the comprehensive rules (default), or a tournament "
                      "document (mtr, ipg, competition), compared section by section")
    diff.add_argument("--json", action="store_true", help="print JSON (the site's data)")
    diff.set_defaults(handler=run_diff)

    explain = commands.add_parser(
        "explain", help="the story of a rule: its versions, translations, notices, commentary, and gaps",
        description="Everything the corpus says about how a rule changed: each language's version chain with "
        "diffs, translation drift, old-to-new correspondences across rewrites, change notices, the commentary "
        "explaining them, and what the corpus does not hold.")
    explain.add_argument("rule", nargs="+", action=JoinWords, help=RULE_HELP)
    explain.add_argument("--game", type=game_option, choices=GAMES,
                         help=f"{GAME_HELP} (default: the game that has the number; Duel Masters when both do)")
    explain.add_argument("--color", action="store_true",
                         help="colour deletions and insertions even in a pipe (default: on a terminal, "
                         "unless NO_COLOR is set)")
    explain.add_argument("--json", action="store_true", help="print JSON (the site's data)")
    explain.set_defaults(handler=run_explain)


def run_diff(args: argparse.Namespace) -> int:
    if args.document != CR:
        return _diff_sections(args)
    from rules_kb.ask.diffs import diff_asked
    from rules_kb.render.glossary_text import glossary_changes_text
    from rules_kb.render.textformat import comparison_record, comparison_text

    found = answer(args, lambda knowledge: diff_asked(knowledge, args.game, args.lang, args.old, args.new,
                                                      section=args.section, rule=args.rule))
    if args.json:
        glossary = found.glossary.to_record() if found.glossary is not None else None
        print(people_json({**comparison_record(found.comparison), "partial": found.partial, "glossary": glossary},
                          indent=2))
        return 0
    text = comparison_text(found.comparison, args.all, args.substantive, partial=found.partial)
    if found.glossary is not None and found.glossary.compared:
        text += "\n" + glossary_changes_text(found.glossary, args.lang)
    print_text(args, text)
    return 0


def _diff_sections(args: argparse.Namespace) -> int:
    from rules_kb.ask.sections import diff_sections
    from rules_kb.render.section_text import section_diff_text

    rows = answer(args, lambda knowledge: diff_sections(knowledge, args.game, args.document, args.lang,
                                                        args.old, args.new))
    if args.json:
        print(people_json([row.to_record() for row in rows], indent=2))
    else:
        print_text(args, section_diff_text(rows, args.all, args.color))
    return 0


def run_explain(args: argparse.Namespace) -> int:
    from rules_kb.ask.arguments import choose_games, rule_argument
    from rules_kb.ask.story import explain_rule
    from rules_kb.render.textformat import story_record, story_text

    number = rule_argument(args.rule)

    def tell(knowledge):
        choice = choose_games(knowledge, number, args.game, single=True)
        if choice.note:
            note(choice.note)
        return explain_rule(knowledge, choice.games[0], number)

    story = answer(args, tell)
    if args.json:
        print(people_json(story_record(story), indent=2))
    else:
        print_text(args, story_text(story))
    return 0
