"""What every command shares: default paths, opening the knowledge base, printing to a terminal."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from rules_kb.ask.arguments import game_code, language_code
from rules_kb.ask.knowledge import Knowledge, load_knowledge
from rules_kb.errors import UsageError
from rules_kb.render.terminal import emit, present, terminal_for

REPOSITORY = Path(__file__).resolve().parent.parent.parent
DEFAULT_CORPUS = REPOSITORY / "corpus"
DEFAULT_CACHE = REPOSITORY / "build" / "cache"


def open_knowledge(args: argparse.Namespace) -> Knowledge:
    return load_knowledge(args.corpus, DEFAULT_CACHE)


def print_text(args: argparse.Namespace, text: str) -> None:
    """Print a text view: control characters visible, wrapped and coloured on a terminal, paged when long."""
    terminal = terminal_for(sys.stdout, os.environ, "always" if getattr(args, "color", False) else "auto")
    emit(present(text, terminal), sys.stdout, terminal, os.environ)


def note(text: str) -> None:
    """A remark about how the question was read (which game was chosen), on stderr."""
    print(f"note: {text}", file=sys.stderr)


def game_option(raw: str) -> str:
    """argparse type for ``--game``: ``DM``, ``magic`` ... accepted."""
    try:
        return game_code(raw)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def lang_option(raw: str) -> str:
    """argparse type for ``--lang``: ``jp``, ``JA``, ``english`` ... accepted."""
    try:
        return language_code(raw)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


OUTPUT_HELP = (
    "On a terminal, text is wrapped to its width, coloured and paged through $PAGER (default less); NO_COLOR "
    "turns colour off; a pipe gets no colour (unless --color) and no wrapping (unless COLUMNS is set). Control "
    "characters from the sources print as \\x1b and the like. The executable is .venv/bin/rules-kb.")
RULE_HELP = "rule number: 507.2a, ５０７．２ａ, 'CR 509.1a', 'rule 509.1a', 総合ルール507.3c"
GAME_HELP = "dm (Duel Masters) or mtg (Magic); DM, magic ... accepted"
LANG_HELP = "ja or en; jp, english ... accepted"
