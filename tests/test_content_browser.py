"""Issue 32 in Chromium at a phone's width: no date on the pages of versions, rules, timelines and
what's new breaks across lines (``2001-07-`` / ``23``); the search's "more results" and its
"also in A – B, N releases" line (issue 34's) are there (``test_search_browser.py`` holds them
to the CLI's results)."""

from __future__ import annotations

import pytest

# Every ISO date in a text node whose characters sit on more than one line.
BROKEN_DATES = r"""() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const re = /\d{4}-\d{2}-\d{2}/g;
    for (let m = re.exec(node.nodeValue); m; m = re.exec(node.nodeValue)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) out.push(m[0] + " in " + node.parentElement.outerHTML.slice(0, 80));
    }
  }
  return out;
}"""
PAGES = ["mtg/", "dm/", "mtg/rule/509.1a/", "mtg/rule/100.1/", "dm/rule/507.2a/", "mtg/en/2009-07-08/",
         "mtg/new/en/2024-11-08/", "mtg/rule/702.2/"]


@pytest.fixture
def phone(kept_context):
    page = kept_context(390, "en-US").new_page()
    yield page
    page.close()


@pytest.mark.parametrize("path", PAGES)
def test_no_date_breaks_across_lines_on_a_phone(phone, serve_dir, real_site, path):
    phone.goto(serve_dir(real_site) + path)
    assert phone.evaluate(BROKEN_DATES) == []
    assert phone.evaluate("document.querySelectorAll('.rk-nw').length") > 0
