"""Issue 38, item 8: a build never deletes a file it did not write. A previous build holding a
user's `CNAME` or `.git/` is refused naming them; what a host needs goes in `site/host-files/`,
which every build copies (the repository ships `.nojekyll` there)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

from conftest import FIXTURES, ROOT

from rules_kb.site.reuse import MANIFEST as UNITS

RULES_KB = str(Path(sys.executable).parent / "rules-kb")
HOSTILE = str(FIXTURES / "hostile")


def build(work: Path) -> subprocess.CompletedProcess:
    return subprocess.run([RULES_KB, "--corpus", HOSTILE, "build", "--out", "site"], capture_output=True, text=True,
                          timeout=300, cwd=work, env={**os.environ, "RULES_KB_CACHE": str(work / "cache")})


def test_foreign_files_in_a_previous_build_are_refused_by_name_and_kept(tmp_path):
    assert build(tmp_path).returncode == 0
    site = tmp_path / "site"
    host_files = sorted(p.name for p in (ROOT / "site/host-files").iterdir())
    assert host_files == [".nojekyll"] and (site / ".nojekyll").is_file()
    (site / "CNAME").write_text("rules.example.org\n", encoding="utf-8")
    (site / ".git/objects").mkdir(parents=True)
    (site / ".git/HEAD").write_text("ref: refs/heads/gh-pages\n", encoding="utf-8")
    (site / "api/mine.json").write_text("{}", encoding="utf-8")
    done = build(tmp_path)
    assert done.returncode == 1
    assert done.stderr == (f"Error: {site}: cannot write: a previous build holding files no build wrote (.git/, "
                           "CNAME, api/mine.json): refused rather than deleted; move them out (a file the host "
                           "needs, like CNAME, goes in site/host-files/, which every build copies)\n")
    assert (site / "CNAME").read_text(encoding="utf-8") == "rules.example.org\n"
    assert (site / ".git/HEAD").is_file() and (site / "api/mine.json").is_file()
    for name in ("CNAME", "api/mine.json"):
        (site / name).unlink()
    (site / ".git/HEAD").unlink()
    (site / ".git/objects").rmdir()
    (site / ".git").rmdir()
    again = build(tmp_path)
    assert again.returncode == 0, again.stderr
    assert (site / ".nojekyll").is_file() and (site / UNITS).is_file()


def test_a_build_by_an_older_rules_kb_is_refused_not_emptied(tmp_path):
    """Its units manifest lists no files, so what in it is the user's cannot be told."""
    site = tmp_path / "site"
    site.mkdir()
    (site / UNITS).write_text('{"salt": "x", "units": {}}\n', encoding="utf-8")
    (site / "index.html").write_text("old\n", encoding="utf-8")
    done = build(tmp_path)
    assert done.returncode == 1 and "lists no files (a build by an older rules-kb, or damaged)" in done.stderr
    assert (site / "index.html").read_text(encoding="utf-8") == "old\n"


def test_the_search_index_is_readable_by_other_users(tmp_path):
    """Before: search-index/ was 0700 (``mkdtemp``): a web server running as another user got 403s."""
    assert build(tmp_path).returncode == 0
    mode = stat.S_IMODE((tmp_path / "site/search-index").stat().st_mode)
    umask = os.umask(0)
    os.umask(umask)
    assert mode == 0o777 & ~umask
