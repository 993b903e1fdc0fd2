"""Questions about one rule: show, refs, history, analogue."""

from __future__ import annotations

import argparse
import json

from rules_kb.ask.query import (
    analogues_of,
    citations_of,
    documents_about,
    era_starts,
    history,
    parse_rule,
    renumbering_of,
    show,
)
from rules_kb.cli.common import open_knowledge
from rules_kb.render.textformat import format_text, history_record


def register(commands: argparse._SubParsersAction) -> None:
    def rule_command(name: str, help_text: str, handler, *, filters: bool = True) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.add_argument("rule", help="rule number, e.g. 507.2a (full-width digits accepted)")
        sub.add_argument("--game", choices=("dm", "mtg"), help="only this game (default: every game with the number)")
        if filters:
            sub.add_argument("--lang", choices=("ja", "en"), help="only this language")
        sub.add_argument("--json", action="store_true", help="print JSON instead of text")
        sub.set_defaults(handler=handler)
        return sub

    show = rule_command("show", "print a rule's text (newest version of each game and language unless --version)",
                        run_show)
    show.add_argument("--version", help="the version label, e.g. 1.38 or 2008-10-01")
    rule_command("refs", "list the rule texts and glossary terms that cite a rule, by version", run_refs,
                 filters=False)
    rule_command("history", "every version and language of a rule, oldest first, with provenance and notices",
                 run_history)
    rule_command("analogue", "the rule's counterpart in the other game (Duel Masters <-> Magic), with evidence",
                 run_analogue, filters=False)


def run_show(args: argparse.Namespace) -> int:
    knowledge = open_knowledge(args)
    texts = show(knowledge, parse_rule(args.rule), args.game, args.lang, args.version)
    if args.json:
        print(json.dumps([t.to_record() for t in texts], ensure_ascii=False, indent=2))
        return 0
    for text in texts:
        print(format_text(text))
    return 0


def run_refs(args: argparse.Namespace) -> int:
    knowledge = open_knowledge(args)
    number = parse_rule(args.rule)
    found = citations_of(knowledge, number, args.game)
    if args.json:
        print(json.dumps([c.__dict__ for c in found], ensure_ascii=False, indent=2))
        return 0
    if not found:
        print(f"{number}: cited by nothing in the corpus")
    for c in found:
        flag = "" if c.resolution == "same-version" else f"  [{c.resolution}: {', '.join(c.resolved_in) or 'nowhere'}]"
        print(f"{c.game} {c.lang} {c.version}: {c.source_kind} {c.number} ({c.document}) cites \"{c.raw}\"{flag}")
    return 0


def run_history(args: argparse.Namespace) -> int:
    knowledge = open_knowledge(args)
    number = parse_rule(args.rule)
    texts = history(knowledge, number, args.game, args.lang)
    games = sorted({t.game for t in texts})
    documents = {g: documents_about(knowledge, number, g) for g in games}
    moves = {g: renumbering_of(knowledge, number, g) for g in games}
    if args.json:
        print(json.dumps(history_record(knowledge, number, args.game, args.lang), ensure_ascii=False, indent=2))
        return 0
    for text, new_era in zip(texts, era_starts(knowledge, texts), strict=True):
        if new_era:
            print(f"-- {text.number} is another rule from {text.version} on: the rule that held the number "
                  f"before moved or was removed (see 'moved to' below)")
        print(format_text(text))
    for game, rows in moves.items():
        for row in rows:
            other = row["new"] if row["direction"] == "moved to" else row["old"]
            print(f"{game} {row['lang']}: {row['direction']} {other} in {row['to_version']} "
                  f"(from {row['from_version']}; similarity {row['similarity']:.2f})")
    for game, docs in documents.items():
        for doc in docs:
            marks = f" {', '.join(doc['marks'])}" if doc["marks"] else ""
            print(f"{game}: {doc['kind'].replace('_', ' ')} {doc['document']}{marks}")
    return 0


def run_analogue(args: argparse.Namespace) -> int:
    knowledge = open_knowledge(args)
    number = parse_rule(args.rule)
    found = analogues_of(knowledge, number, args.game)
    if args.json:
        print(json.dumps(found, ensure_ascii=False, indent=2))
        return 0
    if not found:
        print(f"{number}: no analogue recorded in corpus/analogues.toml")
    for row in found:
        print(f"{row['game']} {row['number']} ~ {row['analogue_game']} {row['analogue']} "
              f"(Magic {', '.join(row['mtg_versions'])}): {row['evidence']}")
    return 0
