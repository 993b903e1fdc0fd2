"""Issue 38, item 7: control characters in a source are shown the same way everywhere a person
sees them: a static page shows U+202E as `\\u202e`, and so do pages the browser draws from JSON
(an older release's chapter, search results) and `--json` on a terminal. Real Chromium, real
releases with a right-to-left override and escape sequences written into one rule of each."""

from __future__ import annotations

import dataclasses
import hashlib
import json

import pytest
from conftest import CORPUS

from rules_kb import links
from rules_kb.assemble.knowledge import build_knowledge
from rules_kb.ingest.corpus import load_manifest, manifest_entry
from rules_kb.site.build import build_site

INJECTED = "\u202e\x1b[2J\x1b]0;pwned\x07"
SHOWN = "\\u202e\\x1b[2J\\x1b]0;pwned\\x07"
RAW = ("\u202e", "\x1b", "\x07")
RELEASES = (("CR-2009-05-01.txt", "309.2a"), ("CR-2009-07-08.txt", "509.1a"))


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """Two real releases; the defending player's rule of each carries the injection; their site."""
    root = tmp_path_factory.mktemp("visible")
    corpus = root / "corpus"
    (corpus / "mtg").mkdir(parents=True)
    entries = []
    for name, number in RELEASES:
        anchor = f"{number} The defending player chooses".encode()
        source = (CORPUS / "mtg" / name).read_bytes()
        assert source.count(anchor) == 1
        data = source.replace(anchor, anchor.replace(b"player", b"player " + INJECTED.encode()))
        (corpus / "mtg" / name).write_bytes(data)
        meta = next(m for m in load_manifest(CORPUS) if m.file == f"mtg/{name}")
        entries.append(manifest_entry(dataclasses.replace(meta, sha256=hashlib.sha256(data).hexdigest())))
    (corpus / "manifest.toml").write_text("\n".join(entries), encoding="utf-8")
    site = root / "site"
    build_site(corpus, site, knowledge=build_knowledge(corpus))
    return corpus, site


def test_a_drawn_older_chapter_shows_what_a_static_page_shows(page, serve_dir, hostile):
    """Before: the drawn page put a raw U+202E and ESC into the page (the static one shows \\u202e)."""
    _, site = hostile
    static = (site / links.chapter_page("mtg", "en", "2009-07-08", "5").lstrip("/") / "index.html").read_text(
        encoding="utf-8")
    assert SHOWN.replace("\\x1b]0;pwned\\x07", "") in static and not any(char in static for char in RAW)
    base = serve_dir(site)
    page.goto(base + links.chapter_page("mtg", "en", "2009-05-01", "3").lstrip("/"))
    page.wait_for_selector(".rk-reader[data-ready=true]", timeout=15000)
    text = page.evaluate("document.getElementById('309.2a').textContent")
    assert SHOWN in text and not any(char in text for char in RAW)


def test_search_results_show_control_characters_as_text(page, serve_dir, hostile):
    _, site = hostile
    page.goto(serve_dir(site) + "search/?q=defending%20player%20chooses")
    page.wait_for_function("document.querySelectorAll('#rk-results .rk-hit').length > 0", timeout=20000)
    shown = page.evaluate("document.getElementById('rk-results').textContent")
    assert "\\u202e" in shown and not any(char in shown for char in RAW)


def test_json_for_a_terminal_shows_them_as_text_and_still_parses(cli, hostile):
    corpus, _ = hostile
    code, out, err = cli("--corpus", str(corpus), "show", "509.1a", "--json")
    assert code == 0, err
    assert not any(char in out for char in RAW)
    (record,) = json.loads(out)
    assert SHOWN in record["text"]


def test_the_model_as_json_lines_keeps_its_data_and_no_raw_character(cli, hostile):
    """`parse --json` is data for programs: the text is unchanged once parsed, but a terminal shown it
    gets `\\u202e` escapes, never the raw override (before: raw)."""
    corpus, _ = hostile
    code, out, err = cli("parse", str(corpus / "mtg/CR-2009-07-08.txt"), "--json")
    assert code == 0, err
    assert "\u202e" not in out and "\\u202e" in out
    rule = next(json.loads(line) for line in out.splitlines() if '"509.1a"' in line and '"rule"' in line)
    assert INJECTED in rule["text"]
