"""The ``rules-kb`` command. The only module that prints or exits.

Library errors (``RulesKbError``) become one line ``Error: …`` on stderr and exit 1.
Output files are written to a temporary name and moved into place only on success.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from rules_kb.cli import compare_commands, corpus_commands, graph_commands, rule_commands, site_commands
from rules_kb.cli.common import DEFAULT_CORPUS
from rules_kb.errors import RulesKbError

# One module per group of commands, each with ``register(commands)``; the order is --help's.
COMMAND_GROUPS = (corpus_commands, rule_commands, compare_commands, graph_commands, site_commands)


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

    for group in COMMAND_GROUPS:
        group.register(commands)
    return parser


if __name__ == "__main__":
    raise SystemExit(main())
