"""A build with nothing changed leaves its outputs as they are (``site/unchanged.py``); a change of
anything they depend on, or of a file the last build left, builds again."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import CORPUS, MANIFEST

from rules_kb.assemble.caches import cache_key
from rules_kb.cli import common
from rules_kb.ingest.corpus import load_manifest, manifest_entry
from rules_kb.search.query import INDEX_DIR
from rules_kb.site import unchanged

CHOSEN = ("seed-000", "fandom-attack-step-1.20", "fandom-attack-step-1.28")
NOTHING = "nothing changed since the last build (the corpus, the code, the site's sources, the base URL)"


@pytest.fixture
def tiny(tmp_path) -> Path:
    """Three documents, copied (a test touches one), with the curated files and their manifest."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    for curated in CORPUS.glob("*.toml"):
        if curated.name != MANIFEST:
            shutil.copyfile(curated, folder / curated.name)
    chosen = [meta for meta in load_manifest(CORPUS) if meta.id in CHOSEN]
    for meta in chosen:
        (folder / meta.file).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(CORPUS / meta.file, folder / meta.file)
    (folder / MANIFEST).write_text("\n".join(manifest_entry(meta) for meta in chosen), encoding="utf-8")
    return folder


def stats(folder: Path) -> dict[str, tuple[int, int, int]]:
    return {path.relative_to(folder).as_posix(): (info.st_size, info.st_mtime_ns, info.st_ino)
            for path in sorted(folder.rglob("*")) if path.is_file() and (info := path.stat())}


def test_a_build_with_nothing_changed_leaves_every_file_as_it_is(cli, tiny, tmp_path):
    out, graph = tmp_path / "site", tmp_path / "graph.json"
    argv = ("--corpus", str(tiny), "build", "--out", str(out), "--graph", str(graph), "--store")
    code, first, _ = cli(*argv)
    assert code == 0 and f"built 50 pages (150 files) in {out}" in first
    site, exported = stats(out), graph.stat()
    code, again, err = cli(*argv)
    assert (code, err) == (0, "")
    lines = again.splitlines()
    assert lines[0] == NOTHING
    assert " ".join(line.strip() for line in lines[1:-1]) == f"{out} and {graph} left as they are, the store current"
    assert lines[-1] == f"open it with: rules-kb serve --dir {out}   (then http://127.0.0.1:8000/)"
    assert all(len(line) <= 100 for line in lines[:-1])  # the paths aside, read in a 100-column terminal
    assert stats(out) == site and graph.stat().st_mtime_ns == exported.st_mtime_ns
    # the CLI's search index is the site's after a build; one damaged is shared again, the site untouched
    cli_index = common.DEFAULT_SEARCH / cache_key(tiny) / INDEX_DIR
    vocabulary = (out / INDEX_DIR / "vocab.json").read_bytes()
    assert (cli_index / "vocab.json").read_bytes() == vocabulary
    (cli_index / "vocab.json").unlink()
    (cli_index / "vocab.json").write_bytes(vocabulary + b" ")
    code, again, _ = cli(*argv)
    assert code == 0 and again.startswith(NOTHING)
    assert (cli_index / "vocab.json").read_bytes() == vocabulary and stats(out) == site


def test_a_change_of_an_input_or_of_an_output_builds_again(cli, tiny, tmp_path):
    out, graph = tmp_path / "site", tmp_path / "graph.json"
    argv = ("--corpus", str(tiny), "build", "--out", str(out), "--graph", str(graph))

    def build(*extra: str) -> str:
        code, said, _ = cli(*argv, *extra)
        assert code == 0
        return "built" if f"built 50 pages (150 files) in {out}" in said else said.splitlines()[0]

    assert build() == "built"
    sitemap = (out / "sitemap.xml").read_bytes()
    assert build("--base-url", "https://judges.example.org/rules/") == "built"
    assert b"https://judges.example.org/rules/" in (out / "sitemap.xml").read_bytes()
    assert build("--base-url", "https://judges.example.org/rules/") == NOTHING
    assert build() == "built" and (out / "sitemap.xml").read_bytes() == sitemap
    (out / "sitemap.xml").unlink()  # a file of the site removed: put back
    assert build() == "built" and (out / "sitemap.xml").read_bytes() == sitemap
    home = (out / "index.html").read_bytes()
    (out / "index.html").write_bytes(home + b"<!-- edited -->")  # edited: written again
    assert build() == "built" and (out / "index.html").read_bytes() == home
    graph.unlink()
    assert build() == "built" and graph.is_file()
    document = next(path for path in tiny.rglob("*") if path.is_file() and path.suffix != ".toml")
    os.utime(document, ns=(1, 1))  # the corpus as the manifest lists it, but a file's stat moved
    assert build() == "built"
    assert build() == NOTHING
    (out / "CNAME").write_text("judges.example.org\n")  # a file no build wrote: refused as before
    code, _, err = cli(*argv)
    assert code == 1 and "holding files no build wrote (CNAME)" in err


def test_the_inputs_name_the_site_sources_and_the_base_url(tmp_path, monkeypatch):
    key, files = "0" * 16, {"mtg/CR.txt": [1, 2, 3]}
    first = unchanged.build_inputs(key, files, "http://127.0.0.1:8000/")
    assert unchanged.build_inputs(key, files, "http://127.0.0.1:8000/") == first
    assert unchanged.build_inputs(key, files, "https://judges.example.org/") != first
    assert unchanged.build_inputs("1" * 16, files, "http://127.0.0.1:8000/") != first
    assert unchanged.build_inputs(key, {"mtg/CR.txt": [1, 2, 4]}, "http://127.0.0.1:8000/") != first
    sources = tmp_path / "site"
    shutil.copytree(unchanged.SITE_SOURCES, sources)
    monkeypatch.setattr(unchanged, "SITE_SOURCES", sources)
    assert unchanged.build_inputs(key, files, "http://127.0.0.1:8000/") == first
    (sources / "assets" / "site.css").write_text((sources / "assets" / "site.css").read_text() + "\n/* a rule */\n")
    assert unchanged.build_inputs(key, files, "http://127.0.0.1:8000/") != first
