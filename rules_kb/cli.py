"""The ``rules-kb`` command. The only module that prints or exits.

Library errors (``RulesKbError``) become one line ``Error: …`` on stderr and exit 1.
Output files are written to a temporary name and moved into place only on success.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from rules_kb.ask.add import commit_addition, plan_addition
from rules_kb.ask.knowledge import Knowledge, load_knowledge
from rules_kb.ask.query import (
    analogues_of,
    citations_of,
    documents_about,
    era_starts,
    history,
    nearest_numbers,
    parse_rule,
    renumbering_of,
    require_rule,
    show,
)
from rules_kb.ask.story import explain_rule
from rules_kb.compare.align import Scope
from rules_kb.compare.changes import compare_versions
from rules_kb.errors import RuleNotFound, RulesKbError, SourceError, UsageError
from rules_kb.ingest.decode import decode_document
from rules_kb.ingest.detect import describe_file
from rules_kb.ingest.pipeline import ingest_corpus, parse_bytes
from rules_kb.render.export import FORMATS, export_lines
from rules_kb.render.output import write_atomically
from rules_kb.render.textformat import (
    comparison_record,
    comparison_text,
    format_text,
    model_lines,
    story_record,
    story_text,
    summarise,
)

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent / "corpus"
DEFAULT_CACHE = Path(__file__).resolve().parent.parent / "build" / "cache"


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except RulesKbError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (`rules-kb … | head`): not an error. Keep the final flush quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rules-kb",
        description="Trading-card-game comprehensive rules: ingest, cross-reference, align and diff, explain.",
    )
    parser.add_argument(
        "--corpus", type=Path, default=DEFAULT_CORPUS,
        help="corpus folder holding manifest.toml (default: the repository's corpus/)",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    ingest = commands.add_parser(
        "ingest", help="parse every corpus document and report counts, accounting and anomalies",
        description="Parse every document in the corpus manifest. Prints one line per document: "
        "rules, examples, terms, anomalies, residue characters and the share of non-whitespace "
        "characters accounted for.",
    )
    ingest.add_argument("--json", type=Path, metavar="PATH",
                        help="write the model as JSON Lines (one record per rule text, term and anomaly)")
    ingest.add_argument("--only", action="append", metavar="ID", help="ingest only this document id (repeatable)")
    ingest.add_argument("--anomalies", action="store_true", help="also print every anomaly, one per line")
    ingest.set_defaults(handler=run_ingest)

    parse = commands.add_parser(
        "parse", help="parse one file outside the corpus (format, encoding, languages detected)",
        description="Decode and parse one file without touching the corpus: the format is detected "
        "from the text unless --format is given. Prints the same summary line as ingest.",
    )
    parse.add_argument("file", type=Path)
    parse.add_argument("--format", dest="format_name", metavar="FORMAT", help="skip detection; use this format")
    parse.add_argument("--game", choices=("dm", "mtg"))
    parse.add_argument("--lang", choices=("ja", "en"))
    parse.add_argument("--json", action="store_true", help="print the model as JSON Lines instead of a summary")
    parse.add_argument("--anomalies", action="store_true", help="also print every anomaly, one per line")
    parse.set_defaults(handler=run_parse)

    add = commands.add_parser(
        "add", help="add a release to the corpus: detect, check, copy byte for byte, record, ingest",
        description="Detect the file's format, encoding, game, languages, version and date from the text "
        "(flags override; a flag that contradicts the text is an error naming both), refuse duplicates, "
        "copy the file into the corpus, append its manifest entry, and report what it holds and what "
        "changed against the previous version. Nothing is written if anything fails.")
    add.add_argument("file", type=Path)
    add.add_argument("--game", choices=("dm", "mtg"))
    add.add_argument("--lang", choices=("ja", "en"))
    add.add_argument("--format", dest="format_name", metavar="FORMAT", help="skip format detection")
    add.add_argument("--version", help="version label (Magic: the file's release date, e.g. 2024-11-08)")
    add.add_argument("--date", help="effective date YYYY-MM-DD")
    add.set_defaults(handler=run_add)

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

    diff = commands.add_parser(
        "diff", help="what changed between two versions of one game and language",
        description="Align two versions rule by rule (unchanged, editorial, substantive, moved, added, removed) "
        "and show token diffs. Any two versions, not only neighbours. Partial versions (excerpts, change "
        "notices) are compared only on what they contain.")
    diff.add_argument("old", help="old version label, e.g. 2008-10-01 or 1.38")
    diff.add_argument("new", help="new version label")
    diff.add_argument("--game", choices=("dm", "mtg"), required=True)
    diff.add_argument("--lang", choices=("ja", "en"), required=True)
    where = diff.add_mutually_exclusive_group()
    where.add_argument("--rule", help="only this rule and its subrules (e.g. 509)")
    where.add_argument("--section", type=int, metavar="N", help="only chapter N (e.g. 5 for rules 500-599)")
    diff.add_argument("--all", action="store_true", help="also list unchanged rules")
    diff.add_argument("--color", action="store_true", help="colour insertions and deletions (ANSI)")
    diff.add_argument("--json", action="store_true", help="print JSON (the site's data)")
    diff.set_defaults(handler=run_diff)

    explain = commands.add_parser(
        "explain", help="the story of a rule: its versions, translations, notices, commentary, and gaps",
        description="Everything the corpus says about how a rule changed: each language's version chain with "
        "diffs, translation drift, old-to-new correspondences across rewrites, change notices, the commentary "
        "explaining them, and what the corpus does not hold.")
    explain.add_argument("rule")
    explain.add_argument("--game", choices=("dm", "mtg"), default="dm")
    explain.add_argument("--color", action="store_true")
    explain.add_argument("--json", action="store_true")
    explain.set_defaults(handler=run_explain)

    graph = commands.add_parser("graph", help="export the rule graph", description="Export the rule graph.")
    graph_commands = graph.add_subparsers(dest="graph_command", required=True, metavar="ACTION")
    export = graph_commands.add_parser(
        "export", help="write the graph as node-link JSON or GraphML",
        description="Write the whole graph. JSON loads back into networkx unchanged (node_link_graph with "
        "edges='edges'); GraphML flattens list attributes to JSON strings.")
    export.add_argument("--format", dest="graph_format", choices=FORMATS, default="json")
    export.add_argument("path", type=Path)
    export.set_defaults(handler=run_graph_export)
    return parser


def run_add(args: argparse.Namespace) -> int:
    addition = plan_addition(args.corpus, args.file, game=args.game, lang=args.lang, format_name=args.format_name,
                             version=args.version, date=args.date)
    commit_addition(args.corpus, addition)
    meta, item = addition.meta, addition.item
    kinds = sorted({v.kind for v in item.parsed.versions if v.label == meta.versions[0]})
    print(f"added {meta.id} as {meta.file}: format {meta.format}, {item.decoded.encoding} {item.decoded.line_ends}, "
          f"{meta.game} {'+'.join(meta.languages)}, version {meta.versions[0]}"
          + (f" ({meta.dates[0]})" if meta.dates else "") + f", {'/'.join(kinds) or 'unversioned'}")
    print(f"  {summarise(item).split(': ', 1)[1]}")
    if addition.changes is not None:
        counts = ", ".join(f"{n} {k}" for k, n in addition.changes.counts().items())
        print(f"  against {addition.previous}: {counts}")
    else:
        print("  no earlier complete version of this game and language to compare with")
    return 0


def open_knowledge(args: argparse.Namespace) -> Knowledge:
    return load_knowledge(args.corpus, DEFAULT_CACHE)


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
        records = [{**t.to_record(), "new_era": new_era} for t, new_era in zip(texts, era_starts(knowledge, texts),
                                                                                 strict=True)]
        print(json.dumps({"texts": records, "documents": documents, "renumbering": moves},
                         ensure_ascii=False, indent=2))
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


def run_diff(args: argparse.Namespace) -> int:
    knowledge = open_knowledge(args)
    catalog = knowledge.catalog
    labels = catalog.version_labels(args.game, args.lang)
    if not labels:
        raise UsageError(f"the corpus has no {args.game} rules in {args.lang}")
    for label in (args.old, args.new):
        if label not in labels:
            raise UsageError(f"no version {label} of {args.game} {args.lang} (known: {', '.join(labels)})")
    if args.old == args.new:
        raise UsageError(f"compare two different versions (both are {args.old})")
    if labels.index(args.old) > labels.index(args.new):
        raise UsageError(f"{args.old} is newer than {args.new}: give the older version first")
    if args.section is not None and not 0 <= args.section <= 9:
        raise UsageError(f"--section takes a chapter from 0 to 9, not {args.section}")
    rule = parse_rule(args.rule) if args.rule else None
    if rule is not None and not any(rule in catalog.rules_in(args.game, args.lang, v) for v in (args.old, args.new)):
        raise RuleNotFound(f"{rule} in {args.game} {args.lang} {args.old} or {args.new}",
                           nearest_numbers(catalog, args.game, rule))
    scope = Scope(rule=rule, chapter=args.section)
    comparison = compare_versions(knowledge.catalog, args.game, args.lang, args.old, args.new,
                                  knowledge.forced, scope)
    if args.json:
        print(json.dumps(comparison_record(comparison), ensure_ascii=False, indent=2))
    else:
        print(comparison_text(comparison, args.color, args.all))
    return 0


def run_explain(args: argparse.Namespace) -> int:
    knowledge = open_knowledge(args)
    number = parse_rule(args.rule)
    require_rule(knowledge, number, args.game)
    story = explain_rule(knowledge, args.game, number, args.corpus)
    if args.json:
        print(json.dumps(story_record(story), ensure_ascii=False, indent=2))
    else:
        print(story_text(story, args.color))
    return 0


def run_graph_export(args: argparse.Namespace) -> int:
    knowledge = open_knowledge(args)
    write_atomically(args.path, export_lines(knowledge.graph, args.graph_format), newline=False)
    graph = knowledge.graph
    print(f"wrote {args.path}: {graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges")
    return 0


def run_ingest(args: argparse.Namespace) -> int:
    results = ingest_corpus(args.corpus, args.only)
    for item in results:
        print(summarise(item))
        if args.anomalies:
            for anomaly in item.parsed.anomalies:
                print(f"  {anomaly.describe()}")
    incomplete = [r.parsed.meta.id for r in results if not r.accounting.complete]
    if args.json is not None:
        write_atomically(args.json, model_lines(results))
    if incomplete:
        print(f"Error: accounting incomplete for {', '.join(incomplete)}", file=sys.stderr)
        return 1
    return 0


def run_parse(args: argparse.Namespace) -> int:
    path: Path = args.file
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(str(path), f"cannot read: {exc.strerror}") from None
    text = decode_document(data, str(path)).text
    meta = describe_file(path, data, text, format_name=args.format_name, game=args.game,
                         languages=(args.lang,) if args.lang else None)
    item = parse_bytes(data, meta)
    if args.json:
        for line in model_lines([item]):
            print(line)
    else:
        print(f"{summarise(item)} [format {meta.format}, {item.decoded.encoding}, {item.decoded.line_ends}]")
    if args.anomalies:
        for anomaly in item.parsed.anomalies:
            print(f"  {anomaly.describe()}")
    return 0 if item.accounting.complete else 1


if __name__ == "__main__":
    raise SystemExit(main())
