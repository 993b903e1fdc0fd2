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
    return subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=work,
                          env={**os.environ, "RULES_KB_CACHE": str(cache), "NO_COLOR": "1"})


def swap_renames(work: Path, cache: Path, log: Path) -> list[int]:
    """The 1-based positions, among every rename(2) a rebuild makes, of the swap's two renames."""
    done = build(work, cache, STRACE, "-f", "-qq", "-o", str(log), "-e", "trace=rename")
    assert done.returncode == 0, done.stderr
    calls = [line for line in log.read_text().splitlines() if "rename(" in line]
    return [i for i, line in enumerate(calls, 1) if line.rstrip().endswith("= 0")
            and (f'"{work}/site", "{work}/.site.old"' in line or f'"{work}/.site.staging", "{work}/site"' in line)]


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
