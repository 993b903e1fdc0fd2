"""Commands that read or change the corpus itself: ingest, parse, add."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rules_kb.cli.common import GAME_HELP, LANG_HELP, game_option, lang_option, say
from rules_kb.games import GAMES, LANGS

# The handlers import their stages when run: a lookup (show, history, ...) must not pay for
# the parsers, which every module-level import here would load.


def register(commands: argparse._SubParsersAction) -> None:
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
    parse.add_argument("file", type=Path, help="the file to parse (any encoding the corpus uses)")
    parse.add_argument("--format", dest="format_name", metavar="FORMAT", help="skip detection; use this format")
    parse.add_argument("--game", type=game_option, choices=GAMES, help=f"the file's game: {GAME_HELP}")
    parse.add_argument("--lang", type=lang_option, choices=LANGS, help=f"the file's language: {LANG_HELP}")
    parse.add_argument("--json", action="store_true", help="print the model as JSON Lines instead of a summary")
    parse.add_argument("--anomalies", action="store_true", help="also print every anomaly, one per line")
    parse.set_defaults(handler=run_parse)

    add = commands.add_parser(
        "add", help="add a release to the corpus: detect, check, copy byte for byte, record, ingest",
        description="Detect the file's format, encoding, game, languages, version and date from the text "
        "(flags override; a flag that contradicts the text is an error naming both), refuse duplicates, "
        "copy the file into the corpus, append its manifest entry, and report what it holds and what "
        "changed against the previous version. Nothing is written if anything fails. When the corpus has a store "
        "(make build or a lookup made one), the store and the search index of the new corpus are then written, "
        "so that the next question answers at once (on a terminal, progress on stderr for each step over 2 s).")
    add.add_argument("file", type=Path, help="the release to add, e.g. MagicCompRules-20250404.txt")
    add.add_argument("--game", type=game_option, choices=GAMES,
                     help=f"{GAME_HELP} (default: detected; a contradiction is an error)")
    add.add_argument("--lang", type=lang_option, choices=LANGS,
                     help=f"{LANG_HELP} (default: detected; a contradiction is an error)")
    add.add_argument("--format", dest="format_name", metavar="FORMAT", help="skip format detection")
    add.add_argument("--version", help="version label (Magic: the file's release date, e.g. 2024-11-08)")
    add.add_argument("--date", help="effective date YYYY-MM-DD")
    add.add_argument("--force", action="store_true",
                     help="add a release whose structure looks implausible (far fewer rules than the releases "
                          "beside it, a rule longer than any real one)")
    add.add_argument("--source", help="provenance for the manifest entry (default: the file name)")
    add.add_argument("--note", help="a note for the manifest entry")
    add.add_argument("--anomalies", action="store_true", help="also print every anomaly, one per line")
    add.set_defaults(handler=run_add)


def run_ingest(args: argparse.Namespace) -> int:
    from rules_kb.assemble.ingested import ingest_documents
    from rules_kb.cli import common
    from rules_kb.errors import UsageError
    from rules_kb.ingest.pipeline import select_documents
    from rules_kb.render.output import write_atomically

    metas = select_documents(args.corpus, args.only)
    try:
        cache = common.cache()
    except UsageError as exc:  # ingest needs no cache: without one it parses every document, as it always did
        common.warn(f"note: {exc}; ingesting without the cache")
        cache = None
    reports = ingest_documents(args.corpus, metas, cache, describe_ingested)
    incomplete: list[str] = []

    def lines():
        """Each document's summary printed and its model lines written as it is parsed or read back from
        the ingest cache (in manifest order), never the whole model held; an incomplete one fails the
        file at the end."""
        for report in reports:
            for line in report["said"] + (report["anomalies"] if args.anomalies else []):
                say(line)
            if not report["complete"]:
                incomplete.append(report["document"])
            yield from report["model"]
        if incomplete and args.json is not None:
            raise _Incomplete

    try:
        if args.json is not None:
            write_atomically(args.json, lines())
        else:
            for _ in lines():
                pass
    except _Incomplete:
        pass
    if incomplete:  # an error leaves no output file, as every other error does
        unwritten = f"; {args.json} not written" if args.json is not None else ""
        print(f"Error: accounting incomplete for {', '.join(incomplete)}{unwritten}", file=sys.stderr)
        return 1
    return 0


class _Incomplete(Exception):
    """Raised inside the model's writer so that its temporary file is discarded."""


def describe_ingested(item) -> dict:
    """What ``ingest`` reports of one parsed document (in a worker process; kept by the ingest cache):
    its id, summary line, anomaly lines, model lines and whether it is wholly accounted."""
    from rules_kb.render.textformat import model_lines, summarise

    return {"document": item.parsed.meta.id, "said": [summarise(item)],
            "anomalies": [f"  {a.describe()}" for a in item.parsed.anomalies],
            "model": list(model_lines([item])), "complete": item.accounting.complete}


def run_parse(args: argparse.Namespace) -> int:
    from rules_kb.ingest.decode import decode_document
    from rules_kb.ingest.detect import describe_file
    from rules_kb.ingest.pipeline import parse_bytes
    from rules_kb.ingest.reading import read_source
    from rules_kb.render.textformat import model_lines, summarise

    path: Path = args.file
    data = read_source(path)
    text = decode_document(data, str(path)).text
    meta = describe_file(path, data, text, format_name=args.format_name, game=args.game,
                         languages=(args.lang,) if args.lang else None)
    item = parse_bytes(data, meta)
    if args.json:
        for line in model_lines([item]):
            print(line)
    else:
        say(f"{summarise(item)} [format {meta.format}, {item.decoded.encoding}, {item.decoded.line_ends}]")
    if args.anomalies:
        for anomaly in item.parsed.anomalies:
            say(f"  {anomaly.describe()}")
    return 0 if item.accounting.complete else 1


def run_add(args: argparse.Namespace) -> int:
    from rules_kb.cli.common import cache
    from rules_kb.releases.add import add_release

    addition = add_release(args.corpus, args.file, cache(), game=args.game, lang=args.lang,
                           format_name=args.format_name, version=args.version, date=args.date, source=args.source,
                           note=args.note, force=args.force)
    for line in addition_lines(addition, args.anomalies):
        say(line)
    refresh_questions(args.corpus)
    return 0


def refresh_questions(corpus) -> None:
    """The store and the search index brought up to date after the corpus changed, when it had a
    store: the first question after an add then answers at once (``search.cache.refresh_after_add``)."""
    from rules_kb.cli import common
    from rules_kb.search.cache import refresh_after_add

    if refresh_after_add(corpus, common.cache(), common.DEFAULT_SEARCH, common.step):
        say("  the store and the search index are up to date")


def addition_lines(addition, anomalies: bool = False) -> list[str]:
    """What ``add`` (and ``updates --fetch``) print about one addition."""
    from rules_kb.render.textformat import summarise

    meta, item = addition.meta, addition.item
    kinds = sorted({v.kind for v in item.parsed.versions if v.label == meta.versions[0]})
    lines = [f"added {meta.id} as {meta.file}: format {meta.format}, {item.decoded.encoding} "
             f"{item.decoded.line_ends}, {meta.game} {'+'.join(meta.languages)}, version {meta.versions[0]}"
             + (f" ({meta.dates[0]})" if meta.dates else "") + f", {'/'.join(kinds) or 'unversioned'}",
             f"  {summarise(item).split(': ', 1)[1]}"]
    if anomalies:
        lines.extend(f"  {anomaly.describe()}" for anomaly in item.parsed.anomalies)
    if addition.changes is not None:
        counts = ", ".join(f"{n} {k}" for k, n in addition.changes.counts().items())
        lines.append(f"  against {addition.previous}: {counts}")
    else:
        lines.append("  no earlier complete version of this document and language to compare with")
    return lines
