"""Issue 38, item 2: a build killed at the folder swap (a SIGKILL injected by strace at each of
its two renames) leaves nothing that blocks the next build, and the next build starts from the
previous site. Real processes; the kill is the kernel's, not a Python exception."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES

from rules_kb.site.reuse import MANIFEST as UNITS

RULES_KB = str(Path(sys.executable).parent / "rules-kb")
HOSTILE = str(FIXTURES / "hostile")
STRACE = shutil.which("strace")

pytestmark = pytest.mark.skipif(STRACE is None, reason="strace is not installed (apt-get install strace)")


def build(work: Path, cache: Path, *strace: str) -> subprocess.CompletedProcess:
    command = [*strace, RULES_KB, "--corpus", HOSTILE, "build", "--out", "site"]
    # every build here must swap: one with nothing changed since the last would leave the site alone
    shutil.rmtree(cache / "builds", ignore_errors=True)
    # one process: a kill injected at the n-th rename then lands in the swap, never in a second
    # process's n-th rename (strace counts per process)
    return subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=work,
                          env={**os.environ, "RULES_KB_CACHE": str(cache), "NO_COLOR": "1", "RULES_KB_WORKERS": "1"})


def swap_renames(work: Path, cache: Path, log: Path) -> list[int]:
    """The 1-based positions, among the rename(2) calls of the process making the swap, of its two
    renames (strace counts ``when=`` per process; the build's second process renames files too).
    Traced with a seccomp filter, the process stops only at its renames (1.7 s instead of 9); the
    kills cannot use one: strace 6.1 injects no signal into a call the filter let it stop at."""
    done = build(work, cache, STRACE, "--seccomp-bpf", "-f", "-qq", "-o", str(log), "-e", "trace=rename")
    assert done.returncode == 0, done.stderr
    calls = [line.split(None, 1) for line in log.read_text().splitlines() if "rename(" in line]
    swaps = [(pid, call) for pid, call in calls if call.rstrip().endswith("= 0") and (
        f'"{work}/site", "{work}/.site.old"' in call or f'"{work}/.site.staging", "{work}/site"' in call)]
    assert len({pid for pid, _ in swaps}) == 1, swaps
    swapping = swaps[0][0]
    own = [call for pid, call in calls if pid == swapping]
    return [i for i, call in enumerate(own, 1) if (swapping, call) in swaps]


def test_a_build_killed_at_either_rename_of_the_swap_does_not_block_the_next(tmp_path):
    work, cache = tmp_path / "work", tmp_path / "cache"
    work.mkdir()
    assert build(work, cache).returncode == 0
    positions = swap_renames(work, cache, tmp_path / "renames.log")
    assert len(positions) == 2
    for position in positions:
        killed = build(work, cache, STRACE, "-f", "-qq", "-o", os.devnull,
                       "-e", f"inject=rename:signal=KILL:when={position}")
        assert killed.returncode != 0
        after = build(work, cache)
        assert after.returncode == 0, f"after a kill at rename {position}: {after.stderr}"
        assert sorted(p.name for p in work.iterdir()) == ["site"]
        assert (work / "site" / UNITS).is_file() and (work / "site" / "index.html").is_file()
        assert not (work / "site" / ".rules-kb-work").exists()
