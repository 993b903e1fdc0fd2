"""Reading a source file's bytes: regular files only, and never more than a size cap.

``/dev/zero`` would grow memory until the process is killed and a FIFO without a writer
would block forever, so the file is opened without blocking, checked to be a regular file,
and refused before it is read when it is larger than ``MAX_SOURCE_BYTES``. The largest real
release (a UTF-16 Magic rulebook) is under 2 MB; 64 MB leaves room for any plausible one.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from rules_kb.errors import SourceError

MAX_SOURCE_BYTES = 64 * 1024 * 1024

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def describe_kind(mode: int) -> str:
    """What a non-regular file is, in words (``a FIFO``)."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_source(path: Path, document: str | None = None, limit: int = MAX_SOURCE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, or ``SourceError``."""
    name = document or str(path)
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise SourceError(name, f"cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise SourceError(name, f"cannot read: {describe_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise SourceError(name, f"too large: {info.st_size:,} bytes (the limit is {limit:,})")
        chunks = []
        size = 0
        while chunk := os.read(handle, 1 << 20):
            size += len(chunk)
            if size > limit:  # the file grew while being read
                raise SourceError(name, f"too large: over {limit:,} bytes (the limit is {limit:,})")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise SourceError(name, f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(handle)
