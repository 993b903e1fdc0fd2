"""Issue 32's content defects in the built site: a version of two sources shows each rule once, a
heading's page its subrules, citations of today apart from history, the English Duel Masters
excerpt said to be one, what's new counts that add up, the feeds, the sitemap, both dates of a
Magic release named.

Facts from the sources: the seed's English 507.2a (1.38) and the Fandom excerpt of the Block
Declaration Step (1.38) hold the same text, the excerpt cut off; CR-2009-07-08.txt says "These
rules are effective as of July 11, 2009."; CR-2024-11-08.txt prints 702.2 "Deathtouch" with
702.2a-f beneath it.
"""

from __future__ import annotations

import gzip
import re
import xml.etree.ElementTree as ET

from site_helpers import file_of, parse, url_of

from rules_kb import links
from rules_kb.ask.query import citations_of
from rules_kb.compare.changes import compare_versions
from rules_kb.numbers import RuleNumber
from rules_kb.render.textformat import same_text_once
from rules_kb.render.version_pages import read_in_browser
from rules_kb.render.whats_new_pages import COUNT_WORDS

ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def _blocks(tree, number: str) -> list:
    return [e for e in tree.find_class("rk-rule") if e.find_class("rk-num")[0].text_content() == number]


def test_a_version_of_several_documents_shows_each_text_once_and_names_the_other_source(real_site, knowledge):
    from rules_kb.render.site_data import load_site_data

    site = load_site_data(knowledge)
    catalog = knowledge.catalog
    checked = 0
    for game, lang, label in catalog.versions:
        rules = catalog.rules_in(game, lang, label)
        if len(catalog.versions[(game, lang, label)].documents) < 2 or read_in_browser(site, game, lang, label):
            continue
        trees = {}
        for number, texts in rules.items():
            path = links.chapter_page(game, lang, label, links.chapter_of(number))
            tree = trees.setdefault(path, parse(file_of(real_site, path)))
            blocks = _blocks(tree, str(number))
            shown = same_text_once(texts)
            assert len(blocks) == len(shown), (path, str(number))
            assert blocks[0].get("id") == str(number)
            for block, (index, _) in zip(blocks[1:], shown[1:], strict=True):
                label_line = block.getparent().find_class("rk-source")[0].text_content()
                assert texts[index].document in label_line
            checked += 1
    assert checked > 0
    english = parse(file_of(real_site, "/dm/en/1.38/5/"))
    assert len(_blocks(english, "507.2a")) == 1  # the seed's whole text; the Fandom excerpt is a cut-off copy


def test_a_headings_page_shows_the_text_of_its_subrules(real_site, knowledge):
    tree = parse(file_of(real_site, "/mtg/rule/702.2/"))
    column = next(s for s in tree.find_class("rk-lang") if s.get("lang") == "en")
    subrules = column.find_class("rk-subrules")[0]
    newest = knowledge.catalog.version_labels("mtg", "en")[-1]
    version = knowledge.catalog.rules_in("mtg", "en", newest)
    expected = [n for n in sorted(version) if n.parent == RuleNumber.parse("702.2")]
    assert [str(n) for n in expected] == ["702.2a", "702.2b", "702.2c", "702.2d", "702.2e", "702.2f"]
    shown = [(b.find_class("rk-num")[0].text_content(), b.find_class("rk-text")[0].text_content())
             for b in subrules.find_class("rk-rule")]
    assert shown == [(str(n), version[n][0].text) for n in expected]
    assert newest in subrules.find_class("rk-subrules-head")[0].text_content()
    assert not parse(file_of(real_site, "/mtg/rule/702.2a/")).find_class("rk-subrules")  # not a heading


def test_citations_of_today_come_first_and_earlier_ones_are_labelled_history(real_site, knowledge):
    newest = knowledge.catalog.version_labels("mtg", "en")[-1]
    tree = parse(file_of(real_site, "/mtg/rule/509.1a/"))
    cites = tree.get_element_by_id("cites-out")
    today = cites.getnext()
    text = knowledge.catalog.rules_in("mtg", "en", newest)[RuleNumber.parse("509.1a")][0]
    graph = knowledge.graph
    from rules_kb.kb.ids import text_id

    cited_today = sorted({RuleNumber.parse(graph.nodes[t]["number"]) for _, t, d in graph.out_edges(
        text_id(text), data=True) if d.get("kind") == "cites"})
    assert [a.text_content() for a in today.iter("a")] == [str(n) for n in cited_today]
    assert all(f"(as of en {newest})" in li.text_content() for li in today.iter("li"))
    earlier = today.getnext()
    assert earlier.tag == "details" and "earlier" in earlier.find("summary").text_content()
    assert "420 (until en 2009-05-01)" in earlier.text_content()  # CR-2009-05-01 509.1a: "... (see rule 420)"

    cited_by = tree.get_element_by_id("cites-in").getnext()
    citing = {c.number for c in citations_of(knowledge, RuleNumber.parse("509.1a"), "mtg", version=newest)
              if c.source_kind == "text"}
    assert {a.text_content() for a in cited_by.iter("a")} == citing
    assert all(f"en {newest})" in li.text_content() for li in cited_by.iter("li"))


def test_the_english_duel_masters_rules_are_not_called_whole(real_site, knowledge):
    newest = knowledge.catalog.version_labels("dm", "en")[-1]
    count = len(knowledge.catalog.rules_in("dm", "en", newest))
    latest = parse(file_of(real_site, links.latest_page("dm", "en")))
    note = latest.find_class("rk-partial")[0].text_content()
    assert f"it prints {count} rules only" in note
    home = parse(file_of(real_site, "/"))
    english = home.find_class("rk-ui-en")[0]
    whole = next(p for p in english.iter("p") if "whole" in p.text_content())
    assert "dm/en/latest/" not in [a.get("href") for a in whole.iter("a")]
    excerpt = next(p for p in english.iter("p") if "dm/en/latest/" in [a.get("href") for a in p.iter("a")])
    assert "excerpts" in excerpt.text_content()


def _counts(text: str) -> tuple[int, dict[str, int]]:
    total, _, rest = text.partition(":")
    parts = {}
    for part in rest.split(".")[0].split(", "):
        number, _, words = part.strip().partition(" ")
        parts[words] = int(number)
    return int(total.split()[0]), parts


def test_whats_new_counts_add_up_and_every_move_is_listed(real_site, knowledge):
    page = links.whats_new_page("mtg", "en", "2024-11-08")
    tree = parse(file_of(real_site, page))
    comparison = compare_versions(knowledge.catalog, knowledge.alignments, "mtg", "en", "2022-11-18", "2024-11-08",
                                  knowledge.forced)
    changed = [row for row in comparison.rows if row.kind != "unchanged"]
    total, parts = _counts(tree.find_class("rk-change-counts")[0].text_content())
    assert total == sum(parts.values()) == len(changed)
    assert parts == {COUNT_WORDS[kind]: n for kind, n in comparison.counts().items() if n and kind != "unchanged"}
    moved = [row for row in changed if row.kind == "moved"]
    assert moved
    heading = tree.get_element_by_id("moved")
    assert heading.text_content() == f"Moved (renumbered) ({len(moved)})"
    items = heading.getnext().findall("li")
    assert [item.find("a").text_content() for item in items] == [f"{row.pair.old_number} (2022-11-18)"
                                                                   for row in moved]


def test_the_feeds_are_atom_of_dated_releases_with_absolute_links_and_content(real_site, knowledge):
    for game in ("dm", "mtg"):
        root = ET.fromstring(file_of(real_site, links.feed(game)).read_bytes())
        assert root.find(f"{ATOM}link[@rel='self']").get("href") == links.DEFAULT_BASE_URL + f"{game}/feed.xml"
        entries = root.findall(f"{ATOM}entry")
        assert entries
        for entry in entries:
            updated = entry.findtext(f"{ATOM}updated")
            assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T00:00:00Z", updated) and not updated.startswith("1970")
            lang, version = entry.findtext(f"{ATOM}id").rsplit(":", 1)[1].split("/")[1:]
            info = knowledge.catalog.versions[(game, lang, version)]
            assert info.date == updated[:10] and not version.startswith("before-")
            href = entry.find(f"{ATOM}link").get("href")
            assert href == links.DEFAULT_BASE_URL + links.whats_new_page(game, lang, version).lstrip("/")
            assert file_of(real_site, "/" + href.removeprefix(links.DEFAULT_BASE_URL)).is_file()
            content = entry.find(f"{ATOM}content")
            assert content.get("type") == "html" and content.text
            summary = entry.findtext(f"{ATOM}summary")
            assert not re.search(r"\b(0|1) changes\b", summary) and not re.search(r"\b1 changes", content.text)
            for href in re.findall(r'href="([^"]+)"', content.text):
                assert href.startswith(links.DEFAULT_BASE_URL)


def test_every_page_names_the_feeds_in_its_head(real_site):
    for path in ("/", "/dm/rule/507.2a/", "/mtg/en/2024-11-08/5/", "/search/"):
        tree = parse(file_of(real_site, path))
        found = [e.get("href") for e in tree.iter("link") if e.get("rel") == "alternate"
                 and e.get("type") == "application/atom+xml"]
        assert [links.relative(path, links.feed(game)) for game in ("dm", "mtg")] == found, path


def test_the_sitemap_lists_every_page_at_its_absolute_address(real_site):
    root = ET.fromstring((real_site / "sitemap.xml").read_bytes())
    listed = [e.findtext(f"{SITEMAP}loc") for e in root.findall(f"{SITEMAP}url")]
    pages = sorted(url_of(real_site, f) for f in real_site.rglob("index.html"))
    assert listed == [links.DEFAULT_BASE_URL + p.lstrip("/") for p in pages]
    assert len(listed) > 1000 and links.DEFAULT_BASE_URL + "dm/rule/507.2a/" in listed


def test_each_game_sitemap_beside_its_feed_is_an_index_naming_the_sites(real_site):
    """The theme fetches the sitemap beside each ``<link rel="alternate">`` (the feeds) on every page
    and reads each of its ``<url>``s; an index names the root sitemap and holds no ``<url>`` at all."""
    for game in ("dm", "mtg"):
        root = ET.fromstring((real_site / game / "sitemap.xml").read_bytes())
        assert root.tag == f"{SITEMAP}sitemapindex"
        assert [e.findtext(f"{SITEMAP}loc") for e in root] == [links.DEFAULT_BASE_URL + "sitemap.xml"]
        assert not list(root.iter(f"{SITEMAP}url"))
        assert gzip.decompress((real_site / game / "sitemap.xml.gz").read_bytes()) == (
            real_site / game / "sitemap.xml").read_bytes()


def test_a_release_with_two_dates_says_which_is_which(real_site):
    version = parse(file_of(real_site, "/mtg/en/2009-07-08/"))
    assert "effective 2009-07-11 (file date 2009-07-08)" in version.find_class("rk-meta")[0].text_content()
    timeline = parse(file_of(real_site, "/mtg/"))
    heads = [th.text_content() for th in timeline.find_class("rk-timeline")[0].iter("th")]
    assert heads[0] == "effective date" and heads[2] == "version (file date)"
    row = next(tr for tr in timeline.find_class("rk-timeline")[0].iter("tr")
               if [td.text_content() for td in tr.findall("td")][2:3] == ["2009-07-08"])
    assert row.findall("td")[0].text_content() == "2009-07-11"
    dm = parse(file_of(real_site, "/dm/"))
    assert next(th.text_content() for th in dm.find_class("rk-timeline")[0].iter("th")) == "date"


def test_the_feeds_and_sitemap_name_the_base_url_the_build_is_given(knowledge, tmp_path):
    from rules_kb.render.feeds import write_feeds
    from rules_kb.render.site_data import load_site_data
    from rules_kb.render.sitemap import write_sitemap

    base = links.base_url("https://rules.example/kb")
    assert base == "https://rules.example/kb/"
    site = load_site_data(knowledge, base_url=base)
    write_feeds(site, tmp_path)
    root = ET.fromstring((tmp_path / "mtg" / "feed.xml").read_bytes())
    assert root.find(f"{ATOM}link[@rel='self']").get("href") == "https://rules.example/kb/mtg/feed.xml"
    assert root.find(f"{ATOM}entry/{ATOM}link").get("href").startswith("https://rules.example/kb/mtg/new/en/")
    (tmp_path / "dm" / "rule" / "507.2a").mkdir(parents=True)
    (tmp_path / "dm" / "rule" / "507.2a" / "index.html").write_text("<p>page</p>", encoding="utf-8")
    write_sitemap(site, tmp_path)
    listed = [e.findtext(f"{SITEMAP}loc") for e in ET.fromstring((tmp_path / "sitemap.xml").read_bytes())]
    assert listed == ["https://rules.example/kb/dm/rule/507.2a/"]


def test_build_refuses_a_base_url_that_is_no_sites_address(cli, tmp_path):
    for url in ("ftp://rules.example/", "rules.example", "https://rules.example/?x=1"):
        code, _, err = cli("build", "--out", str(tmp_path / "site"), "--base-url", url)
        assert code == 1 and err.startswith(f"Error: --base-url '{url}': not a site's address"), err
        assert not (tmp_path / "site").exists()
