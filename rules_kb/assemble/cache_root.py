"""The one cache root: where the store, the parsed-document and alignment caches, the note index
and the CLI's search index live, and the check that it is a folder before anything is put there.

``RULES_KB_CACHE`` moves the whole root (benchmarks, a read-only checkout); unset, it is the
repository's ``build/cache`` and the search index stays in ``build/search`` beside it. A root
that does not exist is made; one that is not a folder is a one-line error, never a traceback.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path

from rules_kb.errors import UsageError
from rules_kb.files import new_file_mode, replace_file
from rules_kb.ingest.reading import describe_kind

ENVIRONMENT = "RULES_KB_CACHE"
REPOSITORY = Path(__file__).resolve().parent.parent.parent


def cache_root(environ: Mapping[str, str] = os.environ) -> Path:
    """The cache folder: ``$RULES_KB_CACHE`` when set, else ``build/cache`` in the repository."""
    chosen = environ.get(ENVIRONMENT)
    return Path(os.path.abspath(chosen)) if chosen else REPOSITORY / "build" / "cache"


def search_root(environ: Mapping[str, str] = os.environ) -> Path:
    """The CLI's search indexes: ``$RULES_KB_CACHE/search``, else ``build/search`` in the repository."""
    chosen = environ.get(ENVIRONMENT)
    return cache_root(environ) / "search" if chosen else REPOSITORY / "build" / "search"


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
    a new file gets; a cache that cannot be written only costs time, so that returns False."""
    try:
        replace_file(path, lambda out: out.write(text), new_file_mode())
        return True
    except OSError:
        return False
