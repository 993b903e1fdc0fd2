"""The ``rules-kb`` script (and ``python -m rules_kb``): Ctrl-C is one line from its first instant.

Importing the command's modules takes a moment (longer on a busy machine); a Ctrl-C then would
otherwise print the traceback of an import. Until the CLI is loaded, Ctrl-C writes the same line
the CLI writes and exits 130: nothing has been written yet that needs cleaning up.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import signal
import sys
import threading


def _interrupted_while_starting(_number: int, _frame: object) -> None:
    os.write(2, b"Error: interrupted\n")
    os._exit(130)


# New container objects between two of the collector's young collections (Python's default: 700).
# A build makes millions of long-lived ones (the knowledge base), and at 700 the collector ran
# 7,763 times while the whole corpus's knowledge base was read from its caches, walking the older
# objects again and again: 4.5 of its ~17 s; at 50,000, 77 times and 1.0 s. Cycles are still
# collected, a little later; a lookup is over before either threshold matters.
YOUNG_OBJECTS = 50_000


def main() -> int:
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_OBJECTS, older, oldest)
    starting = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if starting:
        signal.signal(signal.SIGINT, _interrupted_while_starting)
    from rules_kb.cli import main as run_command

    if starting:  # from here on the CLI turns Ctrl-C into that line after its writers clean up
        signal.signal(signal.SIGINT, signal.default_int_handler)
    return end_process(run_command())


def end_process(code: int) -> int:
    """Exit with ``code`` without freeing the heap object by object: after a build or an ``add`` the
    interpreter spent 3.3 s releasing the knowledge base's millions of objects, memory the kernel
    takes back at once. Exit handlers still run (a temporary folder's cleanup, logging) and both
    streams are flushed first. A command that left a thread running ends the usual way, which waits
    for it."""
    if threading.active_count() > 1:
        return code
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BrokenPipeError, ValueError):  # the reader went away, or the stream is closed
            stream.flush()
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
