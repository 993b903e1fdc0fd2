"""Older Magic releases' chapter pages, drawn in Chromium by ``reader.js`` from the version JSON.

Each drawn page must show what a static chapter page shows: every rule of the chapter in
order under its number as ``id``, its exact title, text and examples, the section anchors,
and each citation the Python grammar finds linked: to the cited rule in the same release
when the release has it, else to the rule's version-independent page.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from rules_kb import links
from rules_kb.numbers import RuleNumber
from rules_kb.refs import find_references

DRAW = """() => [...document.querySelectorAll('.rk-reader .rk-rule')].map((rule) => ({
  id: rule.id,
  title: rule.querySelector('.rk-title') ? rule.querySelector('.rk-title').textContent : '',
  text: rule.querySelector('.rk-text') ? rule.querySelector('.rk-text').textContent : '',
  examples: [...rule.querySelectorAll('.rk-example')].map((e) => e.textContent.replace(/^Example/, '')),
  cites: [...rule.querySelectorAll('a.rk-cite')].map((a) => [a.textContent, a.href]),
}))"""


def _expected_link(number: RuleNumber, game: str, lang: str, version: str, here) -> str:
    if number in here:
        return links.pinned_rule(game, lang, version, number)
    return links.rule_page(game, number)


@pytest.mark.parametrize("version", ["2009-05-01", "2009-07-08"])  # a keyframe, and a delta over it
def test_drawn_chapters_show_every_rule_as_the_corpus_has_it(page, serve_dir, real_site, knowledge, version):
    base = serve_dir(real_site)
    rules = knowledge.catalog.rules_in("mtg", "en", version)
    chapters = sorted({links.chapter_of(n) for n in rules}, key=int)
    folders = [d.name for d in (real_site / "mtg/en" / version).iterdir() if d.is_dir()]
    assert chapters == sorted((name for name in folders if name != "glossary"), key=int)
    assert "glossary" in folders  # the release prints one: its page is drawn too (below)
    problems = []
    for chapter in chapters:
        page.goto(base + links.chapter_page("mtg", "en", version, chapter).lstrip("/"))
        page.wait_for_selector(".rk-reader[data-ready=true]", timeout=15000)
        drawn = page.evaluate(DRAW)
        wanted = sorted(n for n in rules if links.chapter_of(n) == chapter)
        assert [d["id"] for d in drawn] == [str(n) for n in wanted]
        for shown, number in zip(drawn, wanted, strict=True):
            rule = rules[number][0]
            if (shown["title"], shown["text"]) != (rule.title or "", rule.text):
                problems.append(f"{version} {number}: text differs")
            if shown["examples"] != [e.text for e in rule.examples]:
                problems.append(f"{version} {number}: examples differ")
            cited = [ref for body in [rule.text, *[e.text for e in rule.examples]]
                     for ref in find_references(body, game="mtg")]
            expected = [_expected_link(ref.numbers[0], "mtg", "en", version, rules) for ref in cited]
            got = [urlsplit(url).path + (f"#{urlsplit(url).fragment}" if urlsplit(url).fragment else "")
                   for _, url in shown["cites"]]
            if got != expected:
                problems.append(f"{version} {number}: citations {got} != {expected}")
        sections = {f"s{n.section:03d}" for n in wanted}
        assert page.evaluate("(ids) => ids.filter((id) => !document.getElementById(id))", sorted(sections)) == []
    assert problems == []


def test_a_pinned_link_into_a_drawn_page_is_shown_and_marked(page, serve_dir, real_site, knowledge):
    base = serve_dir(real_site)
    page.goto(base + links.pinned_rule("mtg", "en", "2009-07-08", RuleNumber.parse("509.1a")).lstrip("/"))
    page.wait_for_selector(".rk-reader[data-ready=true]", timeout=15000)
    target = page.locator(".rk-rule:target")
    assert target.get_attribute("id") == "509.1a"
    assert target.locator(".rk-text").inner_text() == \
        knowledge.catalog.rules_in("mtg", "en", "2009-07-08")[RuleNumber.parse("509.1a")][0].text
    assert target.locator("button.rk-copy").count() == 2  # site.js adds the copy buttons to drawn rules too
    assert page.evaluate("window.scrollY") > 0


def test_the_newest_release_and_duel_masters_stay_static(real_site):
    newest = (real_site / "mtg/en/2024-11-08/5/index.html").read_text(encoding="utf-8")
    assert 'id="509.1a"' in newest and "rk-reader" not in newest
    assert "rk-reader" not in (real_site / "dm/ja/1.48/5/index.html").read_text(encoding="utf-8")
    old = (real_site / "mtg/en/2009-07-08/5/index.html").read_text(encoding="utf-8")
    assert "rk-reader" in old and 'id="509.1a"' not in old and "<noscript>" in old


def test_printing_a_chapter_leaves_only_the_rules(page, serve_dir, real_site):
    page.goto(serve_dir(real_site) + "dm/ja/1.48/5/")
    page.emulate_media(media="print")
    hidden = page.evaluate("""() => ['.md-header', '.md-sidebar--primary', '.rk-copy', '.rk-nav']
        .map((s) => [s, document.querySelector(s) ? getComputedStyle(document.querySelector(s)).display : 'absent'])""")
    assert all(display in ("none", "absent") for _, display in hidden), hidden
    assert page.locator("[id='507.2a'] .rk-text").is_visible()
    assert "/dm/ja/1.48/5/" in page.evaluate(
        "getComputedStyle(document.querySelector('.rk-meta'), '::after').content")  # the permalink, printed


def test_latest_rulebook_is_the_newest_versions_contents(real_site, knowledge):
    from site_helpers import file_of, internal_links, parse

    for game, lang in (("dm", "ja"), ("dm", "en"), ("mtg", "en")):
        newest = [v for v in knowledge.catalog.version_labels(game, lang)
                  if knowledge.catalog.rules_in(game, lang, v)][-1]
        latest = file_of(real_site, links.latest_page(game, lang))
        tree = parse(latest)
        assert tree.findtext(".//h1").endswith(newest)
        targets = {path for path, _ in internal_links(real_site, latest, tree)}
        version = links.version_page(game, lang, newest)
        assert version in targets and any(t.startswith(version) and t != version for t in targets)
    home = (real_site / "index.html").read_text(encoding="utf-8")
    assert all(f'href="{g}/{lang}/latest/"' in home for g, lang in (("dm", "ja"), ("dm", "en"), ("mtg", "en")))


GLOSSARY = """() => [...document.querySelectorAll('.rk-reader dl.rk-glossary > *')].map((e) => ({
  tag: e.tagName.toLowerCase(), id: e.id, text: e.textContent,
  links: [...e.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href'), a.className]),
}))"""


@pytest.mark.parametrize("version", ["2008-10-01", "2009-07-08", "2022-11-18"])  # a keyframe, deltas over it
def test_an_older_glossary_is_drawn_as_its_static_page_would_show_it(page, serve_dir, real_site, knowledge,
                                                                      version):
    """The drawn entries of an older glossary (``reader.js`` over the JSON) are, element by element,
    those of the page the newest glossary gets statically: ids, terms, definitions, every link's
    text, target and class (rule references to that release, ``See X.`` to X's page)."""
    from lxml import html as lxml_html

    from rules_kb.render.glossary_pages import _names, glossaries, term_histories, version_glossary_page
    from rules_kb.render.site_data import load_site_data

    site = load_site_data(knowledge)
    by_version = glossaries(site)
    static = version_glossary_page(site, "mtg", "en", version, by_version["mtg", "en", version],
                                   _names(term_histories(by_version))[("mtg", "en")], drawn=False)
    expected = [{"tag": e.tag, "id": e.get("id") or "", "text": e.text_content(),
                 "links": [[a.text_content(), a.get("href"), a.get("class")] for a in e.iter("a")]}
                for e in lxml_html.fragment_fromstring(static.body).find_class("rk-glossary")[0]]
    assert len(expected) == 2 * len(by_version["mtg", "en", version]) > 600
    page.goto(serve_dir(real_site) + links.glossary_page("mtg", "en", version).lstrip("/") + "#deathtouch")
    page.wait_for_selector(".rk-reader[data-ready=true]", timeout=15000)
    assert page.evaluate(GLOSSARY) == expected
    assert page.evaluate("document.querySelector('dt:target') && document.querySelector('dt:target').id") \
        == "deathtouch"
    assert page.evaluate("window.scrollY") > 0


def test_only_the_newest_glossary_is_static(real_site):
    newest = (real_site / "mtg/en/2024-11-08/glossary/index.html").read_text(encoding="utf-8")
    assert 'id="deathtouch"' in newest and "rk-reader" not in newest
    old = (real_site / "mtg/en/2009-07-08/glossary/index.html").read_text(encoding="utf-8")
    assert "rk-reader" in old and 'id="deathtouch"' not in old and "<noscript>" in old
