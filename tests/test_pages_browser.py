"""Every page type of the built site in Chromium, as a reader opens it: a desk (1280×900) and a
phone (390×844), an English and a Japanese browser.

On each: the page is no wider than the screen, nothing is written to the console as an error,
and axe-core (npm, ``node_modules/axe-core``) finds no critical and no serious violation. A
Japanese reader of a page that is not Magic's alone reads its interface in Japanese: no English
words are left outside the source text (rule texts, titles, diffs) and what a page marks
``translate="no"`` (identifiers, curated English prose). Keyboard-only use of the search and the
link page is walked through at the end.

The browser starts once per session and the site is built once (``conftest.py``); a context and
one tab per viewport and language are kept for the module, and each test navigates its tab (a new
page costs Chromium a renderer process, about 1 CPU second; a navigation in a kept tab about 0.5).
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

import pytest
from conftest import InFlight

from rules_kb.site.serve import make_server

VIEWPORTS = {"desk": (1280, 900), "phone": (390, 844)}
LOCALES = {"en": "en-US", "ja": "ja-JP"}
# One page of each type (the test subset's corpus), and whether its interface is English only (Magic's).
PAGES = {
    "home": ("", False),
    "game home dm": ("dm/", False),
    "game home mtg": ("mtg/", True),
    "rule dm": ("dm/rule/507.2a/", False),
    "rule mtg": ("mtg/rule/509.1a/", True),
    "heading rule": ("mtg/rule/702.2/", True),
    "chapter static": ("dm/ja/1.48/5/", False),
    "chapter drawn": ("mtg/en/2019-05-03/5/", True),
    "contents": ("dm/ja/latest/", False),
    "glossary": ("mtg/en/2019-05-03/glossary/", True),
    "term": ("mtg/term/en/deathtouch/", True),
    "diff": ("dm/ja/diff/1.38..1.48/", False),
    "compare": ("dm/compare/?lang=ja&old=1.38&new=1.48&rule=507", False),
    "what's new": ("dm/new/ja/1.48/", False),
    "story": ("dm/story/507/", False),
    "notice": ("dm/notice/dm-notice-2021-09-07/", False),
    "drift": ("dm/drift/", False),
    "search": ("search/?q=%E3%83%96%E3%83%AD%E3%83%83%E3%82%AF", False),
    "link": ("link/", False),
    "cite": ("cite/", False),
    "tournament home": ("dm/competition/", False),
    "tournament section": ("dm/competition/10.3/", False),
    "tournament version": ("dm/competition/2025-05-01/", False),
    "404": ("dm/rule/999.9z/", False),
}
MISSING = PAGES["404"][0]
# Names a Japanese interface writes as they are (the site's, a format's, a document's own title).
NAMES = ("rules-kb diff", "rules-kb", "JSON API", "JSON", "API", "Atom", "URL", "Markdown", "HTML", "sha256", "Enter",
         "Tab", "Magic Tournament Rules", "Infraction Procedure Guide")
# Interface texts that hold an English word once ui.js has done its work: every visible text node,
# and what a walk of text nodes cannot see, a list's choices and a field's placeholder.
UNTRANSLATED = """(names) => {
  const table = window.rulesKbInterface;
  const english = value => {
    let text = value;
    for (const name of names) text = text.split(name).join(" ");
    text = text.replace(/\\S*[0-9_./:\\-]\\S*/g, " ");  // identifiers: numbers, versions, ids, addresses
    return /[A-Za-z]{2,}/.test(text);
  };
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(table.source) || parent.closest("noscript, .rk-visually-hidden")) continue;
    if (!parent.getClientRects().length || getComputedStyle(parent).visibility === "hidden") continue;
    texts.push(node.nodeValue);
  }
  document.querySelectorAll("option").forEach(o => { if (!o.closest(table.source)) texts.push(o.text); });
  document.querySelectorAll("[placeholder]").forEach(e => texts.push(e.getAttribute("placeholder")));
  return texts.filter(english).map(text => text.trim());
}"""


@pytest.fixture(scope="module")
def base(real_site):
    """The site served as ``rules-kb serve`` serves it (its own 404 page for a missing path)."""
    server = make_server(real_site, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


# The tabs whose pages open with the site's service worker at work, as a reader's do: one per interface
# language. What the worker does (fetch each request, keep a copy, precache the offline list) does
# not depend on the screen's width, and it cost Chromium 0.55 CPU s per page (52 s over the module).
WORKER_TABS = {("desk", "en"), ("phone", "ja")}


@pytest.fixture(scope="module")
def tabs(browser):
    """One browser context and one tab per viewport and interface language, for the whole module, each
    with the count of its requests in flight (``conftest.InFlight``)."""
    made = {}
    for view, (width, height) in VIEWPORTS.items():
        for lang in LOCALES:
            context = browser.new_context(viewport={"width": width, "height": height}, locale=LOCALES[lang],
                                          service_workers="allow" if (view, lang) in WORKER_TABS else "block")
            made[(view, lang)] = InFlight(context.new_page())
    yield made
    for tab in made.values():
        tab.page.context.close()


@contextmanager
def open_page(tabs, base: str, view: str, lang: str, path: str):
    """The tab of this viewport and language, led to ``path`` and settled, with the console errors
    the page writes while the test reads it.

    The tab first leaves the previous test's page for a blank one, so that nothing that page says
    as it unloads is counted here. A missing page's own 404 status is no error of the site; nor
    are the requests Chromium's preload scanner makes for the 404 page's resources below the
    missing address, before the page's first script has set its ``<base>`` (``site/notfound.py``):
    the page then loads them from the site's root, and they are checked there like every other page's."""
    tab = tabs[(view, lang)]
    page = tab.page
    page.goto("about:blank")
    errors: list[str] = []

    def console(message) -> None:
        url = message.location.get("url") or ""
        speculative = path.startswith(MISSING) and url.startswith(base + path)
        if message.type == "error" and not (speculative and message.text.startswith("Failed to load resource")):
            errors.append(f"{message.text} ({url})")

    def failed(error) -> None:
        errors.append(str(error))

    page.on("pageerror", failed)
    page.on("console", console)
    try:
        page.goto(base + path)
        tab.settle()
        page.wait_for_function("document.querySelector('.rk-reader') === null"
                               " || document.querySelector('.rk-reader').dataset.ready !== undefined")
        yield page, errors
    finally:
        page.remove_listener("pageerror", failed)
        page.remove_listener("console", console)


@pytest.mark.parametrize("lang", LOCALES)
@pytest.mark.parametrize("view", VIEWPORTS)
@pytest.mark.parametrize("kind", PAGES)
def test_page_fits_works_and_passes_axe(tabs, base, serious_violations, kind, view, lang):
    path, english_only = PAGES[kind]
    with open_page(tabs, base, view, lang, path) as (page, errors):
        width = VIEWPORTS[view][0]
        assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{kind} is wider than {width} px"
        if lang == "ja" and not english_only:
            assert page.evaluate("document.documentElement.lang") == "ja"
            assert page.locator("button.rk-ui-switch").inner_text() == "English"
            assert page.evaluate(UNTRANSLATED, list(NAMES)) == []
        if english_only:
            assert page.locator("button.rk-ui-switch").count() == 0  # Magic's pages: the interface is English
        assert serious_violations(page) == []
        assert errors == []


def test_no_page_shows_where_the_project_keeps_its_files(real_site):
    """A reader sees addresses of the site, never the repository's paths (``corpus/…toml``, ``corpus/seeds/…``)."""
    import re

    shown = re.compile(r"corpus/[\w./-]+")
    found = {}
    for file in real_site.rglob("*.html"):
        text = re.sub(r"<(script|style)\b.*?</\1>", "", file.read_text(encoding="utf-8"), flags=re.S)
        text = re.sub(r"<[^>]+>", " ", text)
        if match := shown.search(text):
            found[str(file.relative_to(real_site))] = match.group()
    assert found == {}


def focus_by_tab(page, selector: str, limit: int = 40) -> None:
    """Press Tab until ``selector`` has the focus, as a reader without a mouse does."""
    for _ in range(limit):
        if page.evaluate(f"document.activeElement && document.activeElement.matches({selector!r})"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_search_by_keyboard_alone(tabs, base):
    """Arrow keys choose a result and Enter follows it; Tab reaches a result's link and Enter follows it."""
    with open_page(tabs, base, "desk", "en", "search/?q=blocker") as (page, errors):
        page.wait_for_function("document.querySelectorAll('#rk-results .rk-hit').length > 2")
        assert page.evaluate("document.activeElement.id") == "rk-query"
        hits = page.locator("#rk-results .rk-hit")
        assert hits.first.get_attribute("aria-current") == "true"
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowUp")
        assert hits.nth(1).get_attribute("aria-current") == "true" and hits.first.get_attribute("aria-current") is None
        second = hits.nth(1).locator(".rk-link").evaluate("a => a.href")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert page.url == second
        page.go_back()
        page.wait_for_function("document.querySelectorAll('#rk-results .rk-hit').length > 2")
        page.locator("#rk-query").focus()
        focus_by_tab(page, "#rk-results .rk-link")
        first = page.evaluate("document.activeElement.href")
        assert first == hits.first.locator(".rk-link").evaluate("a => a.href")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert page.url == first
        assert errors == []


def test_link_a_note_by_keyboard_alone(tabs, base):
    """Tab to the note, paste it, Tab to Link and press Enter: the preview links the rule; Tab reaches the link."""
    with open_page(tabs, base, "phone", "ja", "link/") as (page, errors):
        page.wait_for_function("window.rulesKbLinker !== undefined")
        focus_by_tab(page, "#link-input")
        page.keyboard.insert_text("See DM 507.2a and CR 509.1a.")  # what a paste puts in
        focus_by_tab(page, "#link-run")
        page.keyboard.press("Enter")
        preview = page.locator("#link-preview a")
        preview.first.wait_for()
        assert preview.all_inner_texts() == ["DM 507.2a", "CR 509.1a"]
        focus_by_tab(page, "#link-preview a")
        target = page.evaluate("document.activeElement.href")
        assert target.endswith("/dm/rule/507.2a/")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert page.url == target
        assert errors == []
