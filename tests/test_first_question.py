"""The first question after a build and after an add (issue 33): answered from what the build or the
add wrote, never by building the knowledge base again, and never a long wait without a word.

A Magic corpus of two releases (2009-05-01 and 2009-07-08, the renumbering) is built as `make build`
builds (``build --store``); then 2009-09-04 is added. Rebuilding is made to fail where a question
must not rebuild, so a test fails on the rebuild itself rather than on how long it took.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from conftest import CORPUS, ROOT

from rules_kb.assemble import knowledge as knowledge_module
from rules_kb.assemble import stored
from rules_kb.assemble.caches import cache_key
from rules_kb.search import index as index_module
from rules_kb.search.cache import DIGESTS
from rules_kb.search.query import INDEX_DIR

sys.path.insert(0, str(ROOT / "benchmarks"))
from checksums import store_lines

RELEASES = [("CR-2009-05-01.txt", "2009-05-01"), ("CR-2009-07-08.txt", "2009-07-08")]
ADDED = ("CR-2009-09-04.txt", "2009-09-04")
NOTE = "Declare blockers: see CR 509.1a.\n"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """The two-release corpus after ``build --out SITE --store``: its corpus, cache, CLI search folder, site."""
    from rules_kb import cli as cli_module
    from rules_kb.cli import common

    root = tmp_path_factory.mktemp("first-question")
    paths = {"corpus": root / "corpus", "cache": root / "cache", "search": root / "search", "site": root / "site"}
    paths["corpus"].mkdir()
    (paths["corpus"] / "manifest.toml").write_text("# first-question test corpus\n", encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(common, "DEFAULT_CACHE", paths["cache"])
        patch.setattr(common, "DEFAULT_SEARCH", paths["search"])
        for name, version in RELEASES:
            argv = ["--corpus", str(paths["corpus"]), "add", str(CORPUS / "mtg" / name), "--version", version]
            assert cli_module.main(argv) == 0
        assert not list(paths["search"].glob("*")), "no search index before the build"
        argv = ["--corpus", str(paths["corpus"]), "build", "--out", str(paths["site"]), "--store"]
        assert cli_module.main(argv) == 0
    return paths


@pytest.fixture
def ask(built, monkeypatch, capsys):
    """``rules-kb --corpus CORPUS ...`` with the built caches, and building anything made to fail."""
    from rules_kb import cli as cli_module
    from rules_kb.cli import common

    monkeypatch.setattr(common, "DEFAULT_CACHE", built["cache"])
    monkeypatch.setattr(common, "DEFAULT_SEARCH", built["search"])

    def refuse(*args, **kwargs):
        raise AssertionError("a question rebuilt what the build or the add had written")

    def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
        with monkeypatch.context() as patch:
            for module, name in ((knowledge_module, "load_knowledge"), (knowledge_module, "build_knowledge"),
                                 (stored, "build_store"), (index_module, "write_search_index")):
                patch.setattr(module, name, refuse)
            if stdin is not None:
                note = built["corpus"].parent / "note.txt"
                note.write_text(stdin, encoding="utf-8")
                argv = (*argv, str(note))
            code = cli_module.main(["--corpus", str(built["corpus"]), *argv])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run


def _index_folder(built: dict[str, Path]) -> Path:
    return built["search"] / cache_key(built["corpus"])


def test_search_after_build_reads_the_index_the_build_wrote(built, ask):
    folder = _index_folder(built)
    assert (folder / DIGESTS).is_file(), "the build left the CLI an index under the corpus's key"
    site_meta = built["site"] / INDEX_DIR / "meta.json"
    assert (folder / INDEX_DIR / "meta.json").read_bytes() == site_meta.read_bytes()
    site_files = sorted(p.relative_to(built["site"] / INDEX_DIR) for p in (built["site"] / INDEX_DIR).rglob("*.json"))
    cli_files = sorted(p.relative_to(folder / INDEX_DIR) for p in (folder / INDEX_DIR).rglob("*.json"))
    assert cli_files == site_files
    code, out, err = ask("search", "declare blockers", "--limit", "1")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "509.1  mtg en 2009-07-08  /mtg/en/2009-07-08/5/#509.1"


def test_lookups_after_build_read_the_store_the_build_wrote(ask):
    code, out, err = ask("show", "509.1a")
    assert (code, err) == (0, "") and out.startswith("509.1a")
    code, out, err = ask("explain", "509.1")
    assert code == 0 and "309.2" in out  # 2009-07-08 renumbered Declare Blockers: 309.2 became 509.1
    code, out, err = ask("link", "--game", "mtg", stdin=NOTE)
    assert (code, err) == (0, "") and "[1]: /mtg/rule/509.1a/" in out


def test_add_brings_the_store_and_the_search_index_up_to_date(built, ask, tmp_path, monkeypatch, capsys):
    """After ``add`` of a third release, the first questions read what the add wrote, and the store
    is the one a build from nothing writes for the same corpus."""
    from rules_kb import cli as cli_module
    from rules_kb.cli import common

    before = _index_folder(built)
    monkeypatch.setattr(common, "DEFAULT_CACHE", built["cache"])
    monkeypatch.setattr(common, "DEFAULT_SEARCH", built["search"])
    name, version = ADDED
    assert cli_module.main(["--corpus", str(built["corpus"]), "add", str(CORPUS / "mtg" / name),
                            "--version", version]) == 0
    said = capsys.readouterr().out
    after = _index_folder(built)
    assert after != before and (after / DIGESTS).is_file()
    code, out, err = ask("search", "declare blockers", "--limit", "1")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == f"509.1  mtg en {version}  /mtg/en/{version}/5/#509.1"
    code, out, err = ask("show", "509.1a")
    assert (code, err) == (0, "") and f"mtg en {version}" in out
    code, out, err = ask("link", "--game", "mtg", "--pin", version, stdin=NOTE)
    assert (code, err) == (0, "") and f"/mtg/en/{version}/" in out
    assert "the store and the search index are up to date" in said

    fresh = tmp_path / "fresh-cache"
    from rules_kb.assemble.stored import build_store, store_path

    build_store(built["corpus"], fresh)
    assert store_lines(store_path(built["corpus"], built["cache"])) == store_lines(store_path(built["corpus"], fresh))


def _index_files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*.json"))}


def test_the_build_after_an_add_links_the_index_the_add_wrote(built, monkeypatch, capsys):
    """``make build`` after ``add``: the site's search index is the CLI's (the same files, linked), not
    written a second time, and holds the bytes the index writer makes of the corpus; a CLI index
    with one file edited is not used (the build writes its own, and the CLI gets it)."""
    from rules_kb import cli as cli_module
    from rules_kb.assemble.knowledge import load_knowledge
    from rules_kb.cli import common
    from rules_kb.search.index import build_index_files

    monkeypatch.setattr(common, "DEFAULT_CACHE", built["cache"])
    monkeypatch.setattr(common, "DEFAULT_SEARCH", built["search"])
    folder = _index_folder(built)
    assert (folder / DIGESTS).is_file(), "the add wrote the CLI's index (test above)"
    expected = build_index_files(load_knowledge(built["corpus"], built["cache"]))
    argv = ["--corpus", str(built["corpus"]), "build", "--out", str(built["site"]), "--store"]
    assert cli_module.main(argv) == 0
    assert "the CLI's search index linked" in capsys.readouterr().out
    site_index = built["site"] / INDEX_DIR
    assert _index_files(site_index) == expected
    # the very files (a file written again, by the site or the CLI's cache, would be another inode)
    assert all((site_index / name).stat().st_ino == (folder / INDEX_DIR / name).stat().st_ino for name in expected)

    edited = folder / INDEX_DIR / "vocab.json"
    edited.unlink()  # a new file in its place (the site's link keeps the old bytes)
    edited.write_bytes(expected["vocab.json"] + b" ")
    shutil.rmtree(built["cache"] / "builds")  # else nothing changed for the site: it would not be built
    assert cli_module.main(argv) == 0
    assert "search index linked" not in capsys.readouterr().out
    assert _index_files(site_index) == expected
    assert _index_files(folder / INDEX_DIR) == expected  # the build shared its index with the CLI again


def test_the_build_after_an_add_reads_back_the_knowledge_base_the_add_built(built, monkeypatch, capsys):
    """The add left a snapshot of the knowledge base of the new corpus (``assemble/snapshot.py``):
    the build that follows reads it and builds nothing again."""
    from rules_kb import cli as cli_module
    from rules_kb.assemble.knowledge import read_snapshot
    from rules_kb.cli import common

    monkeypatch.setattr(common, "DEFAULT_CACHE", built["cache"])
    monkeypatch.setattr(common, "DEFAULT_SEARCH", built["search"])
    snapshot = read_snapshot(built["corpus"], built["cache"])
    assert snapshot is not None
    assert any(t.version == ADDED[1] for t in snapshot.catalog.all_texts())  # the release the add added

    def refuse(*args, **kwargs):
        raise AssertionError("the knowledge base was built again")

    monkeypatch.setattr(knowledge_module, "build_knowledge", refuse)
    # the build above recorded its outputs: one with nothing changed would stop before reading anything
    shutil.rmtree(built["cache"] / "builds")
    argv = ["--corpus", str(built["corpus"]), "build", "--out", str(built["site"]), "--store"]
    assert cli_module.main(argv) == 0
    assert "built " in capsys.readouterr().out


def test_a_long_rebuild_says_so_on_stderr(built, tmp_path, monkeypatch, capsys):
    """A question that must rebuild (here: a copy of the corpus nobody built) names each long step on
    stderr (a terminal's); the notice's delay is set to nothing so that every step counts as long."""
    from rules_kb import cli as cli_module
    from rules_kb.cli import common

    corpus = tmp_path / "corpus"
    shutil.copytree(built["corpus"], corpus)
    monkeypatch.setattr(common, "DEFAULT_CACHE", tmp_path / "cache")
    monkeypatch.setattr(common, "DEFAULT_SEARCH", tmp_path / "search")
    monkeypatch.setattr(common, "STEP_NOTICE_SECONDS", 0.0, raising=False)
    monkeypatch.setattr(common, "shows_progress", lambda: True, raising=False)  # as on a terminal
    assert cli_module.main(["--corpus", str(corpus), "search", "declare blockers", "--limit", "1"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert "progress: building the knowledge base for the search index..." in err
    assert any(line.startswith("progress: writing the search index: done in ") for line in err)
    assert cli_module.main(["--corpus", str(corpus), "show", "509.1a"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert "progress: building the knowledge base for the store..." in err
    assert "progress: writing the store..." in err


def test_a_quick_step_says_nothing(capsys, monkeypatch):
    from rules_kb.cli import common

    monkeypatch.setattr(common, "shows_progress", lambda: True)
    with common.step("reading one file"):
        pass
    assert capsys.readouterr().err == ""
