"""The in-browser comparison of any two versions (``/{game}/compare/``), in headless Chromium.

Pairs chosen because no diff page is built for them (not adjacent releases),
so only the page's script can show them; the changed rules were read in the corpus files:
Magic 100.1b says "See section 6" in CR-2009-05-01.txt and "See section 8" in CR-2022-11-18.txt;
Duel Masters 315.2 says タマシードは使ったら in the 2022-04-08 change notice and タマシードは実行したら
in Ver.1.48.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
from conftest import ARTIFACTS, CORPUS, FIXTURES
from site_helpers import file_of, parse

from rules_kb import links
from rules_kb.assemble.knowledge import build_knowledge
from rules_kb.compare.changes import compare_versions
from rules_kb.numbers import RuleNumber
from rules_kb.site.build import build_site

DONE = "document.getElementById('rk-compare').dataset.done"


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)


def _open(page, base: str, game: str, lang: str, old: str, new: str, rule: str | None = None) -> None:
    page.goto(base + links.compare_pair(game, lang, old, new, rule).lstrip("/"))
    page.wait_for_function(DONE)


def test_the_corpus_files_say_what_the_tests_expect():
    old = (CORPUS / "mtg" / "CR-2009-05-01.txt").read_text(encoding="ascii")
    new = (CORPUS / "mtg" / "CR-2022-11-18.txt").read_bytes().decode("utf-16")
    assert '100.1b A multiplayer game is a game that begins with more than two players. See section 6, ' in old
    assert "100.1b A multiplayer game is a game that begins with more than two players. See section 8, " in new
    notice = (CORPUS / "dm" / "official-change-notice-excerpts" / "rulechange_31650__2022-04-08.txt").read_text(
        encoding="utf-8")
    rulebook = (CORPUS / "dm" / "official-rule-text" / "dm_rule-ja-v1.48.md").read_text(encoding="utf-8")
    assert "315.2. タマシードは使ったら、バトルゾーンに出ます。" in notice
    assert "315.2. タマシードは実行したら、バトルゾーンに出ます。" in rulebook


def test_a_magic_pair_without_a_diff_page(page, serve_dir, real_site, knowledge):
    assert not file_of(real_site, links.diff_page("mtg", "en", "2009-05-01", "2022-11-18")).exists()
    base = serve_dir(real_site)
    _open(page, base, "mtg", "en", "2009-05-01", "2022-11-18")
    assert page.locator("select[name=old]").input_value() == "2009-05-01"
    assert page.locator("select[name=new]").input_value() == "2022-11-18"
    row = page.locator("[id='100.1b']")
    assert row.get_attribute("data-kind") == "substantive"  # diff's class of the row
    assert row.locator("del").all_inner_texts()[0] == "6"
    assert row.locator("ins").all_inner_texts()[0] == "8"
    assert row.locator(".rk-diff").inner_text().startswith("A multiplayer game is a game that begins with more")
    pinned = row.locator("a").first.get_attribute("href")
    assert pinned.endswith(links.pinned_rule("mtg", "en", "2009-05-01", RuleNumber.parse("100.1b")))
    # Both are complete: a renumbered rule is moved, not removed and added (2009 moved 309 to 509).
    assert page.locator(".rk-row[data-old='309']").get_attribute("data-kind") == "moved"
    assert page.locator(".rk-row[data-old='309']").get_attribute("data-new") == "509"
    comparison = compare_versions(knowledge.catalog, knowledge.alignments, "mtg", "en", "2009-05-01", "2022-11-18",
                                  knowledge.forced)
    removed = comparison.counts()["removed"]
    assert f"{removed} removed" in page.locator("#rk-compare-counts").inner_text()
    assert page.locator(".rk-row.removed").count() == removed
    _shot(page, "compare-mtg-2009-05-01-2022-11-18")


def test_the_address_keeps_the_choice(page, serve_dir, real_site):
    base = serve_dir(real_site)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base.rstrip("/"))
    _open(page, base, "mtg", "en", "2009-05-01", "2022-11-18", rule="100.1")
    ids = page.eval_on_selector_all(".rk-row", "rows => rows.map(r => r.id)")
    assert ids and all(i == "100.1" or (i[:-1] == "100.1" and i[-1].isalpha()) for i in ids), ids
    page.select_option("select[name=new]", "2009-07-08")
    page.wait_for_function(DONE + " && location.search.includes('2009-07-08')")
    assert page.url.endswith(links.compare_pair("mtg", "en", "2009-05-01", "2009-07-08", "100.1"))
    # Adjacent releases have a diff page (renumberings aligned): the comparison says so and links it.
    prebuilt = page.locator("#rk-compare-summary a")
    assert prebuilt.get_attribute("href").endswith(links.diff_page("mtg", "en", "2009-05-01", "2009-07-08"))
    page.locator("#rk-compare-copy").click()
    page.wait_for_selector("#rk-compare-copy.rk-copied")
    assert page.locator("#rk-compare-copy").get_attribute("data-copied") == page.url


def test_a_japanese_pair(page, serve_dir, real_site):
    assert not file_of(real_site, links.diff_page("dm", "ja", "2022-04-08", "1.48")).exists()
    base = serve_dir(real_site)
    _open(page, base, "dm", "ja", "2022-04-08", "1.48")
    row = page.locator("[id='315.2']")
    assert row.locator(".rk-diff").get_attribute("lang") == "ja"
    assert row.locator("del").all_inner_texts() == ["使っ"]
    assert row.locator("ins").all_inner_texts() == ["実行し"]
    assert row.locator(".rk-diff").inner_text() == "タマシードは使っ実行したら、バトルゾーンに出ます。"
    # The notice prints a few rules: the rules only 1.48 holds are not called added.
    assert page.locator(".rk-row.added").count() == 0
    assert "not listed" in page.locator("#rk-compare-summary .rk-partial").inner_text()
    _shot(page, "compare-dm-ja-2022-04-08-1.48")


def test_compare_is_linked_from_game_and_diff_pages(real_site):
    for game in ("dm", "mtg"):
        tree = parse(file_of(real_site, links.game_page(game)))
        assert any(a.get("href") == "compare/" for a in tree.find_class("rk-game-links")[0].iter("a"))
    tree = parse(file_of(real_site, links.diff_page("mtg", "en", "2022-11-18", "2024-11-08")))
    hrefs = [a.get("href") for a in tree.iter("a")]
    assert "../../../compare/?lang=en&old=2022-11-18&new=2024-11-08" in hrefs


@pytest.fixture(scope="module")
def hostile_pair(tmp_path_factory) -> Path:
    """The hostile fixture plus a second release whose hostile rule changed: a site to compare."""
    corpus = tmp_path_factory.mktemp("hostile-pair")
    shutil.copytree(FIXTURES / "hostile", corpus, dirs_exist_ok=True)
    first = (corpus / "mtg" / "CR-2099-01-01.txt").read_text(encoding="utf-8")
    second = first.replace("January 1, 2099", "February 1, 2099").replace("<script>alert(1)</script>",
                                                                        "<script>alert(4)</script><img src=x>")
    (corpus / "mtg" / "CR-2099-02-01.txt").write_text(second, encoding="utf-8")
    digest = hashlib.sha256(second.encode("utf-8")).hexdigest()
    manifest = (corpus / "manifest.toml").read_text(encoding="utf-8")
    entry = manifest[manifest.index("[[document]]"):].replace("hostile-2099", "hostile-2099-02").replace(
        "CR-2099-01-01", "CR-2099-02-01").replace("2099-01-01", "2099-02-01")
    entry = entry.replace(entry.split('sha256 = "')[1].split('"')[0], digest)
    (corpus / "manifest.toml").write_text(manifest + "\n" + entry, encoding="utf-8")
    out = corpus.parent / "site"
    build_site(corpus, out, knowledge=build_knowledge(corpus))
    return out


def test_source_text_is_inserted_as_text(page, serve_dir, hostile_pair):
    base = serve_dir(hostile_pair)
    _open(page, base, "mtg", "en", "2099-01-01", "2099-02-01")
    row = page.locator("[id='100.1']")
    assert row.locator("del").all_inner_texts() == ["1"]
    inserted = row.locator("ins").all_inner_texts()
    assert inserted[0] == "4" and "<img src=x" in inserted[1]  # the LCS may put the tag's ">" on either side
    assert "<script>alert(" in row.inner_text()
    assert page.locator("#rk-compare-results script, #rk-compare-results img").count() == 0
