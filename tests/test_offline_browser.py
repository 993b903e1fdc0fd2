"""Offline in Chromium: after one visit, the site answers with its server gone.

The site is served under ``/rules-kb/`` by a server of the test's own; a judge opens a rule
page (the service worker installs and keeps ``offline.json``'s files), then the server is shut
down: the network is cut for real, not emulated. The rule page opened before, a search result
and a chapter of today's Magic rulebook (never opened) must still show, with the corpus's text.
"""

from __future__ import annotations

import functools
import json
import threading

import pytest
from conftest import QuietServer
from playwright.sync_api import Error as PlaywrightError
from test_permalinks import PREFIX, PrefixedSite

from rules_kb import links
from rules_kb.numbers import RuleNumber

WAIT = 30000


@pytest.fixture
def server(real_site):
    handler = functools.partial(PrefixedSite, directory=str(real_site))
    server = QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server, f"http://127.0.0.1:{server.server_address[1]}{PREFIX}"
    server.shutdown()
    server.server_close()


def test_list_names_todays_rulebooks_and_the_search_index(real_site, knowledge):
    record = json.loads((real_site / "offline.json").read_text(encoding="utf-8"))
    kept = set(record["precache"])
    assert {"./", "search/", "sw.js", "search-index/meta.json", "dm/ja/latest/", "mtg/en/latest/"} <= kept
    newest = knowledge.catalog.version_labels("mtg", "en")[-1]
    chapters = {links.chapter_of(n) for n in knowledge.catalog.rules_in("mtg", "en", newest)}
    assert {f"mtg/en/{newest}/{c}/" for c in chapters} <= kept
    assert not any(path.startswith("mtg/en/2009-05-01/") for path in kept)  # older releases: only once opened
    assert record["bytes"] == sum((real_site / (p + "index.html" if p.endswith("/") else p)).stat().st_size
                                  for p in record["precache"])


def test_a_judge_reads_and_searches_with_the_network_cut(browser, server, real_site, knowledge):
    server, base = server
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="ja-JP")
    page = context.new_page()
    try:
        page.goto(base + "dm/rule/507.2a/")
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=WAIT)
        page.wait_for_function(f"caches.match({json.dumps(base + 'offline.json?kept')}).then((r) => !!r)",
                               polling=200, timeout=WAIT)  # the whole list is kept: the worker writes this last
        page.goto(base + "search/?q=ブロッカー")
        page.wait_for_function("document.querySelectorAll('#rk-results .rk-hit').length > 0", timeout=WAIT)
        online = page.locator("#rk-results .rk-hit").first.locator(".rk-number").inner_text()

        server.shutdown()
        server.server_close()
        with pytest.raises(PlaywrightError):  # the server is gone: outside the worker, nothing answers
            page.request.get(base + "dm/rule/507.2a/", timeout=3000)

        page.goto(base + "dm/rule/507.2a/")
        newest_ja = knowledge.catalog.rules_in("dm", "ja", "1.48")[RuleNumber.parse("507.2a")][0].text
        assert page.locator("section.rk-lang[lang=ja] > .rk-entry .rk-text").inner_text() == newest_ja
        page.screenshot(path=str(real_site.parent / "offline-rule.png"))

        page.goto(base + "search/?q=ブロッカー")
        page.wait_for_function("document.querySelectorAll('#rk-results .rk-hit').length > 0", timeout=WAIT)
        assert page.locator("#rk-results .rk-hit").first.locator(".rk-number").inner_text() == online

        newest = knowledge.catalog.version_labels("mtg", "en")[-1]
        page.goto(base + links.pinned_rule("mtg", "en", newest, RuleNumber.parse("509.1a")).lstrip("/"))
        wanted = knowledge.catalog.rules_in("mtg", "en", newest)[RuleNumber.parse("509.1a")][0].text
        assert page.locator("[id='509.1a'] .rk-text").inner_text() == wanted
    finally:
        context.close()


@pytest.mark.parametrize(("locale", "heading"), [("ja-JP", "オフラインです"), ("en-US", "You are offline")])
def test_a_page_never_kept_gets_the_sites_offline_page_in_the_readers_language(browser, server, real_site, locale,
                                                                                heading):
    """Offline, a page the worker never kept is answered by the site's own page (offline/, kept on the
    first visit), at the address asked for, in the interface language the reader's browser prefers;
    its links (to the kept search and rulebooks) still lead there."""
    server, base = server
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
    page = context.new_page()
    try:
        page.goto(base)
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=WAIT)
        page.wait_for_function(f"caches.match({json.dumps(base + 'offline.json?kept')}).then((r) => !!r)",
                               polling=200, timeout=WAIT)
        server.shutdown()
        server.server_close()

        never = base + "dm/rule/603.2e/"  # never opened, not in offline.json
        page.goto(never)
        assert page.url == never
        assert page.locator("h1:visible").inner_text() == heading
        assert page.evaluate("document.documentElement.lang") == locale[:2]
        page.screenshot(path=str(real_site.parent / f"offline-page-{locale}.png"))
        with page.expect_navigation():
            page.locator(".rk-offline:visible a[href$='search/']").click()
        assert page.url == base + "search/"
        assert page.locator("#rk-query").is_visible()
    finally:
        context.close()
