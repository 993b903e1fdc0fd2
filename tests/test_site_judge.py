"""Issue 23's pages in the built site: what's new per release, the Atom feed, the glossary per version
and per term, and the home page's example links.

Facts from the sources: CR-2024-11-08.txt's glossary defines Deathtouch as "A keyword ability that
causes damage dealt by an object to be especially effective. See rule 702.2, “Deathtouch.”" and its
entry "In Play (Obsolete)" ends "See Battlefield."; the comparison rows come from ``compare_versions``, the same
classes ``rules-kb diff --substantive`` prints.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from urllib.parse import urljoin, urlsplit

from lxml.html import fragment_fromstring
from site_helpers import file_of, parse

from rules_kb import links
from rules_kb.compare.changes import compare_versions
from rules_kb.numbers import RuleNumber
from rules_kb.render.whats_new_pages import listed_rows

ATOM = "{http://www.w3.org/2005/Atom}"


def _resolves(site, page: str, href: str) -> bool:
    path = urlsplit(urljoin("http://site" + page, href)).path
    return file_of(site, path).is_file()


def test_whats_new_lists_every_substantive_row_of_the_release(real_site, knowledge):
    page = links.whats_new_page("mtg", "en", "2024-11-08")
    tree = parse(file_of(real_site, page))
    assert tree.findtext(".//h1") == "Magic: The Gathering English 2024-11-08: what's new"
    comparison = compare_versions(knowledge.catalog, knowledge.alignments,
                                  "mtg", "en", "2022-11-18", "2024-11-08", knowledge.forced)
    rows = listed_rows(comparison)
    items = tree.findall(".//ul[@class='rk-whats-new']/li")
    assert len(items) == len(rows) > 100
    kinds = {row.kind for row in rows}
    assert {"substantive", "added", "removed"} <= kinds
    for kind in kinds:
        assert tree.get_element_by_id(kind).text_content().endswith(f"({sum(r.kind == kind for r in rows)})")
    for item in items[:40]:
        for a in item.iter("a"):
            assert _resolves(real_site, page, a.get("href")), a.get("href")


def test_whats_new_lists_the_glossary_changes_with_links_to_each_term(real_site):
    """CR-2022-11-18.txt's glossary has "Tribal" and "Totem Armor"; CR-2024-11-08.txt's has "Kindred" and
    "Umbra Armor" instead (the same comparison ``rules-kb diff`` prints, compare/glossary.py)."""
    page = links.whats_new_page("mtg", "en", "2024-11-08")
    tree = parse(file_of(real_site, page))
    assert tree.get_element_by_id("glossary").text_content().startswith("Glossary (")
    items = {li.text_content().split(":")[0]: li for li in tree.findall(".//ul[@class='rk-whats-new-glossary']/li")}
    added = [a.text_content() for a in items["Added"].iter("a")]
    removed = [a.text_content() for a in items["Removed"].iter("a")]
    assert {"Kindred", "Umbra Armor"} <= set(added) and {"Tribal", "Totem Armor"} <= set(removed)
    for a in items["Added"].iter("a"):
        assert _resolves(real_site, page, a.get("href")), a.get("href")


def test_the_feed_is_atom_with_the_newest_release_first_and_links_that_resolve(real_site):
    feed = links.feed("mtg")
    root = ET.fromstring(file_of(real_site, feed).read_bytes())
    assert root.tag == f"{ATOM}feed"
    entries = root.findall(f"{ATOM}entry")
    assert [e.findtext(f"{ATOM}title") for e in entries[:2]] == [
        "Magic: The Gathering English 2024-11-08", "Magic: The Gathering English 2022-11-18"]
    assert entries[0].findtext(f"{ATOM}updated") == "2024-11-08T00:00:00Z"
    assert "against 2022-11-18" in entries[0].findtext(f"{ATOM}summary")
    for entry in entries:
        assert _resolves(real_site, feed, entry.find(f"{ATOM}link").get("href"))
    dm = ET.fromstring(file_of(real_site, links.feed("dm")).read_bytes())
    assert any("日本語" in e.findtext(f"{ATOM}title") for e in dm.findall(f"{ATOM}entry"))


def test_a_version_glossary_links_its_rule_references_to_that_version(real_site):
    page = links.glossary_page("mtg", "en", "2024-11-08")
    tree = parse(file_of(real_site, page))
    term = tree.get_element_by_id("deathtouch")
    definition = term.getnext()
    assert definition.text_content().startswith("A keyword ability that causes damage dealt by an object to be "
                                                "especially effective. See rule 702.2")
    cite = next(a for a in definition.iter("a") if "rk-cite" in a.get("class"))
    target = links.pinned_rule("mtg", "en", "2024-11-08", RuleNumber.parse("702.2"))
    assert cite.get("href") == links.relative(page, target)


def test_a_term_page_holds_every_version_and_links_its_cross_references(real_site):
    page = links.term_page("mtg", "en", "In Play (Obsolete)")  # CR-2024-11-08.txt: "... See Battlefield."
    tree = parse(file_of(real_site, page))
    assert tree.findtext(".//h1") == "In Play (Obsolete)"
    see = [a for a in tree.iter("a") if "rk-term-ref" in (a.get("class") or "")]
    assert see and see[0].text == "Battlefield"
    assert see[0].get("href") == links.relative(page, links.term_page("mtg", "en", "Battlefield"))
    deathtouch = parse(file_of(real_site, links.term_page("mtg", "en", "Deathtouch")))
    history = deathtouch.findall(".//ol[@class='rk-term-history']/li")
    assert history  # newest wording first, each naming its versions
    assert "2024-11-08" in history[0].text_content()


def test_the_home_page_examples_are_links_that_resolve(real_site):
    tree = parse(file_of(real_site, "/"))
    hrefs = [a.get("href") for a in tree.iter("a")]
    for target in ("dm/rule/507.2a/", "mtg/rule/509.1a/", "dm/story/507/"):
        assert target in hrefs
        assert _resolves(real_site, "/", target)


def test_the_game_page_links_whats_new_the_glossary_and_the_feed(real_site):
    page = links.game_page("mtg")
    tree = parse(file_of(real_site, page))
    hrefs = {a.get("href") for a in tree.iter("a")}
    assert links.relative(page, links.whats_new_page("mtg", "en", "2024-11-08")) in hrefs
    assert links.relative(page, links.glossary_page("mtg", "en", "2024-11-08")) in hrefs
    assert links.relative(page, links.feed("mtg")) in hrefs


def test_a_definition_is_escaped_and_only_its_references_become_links(knowledge):
    from rules_kb.render.glossary_pages import definition_html
    from rules_kb.render.site_data import load_site_data

    site = load_site_data(knowledge)
    page = links.glossary_page("mtg", "en", "2024-11-08")
    hostile = ('<script>alert(1)</script> {{ x }} **b** See rule 702.2. See <a href="javascript:x">Battlefield</a>. '
               "See Battlefield.")
    out = definition_html(site, page, "mtg", "en", "2024-11-08", hostile, {"battlefield": "battlefield"})
    assert "<script>" not in out and "&lt;script&gt;alert(1)&lt;/script&gt;" in out
    assert 'href="javascript' not in out and "{{ x }} **b**" in out
    tree = fragment_fromstring(out, create_parent="div")
    assert [a.text for a in tree.iter("a")] == ["rule 702.2", "Battlefield"]
