"""Open the knowledge store for a corpus, building it when absent, stale or damaged.

The store lives in the cache folder, one file per corpus folder. Before it is used, its
input key (manifest, curated files, package source) is compared with the corpus, and every
corpus file whose size, mtime or ctime changed since the build is checked against the manifest's
sha256 again, so an edited file is refused as it would be without a store.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from rules_kb.assemble.caches import Step, check_files, code_key, file_stats, quietly
from rules_kb.errors import UsageError
from rules_kb.store.read import Store, StoreDamaged, StoreOutdated
from rules_kb.store.views import StoreKnowledge

Warn = Callable[[str], None]


def store_path(corpus: Path, cache_dir: Path) -> Path:
    tag = hashlib.sha256(str(corpus.resolve()).encode()).hexdigest()[:12]
    return cache_dir / f"store-{tag}.sqlite"


def build_store(corpus: Path, cache_dir: Path, report=None, knowledge=None, step: Step = quietly,
                reuse: bool = False) -> Path:
    """Build the knowledge base (reusing cached parses and alignments; none when ``knowledge`` is the
    corpus's, already built) and write the store; ``step`` names the long steps. With ``reuse``, the
    rows of versions the store there already holds are copied from it (``store.write``): after an
    ``add``, not after a store was found damaged."""
    from rules_kb.assemble.knowledge import KnowledgeReport, adjacent_pairs, build_knowledge, cache_key, relevant_forced
    from rules_kb.store.write import write_store

    report = report if report is not None else KnowledgeReport()
    key, code = cache_key(corpus), code_key(corpus)
    files = file_stats(corpus)  # before the corpus is read: a file changed meanwhile is checked again
    if knowledge is None:
        with step("building the knowledge base for the store"):
            knowledge = build_knowledge(corpus, cache_dir, report)
    catalog = knowledge.catalog
    alignments = []
    for game, lang, old, new in adjacent_pairs(catalog):
        relevant = relevant_forced(knowledge.forced, game, lang, old, new)
        alignments.append((relevant, knowledge.alignments[(game, lang, old, new, relevant)]))
    path = store_path(corpus, cache_dir)
    for old in cache_dir.glob("knowledge-*.pickle"):  # left by versions before the store: deleted, never read
        old.unlink(missing_ok=True)
    with step("writing the store"):
        copied = write_store(path, catalog, knowledge.graph, alignments,
                             {"input_key": key, "files": files, "reuse": code}, path if reuse else None)
    report.store_rows_copied = copied
    return path


def refresh_store(corpus: Path, cache_dir: Path, knowledge, step: Step = quietly) -> bool:
    """Write the store from ``knowledge`` (the corpus's, built by the caller) unless the one there is
    current: ``make build`` builds the knowledge base once for the graph, the store and the site.
    Returns whether it was written."""
    if store_current(corpus, cache_dir):
        return False
    build_store(corpus, cache_dir, knowledge=knowledge, step=step, reuse=True)
    return True


def store_current(corpus: Path, cache_dir: Path) -> bool:
    """Whether the store there is the one of ``corpus`` as it is (its input key, and its files as it
    recorded them: an edited corpus file raises ``ManifestError``); False when it is missing,
    outdated or damaged. A directory where the store belongs is refused."""
    from rules_kb.assemble.caches import cache_key

    path = store_path(corpus, cache_dir)
    if _kind_of(path) == "a directory":
        raise UsageError(f"{path}: a directory where the store belongs: refused rather than removed")
    if _kind_of(path) is not None or not path.exists():
        return False
    try:
        store = Store(path)
        try:
            if store.meta_json("input_key") == cache_key(corpus):
                check_files(corpus, store.meta_json("files"))
                return True
        finally:
            store.close()
    except StoreDamaged:  # outdated or damaged
        pass
    return False


def open_store(corpus: Path, cache_dir: Path, warn: Warn = lambda line: None, rebuild: bool = False,
               step: Step = quietly) -> StoreKnowledge:
    """The store of ``corpus``: reused when current, else rebuilt (a warning says why; ``step``
    names the long steps of the rebuild)."""
    from rules_kb.assemble.caches import cache_key

    path = store_path(corpus, cache_dir)
    key = cache_key(corpus)
    store = None
    kind = _kind_of(path)
    if kind == "a directory":  # not ours to remove, even in the cache folder
        raise UsageError(f"{path}: a directory where the store belongs: refused rather than removed")
    if kind is not None:  # a FIFO would block SQLite's open: replaced by a new store
        warn(f"warning: {path} is {kind}, not a store; rebuilding it")
        rebuild = True
    if path.exists() and not rebuild:
        try:
            store = Store(path)
            if store.meta_json("input_key") != key:
                warn(f"note: {path} was built from another corpus or code; rebuilding it")
                store.close()
                store = None
            else:
                check_files(corpus, store.meta_json("files"))  # the key covers the manifest: same files
        except StoreOutdated as exc:
            warn(f"note: {path} was written by another rules-kb ({exc}); rebuilding it")
            store = None
        except StoreDamaged as exc:
            warn(f"warning: {path} is damaged ({exc}); rebuilding it")
            store = None
    if store is None:
        build_store(corpus, cache_dir, step=step)
        store = Store(path)
    return StoreKnowledge(store, corpus)


def _kind_of(path: Path) -> str | None:
    """What is at ``path`` when it is neither missing nor a regular file (never opened to find out)."""
    import stat

    from rules_kb.ingest.reading import describe_kind

    try:
        mode = path.lstat().st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) else describe_kind(mode) if not stat.S_ISLNK(mode) else "a symlink"


def _forced_matches(corpus: Path) -> list:
    from rules_kb.ingest.curated import load_forced_matches

    return load_forced_matches(corpus)


__all__ = ["build_store", "open_store", "refresh_store", "store_path"]
