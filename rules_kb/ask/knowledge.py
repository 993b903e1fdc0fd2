"""Load the whole knowledge base (ingest → catalog → graph), with a pickle cache.

The cache key covers everything the result depends on: the manifest (with every document's
sha256), the curated files and the package's own source; before a cache is used, every
document is checked against its sha256 again, so an edited file is refused as it would be
without a cache. A damaged cache is rebuilt; the three newest cache files are kept.

This module assembles the stages (ingest, catalog, graph, alignment edges); like the CLI it
sits above them.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from dataclasses import dataclass
from pathlib import Path

import networkx as nx

from rules_kb.compare.lineage import trace_lineage
from rules_kb.ingest.corpus import load_manifest, read_document_bytes
from rules_kb.ingest.curated import (
    ANALOGUES,
    FORCED_MATCHES,
    TERMS,
    ForcedMatch,
    load_analogues,
    load_forced_matches,
    load_terms,
)
from rules_kb.ingest.pipeline import ingest_corpus
from rules_kb.kb.catalog import Catalog, build_catalog
from rules_kb.kb.graph import Unresolved, build_graph

PACKAGE = Path(__file__).resolve().parent.parent  # the whole rules_kb package
KEEP_CACHES = 3  # one per corpus a user alternates between


@dataclass
class Knowledge:
    catalog: Catalog
    graph: nx.MultiDiGraph
    unresolved: list[Unresolved]
    forced: list[ForcedMatch]


def cache_key(corpus: Path) -> str:
    digest = hashlib.sha256()
    for name in ("manifest.toml", ANALOGUES, TERMS, FORCED_MATCHES):
        path = corpus / name
        digest.update(name.encode())
        digest.update(path.read_bytes() if path.exists() else b"-")
    for source in sorted(PACKAGE.rglob("*.py")):
        digest.update(str(source.relative_to(PACKAGE)).encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def build_knowledge(corpus: Path) -> Knowledge:
    """Ingest the corpus and build the catalog and graph, with no cache."""
    ingested = ingest_corpus(corpus)
    catalog = build_catalog([item.parsed for item in ingested])
    forced = load_forced_matches(corpus)
    lineage = trace_lineage(catalog, forced)
    graph, unresolved = build_graph(catalog, load_analogues(corpus), load_terms(corpus), lineage)
    return Knowledge(catalog, graph, unresolved, forced)


def load_knowledge(corpus: Path, cache_dir: Path | None = None) -> Knowledge:
    """The knowledge base, from ``cache_dir`` when a cache for this exact input exists."""
    if cache_dir is None:
        return build_knowledge(corpus)
    path = cache_dir / f"knowledge-{cache_key(corpus)}.pickle"
    if path.exists():
        for meta in load_manifest(corpus):  # the manifest promises checked bytes, cache or not
            read_document_bytes(corpus, meta)
        try:
            with path.open("rb") as handle:
                return pickle.load(handle)
        except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError):
            path.unlink(missing_ok=True)  # a damaged cache is rebuilt, never trusted
    knowledge = build_knowledge(corpus)
    _store(cache_dir, path, knowledge)
    return knowledge


def _store(cache_dir: Path, path: Path, knowledge: Knowledge) -> None:
    """Write the cache under a unique temporary name (runs may race), keep the newest few."""
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=cache_dir, prefix=".knowledge-", suffix=".tmp")
        with os.fdopen(handle, "wb") as out:
            pickle.dump(knowledge, out, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
    except OSError:
        return  # a cache that cannot be written only costs time
    caches = sorted(cache_dir.glob("knowledge-*.pickle"), key=lambda p: p.stat().st_mtime, reverse=True)
    for stale in caches[KEEP_CACHES:]:
        stale.unlink(missing_ok=True)
