"""The built site in a real browser (Debian chromium, headless): the DM 507.2a page, a citation,
the diff of the 2021 text, copy-link, and hiding editorial changes on a Magic diff page.
Screenshots go to build/test-artifacts/ for a person to look at."""

from __future__ import annotations

from conftest import ARTIFACTS


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)


def test_rule_page_citation_diff_and_copy_link(page, serve_dir, real_site):
    base = serve_dir(real_site)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base.rstrip("/"))
    page.goto(base + "dm/rule/507.2a/")
    assert page.locator("section.rk-lang[lang=ja] .rk-text").first.is_visible()
    assert page.locator("section.rk-lang[lang=en] .rk-text").first.is_visible()
    notice = page.locator(".rk-mismatch")
    assert notice.is_visible() and "507.3b" not in notice.inner_text()  # one line until opened
    notice.locator("summary").click()
    assert "507.3b" in notice.inner_text()
    # newest first: today's Japanese text heads its column; older versions are folded below it
    assert page.locator("section.rk-lang[lang=ja] > .rk-entry").get_attribute("data-versions") == "1.48"
    assert not page.locator("section.rk-lang[lang=ja] details.rk-older .rk-text").first.is_visible()
    _shot(page, "rule-507.2a")

    button = page.locator("section.rk-lang[lang=ja] button.rk-copy").first
    button.click()
    page.wait_for_selector("button.rk-copied")
    copied = button.get_attribute("data-copied")
    assert copied == base + "dm/ja/1.48/5/#507.2a"
    assert page.evaluate("navigator.clipboard.readText()") == copied

    page.goto(base + "dm/ja/1.48/5/")
    cite = page.locator(".rk-text a.rk-cite").first
    href = cite.get_attribute("href")
    cite.click()
    target = href.split("#")[1]
    # the citation may lead to another page: wait for it (a loaded machine is slow to navigate)
    page.wait_for_url(lambda url: url.endswith("#" + target))
    page.locator(f"[id='{target}']").wait_for(state="visible")

    page.goto(base + "dm/rule/507.2a/")
    page.locator("section.rk-lang[lang=ja] details.rk-entry-diff summary").first.click()
    with page.expect_navigation():
        page.locator("section.rk-lang[lang=ja] details.rk-entry-diff a").first.click()
    assert "/dm/ja/diff/1.38..1.48/5/" in page.url
    row = page.locator("[id='507.2a']")
    assert row.locator("del").count() >= 1 and row.locator("ins").count() >= 1
    _shot(page, "diff-507")


def test_hide_editorial_changes_on_a_magic_diff(page, serve_dir, real_site):
    base = serve_dir(real_site)
    page.goto(base + "mtg/en/diff/2022-11-18..2024-11-08/")
    with page.expect_navigation():
        page.locator("li[data-kinds~=editorial] a").first.click()
    editorial = page.locator(".rk-row.editorial")
    assert editorial.count() > 0 and editorial.first.is_visible()
    page.locator("#rk-hide-editorial").check()
    assert all(not editorial.nth(i).is_visible() for i in range(editorial.count()))
    assert page.locator(".rk-row.substantive").count() == 0 or page.locator(".rk-row.substantive").first.is_visible()
    _shot(page, "diff-mtg-hidden-editorial")


def test_timeline_and_story(page, serve_dir, real_site):
    base = serve_dir(real_site)
    page.goto(base + "dm/story/507/")
    assert "2021-09-07" in page.locator("#notices + ul").inner_text()
    assert page.locator("table.rk-story-table tr").count() > 5
    _shot(page, "story-507")
    page.goto(base + "mtg/")
    assert page.locator("table.rk-timeline tbody tr").count() >= 9
