"""Index files for the CLI, built on demand under ``build/search/<key>/`` and reused while current.

The key is the knowledge cache's (manifest, curated files, package source), so a query costs
reading a few JSON files, not loading the knowledge base or Sudachi; only the newest few
index folders are kept.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from rules_kb.ask.knowledge import cache_key, load_knowledge
from rules_kb.ingest.corpus import load_manifest, read_document_bytes
from rules_kb.search.index import INDEX_DIR, write_search_index
from rules_kb.search.query import SearchIndex

KEEP = 3


def open_index(corpus: Path, build_dir: Path, knowledge_cache: Path | None = None) -> SearchIndex:
    """The search index of ``corpus``, built into ``build_dir`` first if it is missing or stale."""
    folder = build_dir / cache_key(corpus)
    index = folder / INDEX_DIR
    if (index / "meta.json").exists():
        for meta in load_manifest(corpus):  # as the knowledge cache: the manifest's sha256s still hold
            read_document_bytes(corpus, meta)
        return SearchIndex(index)
    write_search_index(load_knowledge(corpus, knowledge_cache), folder)
    folders = sorted((p for p in build_dir.iterdir() if p.is_dir() and not p.name.startswith(".")),
                     key=lambda p: p.stat().st_mtime, reverse=True)
    for stale in folders[KEEP:]:
        shutil.rmtree(stale, ignore_errors=True)
    return SearchIndex(index)
