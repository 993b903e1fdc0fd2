"""Every cache, in one place: where caches live, and when one is stale.

Where: the one cache root holds the store, the knowledge base's signed snapshot
(``snapshot.py``), the parsed-document and alignment caches, the note index, the diffs the
compare page draws and a site build keeps (``compare/``) and the CLI's search index.
``RULES_KB_CACHE`` moves the whole root (benchmarks, a read-only checkout); unset, it is
``build/cache`` (``places.BUILD``) and the search index stays in ``build/search`` beside it. A
root that does not exist is made; one that is not a folder is a one-line error, never a
traceback. Cache files are written whole or not at all.

When stale: a cache built from the corpus carries its input key (``cache_key``: the manifest,
the curated files, the package's source) and the stat of every corpus file (``file_stats``); a
file whose stat moved is hashed again (``check_files``) before the cache answers. Both checks are
cheap enough for every lookup: no stage is imported.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import stat
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path

from rules_kb.errors import UsageError
from rules_kb.files import new_file_mode, replace_file
from rules_kb.ingest.reading import describe_kind
from rules_kb.places import BUILD, PACKAGE

ENVIRONMENT = "RULES_KB_CACHE"


def cache_root(environ: Mapping[str, str] = os.environ) -> Path:
    """The cache folder: ``$RULES_KB_CACHE`` when set, else ``build/cache`` (``places.BUILD``)."""
    chosen = environ.get(ENVIRONMENT)
    return Path(os.path.abspath(chosen)) if chosen else BUILD / "cache"


def search_root(environ: Mapping[str, str] = os.environ) -> Path:
    """The CLI's search indexes: ``$RULES_KB_CACHE/search``, else ``build/search`` (``places.BUILD``)."""
    chosen = environ.get(ENVIRONMENT)
    return cache_root(environ) / "search" if chosen else BUILD / "search"


def ensure_folder(folder: Path) -> Path:
    """``folder``, made when missing; ``UsageError`` when something else is there or it cannot be made."""
    try:
        mode = folder.stat().st_mode
    except FileNotFoundError:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"{folder}: cannot make the cache folder ({ENVIRONMENT}): {exc.strerror or exc}") from None
        return folder
    except OSError as exc:
        raise UsageError(f"{folder}: the cache folder ({ENVIRONMENT}) cannot be read: {exc.strerror or exc}") from None
    if not stat.S_ISDIR(mode):
        kind = "a regular file" if stat.S_ISREG(mode) else describe_kind(mode)
        raise UsageError(f"{folder}: the cache folder ({ENVIRONMENT}) is {kind}, not a folder")
    return folder


def write_cache_file(path: Path, text: str) -> bool:
    """Write one cache entry all or nothing (``files.replace_file``; runs may race), with the mode
    a new file gets, sealed (``seal``); a cache that cannot be written only costs time, so that
    returns False."""
    try:
        replace_file(path, lambda out: out.write(seal(text)), new_file_mode())
        return True
    except OSError:
        return False


# Reading a cache: the one rule of ``ingest/reading.py`` (a regular file, at most
# ``MAX_CACHE_BYTES``, its bytes the ones recorded, nesting bounded). A cache file records its own
# digest on its first line, so a truncated, edited or foreign file is told from the one written.
SEAL = "rules-kb cache sha256="
MAX_CACHE_BYTES = 32 * 1024 * 1024  # the largest entry, a whole Magic release parsed, is 2.7 MB


class CacheDamaged(Exception):
    """A cache file is not the one written (not a regular file, too large, edited, not JSON): the
    caller rebuilds it and says so once (``warn_rebuilt``). Not a user error, so not a ``RulesKbError``."""


def seal(text: str) -> str:
    """``text`` behind a first line holding its sha256, as ``read_cache_file`` checks it."""
    return f"{SEAL}{hashlib.sha256(text.encode()).hexdigest()}\n{text}"


def read_cache_file(path: Path, limit: int = MAX_CACHE_BYTES) -> object:
    """The JSON that ``write_cache_file`` wrote at ``path``, None when nothing is there, or
    ``CacheDamaged`` saying why not."""
    from rules_kb.errors import SourceError
    from rules_kb.ingest.reading import parse_json, read_source

    if not os.path.lexists(path):
        return None
    try:
        data = read_source(path, str(path), limit)
        first, _, body = data.partition(b"\n")
        recorded = first.decode("ascii", "replace").removeprefix(SEAL)
        if not first.startswith(SEAL.encode()) or len(recorded) != 64:
            raise CacheDamaged(f"{path}: not a rules-kb cache file (no digest on its first line)")
        if hashlib.sha256(body).hexdigest() != recorded:
            raise CacheDamaged(f"{path}: not the file that was written (its digest differs)")
        found = parse_json(body, str(path))
    except SourceError as exc:
        raise CacheDamaged(exc.describe()) from None
    mark_used(path)
    return found


def mark_used(path: Path) -> None:
    """Set an entry's mtime to now: what ``prune_caches`` keeps longest is what was used last. A
    cache that cannot be written (a read-only copy) is read all the same."""
    with contextlib.suppress(OSError):
        os.utime(path)


# Pruning. Keyed entries (a document's parse, two releases' alignment, a document's ingest report,
# the comparison caches, the CLI's search index of one corpus and code) are never rewritten, only
# added: every change of the code that made them leaves a new set beside the old (151 MB of ingest
# reports per change of the package, 198 MB of parses per change of the parsers). So a command that
# writes caches ends by removing, least recently used first, what no run used since it started,
# until what is left fits ``RULES_KB_CACHE_MAX_MB`` (default 3,072: ~8 sets of the whole corpus).
# What this run read or wrote is kept whatever the limit; so are the store and the snapshot, one
# file per corpus folder, rewritten in place.
LIMIT_ENVIRONMENT = "RULES_KB_CACHE_MAX_MB"
DEFAULT_LIMIT_MB = 3072
PRUNED = ("parsed", "aligned", "ingested", "compare")  # folders of entries under the cache root


@dataclass(frozen=True)
class Pruned:
    """What ``prune_caches`` removed (entries, bytes) and what the pruned folders hold after it."""

    removed: int
    removed_bytes: int
    kept_bytes: int


def cache_limit(environ: Mapping[str, str] = os.environ) -> int:
    """The pruning limit in bytes, from ``RULES_KB_CACHE_MAX_MB``; ``UsageError`` when it is not a
    whole number of megabytes."""
    raw = environ.get(LIMIT_ENVIRONMENT, "").strip()
    if not raw:
        return DEFAULT_LIMIT_MB * 1024 * 1024
    if not raw.isdigit():
        raise UsageError(f"{LIMIT_ENVIRONMENT}={raw!r}: not a whole number of megabytes")
    return int(raw) * 1024 * 1024


def prune_caches(root: Path, search: Path, since: float, limit: int) -> Pruned:
    """Remove cache units not used since ``since`` (a time.time()), least recently used first, until
    the rest holds at most ``limit`` bytes. A unit is one entry file of the folders ``PRUNED`` names,
    or one search index folder under ``search`` (used when any of its files was)."""
    units = [unit for unit in (*_entry_units(root), *_index_units(search)) if unit[2]]
    total = sum(size for _, _, size in units)
    removed = removed_bytes = 0
    for used, path, size in sorted(units):
        if total <= limit or used >= since:
            break
        with contextlib.suppress(OSError):
            shutil.rmtree(path) if path.is_dir() else path.unlink()
            removed, removed_bytes, total = removed + 1, removed_bytes + size, total - size
    return Pruned(removed, removed_bytes, total)


def _entry_units(root: Path) -> Iterator[tuple[float, Path, int]]:
    for folder in PRUNED:
        with contextlib.suppress(OSError), os.scandir(root / folder) as entries:
            for entry in entries:
                with contextlib.suppress(OSError):
                    if entry.is_file(follow_symlinks=False):
                        info = entry.stat(follow_symlinks=False)
                        yield info.st_mtime, Path(entry.path), info.st_size


def _index_units(search: Path) -> Iterator[tuple[float, Path, int]]:
    with contextlib.suppress(OSError), os.scandir(search) as folders:
        for folder in folders:
            if not folder.is_dir(follow_symlinks=False):
                continue
            used, size = 0.0, 0
            for path in Path(folder.path).rglob("*"):
                with contextlib.suppress(OSError):
                    info = path.lstat()
                    if stat.S_ISREG(info.st_mode):
                        used, size = max(used, info.st_mtime), size + info.st_size
            yield used, Path(folder.path), size


def warn_rebuilt(damaged: list[str], what: str) -> None:
    """One warning for every damaged entry of one cache (``CacheRebuilt``; the CLI prints it as a
    ``warning:`` line): the first reason and how many more."""
    if not damaged:
        return
    import warnings

    more = f" (and {len(damaged) - 1} more)" if len(damaged) > 1 else ""
    warnings.warn(CacheRebuilt(f"{what}: {damaged[0]}{more}; rebuilt"), stacklevel=2)


class CacheRebuilt(UserWarning):
    """A damaged cache was rebuilt: worth one line on stderr, never an error."""


# A long step of a cache build, named for the person waiting: ``with step("writing the store"):``.
# The CLI's ``step`` prints the name on stderr once the step has run for two seconds; a library
# caller that wants silence passes ``quietly``. Only the CLI prints (``docs/layout.md``).
Step = Callable[[str], AbstractContextManager]


def quietly(name: str) -> AbstractContextManager:
    """A ``Step`` that says nothing."""
    return nullcontext()


def source_hash(parts: tuple[str, ...] | None = None) -> str:
    """sha256 of the package's source files (all, or those ``parts`` names: a top-level module or
    package, ``sources``, or one file below it, ``kb/catalog.py``)."""
    digest = hashlib.sha256()
    for source in sorted(PACKAGE.rglob("*.py")):
        relative = source.relative_to(PACKAGE)
        if parts is not None and relative.parts[0] not in parts and relative.as_posix() not in parts:
            continue
        digest.update(str(relative).encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()


def cache_key(corpus: Path) -> str:
    """Key of everything a built knowledge base depends on: the manifest and every curated file
    (the corpus folder's ``*.toml``; documents are covered by their sha256 in the manifest) and
    the package's source."""
    digest = hashlib.sha256()
    for path in sorted(corpus.glob("*.toml")):
        digest.update(path.name.encode() + b"\0")
        digest.update(path.read_bytes())
    digest.update(source_hash().encode())
    return digest.hexdigest()[:16]


def code_key(corpus: Path) -> str:
    """``cache_key`` without the manifest: the curated files and the package's source. Rows a
    store holds per version are the same under one code key whatever documents were added
    (``store.write`` copies them from the store it replaces)."""
    from rules_kb.ingest.corpus import MANIFEST

    digest = hashlib.sha256()
    for path in sorted(corpus.glob("*.toml")):
        if path.name != MANIFEST:
            digest.update(path.name.encode() + b"\0")
            digest.update(path.read_bytes())
    digest.update(source_hash().encode())
    return digest.hexdigest()[:16]


def file_stats(corpus: Path) -> dict[str, list[int]]:
    """Size, mtime and ctime of every corpus file, recorded with a cache built from them."""
    from rules_kb.ingest.corpus import load_manifest

    out = {}
    for meta in load_manifest(corpus):
        stat = (corpus / meta.file).stat()
        out[meta.file] = [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns]
    return out


def check_files(corpus: Path, recorded: dict[str, list[int]]) -> None:
    """Re-hash only the files whose size, mtime or ctime moved since a cache was built (stat is cheap);
    an edited or missing file raises ``ManifestError`` instead of being answered from the cache. The
    ctime catches a same-size edit whose mtime was put back: setting the mtime moves the ctime. The
    cache key covers the manifest, so the files recorded are the manifest's."""
    from rules_kb.ingest.corpus import load_manifest, read_document_bytes

    moved = set()
    for file, stats in recorded.items():
        try:
            stat = (corpus / file).stat()
            if stats == [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns]:
                continue
        except OSError:
            pass
        moved.add(file)
    for meta in load_manifest(corpus) if moved else ():
        if meta.file in moved:
            read_document_bytes(corpus, meta)
