"""Assemble the knowledge base (ingest → catalog → graph → alignment edges), with caches.

Two caches, both JSON under ``build/cache`` and both content-addressed, so a stale entry is
never found rather than detected: a parsed document is keyed by its bytes' sha256, its
manifest entry and the source of the parsing stages; an alignment of two adjacent complete
releases by the texts of both, the forced matches that concern them and the source of the
aligning stages. Adding a release therefore parses one document and aligns it with its
neighbours. Missing entries are computed in parallel worker processes (which exchange
data with this one over pipes, never through a file). A cache file is read by the cache rule
(``caches.read_cache_file``: a regular file, bounded, sealed with its digest, JSON of bounded
nesting); a damaged one is recomputed with one warning.

This module assembles the stages; like the CLI it sits above them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

from rules_kb.assemble.caches import (
    CacheDamaged,
    cache_key,
    read_cache_file,
    source_hash,
    warn_rebuilt,
    write_cache_file,
)
from rules_kb.assemble.parallel import map_in_order
from rules_kb.compare.memory import AlignmentMemo
from rules_kb.errors import RulesKbError
from rules_kb.heap import release_free_memory
from rules_kb.ingest.corpus import load_manifest, read_document_bytes
from rules_kb.ingest.curated import Correspondence, ForcedMatch
from rules_kb.kb.catalog import Catalog, VersionInfo
from rules_kb.model import DocumentMeta, ParsedDocument
from rules_kb.store.records import (
    alignment_from_record,
    alignment_record,
    document_from_record,
    document_record,
    forced_record,
)

if TYPE_CHECKING:
    import networkx as nx

    from rules_kb.kb.graph import Unresolved

PARSING = ("errors.py", "games.py", "numbers.py", "model.py", "refs.py", "tokens.py", "sources", "ingest")
# The aligner reads the catalog, not the graph: drawing the graph differently aligns nothing anew.
ALIGNING = (*PARSING, "kb/catalog.py", "kb/ids.py", "compare")


@dataclass
class Knowledge:
    catalog: Catalog
    graph: nx.MultiDiGraph
    unresolved: list[Unresolved]
    forced: list[ForcedMatch]
    alignments: AlignmentMemo  # the aligner's memory of this catalog, handed to every comparison
    correspondences: list[Correspondence]


@dataclass
class KnowledgeReport:
    """What assembling the knowledge base did: documents parsed vs reused, alignments computed vs reused
    (the site build says what it wrote in its own `site.build.SiteReport`)."""

    parsed: list[str] = field(default_factory=list)
    parses_reused: int = 0
    aligned: list[str] = field(default_factory=list)
    alignments_reused: int = 0
    store_rows_copied: dict[str, int] = field(default_factory=dict)  # by table, from the store replaced


def build_knowledge(corpus: Path, cache_dir: Path | None = None, report: KnowledgeReport | None = None) -> Knowledge:
    """Ingest the corpus and build the catalog and graph; with ``cache_dir``, reuse cached work."""
    from rules_kb.compare.lineage import trace_lineage
    from rules_kb.ingest.curated import (
        load_analogues,
        load_correspondences,
        load_forced_matches,
        load_section_analogues,
        load_terms,
    )
    from rules_kb.kb.catalog import build_catalog
    from rules_kb.kb.graph import build_graph

    report = report if report is not None else KnowledgeReport()
    documents = parse_documents(corpus, cache_dir, report)
    catalog = build_catalog(documents)
    forced = load_forced_matches(corpus)
    memo = AlignmentMemo()
    if cache_dir is not None:
        align_adjacent(catalog, memo, forced, cache_dir, report)  # seeds the aligner's memory
    lineage = trace_lineage(catalog, memo, forced)
    graph, unresolved = build_graph(catalog, load_analogues(corpus), load_terms(corpus), lineage.successions,
                                    lineage.moves, load_section_analogues(corpus))
    del documents, lineage
    release_free_memory()  # the parses and the lineage's working sets: ~80 MB at the whole history
    return Knowledge(catalog, graph, unresolved, forced, memo, load_correspondences(corpus))


def load_knowledge(corpus: Path, cache_dir: Path | None = None) -> Knowledge:
    """The whole knowledge base in memory (graph export, the site): read back from its signed
    snapshot when one of the corpus as it is was written (``assemble.snapshot``), else built with
    the caches."""
    found = read_snapshot(corpus, cache_dir) if cache_dir is not None else None
    return found if found is not None else build_knowledge(corpus, cache_dir)


def read_snapshot(corpus: Path, cache_dir: Path) -> Knowledge | None:
    """The knowledge base of ``corpus`` as it is now, from the signed snapshot a build or an add
    wrote (``assemble.snapshot``); None when there is none, it is stale or it does not verify."""
    from rules_kb.assemble.snapshot import read_snapshot_parts

    parts = read_snapshot_parts(corpus, cache_dir)
    release_free_memory()  # the unpickler's memo and the file's bytes
    return None if parts is None else Knowledge(*parts)


# Parsing, one document at a time


def document_key(meta: DocumentMeta, parser: str) -> str:
    entry = json.dumps({**meta.__dict__}, ensure_ascii=False, sort_keys=True, default=list)
    return hashlib.sha256(f"{meta.sha256}\n{entry}\n{parser}".encode()).hexdigest()[:32]


def _parse_one(data: bytes, meta: DocumentMeta, path: Path | None) -> dict:
    """A document's parse as a record, kept at ``path`` by the worker that made it (encoding a
    record is as much CPU as converting it back, and the parent has the conversion to do)."""
    from rules_kb.ingest.pipeline import parse_bytes

    record = document_record(parse_bytes(data, meta).parsed)
    if path:
        _write_json(path, record)
    return record


def parse_documents(corpus: Path, cache_dir: Path | None, report: KnowledgeReport) -> list[ParsedDocument]:
    """Every manifest document parsed, in manifest order; cached ones read back, the rest in parallel.

    Each document's decoded text is dropped once parsed (``text`` is empty): nothing after the
    parsers reads it (accounting checks the spans against it at ingest), and at full history it is
    144 million characters, 254 MB held for nothing. Its records keep their own texts."""
    parser = source_hash(PARSING)
    metas = load_manifest(corpus)
    found: dict[str, ParsedDocument] = {}
    missing: list[tuple[DocumentMeta, bytes, Path | None]] = []
    damaged: list[str] = []
    for meta in metas:
        data = read_document_bytes(corpus, meta)  # checked against the manifest's sha256, cache or not
        path = cache_dir / "parsed" / f"{document_key(meta, parser)}.json" if cache_dir else None
        cached = _read_json(path, document_from_record, damaged) if path else None
        if cached is not None and cached.meta == meta:
            found[meta.id] = cached
            report.parses_reused += 1
        else:
            missing.append((meta, data, path))
    warn_rebuilt(damaged, "the parsed-document cache")
    for (meta, _, _), record in zip(missing, _run(_parse_one, [(d, m, p) for m, d, p in missing]), strict=True):
        found[meta.id] = document_from_record(record)
        report.parsed.append(meta.id)
    for document in found.values():
        document.text = ""  # see below
    return [found[meta.id] for meta in metas]


# Aligning adjacent complete releases


def version_digest(catalog: Catalog, key: tuple[str, str, str], parser: str) -> str:
    """What one version says, named by the parse keys of the documents that make it.

    ``build_catalog`` folds the documents in manifest order, so a version's texts, kinds and
    date are a function of the ordered documents listed for it, each fixed by its parse key
    (bytes, manifest entry, parser source): hashing those keys names the same content as
    hashing every text, without reading a text.
    """
    info: VersionInfo = catalog.versions[key]
    keys = [document_key(catalog.documents[doc].meta, parser) for doc in info.documents]
    return hashlib.sha256(json.dumps([list(key), keys]).encode()).hexdigest()


def adjacent_pairs(catalog: Catalog) -> list[tuple[str, str, str, str]]:
    """(game, lang, old, new) for every two neighbouring complete releases: what lineage aligns."""
    out = []
    for game, lang in sorted({(g, lg) for g, lg, _ in catalog.versions}):
        complete = [label for label in catalog.version_labels(game, lang)
                    if catalog.versions[(game, lang, label)].complete and catalog.rules_in(game, lang, label)]
        out.extend((game, lang, old, new) for old, new in pairwise(complete))
    return out


def relevant_forced(forced: list[ForcedMatch], game: str, lang: str, old: str, new: str) -> tuple[ForcedMatch, ...]:
    return tuple(m for m in forced if (m.game, m.lang, m.old_version, m.new_version) == (game, lang, old, new))


def _align_one(catalog: Catalog, game: str, lang: str, old: str, new: str, relevant: tuple, path: Path) -> dict:
    """An adjacent pair's alignment as a record, kept at ``path`` by the worker that made it
    (``catalog`` is the whole one, which a worker receives once: the pair reads only its two versions)."""
    from rules_kb.compare.align import align_pair

    record = alignment_record(align_pair(catalog, AlignmentMemo(), game, lang, old, new, relevant))
    _write_json(path, record)
    return record


def align_adjacent(catalog: Catalog, memo: AlignmentMemo, forced: list[ForcedMatch], cache_dir: Path,
                   report: KnowledgeReport) -> None:
    """Fill ``memo`` for every adjacent pair, from the cache or computed in parallel."""
    from rules_kb.compare.alignment import pick_texts

    aligner = source_hash(ALIGNING)
    parser = source_hash(PARSING)
    digests: dict[tuple, str] = {}
    missing = []
    damaged: list[str] = []
    for game, lang, old, new in adjacent_pairs(catalog):
        relevant = relevant_forced(forced, game, lang, old, new)
        for key in ((game, lang, old), (game, lang, new)):
            if key not in digests:
                digests[key] = version_digest(catalog, key, parser)
        path = _alignment_path(cache_dir, aligner, (game, lang, old, new), digests[(game, lang, old)],
                               digests[(game, lang, new)], relevant)
        old_texts, new_texts = pick_texts(catalog, game, lang, old), pick_texts(catalog, game, lang, new)
        cached = _read_json(path, lambda data, a=old_texts, b=new_texts: alignment_from_record(
            data, a.__getitem__, b.__getitem__), damaged)
        if cached is not None:
            memo[(game, lang, old, new, relevant)] = cached
            report.alignments_reused += 1
        else:
            missing.append((game, lang, old, new, relevant, path))
    warn_rebuilt(damaged, "the alignment cache")
    aligned = _run(_align_one, missing, shared=catalog)
    for (game, lang, old, new, relevant, _), record in zip(missing, aligned, strict=True):
        old_texts, new_texts = pick_texts(catalog, game, lang, old), pick_texts(catalog, game, lang, new)
        memo[(game, lang, old, new, relevant)] = alignment_from_record(
            record, old_texts.__getitem__, new_texts.__getitem__)
        report.aligned.append(f"{game} {lang} {old} -> {new}")


def _alignment_path(cache_dir: Path, aligner: str, pair: tuple[str, str, str, str], old_digest: str,
                    new_digest: str, relevant: tuple[ForcedMatch, ...]) -> Path:
    name = hashlib.sha256(json.dumps([aligner, *pair, old_digest, new_digest, forced_record(relevant)],
                                     ensure_ascii=False).encode()).hexdigest()[:32]
    return cache_dir / "aligned" / f"{name}.json"


def remember_addition(cache_dir: Path, catalog: Catalog, memo: AlignmentMemo, document: ParsedDocument) -> None:
    """Cache what ``add`` already computed: the new document's parse and the alignments its
    comparison made (``catalog`` holds the documents it read), so the next build does not
    compute them again. Entries are named by content as the build names them, so one the build
    would name otherwise is simply never read."""
    parser, aligner = source_hash(PARSING), source_hash(ALIGNING)
    _write_json(cache_dir / "parsed" / f"{document_key(document.meta, parser)}.json", document_record(document))
    for (game, lang, old, new, relevant), alignment in list(memo.items()):
        if not (catalog.versions[(game, lang, old)].complete and catalog.versions[(game, lang, new)].complete):
            continue
        path = _alignment_path(cache_dir, aligner, (game, lang, old, new),
                               version_digest(catalog, (game, lang, old), parser),
                               version_digest(catalog, (game, lang, new), parser), relevant)
        _write_json(path, alignment_record(alignment))


# Shared helpers


def _run(function, jobs: list[tuple], shared: object = None) -> Iterator:
    """``function(*job)`` for every job, in order, as each is done; in worker processes when there
    are several (``parallel.map_in_order``)."""
    return map_in_order(function, jobs, None if len(jobs) > 1 else 1, shared=shared)


def _read_json(path: Path, convert, damaged: list[str]):
    """A cache entry read by the cache rule (``caches.read_cache_file``) and converted, or None when
    absent or damaged (it is then recomputed; ``damaged`` collects why, for one warning)."""
    try:
        data = read_cache_file(path)
    except CacheDamaged as exc:
        damaged.append(str(exc))
        return None
    if data is None:
        return None
    try:
        return convert(data)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, RulesKbError):
        damaged.append(f"{path}: not a record this code reads")
        return None


def _write_json(path: Path, record: dict) -> None:
    """Write a cache entry (``caches.write_cache_file``); failure only costs time."""
    write_cache_file(path, json.dumps(record, ensure_ascii=False, separators=(",", ":")))


__all__ = ["Knowledge", "KnowledgeReport", "build_knowledge", "cache_key", "document_key", "load_knowledge",
           "read_snapshot", "remember_addition"]
