"""The knowledge store itself: build or refresh it and say where it is."""

from __future__ import annotations

import argparse


def register(commands: argparse._SubParsersAction) -> None:
    store = commands.add_parser(
        "store", help="build or refresh the SQLite knowledge store and print its path and counts",
        description="Build the knowledge store if it is absent, stale or damaged (reusing cached parses and "
        "alignments), then print its path and what it holds. Lookups do this on their own; use it to "
        "open the store in sqlite3 or Datasette. RULES_KB_CACHE moves the cache folder; ingest, add, build, store "
        "and updates end by removing the cache entries they did not use, least recently used first, beyond "
        "RULES_KB_CACHE_MAX_MB (default 3072).")
    store.add_argument("--rebuild", action="store_true", help="rebuild even when the store is current")
    store.set_defaults(handler=run_store)


def run_store(args: argparse.Namespace) -> int:
    from rules_kb.assemble.stored import open_store
    from rules_kb.cli import common

    knowledge = open_store(args.corpus, common.cache(), common.warn, rebuild=args.rebuild, step=common.step)
    counts = knowledge.store.meta_json("counts")
    held = ", ".join(f"{counts[k]} {k.replace('_', ' ')}" for k in ("versions", "rule_texts", "terms", "edges",
                                                                    "alignments"))
    print(f"{knowledge.store.path}: {held}")
    return 0
