"""The ``rules-kb`` command. The only module that prints or exits.

Library errors (``RulesKbError``) and argument errors become one line ``Error: …`` on
stderr and exit 1, with control characters and newlines made visible (``\x1b``, ``\n``).
Output files are written to a temporary name and moved into place only on success; SIGTERM
becomes ``SystemExit`` so that temporary files are removed on the way out; Ctrl-C is one line
(``Error: interrupted``) and exit 130, an ``OSError`` no stage typed (a file-size limit, a full
disk) one line and exit 1.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import signal
import sys
import time
import warnings
from collections.abc import Sequence
from pathlib import Path

from rules_kb.assemble.caches import cache_limit
from rules_kb.cli import (
    compare_commands,
    corpus_commands,
    graph_commands,
    link_commands,
    rule_commands,
    search_commands,
    site_commands,
    store_commands,
    update_commands,
    version_commands,
)
from rules_kb.cli.common import DEFAULT_CORPUS, OUTPUT_HELP, prune_after
from rules_kb.errors import RulesKbError, UsageError
from rules_kb.render.visible import make_visible

# The commands that write caches (parses, alignments, ingest reports, the CLI's search index), and
# so end by pruning them.
PRUNING_COMMANDS = frozenset({"ingest", "add", "build", "store", "updates"})
# One module per group of commands, each with ``register(commands)``; the order is --help's.
COMMAND_GROUPS = (corpus_commands, update_commands, version_commands, rule_commands, compare_commands, graph_commands,
                  store_commands,
                  search_commands, link_commands, site_commands)


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help, wrapped by display columns: a Japanese example (ブロッククリーチャー) takes two a
    character, so ``--help`` fits the terminal (80 columns) that argparse measured."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        from rules_kb.render.terminal import fill_lines

        return fill_lines(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        from rules_kb.render.terminal import fill_lines

        return "\n".join(indent + line for line in fill_lines(text, width - len(indent)))


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a bad argument is a ``UsageError`` (one ``Error:`` line, exit 1), not usage + exit 2;
    every command's help is wrapped by display columns (``HelpFormatter``)."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str):  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


def main(argv: Sequence[str] | None = None) -> int:
    install_signal_handlers()
    with warnings.catch_warnings():
        warnings.showwarning = _show_warning
        return _run(argv)


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """A rebuilt cache (``assemble.caches.CacheRebuilt``) is one ``warning:`` line on stderr."""
    print(f"warning: {make_visible(str(message))}", file=sys.stderr)


def _run(argv: Sequence[str] | None) -> int:
    parser = _parser(DEFAULT_CORPUS)
    try:
        args = parser.parse_args(argv)
        started = time.time() - 2  # file times may be coarser than this clock
        # A command that writes caches ends by pruning them (``assemble.caches.prune_caches``); a bad
        # limit is one error line before any work, not after it.
        limit = cache_limit() if args.command in PRUNING_COMMANDS else None
        code = args.handler(args)
        if code == 0 and limit is not None:
            prune_after(started, limit)
        return code
    except RulesKbError as exc:
        print(f"Error: {make_visible(str(exc))}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (`rules-kb … | head`): not an error. Keep the final flush quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        # Ctrl-C: every writer has removed its temporary files on the way up (``finally``).
        print("Error: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:
        # What no stage turned into a typed error: a full disk or file-size limit, a folder that
        # cannot be made. One line naming the file, never a traceback.
        where = exc.filename if exc.filename is not None else "rules-kb"
        print(f"Error: {make_visible(f'{where}: {exc.strerror or exc}')}", file=sys.stderr)
        return 1


def install_signal_handlers() -> None:
    """SIGTERM exits through Python (``SystemExit`` 143), so ``finally`` clauses run."""
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        with contextlib.suppress(ValueError):  # only the main thread may set handlers
            signal.signal(signal.SIGTERM, _exit_on_signal)


def _exit_on_signal(number: int, _frame: object) -> None:
    raise SystemExit(128 + number)


@functools.lru_cache(maxsize=2)
def _parser(corpus: Path) -> argparse.ArgumentParser:
    """The parser, built once per process and default corpus: ``main`` also runs in-process (the
    tests ask it thousands of questions), and a build costs 11–15 ms, every help string looked up
    in gettext's catalogues. Parsing leaves a parser as it was, so one serves every call."""
    return build_parser(corpus)


def build_parser(corpus: Path | None = None) -> argparse.ArgumentParser:
    """Every command's arguments; ``--corpus`` defaults to ``corpus`` (else ``DEFAULT_CORPUS``)."""
    parser = ArgumentParser(
        prog="rules-kb",
        description="Trading-card-game comprehensive rules: ingest, cross-reference, align and diff, explain.",
        epilog=OUTPUT_HELP,
    )
    parser.add_argument(
        "--corpus", type=Path, default=DEFAULT_CORPUS if corpus is None else corpus,
        help="corpus folder holding manifest.toml (default: the repository's corpus/)",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    for group in COMMAND_GROUPS:
        group.register(commands)
    return parser


if __name__ == "__main__":
    raise SystemExit(main())
