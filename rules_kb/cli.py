"""The ``rules-kb`` command. The only module that prints or exits.

Library errors (``RulesKbError``) become one line ``Error: …`` on stderr and exit 1.
Output files are written to a temporary name and moved into place only on success.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from rules_kb.decode import decode_document
from rules_kb.detect import describe_file
from rules_kb.errors import RulesKbError, SourceError
from rules_kb.pipeline import Ingested, ingest_corpus, parse_bytes

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except RulesKbError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rules-kb",
        description="Trading-card-game comprehensive rules: ingest, cross-reference, diff, publish.",
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
    return parser


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


def summarise(item: Ingested) -> str:
    parsed = item.parsed
    residue = sum(len(r.text) for r in parsed.residue)
    examples = sum(len(r.examples) for r in parsed.rules)
    return (
        f"{parsed.meta.id}: {len(parsed.rules)} rules, {examples} examples, {len(parsed.terms)} terms, "
        f"{len(parsed.anomalies)} anomalies, {residue} residue chars, "
        f"{item.accounting.percent:.2f}% accounted"
    )


def model_lines(results: Iterable[Ingested]) -> Iterable[str]:
    """The model as JSON Lines, in manifest then document order: deterministic by design."""
    for item in results:
        parsed = item.parsed
        for rule in parsed.rules:
            yield _dump({"record": "rule", **rule.to_record()})
        for term in parsed.terms:
            yield _dump({"record": "term", "game": term.game, "lang": term.lang, "version": term.version,
                         "term": term.term, "definition": term.definition, "document": parsed.meta.id,
                         "span": [term.spans[0][0], term.spans[-1][1]]})
        for anomaly in parsed.anomalies:
            yield _dump({"record": "anomaly", "document": anomaly.document, "position": anomaly.position,
                         "code": anomaly.code, "message": anomaly.message, "decision": anomaly.decision})


def _dump(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False, sort_keys=False)


def write_atomically(path: Path, lines: Iterable[str]) -> None:
    """Write lines to ``path`` via a temporary file, so a failure leaves no partial output."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            for line in lines:
                out.write(line)
                out.write("\n")
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


if __name__ == "__main__":
    raise SystemExit(main())
