"""The linters read every file of theirs: ruff every Python file in the repository (a bare
``site`` in extend-exclude once also skipped rules_kb/site/), ESLint every script under site/."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUFF = Path(sys.executable).parent / "ruff"


def tracked(pattern: str) -> set[str]:
    listed = subprocess.run(["git", "ls-files", pattern], cwd=ROOT, capture_output=True, text=True, check=True)
    return set(listed.stdout.split())


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="needs the git checkout")
def test_ruff_reads_every_python_file():
    ruff = str(RUFF) if RUFF.exists() else shutil.which("ruff")
    shown = subprocess.run([ruff, "check", "--show-files", "."], cwd=ROOT, capture_output=True, text=True, check=True)
    read = {Path(line).relative_to(ROOT).as_posix() for line in shown.stdout.split() if line.endswith(".py")}
    python = tracked("*.py")
    assert "rules_kb/site/build.py" in python
    assert python - read == set()


ESLINT = ROOT / "node_modules" / ".bin" / "eslint"


@pytest.mark.skipif(not ESLINT.exists(), reason="needs npm ci (make test runs it)")
def test_eslint_passes_on_every_site_script():
    """eslint.config.js covers site/**/*.js: one style (const/let, no var), no unused names."""
    listed = subprocess.run([str(ESLINT), "--format", "json", "site"], cwd=ROOT, capture_output=True, text=True)
    results = json.loads(listed.stdout)
    linted = {Path(result["filePath"]).relative_to(ROOT).as_posix() for result in results}
    assert tracked("site/*.js") <= linted
    assert [(r["filePath"], m["line"], m["message"]) for r in results for m in r["messages"]] == []
