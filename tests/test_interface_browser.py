"""The Japanese interface (``site/assets/ui.js``) in Chromium, by the browser's language and the switch.

The home page and the Duel Masters pages speak Japanese to a browser that prefers Japanese;
rule texts are never touched; Magic pages stay English; the header's switch turns it either
way and the choice outlives a reload.
"""

from __future__ import annotations

import pytest
from conftest import CORPUS

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


def test_the_search_status_speaks_japanese_phrase_by_phrase(open_in):
    """The count and each note of a search are put into Japanese one by one: joined into one
    text, "2 results · did you mean 507.2a? showing it" matched no phrase of the table."""
    search = open_in("ja-JP", "search/?q=5072a")
    search.wait_for_function("document.querySelectorAll('#rk-results .rk-hit').length > 0")
    status = search.locator("#rk-status")
    assert status.inner_text() == "2 件 · もしかして 507.2a? その結果を表示"
    badges = search.locator("#rk-results .rk-badge").all_inner_texts()
    assert sorted(badges) == ["デュエル・マスターズ · 日本語", "デュエル・マスターズ · 英語"]  # 1.48 and 1.38
    search.click("button.rk-ui-switch")
    assert status.inner_text() == "2 results · did you mean 507.2a? showing it"


def test_a_date_inside_a_name_stays_part_of_the_name(open_in):
    """The game's home lists versions and notices by name; a name holding a date
    ("dm-notice-2021-09-07") is not a date to put into Japanese, the date beside it is."""
    home = open_in("ja-JP", "dm/")
    notices = home.locator("table.rk-notices tbody tr")
    assert notices.count() > 0
    dated = 0
    for row in range(notices.count()):
        date, name = notices.nth(row).locator("td").nth(0), notices.nth(row).locator("td a").first
        folder = name.get_attribute("href").split("/")[-2]
        assert name.inner_text() == folder  # notice/NAME/: the name as the address has it
        if folder.startswith("dm-notice-"):  # a notice named by its date: the date cell is that date
            y, m, d = (int(part) for part in folder.removeprefix("dm-notice-").split("-"))
            assert date.inner_text() == f"{y}年{m}月{d}日"
            dated += 1
    assert dated > 0
    labels = home.locator("a[href^='ja/before-']")
    assert labels.count() > 0 and all(label.startswith("before-") and "年" not in label
                                      for label in labels.all_inner_texts())


def test_a_diff_chapter_leads_back_in_japanese(open_in):
    chapter = open_in("ja-JP", "dm/ja/diff/1.17..1.38/5/")
    assert chapter.locator("p.rk-nav a").first.inner_text() == "変更のあったすべての章"


def test_the_link_pages_unlinked_references_are_said_in_japanese(open_in):
    """Each reference the linker leaves is listed as "line:column: reference: why"; the why in Japanese."""
    page = open_in("ja-JP", "link/")
    page.fill("#link-input", "CR 999.9z\n総合ルール 999.9z\n\n100.1\n\nMTR 99.9")
    page.click("#link-run")
    page.wait_for_selector("#link-problems li")
    shown = page.locator("#link-problems li").all_inner_texts()
    english = page.eval_on_selector_all("#link-problems li", "items => items.map((i) => i.dataset.message)")
    assert len(shown) == len(english) == 4, english
    assert shown[0] == "1:1: CR 999.9z: マジックに 999.9z はありません", english[0]
    assert shown[1] == "2:1: 総合ルール 999.9z: デュエル・マスターズに 999.9z はありません", english[1]
    assert shown[2] == ("4:1: 100.1: あいまい: 100.1 はデュエル・マスターズにもマジックにもあります。"
                        "前に DM か MTG と書くか、上でゲームを選んでください"), english[2]
    assert shown[3] == "6:1: MTR 99.9: MTR に節 99.9 はありません", english[3]
    assert not any(word in line for line in shown for word in ("no rule", "ambiguous", "no section", "corpus"))


def test_the_audit_of_a_note_is_said_in_japanese(open_in):
    """Seed 004's twenty citations audited on the link page of a Japanese browser: each head, verdict
    line and the count in Japanese; what is quoted (numbers, changed words) as it is."""
    page = open_in("ja-JP", "link/")
    page.wait_for_selector("#link-form[data-ready=true]")
    page.select_option("#link-format", "text")
    page.fill("#link-input", next((CORPUS / "seeds").glob("004_*.txt")).read_text(encoding="utf-8"))
    page.click("#link-audit")
    page.wait_for_selector("#link-audit-result[data-done=true]")
    heads = page.locator("#link-audit-result li strong").all_inner_texts()
    assert "25:3 309.2b（2003年7月1日 時点: 項目のタグ、mtg 英語 2003-07-01）" in heads
    lines = page.locator("#link-audit-result li div").all_inner_texts()
    assert "2009年7月8日, 2019年5月3日, 2024年11月8日 に内容の変更。今は 509.1a" in lines
    # line 69's "See Rule 306" carries no tag: the page names its own field, not the command's --as-of
    assert ("照合せず: 日付がありません。「または日付」を入れるか、項目に [CR YYYY-MM-DD] のタグを付けてください"
            in lines)
    english = ("as of", "changed in substance", "unchanged in", "not audited", "renumbered to", "editorial changes",
               "split on", "removed on", "no text of", "entry's tag", "no date", "--as-of")
    assert not [line for line in heads + lines if any(words in line for words in english)]
    status = page.locator("#link-status").inner_text()
    assert status.startswith("引用 20 件: ") and not any(c.isascii() and c.isalpha() for c in status), status


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
