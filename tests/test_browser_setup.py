"""The browser set-up itself: Debian's chromium under Playwright, Japanese fonts, no outside request."""

from __future__ import annotations


def test_chromium_renders_japanese_from_a_local_server(page, serve_dir, tmp_path):
    (tmp_path / "index.html").write_text(
        '<!doctype html><meta charset="utf-8"><title>t</title>'
        '<p id="ja" lang="ja" style="font-size:40px;display:inline-block">ブロック</p>',
        encoding="utf-8",
    )
    page.goto(serve_dir(tmp_path))
    assert page.inner_text("#ja") == "ブロック"
    # With a CJK font the four kana are roughly square: about as wide as four times the font size.
    width = page.eval_on_selector("#ja", "e => e.getBoundingClientRect().width")
    assert 120 <= width <= 200


def test_a_request_leaving_the_machine_is_caught(browser, tmp_path, serve_dir):
    context = browser.new_context()
    outside = []
    context.route("**/*", lambda route: (outside.append(route.request.url), route.abort())
                  if not route.request.url.startswith("http://127.0.0.1") else route.continue_())
    tab = context.new_page()
    (tmp_path / "index.html").write_text('<img src="https://fonts.googleapis.com/x.png">', encoding="utf-8")
    tab.goto(serve_dir(tmp_path))
    tab.wait_for_load_state("networkidle")
    context.close()
    assert outside == ["https://fonts.googleapis.com/x.png"]


def test_axe_reports_the_serious_and_critical_violations_it_is_asked_for(page, serve_dir, tmp_path,
                                                                           serious_violations):
    """The suite's axe runs only the rules that can report a serious or critical violation; a page
    with grey-on-white text, an image without alt text and a nameless button shows all three, and
    the page's missing landmarks (moderate at most: not asked) are not reported."""
    (tmp_path / "index.html").write_text(
        '<!doctype html><html lang="en"><meta charset="utf-8"><title>t</title>'
        '<p style="color:#bbb;background:#fff">faint words</p><img src="x.png"><button></button></html>',
        encoding="utf-8",
    )
    page.goto(serve_dir(tmp_path))
    found = {v["id"]: v["impact"] for v in serious_violations(page)}
    assert found == {"color-contrast": "serious", "image-alt": "critical", "button-name": "critical"}
