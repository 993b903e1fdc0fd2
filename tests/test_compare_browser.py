"""The compare page in headless Chromium against ``rules-kb diff``: the same rows, row for row.

Every pair below is two versions that are not neighbours in the tests' corpus (``SUBSET`` in
conftest.py: Magic 2008-10-01, 2009-05-01, 2009-07-08, 2013-04-29, 2015-07-17, 2016-09-30,
2019-05-03, 2022-11-18, 2024-11-08, and every Duel Masters document), so ``diff`` follows each rule
release by release, through the 2009 renumbering for the first two, or aligns a partial version
(a change notice, an excerpt) directly. For each, the page's rows (kind, numbers, split targets,
text class and similarity of a move, the word diff, the ``changed:`` and ``editorial`` lines, the
examples' diffs, the text of an added or removed rule), its counts, its unknown rules and its notes
must be what ``rules-kb diff --json`` and ``rules-kb diff`` print.
"""

from __future__ import annotations

import json
import re

import pytest
from conftest import ARTIFACTS
from lxml import html as lxml_html
from test_pages_browser import NAMES, UNTRANSLATED

from rules_kb import links

DONE = "document.getElementById('rk-compare').dataset.done"

# (game, lang, old, new, the page's "rules" field, the same scope as diff's options)
PAIRS = [
    ("mtg", "en", "2008-10-01", "2009-07-08", "5", ["--section", "5"]),
    ("mtg", "en", "2019-05-03", "2024-11-08", "5", ["--section", "5"]),
    ("dm", "ja", "2021-09-07", "1.48", "", []),
    ("mtg", "en", "2009-05-01", "2013-04-29", "3", ["--section", "3"]),
    ("mtg", "en", "2008-10-01", "2024-11-08", "702", ["--rule", "702"]),
    ("mtg", "en", "2013-04-29", "2022-11-18", "509.1", ["--rule", "509.1"]),
    ("dm", "en", "1.17", "1.38", "", []),
    ("dm", "ja", "2022-04-08", "1.48", "315", ["--rule", "315"]),
]

# What the page shows of each row, read from the DOM: the diff and examples as (tag, text) runs.
READ_ROWS = """() => [...document.querySelectorAll('#rk-compare-results .rk-row')].map(row => {
  const runs = box => [...box.childNodes].map(n => [n.nodeType === 3 ? '' : n.tagName.toLowerCase(), n.textContent]);
  const diff = row.querySelector(':scope > .rk-diff');
  return {
    kind: row.dataset.kind, old: row.dataset.old || null, new: row.dataset.new || null,
    head: row.querySelector('.rk-row-head').textContent,
    diff: diff ? runs(diff) : null,
    text: diff ? null : row.querySelector('.rk-text').textContent,
    notes: [...row.querySelectorAll('.rk-note')].map(n => n.textContent),
    examples: [...row.querySelectorAll('.rk-example-row')].map(e => [e.firstChild.textContent,
                                                                     runs(e.querySelector('.rk-example'))]),
  };
})"""


def _runs(fragment: str) -> list[list[str]]:
    """(tag, text) runs of Python's diff HTML, '' for unchanged text, neighbours of one tag joined."""
    if not fragment:
        return []
    root = lxml_html.fragment_fromstring(fragment, create_parent="div")
    runs = [["", root.text or ""]]
    for child in root:
        runs.append([child.tag, child.text_content()])
        runs.append(["", child.tail or ""])
    return _joined(runs)


def _joined(runs: list[list[str]]) -> list[list[str]]:
    out: list[list[str]] = []
    for tag, text in runs:
        if not text:
            continue
        if out and out[-1][0] == tag:
            out[-1][1] += text
        else:
            out.append([tag, text])
    return out


# A row of diff's text: "  507.1a (editorial)", "  506.3b -> 507.2c (moved, …)".
ROW_HEAD = re.compile(r"  \S+( -> \S+)? \((editorial|substantive|moved|split|added|removed|renumbered-reference)\b")


def _cli_notes(text: str) -> list[list[str]]:
    """Per changed row of ``diff``'s text, its ``changed:`` and ``editorial`` lines, in order."""
    rows: list[list[str]] = []
    for line in text.splitlines()[1:]:
        if ROW_HEAD.match(line):
            rows.append([])
        elif rows and line.startswith(("    changed: ", "    editorial (")):
            rows[-1].append(line.strip())
    return rows


def _expected_row(row: dict) -> dict:
    head = []
    if row["kind"] == "moved":
        head.append(f"(text {row['text_class']}, similarity {row['similarity']:.2f})")
    if row["kind"] == "split":
        head.append(f"(its sentences are now in {', '.join(row['targets'])})")
    examples = [[f"example ({e['class']}): ", _runs(e["html"])] for e in row.get("examples", [])
                if e["class"] != "unchanged"]
    ends = {side: None if row[side] == "-" else row[side] for side in ("old", "new")}  # diff prints "-"
    return {"kind": row["kind"], **ends, "head": head,
            "diff": _runs(row["html"]) if "html" in row else None, "examples": examples}


def _shown_row(row: dict) -> dict:
    head = [part for part in re.findall(r"\((?:text|its sentences)[^)]*\)", row["head"])]
    return {"kind": row["kind"], "old": row["old"], "new": row["new"], "head": head,
            "diff": _joined(row["diff"]) if row["diff"] is not None else None,
            "examples": [[label, _joined(runs)] for label, runs in row["examples"]
                         if not label.startswith(("example removed", "example added"))]}


def _open(page, base: str, game: str, lang: str, old: str, new: str, rule: str) -> None:
    page.goto(base + links.compare_pair(game, lang, old, new, rule or None).lstrip("/"))
    page.wait_for_function(DONE)


@pytest.mark.parametrize(("game", "lang", "old", "new", "rule", "scope"), PAIRS)
def test_the_page_shows_what_diff_prints(page, serve_dir, real_site, cli, game, lang, old, new, rule, scope):
    code, out, err = cli("diff", "--game", game, "--lang", lang, old, new, *scope, "--json")
    assert code == 0, err
    expected = json.loads(out)
    code, text, err = cli("diff", "--game", game, "--lang", lang, old, new, *scope)
    assert code == 0, err
    changed = [r for r in expected["rows"] if r["kind"] != "unchanged"]
    assert changed, "a pair with nothing to compare proves nothing"
    _open(page, serve_dir(real_site), game, lang, old, new, rule)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    shown = page.evaluate(READ_ROWS)
    assert [_shown_row(r) for r in shown] == [_expected_row(r) for r in changed]
    # a rule added, removed or split is shown whole: its title (a heading's) and the text diff prints
    assert all(r["text"].endswith(e["text"]) for r, e in zip(shown, changed, strict=True) if "text" in e)
    # diff's text prints the same "changed:" and "editorial" lines under each row
    assert [r["notes"] for r in shown] == _cli_notes(text)
    counts = page.locator("#rk-compare-counts").inner_text()
    for kind, count in expected["counts"].items():
        if count or kind != "renumbered-reference":
            assert f"{count} {kind}" in counts, (kind, counts)
    unknown = page.evaluate("[...document.querySelectorAll('#rk-compare-summary .rk-partial p')]"
                            ".map(p => p.textContent)")
    assert unknown == [", ".join(u) for u in (expected["unknown_old"], expected["unknown_new"]) if u]
    notes = page.evaluate("[...document.querySelectorAll('#rk-compare-summary .rk-notes li')]"
                          ".map(li => li.textContent)")
    assert notes == expected["notes"]
    assert errors == []


def test_a_chapter_is_compared_not_emptied(page, serve_dir, real_site):
    """``rule=5`` showed "0 changed, 0 added, 0 removed, 0 unchanged": a chapter holds no number
    starting "5."; the 2009 renumbering moved 309 (Declare Blockers Step) to 509."""
    _open(page, serve_dir(real_site), "mtg", "en", "2008-10-01", "2009-07-08", "5")
    moved = page.locator(".rk-row[data-old='309'][data-new='509']")
    assert moved.get_attribute("data-kind") == "moved"
    assert page.locator(".rk-row").count() > 100
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "compare-mtg-2008-10-01-2009-07-08-5.png"))


def test_a_release_and_its_effective_date_are_told_apart(page, serve_dir, real_site):
    """The choice read "2009-07-08 (2009-07-11)": the file's date and the date it took effect
    (the 2009-07-08 release's text says "effective July 11, 2009"), with no word on which is which."""
    _open(page, serve_dir(real_site), "mtg", "en", "2008-10-01", "2009-07-08", "5")
    chosen = page.locator("select[name=new] option[value='2009-07-08']").inner_text()
    assert chosen == "2009-07-08, effective 2009-07-11"


@pytest.mark.parametrize(("game", "lang", "old", "new", "rule"), [
    ("mtg", "en", "2008-10-01", "2009-07-08", "5"), ("dm", "ja", "2021-09-07", "1.48", "")])
@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
@pytest.mark.parametrize("width", [390, 1280])
def test_phone_width_console_and_axe(kept_context, serve_dir, real_site, serious_violations, game, lang, old, new, rule,
                                     locale, width):
    """At 390×844 the page is no wider than the screen; no console error; axe: nothing serious,
    in the English and the Japanese interface (a Japanese browser gets it on the Duel Masters pages)."""
    page = kept_context(width, locale).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    try:
        _open(page, serve_dir(real_site), game, lang, old, new, rule)
        assert page.locator(".rk-row").count() > 0
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        if locale == "ja-JP" and game == "dm":  # the rows' heads too: 803.1c → 804.1c is moved
            assert page.evaluate(UNTRANSLATED, list(NAMES)) == []
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"compare-{game}-{old}-{new}-{locale}-{width}.png"))
        assert serious_violations(page) == []
        assert errors == []
    finally:
        page.close()
