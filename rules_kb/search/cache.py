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

from rules_kb.assemble.caches import (
    CacheDamaged,
    Step,
    cache_key,
    check_files,
    file_stats,
    quietly,
    read_cache_file,
    seal,
)
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
               rebuild: bool = False, step: Step = quietly) -> SearchIndex:
    """The search index of ``corpus``, built into ``build_dir`` first if it is missing, stale or
    ``rebuild`` is asked; ``SearchIndexDamaged`` if its digests cannot be read. ``step`` names the
    long steps of a build (``caches.Step``)."""
    folder = build_dir / cache_key(corpus)
    if not rebuild and folder.is_dir() and not folder.is_symlink() and (folder / DIGESTS).exists():
        record = read_digests(folder / DIGESTS)
        check_files(corpus, record["files"])
        index = CheckedIndex(folder / INDEX_DIR, record["index"])
        index.meta  # noqa: B018 - read and check meta.json now: a damaged cache is found before a query
        return index
    from rules_kb.assemble.knowledge import load_knowledge

    files = file_stats(corpus)
    with step("building the knowledge base for the search index"):
        knowledge = load_knowledge(corpus, knowledge_cache)
    with step("writing the search index"):
        write_index(knowledge, folder, files)
    return CheckedIndex(folder / INDEX_DIR, read_digests(folder / DIGESTS)["index"])


def refresh_after_add(corpus: Path, cache_dir: Path, build_dir: Path, step: Step = quietly) -> bool:
    """After ``add`` (or ``updates --fetch``) changed the corpus: when it had a store (``make build``
    or a lookup made one), write the store and the CLI's search index of the new corpus from one
    knowledge base, so the first question after the add answers at once. Otherwise (a corpus nobody
    asked anything yet) nothing is built. Returns whether anything was written.

    The store is written from the one it replaces: the texts of unchanged versions and the
    alignments of unchanged pairs are copied (``store.write``); the graph's tables are written whole
    (a release adds edges whose order and attributes, ``resolved_in`` of older citations, depend on
    the whole history), and so is the index (one more release moves every English posting's
    statistics). The index, then the knowledge base's snapshot (read back by the build that follows),
    are written in a second process meanwhile (``parallel.Beside``)."""
    from rules_kb.assemble.knowledge import build_knowledge, read_snapshot
    from rules_kb.assemble.parallel import Beside, can_fork
    from rules_kb.assemble.stored import refresh_store, store_path

    if not store_path(corpus, cache_dir).is_file():
        return False
    key, files = cache_key(corpus), file_stats(corpus)
    knowledge = read_snapshot(corpus, cache_dir)  # an add that changed nothing (the same file again)
    snapshot = (key, files) if knowledge is None else None  # built here: the next build reads it back
    if knowledge is None:
        with step("building the knowledge base of the new corpus (parsed and aligned releases are read back)"):
            knowledge = build_knowledge(corpus, cache_dir)
    folder = build_dir / key
    if (folder / DIGESTS).is_file():
        refresh_store(corpus, cache_dir, knowledge, step)
        _write_snapshot(corpus, cache_dir, knowledge, snapshot)
    elif not can_fork():
        refresh_store(corpus, cache_dir, knowledge, step)
        with step("writing the search index"):
            _write_index_and_snapshot(corpus, cache_dir, knowledge, folder, files, snapshot)
    else:
        with step("writing the store and the search index (two processes)"):
            index = Beside(str(folder), _write_index_and_snapshot, corpus, cache_dir, knowledge, folder, files,
                           snapshot)
            try:
                refresh_store(corpus, cache_dir, knowledge)
            except BaseException:
                index.cancel()
                raise
            index.result()
    return True


def _write_index_and_snapshot(corpus: Path, cache_dir: Path, knowledge, folder: Path, files: dict[str, list[int]],
                              snapshot: tuple | None) -> None:
    """The index, then the knowledge base's snapshot: in the index's process, which ends before the
    store's."""
    write_index(knowledge, folder, files)
    _write_snapshot(corpus, cache_dir, knowledge, snapshot)


def _write_snapshot(corpus: Path, cache_dir: Path, knowledge, snapshot: tuple | None) -> None:
    """The snapshot of a knowledge base built here (``snapshot``: the input key and file stats taken
    before the corpus was read), so the build after an add reads it back (``assemble.snapshot``)."""
    from rules_kb.assemble.snapshot import write_snapshot

    if snapshot is not None:
        write_snapshot(corpus, cache_dir, knowledge, *snapshot)


def write_index(knowledge, folder: Path, files: dict[str, list[int]]) -> None:
    """Replace ``folder`` whole by a new index and its digests, with the corpus files' sizes and times."""
    from rules_kb.search.index import write_search_index

    _install(folder, files, lambda staging: write_search_index(knowledge, staging))


def share_index(site_index: Path, folder: Path, files: dict[str, list[int]]) -> None:
    """Make the index a site build wrote (``<site>/search-index``) the CLI's, in ``folder``
    (``build_dir/<key>``: the key and ``files`` taken before the build read the corpus): its files
    hard-linked (copied across file systems) beside their digests, so the first ``search`` after
    ``make build`` reads the index the site serves instead of building the knowledge base again.
    The site's files are read once to digest them; a later build replaces them by new files, and
    an edit in place is caught by the digests like any other damage."""

    def link(staging: Path) -> None:
        target = staging / INDEX_DIR
        for path in sorted(site_index.rglob("*.json")):
            copy = target / path.relative_to(site_index)
            copy.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(path, copy)
            except OSError:  # another file system, or links refused: a copy costs 27 MB at full history
                shutil.copyfile(path, copy)

    _install(folder, files, link)


def link_current_index(folder: Path, corpus: Path, target: Path) -> bool:
    """Put the CLI's index in ``folder`` (``build_dir/<key>``, the key of ``corpus`` as it is now) at
    ``target`` (a site's ``search-index``, not yet there) when it is the index of ``corpus`` as it
    is: the corpus files as its digests recorded them and every file the bytes written. The files
    are hard-linked (copied across file systems) as their bytes are checked. Returns False, with
    nothing left at ``target``, when the index is missing, stale or damaged: the caller writes one.

    Why: after ``add`` the CLI's index of the new corpus is already written (``refresh_after_add``),
    and after a build the site's index is the CLI's (``share_index``); the next site build of the
    same corpus and code would make the same bytes again (27 CPU s at the whole history)."""
    record = _current_record(folder, corpus)
    if record is None:
        return False
    source = folder / INDEX_DIR
    try:
        for name, expected in sorted(record["index"].items()):
            path, copy = source / name, target / name
            if Path(name).is_absolute() or ".." in Path(name).parts:
                raise SearchIndexDamaged(f"{name}: not a file of the index")
            copy.parent.mkdir(parents=True, exist_ok=True)
            data = read_checked(path, name, expected, MAX_INDEX_FILE)
            try:
                os.link(path, copy)
            except OSError:  # another file system, or links refused: the bytes just checked
                copy.write_bytes(data)
            if _sha256(copy) != expected:  # replaced between the check and the link
                raise SearchIndexDamaged(f"{name}: changed while it was linked")
    except (RulesKbError, OSError):
        shutil.rmtree(target, ignore_errors=True)
        return False
    return True


def index_intact(folder: Path, corpus: Path) -> bool:
    """Whether the CLI's index in ``folder`` is the index of ``corpus`` as it is, every file the
    bytes its digests recorded (``link_current_index``'s checks, nothing linked): a build that
    finds nothing changed shares the site's index again when it is not."""
    record = _current_record(folder, corpus)
    if record is None:
        return False
    try:
        for name, expected in sorted(record["index"].items()):
            if Path(name).is_absolute() or ".." in Path(name).parts:
                return False
            read_checked(folder / INDEX_DIR / name, name, expected, MAX_INDEX_FILE)
    except (RulesKbError, OSError):
        return False
    return True


def _current_record(folder: Path, corpus: Path) -> dict | None:
    """The digests of the CLI's index in ``folder`` when it was made from ``corpus`` as it is now."""
    try:
        if not (folder / DIGESTS).is_file() or folder.is_symlink():
            return None
        record = read_digests(folder / DIGESTS)
        check_files(corpus, record["files"])
    except (RulesKbError, OSError):
        return None
    return record


def _install(folder: Path, files: dict[str, list[int]], fill) -> None:
    """Fill a staging folder beside ``folder`` (``fill(staging)`` puts the index under ``INDEX_DIR``),
    digest it, and swap it in whole; then keep only the ``KEEP`` newest indexes beside it."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = make_temporary_folder(folder.parent, f".{folder.name}-")
    try:
        fill(staging)
        index = staging / INDEX_DIR
        digests = {str(path.relative_to(index)): _sha256(path) for path in sorted(index.rglob("*.json"))}
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
    folders = sorted((p for p in folder.parent.iterdir() if p.is_dir() and not p.name.startswith(".")),
                     key=lambda p: p.stat().st_mtime, reverse=True)
    for stale in folders[KEEP:]:
        shutil.rmtree(stale, ignore_errors=True)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


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
