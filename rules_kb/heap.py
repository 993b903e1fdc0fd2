"""Give the memory a finished step freed back to the system.

Python returns a freed object's memory to its allocator, and glibc's ``malloc`` keeps the freed
pages inside its heap unless they sit at its very top. A build frees a great deal between steps
(the parses behind the catalog, a writer's pages once written), so a process's resident size kept
the high-water mark of every step before it, and each process forked from it started with those
pages too. ``malloc_trim(0)`` hands every wholly free page back. It changes no object, so no output.
"""

from __future__ import annotations

import ctypes
import sys
from functools import lru_cache

__all__ = ["release_free_memory"]


@lru_cache(maxsize=1)
def _trim():
    """glibc's ``malloc_trim``, or None where there is none (macOS, musl, Windows)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        function = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    function.argtypes, function.restype = [ctypes.c_size_t], ctypes.c_int
    return function


def release_free_memory() -> None:
    """Return the heap's free pages to the system (a few milliseconds; nothing where unsupported)."""
    trim = _trim()
    if trim is not None:
        trim(0)
