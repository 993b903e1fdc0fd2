"""The Japanese interface (``site/assets/ui.js``) in Chromium, by the browser's language and the switch.

The home page and the Duel Masters pages speak Japanese to a browser that prefers Japanese;
rule texts are never touched; Magic pages stay English; the header's switch turns it either
way and the choice outlives a reload.
"""

from __future__ import annotations

import pytest

from rules_kb.numbers import RuleNumber

DM_RULE = "dm/rule/507.2a/"
COPY = "section.rk-lang[lang=ja] > .rk-entry button.rk-copy"  # the newest Japanese text's copy buttons


@pytest.fixture
def open_in(browser, serve_dir, real_site):
    contexts = []

    def open_page(locale: str, path: str):
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
        contexts.append(context)
        page = context.new_page()
        page.goto(serve_dir(real_site) + path)
        page.wait_for_selector("button.rk-ui-switch")
        return page

    yield open_page
    for context in contexts:
        context.close()


def test_a_japanese_browser_gets_japanese_labels_and_the_same_rule_text(open_in, knowledge, real_site):
    page = open_in("ja-JP", DM_RULE)
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert page.locator(".md-nav__link", has_text="ホーム").count() >= 1
    ja = page.locator("section.rk-lang[lang=ja] > .rk-entry")
    assert ja.locator("button.rk-copy").first.inner_text() == "この版のリンクをコピー"
    assert ja.locator(".rk-date").inner_text().strip() == "2025年12月17日"
    assert page.locator(".rk-mismatch summary").inner_text().startswith("日本語と英語でこのルールの内容が異なります")
    text = knowledge.catalog.rules_in("dm", "ja", "1.48")[RuleNumber.parse("507.2a")][0].text
    assert ja.locator(".rk-text").inner_text() == text
    english = knowledge.catalog.rules_in("dm", "en", "1.38")[RuleNumber.parse("507.2a")][0].text
    assert page.locator("section.rk-lang[lang=en] .rk-text").first.inner_text() == english  # source text stays
    assert page.locator("button.rk-ui-switch").inner_text() == "English"
    page.screenshot(path=str(real_site.parent / "interface-ja.png"))

    home = open_in("ja-JP", "")
    assert home.locator(".rk-ui-ja").is_visible() and not home.locator(".rk-ui-en").is_visible()


def test_magic_pages_stay_english(browser, serve_dir, real_site):
    context = browser.new_context(locale="ja-JP")
    try:
        page = context.new_page()
        page.goto(serve_dir(real_site) + "mtg/rule/509.1a/")
        page.wait_for_load_state("load")
        assert page.locator("button.rk-ui-switch").count() == 0
        assert page.locator("button.rk-copy").first.inner_text() == "copy rule link"
        assert page.locator(".md-nav__link", has_text="Home").count() >= 1
    finally:
        context.close()


def test_the_switch_turns_the_interface_and_is_remembered(open_in):
    page = open_in("en-US", DM_RULE)
    assert page.evaluate("document.documentElement.lang") == "en"
    first = page.locator(COPY).first
    assert first.inner_text() == "copy pinned link"
    page.click("button.rk-ui-switch")
    assert first.inner_text() == "この版のリンクをコピー"
    page.reload()
    page.wait_for_selector("button.rk-ui-switch")
    assert page.locator(COPY).first.inner_text() == "この版のリンクをコピー"
    page.click("button.rk-ui-switch")
    assert page.locator(COPY).first.inner_text() == "copy pinned link"


def test_story_neighbourhood_notices_and_search_speak_japanese(open_in):
    """The pages a Japanese judge meets first: the 507 story, a rule's neighbourhood and notice, the search."""
    story = open_in("ja-JP", "dm/story/507/")
    assert story.locator("h1").inner_text() == "デュエル・マスターズ 507: 何が変わり、何を意味するか"
    assert story.locator("#correspondences").inner_text() == "改定の前と後"
    assert "corpus/" not in story.locator("article").inner_text()  # no path of the repository

    rule = open_in("ja-JP", DM_RULE)
    assert rule.locator("#neighbourhood").inner_text() == "周辺のルール"
    rule.locator(".rk-mismatch summary").click()
    lines = rule.locator(".rk-mismatch p").all_inner_texts()
    wanted = "英語の 507.2a（1.38）は 2021年9月7日 の改定前のルールです。その内容は現在 日本語 507.3b"
    assert any(line.startswith(wanted) for line in lines), lines

    search = open_in("ja-JP", "search/?q=%E3%83%96%E3%83%AD%E3%83%83%E3%82%AF")  # ブロック
    search.wait_for_function("document.querySelectorAll('#rk-results .rk-hit').length > 0")
    assert search.locator("#rk-status").inner_text().startswith("10 件")
    assert search.locator("#rk-results .rk-rule").first.inner_text() == "すべての版"
    assert search.locator("#rk-results .rk-badge").first.inner_text() == "デュエル・マスターズ · 日本語"
    search.click("button.rk-ui-switch")  # and back to English, results included
    assert search.locator("#rk-results .rk-rule").first.inner_text() == "every version"
