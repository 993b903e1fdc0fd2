"""A build into a folder that holds the previous build reuses its unchanged units and gives
the very site a build from nothing gives."""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

import pytest
from conftest import CORPUS, MANIFEST

from rules_kb.assemble.caches import ENVIRONMENT
from rules_kb.assemble.knowledge import build_knowledge
from rules_kb.compare import diff
from rules_kb.ingest.corpus import load_manifest, manifest_entry
from rules_kb.site.build import build_site
from rules_kb.site.reuse import MANIFEST as UNITS

RELEASES = ("mtg-cr-2019-05-03", "mtg-cr-2022-11-18", "mtg-cr-2024-11-08")


def corpus_of(folder: Path, ids: tuple[str, ...]) -> Path:
    """A corpus folder with the real files (linked) and a manifest of ``ids`` only."""
    folder.mkdir()
    for entry in CORPUS.iterdir():
        if entry.name != MANIFEST:
            (folder / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    chosen = [meta for meta in load_manifest(CORPUS) if meta.id in ids]
    (folder / MANIFEST).write_text("\n".join(manifest_entry(meta) for meta in chosen), encoding="utf-8")
    return folder


def files_of(site: Path) -> dict[Path, bytes]:
    return {p.relative_to(site): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    """Two releases built, the third added and built again into the same folder (with the token diffs
    the first build kept); and all three from nothing, with a cache of their own."""
    work = tmp_path_factory.mktemp("reuse")
    two, three = corpus_of(work / "two", RELEASES[:2]), corpus_of(work / "three", RELEASES)
    knowledge = build_knowledge(three, work / "cache")  # the two-release corpus reuses its parses and pair
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(ENVIRONMENT, str(work / "cache"))
        first = build_site(two, work / "site", knowledge=build_knowledge(two, work / "cache"))
        again = build_site(three, work / "site", knowledge=knowledge)
        patch.setenv(ENVIRONMENT, str(work / "cold-cache"))
        cold = build_site(three, work / "cold", knowledge=knowledge)
    return first, again, cold, knowledge


def test_the_unchanged_pair_is_reused(builds):
    first, again, cold, _ = builds
    assert first.reused == 0 and cold.reused == 0
    # 2019-05-03..2022-11-18 was built the first time; the two pairs with 2024-11-08 are new
    assert again.reused > 0
    assert (again.out / "mtg/en/diff/2019-05-03..2022-11-18/index.html").is_file()


def test_a_page_whose_bytes_did_not_change_keeps_its_file(builds):
    """Pages outside the reused units that come out byte for byte as before are linked from the
    previous build, not written again (a build from nothing has nothing to keep)."""
    first, again, cold, _ = builds
    assert first.unchanged == 0 and cold.unchanged == 0
    assert 0 < again.unchanged < again.pages - again.reused


def test_a_build_that_reuses_gives_the_same_site_as_one_from_nothing(builds):
    _, again, cold, _ = builds
    reused, fresh = files_of(again.out), files_of(cold.out)
    assert reused.keys() == fresh.keys()
    assert [name for name in reused if reused[name] != fresh[name]] == []
    assert (again.out / UNITS).is_file()


def test_a_unit_whose_key_changed_is_built_again(builds, monkeypatch):
    """The previous site's pages of a pair are never trusted when the key differs. Built again, its
    pages diff no text anew: every token diff comes from the ones the last build kept
    (``kept_token_diffs``), and the site is still the one a build from nothing gives."""
    _, again, cold, knowledge = builds
    manifest = again.out / UNITS
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace('"key": "', '"key": "stale'), encoding="utf-8")
    monkeypatch.setenv(ENVIRONMENT, str(again.out.parent / "cache"))
    monkeypatch.setattr(diff, "_memo", OrderedDict())  # nothing diffed earlier in this process answers

    def refuse(*args):
        raise AssertionError("a pair the last build diffed was diffed again")

    monkeypatch.setattr(diff, "diff_token_lists", refuse)
    report = build_site(again.out.parent / "three", again.out, knowledge=knowledge)
    assert report.reused == 0
    rebuilt, fresh = files_of(report.out), files_of(cold.out)
    assert [name for name in fresh if rebuilt.get(name) != fresh[name] and name.name != UNITS] == []
