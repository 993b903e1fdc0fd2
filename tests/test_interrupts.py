"""Issue 22: Ctrl-C at several points of a command, and a file-size limit (a stand-in for a full
disk), give one line, exit 130 or 1, and leave nothing behind: no temporary file, no work folder,
no half-written output. Each command runs as a real process, as a user runs it."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import FIXTURES

from rules_kb.site.reuse import MANIFEST as UNITS

RULES_KB = str(Path(sys.executable).parent / "rules-kb")
HOSTILE = str(FIXTURES / "hostile")


def leftovers(*folders: Path) -> list[str]:
    """Temporary files and work folders anywhere under ``folders``."""
    found = []
    for folder in folders:
        for path in folder.rglob("*"):
            name = path.name
            if name.endswith((".tmp", ".staging", ".src", ".old")) or name == ".rules-kb-work":
                found.append(str(path.relative_to(folder)))
    return sorted(found)


def environment(cache: Path) -> dict[str, str]:
    return {**os.environ, "RULES_KB_CACHE": str(cache), "PAGER": "", "NO_COLOR": "1"}


def limited(size: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return apply


COMMANDS = {
    "store": lambda work: ["--corpus", HOSTILE, "store", "--rebuild"],
    "build": lambda work: ["--corpus", HOSTILE, "build", "--out", str(work / "site")],
    "ingest": lambda work: ["--corpus", HOSTILE, "ingest", "--json", str(work / "model.jsonl")],
    "graph": lambda work: ["--corpus", HOSTILE, "graph", "export", str(work / "graph.json")],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_file_size_limit_is_one_line_and_leaves_nothing(tmp_path, command):
    """Before: ``store --rebuild`` and ``build`` gave tracebacks, ``build`` left ``.site.staging``,
    and 1 MB ``.tmp`` files stayed in the parsed-document cache."""
    work, cache = tmp_path / "work", tmp_path / "cache"
    work.mkdir()
    done = subprocess.run([RULES_KB, *COMMANDS[command](work)], capture_output=True, text=True, timeout=600,
                          env=environment(cache), preexec_fn=limited(500), cwd=work)
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("Error: ") and len(done.stderr.splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert leftovers(*[folder for folder in (work, cache) if folder.exists()]) == []
    assert [p.name for p in work.iterdir()] == []


@pytest.mark.parametrize(("command", "delay"), [("build", 0.8), ("build", 1.5), ("build", 2.5), ("build", 3.5),
                                                ("store", 0.8), ("store", 1.5), ("ingest", 0.8), ("graph", 1.5)])
def test_ctrl_c_is_one_line_and_leaves_nothing(tmp_path, command, delay):
    """Before: a KeyboardInterrupt traceback, and the build's work folders left beside the output."""
    work, cache = tmp_path / "work", tmp_path / "cache"
    work.mkdir()
    process = subprocess.Popen([RULES_KB, *COMMANDS[command](work)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=environment(cache), cwd=work)
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=600)
    if process.returncode == 0:  # finished before the signal came
        assert err == ""
    elif process.returncode == -signal.SIGINT:  # came as the interpreter exited, after the command's work
        assert err in ("", "Error: interrupted\n")
    else:
        assert (process.returncode, err) == (130, "Error: interrupted\n")
    assert_whole(work)
    assert leftovers(*[folder for folder in (work, cache) if folder.exists()]) == []


def assert_whole(work: Path) -> None:
    """Whatever output is there is whole: a finished site, JSON that parses to its end."""
    for path in work.iterdir():
        if path.name == "site":
            assert (path / UNITS).is_file() and (path / "mtg/rule/100.1a/index.html").is_file()
        elif path.name == "graph.json":
            assert json.loads(path.read_text(encoding="utf-8"))["nodes"]
        else:
            assert path.name == "model.jsonl"
            lines = path.read_text(encoding="utf-8").splitlines()
            assert lines and all(json.loads(line) for line in lines)


SLOW_WRITER = """
import sys, time
from pathlib import Path
from rules_kb.render.output import write_atomically

def lines():
    yield "half"
    print("ready", flush=True)
    time.sleep(120)
    yield "never"

write_atomically(Path(sys.argv[1]), lines())
"""


def start_slow_writer(target: Path) -> subprocess.Popen:
    """A writer of ``target`` stopped halfway, its temporary file open."""
    writer = subprocess.Popen([sys.executable, "-c", SLOW_WRITER, str(target)], stdout=subprocess.PIPE, text=True)
    assert writer.stdout is not None and writer.stdout.readline() == "ready\n"
    return writer


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_temporary_file_a_sigkill_left_goes_with_the_next_write(tmp_path):
    """Before: ``kill -9`` left ``.out.jsonl.*.tmp`` beside the output for good."""
    from rules_kb.render.output import write_atomically

    target = tmp_path / "out.jsonl"
    writer = start_slow_writer(target)
    writer.kill()
    writer.wait()
    assert len(temporaries(tmp_path)) == 1
    write_atomically(target, ["whole"])
    assert temporaries(tmp_path) == [] and target.read_text(encoding="utf-8") == "whole\n"


def test_a_live_writers_temporary_file_is_left_alone(tmp_path):
    from rules_kb.render.output import write_atomically

    target = tmp_path / "out.jsonl"
    writer = start_slow_writer(target)
    try:
        live = temporaries(tmp_path)
        write_atomically(target, ["whole"])
        assert temporaries(tmp_path) == live and len(live) == 1
    finally:
        writer.kill()
        writer.wait()
