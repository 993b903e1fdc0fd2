"""Index files for the CLI, built on demand under ``build/search/<key>/`` and reused while current.

The key is the knowledge cache's (manifest, curated files, package source), so a query costs
reading a few JSON files, not loading the knowledge base or Sudachi; only the newest few
index folders are kept.

The cache is not trusted: beside the index, ``digests.json`` (itself sealed with its digest,
``caches.read_cache_file``) holds the SHA-256 of every file written, and each file is read by the
one rule for cache files when a query first reads it (``ingest/reading.py``: regular files only,
never blocking on a FIFO, bytes checked against the table, nesting bounded). A truncated,
emptied, replaced or edited file makes the index ``damaged``: the caller warns in one line and
builds it again.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from rules_kb.assemble.caches import CacheDamaged, cache_key, check_files, file_stats, read_cache_file, seal
from rules_kb.errors import RulesKbError, SourceError
from rules_kb.files import make_temporary_folder
from rules_kb.ingest.reading import parse_json, read_checked
from rules_kb.search.query import INDEX_DIR, SearchIndex

KEEP = 3
DIGESTS = "digests.json"
MAX_INDEX_FILE = 64 * 1024 * 1024


class SearchIndexDamaged(RulesKbError):
    """A file of the CLI's search index is missing, unreadable or not what was written."""


class CheckedIndex(SearchIndex):
    """A ``SearchIndex`` whose every file is read safely and checked against its digest."""

    def __init__(self, folder: Path, digests: dict[str, str]) -> None:
        super().__init__(folder)
        self.digests = digests

    def _read(self, name: str) -> object:
        expected = self.digests.get(name)
        if expected is None:
            raise SearchIndexDamaged(f"{name}: not listed in {DIGESTS}")
        try:
            return parse_json(read_checked(self.folder / name, name, expected, MAX_INDEX_FILE), name)
        except SourceError as exc:
            if exc.problem.startswith("sha256 mismatch"):
                raise SearchIndexDamaged(f"{name}: not the file that was written") from None
            raise SearchIndexDamaged(exc.describe()) from None


def open_index(corpus: Path, build_dir: Path, knowledge_cache: Path | None = None, *,
               rebuild: bool = False) -> SearchIndex:
    """The search index of ``corpus``, built into ``build_dir`` first if it is missing, stale or
    ``rebuild`` is asked; ``SearchIndexDamaged`` if its digests cannot be read."""
    folder = build_dir / cache_key(corpus)
    if not rebuild and folder.is_dir() and not folder.is_symlink() and (folder / DIGESTS).exists():
        record = read_digests(folder / DIGESTS)
        check_files(corpus, record["files"])
        index = CheckedIndex(folder / INDEX_DIR, record["index"])
        index.meta  # noqa: B018 - read and check meta.json now: a damaged cache is found before a query
        return index
    from rules_kb.assemble.knowledge import load_knowledge

    write_index(load_knowledge(corpus, knowledge_cache), folder, file_stats(corpus))
    folders = sorted((p for p in build_dir.iterdir() if p.is_dir() and not p.name.startswith(".")),
                     key=lambda p: p.stat().st_mtime, reverse=True)
    for stale in folders[KEEP:]:
        shutil.rmtree(stale, ignore_errors=True)
    return CheckedIndex(folder / INDEX_DIR, read_digests(folder / DIGESTS)["index"])


def write_index(knowledge, folder: Path, files: dict[str, list[int]]) -> None:
    """Replace ``folder`` whole by a new index and its digests, with the corpus files' sizes and times."""
    from rules_kb.search.index import write_search_index

    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = make_temporary_folder(folder.parent, f".{folder.name}-")
    try:
        write_search_index(knowledge, staging)
        index = staging / INDEX_DIR
        digests = {str(path.relative_to(index)): hashlib.sha256(path.read_bytes()).hexdigest()
                   for path in sorted(index.rglob("*.json"))}
        record = {"files": files, "index": digests}
        (staging / DIGESTS).write_text(seal(json.dumps(record, indent=0, sort_keys=True)), encoding="utf-8")
        if folder.exists() or folder.is_symlink():
            if folder.is_dir() and not folder.is_symlink():
                shutil.rmtree(folder)
            else:
                folder.unlink()
        os.replace(staging, folder)
    finally:
        if staging.exists():
            shutil.rmtree(staging)


def read_digests(path: Path) -> dict[str, dict]:
    """``{"files": corpus file → [size, mtime_ns], "index": index file → sha256}``, checked."""
    try:
        record = read_cache_file(path, MAX_INDEX_FILE)
    except CacheDamaged as exc:
        raise SearchIndexDamaged(str(exc)) from None
    index = record.get("index") if isinstance(record, dict) else None
    files = record.get("files") if isinstance(record, dict) else None
    if not (isinstance(index, dict) and all(isinstance(v, str) for v in index.values()) and isinstance(files, dict)
            and all(isinstance(v, list) for v in files.values())):
        raise SearchIndexDamaged(f"{DIGESTS}: not the table of digests written with the index")
    return record
