"""The tournament documents on the built site: permalinks, penalties, cross-links, Japanese, phone, axe.

Facts from the PDFs: IPG 2.1 is "Game Play Error — Missed Trigger" with No Penalty; 競技イベント運営ルール
10.3 is "ゲーム上の誤り ─ 過剰なカードを引いた" with 【警告】; its body prints 9.1 twice; the MTR cites
"rule 103.4c" (appendix on shuffling and mulligans).
"""

from __future__ import annotations

import json
from urllib.parse import urljoin

import pytest
from conftest import InFlight
from site_helpers import file_of, parse


def test_section_page_shows_title_penalty_and_analogue(real_site):
    tree = parse(file_of(real_site, "/mtg/ipg/2.1/"))
    assert tree.findtext(".//h1").startswith("IPG 2.1 Game Play Error — Missed Trigger")
    badges = [b.text_content() for b in tree.find_class("rk-penalty")]
    assert badges[0] == "No Penalty"
    hrefs = [a.get("href") for a in tree.iter("a")]
    assert "../../../dm/competition/10.1/" in hrefs  # the Duel Masters counterpart
    assert "../../mtr/4.3/" in hrefs  # "MTR section 4.3" in its text and in its citations


def test_whole_version_page_keeps_every_section(real_site):
    tree = parse(file_of(real_site, "/dm/competition/2025-05-01/"))
    ids = {e.get("id") for e in tree.find_class("rk-section")}
    assert {"0", "9.1", "9.1-2", "10.3", "12.8"} <= ids  # the document prints 9.1 twice: both kept
    record = json.loads(file_of(real_site, "/api/dm/competition/2025-05-01.json").read_text(encoding="utf-8"))
    numbers = [s["number"] for s in record["sections"]]
    assert numbers.count("9.1") == 1 and "10.3" in numbers
    penalty = {s["number"]: s["penalty"] for s in record["sections"]}
    assert penalty["10.3"] == "警告" and penalty["11.2"] == "ゲームの敗北" and penalty["12.8"] == "失格"


def test_rule_page_lists_the_sections_citing_it(real_site):
    tree = parse(file_of(real_site, "/mtg/rule/103.4c/"))
    heading = tree.get_element_by_id("cited-by-sections")
    assert "Cited by tournament documents" in heading.text_content()
    targets = [urljoin("/mtg/rule/103.4c/", a.get("href") or "") for a in heading.getnext().iter("a")]
    assert any(target.startswith("/mtg/mtr/") for target in targets), targets  # links are relative


@pytest.mark.parametrize("path, width, locale", [
    ("/mtg/ipg/2.1/", 1280, "en-US"), ("/dm/competition/10.3/", 1280, "ja-JP"),
    ("/dm/competition/10.3/", 390, "ja-JP"), ("/dm/competition/2025-05-01/", 390, "ja-JP"),
    ("/mtg/mtr/", 390, "en-US"),
])
def test_pages_in_chromium(kept_context, serve_dir, real_site, serious_violations, path, width, locale):
    """No overflow at phone width, the Japanese interface for a Japanese reader, axe: nothing serious."""
    base = serve_dir(real_site)
    page = kept_context(width, locale).new_page()
    loading = InFlight(page)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(base + path.lstrip("/"))
        loading.settle()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        if locale == "ja-JP" and path.startswith("/dm/"):
            shown = page.evaluate("[...document.querySelectorAll('.rk-ui-ja')].filter(e => !e.hidden).length")
            assert shown > 0
            assert page.locator(".rk-ui-en").first.is_hidden()
        assert serious_violations(page) == []
        assert errors == []
    finally:
        page.close()
