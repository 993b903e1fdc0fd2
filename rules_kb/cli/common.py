"""What every command shares: default paths and opening the knowledge base."""

from __future__ import annotations

import argparse
from pathlib import Path

from rules_kb.ask.knowledge import Knowledge, load_knowledge

REPOSITORY = Path(__file__).resolve().parent.parent.parent
DEFAULT_CORPUS = REPOSITORY / "corpus"
DEFAULT_CACHE = REPOSITORY / "build" / "cache"
DEFAULT_SEARCH = REPOSITORY / "build" / "search"


def open_knowledge(args: argparse.Namespace) -> Knowledge:
    return load_knowledge(args.corpus, DEFAULT_CACHE)
