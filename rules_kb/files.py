"""Replacing one file all or nothing, the one way every stage writes a text file.

A uniquely named temporary file beside the target (concurrent writers never share one), held
with an ``flock`` while it is written, given its final mode, then renamed over the target; on
any error or interruption Python sees it is removed, and one a SIGKILL left is swept by the
next write of the same file (``sweep_stale`` removes only temporaries no live writer holds).
Callers turn ``OSError`` into their own answer: an ``OutputError`` for outputs, ``False`` for a
cache entry that only costs time.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO


def replace_file(path: Path, write: Callable[[TextIO], None], mode: int, sync: bool = False) -> None:
    """Write ``path`` through ``write(handle)`` into a temporary file, then rename it into place.

    ``sync`` flushes the data to disk before the rename (outputs a user keeps; a cache entry
    can be rebuilt). Raises ``OSError``; the temporary file never outlives the call.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        hold(handle)
        sweep_stale(path.parent, f".{path.name}.")  # what a killed writer of this file left
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            write(out)
            if sync:
                out.flush()
                os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def new_file_mode() -> int:
    """The mode ``open`` gives a new file: 0666 less the umask (mkstemp's 0600 would hide it)."""
    return 0o666 & ~_umask()


def make_temporary_folder(parent: Path, prefix: str) -> Path:
    """A new uniquely named folder in ``parent`` with the mode ``mkdir`` gives (0777 less the umask):
    ``mkdtemp``'s 0700 would hide a folder renamed into a site from a web server run as another user."""
    folder = Path(tempfile.mkdtemp(dir=parent, prefix=prefix))
    os.chmod(folder, 0o777 & ~_umask())
    return folder


def _umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


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


@contextlib.contextmanager
def shielded() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back while a swap or a clean-up runs, so neither is left half done; a
    signal that came meanwhile is delivered as the block ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
