"""What every command shares: default paths, answering a question from the store, printing to a terminal.

Imported by every command module when the parser is built, so at module level it imports only
where the caches are (``assemble.caches``: paths and file checks, no parser, no store) and
``places``: each function imports what it uses when it runs (a lookup pays only for its own path).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from rules_kb import places
from rules_kb.assemble.caches import cache_root, ensure_folder, search_root
from rules_kb.errors import StoreUnusable, UsageError

if TYPE_CHECKING:
    from rules_kb.store.views import StoreKnowledge

DEFAULT_CORPUS = places.DEFAULT_CORPUS
# The store, the JSON caches and the search index; RULES_KB_CACHE moves them all (assemble/caches.py).
DEFAULT_CACHE = cache_root()
DEFAULT_SEARCH = search_root()

Answer = TypeVar("Answer")


def say(line: str, file=None) -> None:
    """Print one line with every control character made visible (``render/visible.py``): text from
    a source, a note or a cache never reaches the terminal raw."""
    from rules_kb.render.visible import make_visible

    print(make_visible(line), file=file or sys.stdout)


def warn(line: str) -> None:
    say(line, sys.stderr)


# A long step of a cache build is named on stderr once it has run this long (``assemble.caches.Step``).
STEP_NOTICE_SECONDS = 2.0


def shows_progress() -> bool:
    """Progress lines go to a person: only when stderr is a terminal (as git's progress), so that a
    script or a test reading stderr sees warnings and errors alone, whatever the machine's speed."""
    return sys.stderr.isatty()


@contextmanager
def step(name: str) -> Iterator[None]:
    """On a terminal, say ``progress: NAME...`` on stderr if the step is still running after
    ``STEP_NOTICE_SECONDS`` (a rebuild of the store or the search index takes a minute at full
    history: never in silence), then how long it took; a quick step prints nothing."""
    import threading
    import time

    if not shows_progress():
        yield
        return
    started = time.monotonic()
    said = threading.Event()

    def notice() -> None:
        said.set()
        print(f"progress: {name}...", file=sys.stderr, flush=True)

    timer = threading.Timer(STEP_NOTICE_SECONDS, notice)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        timer.join()
        if said.is_set():
            print(f"progress: {name}: done in {time.monotonic() - started:.1f} s", file=sys.stderr, flush=True)


def cache() -> Path:
    """The cache root, checked to be a folder (made when missing) before anything reads or writes it."""
    return ensure_folder(DEFAULT_CACHE)


class JoinWords(argparse.Action):
    """A positional given as several words (``search declare blockers``, ``show first strike``) read
    as the one text a quoted argument would be: a judge need not quote a phrase."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        setattr(namespace, self.dest, " ".join(values))


def prune_after(started: float, limit: int) -> None:
    """End of a command that wrote caches: remove what no run used since ``started``, least recently
    used first, down to ``limit`` bytes (``assemble.caches.prune_caches``); one note when it did."""
    from rules_kb.assemble.caches import LIMIT_ENVIRONMENT, prune_caches

    if not DEFAULT_CACHE.is_dir():
        return
    pruned = prune_caches(DEFAULT_CACHE, DEFAULT_SEARCH, started, limit)
    if pruned.removed:
        mb = 1024 * 1024
        note(f"removed {pruned.removed:,} cache entr{'y' if pruned.removed == 1 else 'ies'} this run did not use "
             f"({pruned.removed_bytes / mb:,.0f} MB, least recently used first); "
             f"{pruned.kept_bytes / mb:,.0f} MB kept ({LIMIT_ENVIRONMENT}={limit // mb})")


def open_knowledge(args: argparse.Namespace):
    """The whole knowledge base in memory (graph export): built from the JSON caches."""
    from rules_kb.assemble.knowledge import load_knowledge

    return load_knowledge(args.corpus, cache())


def answer(args: argparse.Namespace, question: Callable[[StoreKnowledge], Answer]) -> Answer:
    """``question`` answered from the store; a store found damaged while reading is rebuilt once."""
    from rules_kb.assemble.stored import open_store, store_path
    from rules_kb.store.read import StoreDamaged

    try:
        return question(open_store(args.corpus, cache(), warn, step=step))
    except StoreDamaged as exc:
        warn(f"warning: the store is damaged ({exc}); rebuilding it")
    try:
        return question(open_store(args.corpus, cache(), warn, rebuild=True, step=step))
    except StoreDamaged as exc:  # a fresh store failing its own check: the disk, or a bug; never a traceback
        raise StoreUnusable(f"{store_path(args.corpus, cache())}: fails its check right after a rebuild "
                            f"({exc}); please report this") from None


def print_text(args: argparse.Namespace, text: str) -> None:
    """Print a text view: control characters visible, wrapped and coloured on a terminal, paged when long."""
    from rules_kb.render.terminal import emit, present, terminal_for

    terminal = terminal_for(sys.stdout, os.environ, "always" if getattr(args, "color", False) else "auto")
    emit(present(text, terminal), sys.stdout, terminal, os.environ)


def note(text: str) -> None:
    """A remark about how the question was read (which game was chosen), on stderr."""
    print(f"note: {text}", file=sys.stderr)


def game_option(raw: str) -> str:
    """argparse type for ``--game``: ``DM``, ``magic`` ... accepted."""
    from rules_kb.ask.arguments import game_code

    try:
        return game_code(raw)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def lang_option(raw: str) -> str:
    """argparse type for ``--lang``: ``jp``, ``JA``, ``english`` ... accepted."""
    from rules_kb.ask.arguments import language_code

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
