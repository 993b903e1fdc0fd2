"""Old permalinks keep landing on the same text, with the site served under a prefix.

The site is served under ``/rules-kb/`` as GitHub Pages serves a project site: a missing path
answers 404 with the site's ``404.html``. Each link of the first URL scheme in
``tests/fixtures/old-permalinks.toml`` is opened in Chromium and must end at its ``lands``
address, showing the text the corpus has for that rule and version.
"""

from __future__ import annotations

import functools
import http.server
import json
import threading
import tomllib
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from conftest import FIXTURES, QuietServer

from rules_kb.numbers import RuleNumber

PREFIX = "/rules-kb/"
CASES = tomllib.loads((FIXTURES / "old-permalinks.toml").read_text(encoding="utf-8"))["link"]


class PrefixedSite(http.server.SimpleHTTPRequestHandler):
    """A folder served under ``PREFIX``; any missing path gets ``404.html`` with status 404."""

    def translate_path(self, path: str) -> str:
        route = urlsplit(path).path
        if not route.startswith(PREFIX):
            return str(Path(self.directory) / "no such file")
        return super().translate_path("/" + route[len(PREFIX):])

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def prefixed(real_site):
    """The test site at ``http://127.0.0.1:PORT/rules-kb/``."""
    server = QuietServer(("127.0.0.1", 0),
                                             functools.partial(PrefixedSite, directory=str(real_site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}{PREFIX.rstrip('/')}"
    server.shutdown()


def _version(old: str) -> tuple[str, str, str]:
    """(game, lang, version) of an old pinned page or JSON path."""
    parts = [p for p in old.split("#")[0].split("/") if p]
    if parts[0] == "api":
        parts = parts[1:]
    return parts[0], parts[1], unquote(parts[2])


@pytest.mark.parametrize("case", CASES, ids=[c["old"] for c in CASES])
def test_old_link_lands_on_the_same_text(prefixed, page, knowledge, case):
    page.goto(prefixed + case["old"])
    page.wait_for_url(prefixed + case["lands"], timeout=15000)
    if "rule" not in case:
        assert page.locator("h1").first.inner_text()
        return
    number = RuleNumber.parse(case["rule"])
    if case["old"].startswith("/api/"):
        record = json.loads(page.locator("body").inner_text())
        if "/history/" in case["lands"]:
            assert record[str(number)] and all(t["number"] == str(number) for t in record[str(number)]["texts"])
            return
        game, lang, version = _version(case["old"])
        assert record["rules"][str(number)]["text"] == knowledge.catalog.rules_in(game, lang, version)[number][0].text
        return
    game, lang, version = _version(case["old"])
    expected = knowledge.catalog.rules_in(game, lang, version)[number][0]
    if page.locator(".rk-reader").count():  # an older release's page, drawn from its JSON by reader.js
        page.wait_for_selector(".rk-reader[data-ready=true]", timeout=15000)
    shown = page.locator(f"[id='{number}']")
    assert shown.count() == 1
    if expected.text:
        assert shown.locator(".rk-text").first.inner_text() == expected.text
    stylesheet = page.evaluate("getComputedStyle(document.querySelector('.md-header')).position")
    assert stylesheet in ("sticky", "fixed")  # the theme's CSS loaded under the prefix


def test_not_found_page_keeps_its_styles_under_the_prefix(prefixed, page):
    page.goto(prefixed + "/dm/no-such-page/")
    assert page.locator("h1").first.inner_text() == "404 - Not found"
    assert page.evaluate("getComputedStyle(document.querySelector('.md-header')).position") in ("sticky", "fixed")
    home = page.locator("a.rk-site-name").get_attribute("href")
    assert page.evaluate(f"new URL({json.dumps(home)}, document.baseURI).pathname") == PREFIX
