"""What every command shares: default paths, and answering a question from the store."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from rules_kb.ask.stored import open_store
from rules_kb.store.read import StoreDamaged
from rules_kb.store.views import StoreKnowledge

REPOSITORY = Path(__file__).resolve().parent.parent.parent
DEFAULT_CORPUS = REPOSITORY / "corpus"
# The store and the JSON caches; RULES_KB_CACHE moves them (benchmarks, read-only checkouts).
DEFAULT_CACHE = Path(os.environ.get("RULES_KB_CACHE") or REPOSITORY / "build" / "cache")
DEFAULT_SEARCH = REPOSITORY / "build" / "search"

Answer = TypeVar("Answer")


def warn(line: str) -> None:
    print(line, file=sys.stderr)


def open_knowledge(args: argparse.Namespace):
    """The whole knowledge base in memory (graph export): built from the JSON caches."""
    from rules_kb.ask.knowledge import load_knowledge

    return load_knowledge(args.corpus, DEFAULT_CACHE)


def answer(args: argparse.Namespace, question: Callable[[StoreKnowledge], Answer]) -> Answer:
    """``question`` answered from the store; a store found damaged while reading is rebuilt once."""
    knowledge = open_store(args.corpus, DEFAULT_CACHE, warn)
    try:
        return question(knowledge)
    except StoreDamaged as exc:
        warn(f"warning: the store is damaged ({exc}); rebuilding it")
        return question(open_store(args.corpus, DEFAULT_CACHE, warn, rebuild=True))
