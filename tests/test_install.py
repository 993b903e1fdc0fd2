"""``pip install .`` outside the checkout gives a ``rules-kb`` that builds a site from ``--corpus DIR``.

The package once found corpus/, site/ and mkdocs.yml beside its source tree only, so an installed
copy could not build. Here the sources are copied to a temporary folder, installed into a fresh
virtual environment offline (``--no-deps --no-build-isolation --no-index``: the dependencies and
the build backend are this environment's, seen through a .pth file), and the installed command
builds a site of five small documents in another folder, with nothing of the checkout on its path.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from conftest import CORPUS, ROOT

from rules_kb.ingest.corpus import MANIFEST, load_manifest, manifest_entry

# What the wheel is built from (what pyproject.toml and setup.py read).
SOURCES = ("pyproject.toml", "setup.py", "README.md", "mkdocs.yml", "site", "rules_kb")
# Both games, rule texts of two kinds and a change notice: the seed of Duel Masters 506 (Fandom),
# two Fandom pages, a Magic rulings page and a notice; a build of these takes seconds.
DOCUMENTS = {"seed-002", "seed-004", "fandom-attack-step-1.20", "fandom-block-declaration-step-1.38",
             "dm-notice-2018-03-02"}


def _setuptools_builds_this() -> bool:
    """pyproject.toml's build-system asks setuptools >= 77 (its SPDX license field)."""
    try:
        return int(version("setuptools").split(".")[0]) >= 77
    except Exception:
        return False


@pytest.mark.skipif(not _setuptools_builds_this(), reason="needs setuptools >= 77 here (pip install '.[test]')")
def test_an_installed_rules_kb_builds_a_site_outside_the_checkout(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name,
                            ignore=shutil.ignore_patterns("__pycache__", "link-grammar.js", "link-data.js"))
        else:
            shutil.copy2(ROOT / name, source / name)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    packages = next(venv.glob("lib/python*/site-packages"))
    (packages / "zz-this-environment.pth").write_text("\n".join(site.getsitepackages()) + "\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "RULES_KB_CACHE")}
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
                    "--no-build-isolation", "--no-index", str(source)], check=True, env=env, cwd=tmp_path)

    work = tmp_path / "work"  # where a user runs it: a corpus of their own, the caches and the site beside it
    corpus = work / "corpus"
    corpus.mkdir(parents=True)
    for entry in CORPUS.iterdir():
        if entry.name != MANIFEST:
            (corpus / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    chosen = [meta for meta in load_manifest(CORPUS) if meta.id in DOCUMENTS]
    (corpus / MANIFEST).write_text("\n".join(manifest_entry(meta) for meta in chosen), encoding="utf-8")

    where = subprocess.run([str(python), "-c", "import rules_kb.places as p; print(p.CHECKOUT, p.MKDOCS_CONFIG)"],
                           capture_output=True, text=True, check=True, env=env, cwd=work).stdout.split()
    assert where[0] == "None" and Path(where[1]).is_relative_to(packages) and Path(where[1]).is_file()

    built = subprocess.run([str(venv / "bin" / "rules-kb"), "--corpus", "corpus", "build", "--out", "site"],
                           capture_output=True, text=True, env=env, cwd=work, timeout=600)
    assert built.returncode == 0, built.stderr
    page = (work / "site" / "dm" / "rule" / "506.1c" / "index.html").read_text(encoding="utf-8")
    assert "The active player taps the creature chosen for attack." in page  # seeds/002, line 18
    assert 'class="rk-search-form"' in page  # the theme override (site/overrides/main.html) was found
    assert (work / "site" / "assets" / "site.js").read_bytes() == (ROOT / "site" / "assets" / "site.js").read_bytes()
    assert (work / "build" / "cache").is_dir()  # caches beside the corpus, not in site-packages
    assert not list(packages.glob("build"))
