"""Reading a file the product did not just make: the one rule for the corpus and every cache.

1. A regular file only, and never more than a size cap (``read_source``). ``/dev/zero`` would grow
   memory until the process is killed and a FIFO without a writer would block forever, so the
   file is opened without blocking, checked to be a regular file, and refused before it is read
   when it is larger than its limit (``MAX_SOURCE_BYTES`` for a source: the largest real release,
   a UTF-16 Magic rulebook, is under 2 MB; 64 MB leaves room for any plausible one).
2. The bytes are the ones recorded (``read_checked``): a corpus file against the manifest's
   sha256, a cache file against the digest written with it (``assemble/caches.py``), an index
   file against its table of digests.
3. Structure is parsed with bounded nesting (``parse_nested``): ``'[' * 100000`` in JSON or TOML
   is one error, never a ``RecursionError``.

Every failure is a ``SourceError`` naming the file; a caller that can rebuild (a cache) warns once
and rebuilds, one that cannot (the corpus) refuses in one line.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

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


def read_checked(path: Path, document: str, sha256: str, limit: int = MAX_SOURCE_BYTES) -> bytes:
    """``read_source``, then the bytes checked against the ``sha256`` recorded for them."""
    data = read_source(path, document, limit)
    digest = hashlib.sha256(data).hexdigest()
    if digest != sha256.lower():
        raise SourceError(document, f"sha256 mismatch: recorded {sha256[:12]}…, file {digest[:12]}…")
    return data


# Deeper than any file the product writes (a parsed document's record nests 5 levels) and far
# inside the interpreter's stack. The parsers recurse once (json) to three times (tomllib) per
# level, so a budget of ``4 * MAX_NESTING`` frames reads at least ``MAX_NESTING`` levels of either.
MAX_NESTING = 200
Parsed = TypeVar("Parsed")


def parse_nested(parse: Callable[[str], Parsed], text: str, document: str) -> Parsed:
    """``parse(text)`` with nesting bounded: ``MAX_NESTING`` levels always read, a structure that
    exhausts the frame budget is a ``SourceError`` (never a ``RecursionError``, never a crash)."""
    limit = sys.getrecursionlimit()
    depth = _stack_depth()
    try:
        sys.setrecursionlimit(depth + MAX_NESTING * 4)  # a level costs a parser up to four frames
        return parse(text)
    except RecursionError:
        raise SourceError(document, "nested too deeply to read") from None
    finally:
        sys.setrecursionlimit(limit)


def _stack_depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


def parse_json(data: bytes, document: str) -> object:
    """JSON bytes read by the rule above, or ``SourceError`` (not UTF-8, not JSON, nested too deeply)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SourceError(document, f"invalid UTF-8 ({exc.reason})", exc.start) from None
    try:
        return parse_nested(json.loads, text, document)
    except ValueError as exc:
        raise SourceError(document, f"not JSON ({exc})") from None
