"""The ``rules-kb`` script ends without freeing its heap object by object (``__main__.end_process``),
yet loses nothing on the way out: exit handlers run, buffered output is written, the code is kept,
and a command that left a thread running ends the usual way."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT

ENDS = """
import atexit, sys, threading
from rules_kb.__main__ import end_process
atexit.register(lambda: print("handler ran"))
print("buffered " * 2000, end="")  # more than a pipe's write buffer, still in sys.stdout's
if sys.argv[1] == "thread":
    threading.Thread(target=lambda: (__import__("time").sleep(0.2), print("thread done"))).start()
    print("returned", end_process(3))
    sys.exit(4)
end_process(3)
print("never printed")
"""


def run(mode: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", ENDS, mode], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_exit_handlers_run_and_output_is_flushed_before_the_process_ends():
    done = run("plain")
    assert done.returncode == 3
    assert done.stdout.count("buffered ") == 2000 and done.stdout.endswith("handler ran\n")
    assert "never printed" not in done.stdout and done.stderr == ""


def test_a_thread_still_running_makes_it_return_and_end_the_usual_way():
    done = run("thread")
    assert done.returncode == 4  # end_process returned 3; the caller's exit stands
    assert "returned 3" in done.stdout and "thread done" in done.stdout and done.stdout.endswith("handler ran\n")
