"""The one cache root: where the store, the parsed-document and alignment caches, the note index
and the CLI's search index live, and the check that it is a folder before anything is put there.

``RULES_KB_CACHE`` moves the whole root (benchmarks, a read-only checkout); unset, it is the
repository's ``build/cache`` and the search index stays in ``build/search`` beside it. A root
that does not exist is made; one that is not a folder is a one-line error, never a traceback.
"""

from __future__ import annotations

import fcntl
import os
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path

from rules_kb.errors import UsageError
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
    """Write one cache entry all or nothing: a uniquely named temporary file beside it (runs may race),
    renamed into place with the mode a new file gets (0666 less the umask; mkstemp's 0600 would hide
    it from other users). The temporary file is removed on every exit path Python sees, a full disk
    and Ctrl-C included; a cache that cannot be written only costs time, so that returns False."""
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        hold(handle)
        sweep_stale(path.parent, f".{path.name}.")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, _new_file_mode())
        os.replace(temporary, path)
        temporary = None
        return True
    except OSError:
        return False
    finally:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def hold(handle: int) -> None:
    """Mark a temporary file as being written: an exclusive ``flock`` the kernel drops when the
    writer dies, however it dies (``sweep_stale`` tells a live writer's file from a killed one's)."""
    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)


def sweep_stale(folder: Path, prefix: str, suffix: str = ".tmp") -> None:
    """Remove the temporary files ``prefix*suffix`` in ``folder`` that a killed writer left: those no
    live process holds (``hold``). Regular files only; anything unreadable is left alone."""
    try:
        names = [name for name in os.listdir(folder) if name.startswith(prefix) and name.endswith(suffix)]
    except OSError:
        return
    for name in names:
        path = folder / name
        try:
            handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            if not stat.S_ISREG(os.fstat(handle).st_mode):
                continue
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # a live writer holds it
            os.unlink(path)
        except OSError:
            pass
        finally:
            os.close(handle)
