"""The link page: the browser links every fixture note exactly as ``rules-kb link`` does."""

from __future__ import annotations

import json
import shutil

import markdown
import pytest
from conftest import FIXTURES, ROOT
from notes_cases import BASE_URL, read_cases

from rules_kb.notes.assets import DATA_FILE, GRAMMAR_FILE, write_link_assets

SITE = ROOT / "site"
SHELL = """<!DOCTYPE html>
<html lang="ja"><head><meta charset="utf-8"><title>Link a judge note</title></head>
<body>{body}</body></html>
"""


@pytest.fixture(scope="module")
def link_site(knowledge, tmp_path_factory):
    """A folder laid out like the built site: /link/ (the page), /assets/ (script and generated data)."""
    folder = tmp_path_factory.mktemp("link-site")
    body = markdown.markdown((SITE / "link.md").read_text(encoding="utf-8"))
    (folder / "link").mkdir()
    (folder / "link" / "index.html").write_text(SHELL.format(body=body), encoding="utf-8")
    (folder / "assets").mkdir()
    for script in ("link.js", "refs.js"):
        shutil.copy(SITE / "assets" / script, folder / "assets" / script)
    write_link_assets(knowledge, folder)
    return folder


def test_assets_are_generated_and_deterministic(knowledge, link_site, tmp_path) -> None:
    write_link_assets(knowledge, tmp_path)
    for name in (GRAMMAR_FILE, DATA_FILE):
        assert (tmp_path / name).read_bytes() == (link_site / name).read_bytes()
    data = (link_site / DATA_FILE).read_text(encoding="utf-8")
    assert '"pinned":"/dm/ja/1.38/{chapter}/#{anchor}"' in data  # links.pinned_rule, as a template
    assert '"rule_page":"/mtg/rule/{anchor}/"' in data


@pytest.mark.parametrize("name", ["link.js", "refs.js", "reader.js"])
def test_script_holds_no_copy_of_the_grammar(name) -> None:
    script = (SITE / "assets" / name).read_text(encoding="utf-8")
    for fragment in ("参考", "総合", "０-９", "and|or", "[Vv]er", "DM|MTG", "https?"):
        assert fragment not in script


def open_page(page, serve_dir, folder) -> None:
    page.goto(serve_dir(folder) + "link/")
    page.wait_for_selector("#link-form[data-ready=true]", timeout=15000)


def run_in_page(page, text: str, fmt: str, game: str | None, pin: str | None, as_of: str | None):
    page.select_option("#link-format", fmt)
    page.select_option("#link-game", game or "")
    page.fill("#link-pin", pin or "")
    page.fill("#link-as-of", as_of or "")
    page.fill("#link-base", BASE_URL)
    page.fill("#link-input", text)
    page.click("#link-run")
    messages = page.eval_on_selector_all("#link-problems li", "items => items.map((i) => i.dataset.message)")
    return page.input_value("#link-output"), messages


def test_page_links_every_fixture_note_as_the_command_does(page, serve_dir, link_site) -> None:
    open_page(page, serve_dir, link_site)
    cases = read_cases()
    differences = []
    for case in cases:
        out, problems = run_in_page(page, case.text(), case.fmt, case.game, case.pin, case.as_of)
        if out != case.expected() or problems != case.problems:
            differences.append((case.name, out, problems))
        again, _ = run_in_page(page, out, case.fmt, case.game, case.pin, case.as_of)
        if again != out:
            differences.append((case.name, "not idempotent", again))
    assert differences == []
    # Leave a realistic note on screen for the screenshot the fixture saves.
    mixed = next(case for case in cases if case.name == "en-mixed-ruling")
    run_in_page(page, mixed.text(), "md", None, None, "2021-09-07")
    assert page.locator("#link-status").inner_text().endswith("left unlinked")


def test_page_reports_bad_options(page, serve_dir, link_site) -> None:
    open_page(page, serve_dir, link_site)
    run_in_page(page, "DM 507.2a", "md", None, "9.99", None)
    # the page's own words for its fields, and the nearest labels (by number), not the command's option names
    status = page.locator("#link-status").inner_text()
    assert status.startswith("Error: Pin version '9.99': no version with rule texts has that label (nearest: 1.48")
    assert "--pin" not in status and "rules-kb" not in status
    assert page.input_value("#link-output") == ""


def test_page_previews_the_linked_note_and_words_problems_for_the_page(page, serve_dir, link_site) -> None:
    open_page(page, serve_dir, link_site)
    run_in_page(page, "See DM 507.2a. Also 507.3c.", "md", None, None, None)
    preview = page.locator("#link-preview")
    assert preview.locator("a").first.inner_text() == "DM 507.2a"
    assert preview.locator("a").first.get_attribute("href").endswith("/dm/rule/507.2a/")
    assert preview.inner_text().startswith("See DM 507.2a. Also 507.3c.")
    problems = page.locator("#link-problems li").all_inner_texts()
    assert problems and problems[0].endswith("write DM or MTG before it, or choose the game above")
    run_in_page(page, '<p>CR 509.1a<script>document.title="x"</script><img src=x onerror="document.title=1"></p>',
                "html", None, None, None)
    assert page.title() != "x" and page.title() != "1"
    assert page.locator("#link-preview a").first.inner_text() == "CR 509.1a"
    assert page.locator("#link-preview script, #link-preview img").count() == 0


def test_page_audits_and_links_a_long_note_as_the_command_does(page, serve_dir, link_site, cli, tmp_path) -> None:
    """Forty copies of seed 004's rulings, and of a note of numbers both games hold: each citation's line,
    column, date and version, and each problem's place, as the command finds them (the page finds a
    note's entries, tags and lines once and each citation's by bisection, as ``notes/audit.py`` does)."""
    from test_notes_long import AMBIGUOUS, SEED_004, repeated

    rulings, _ = repeated(SEED_004.read_text(encoding="utf-8"))
    notes, _ = repeated(AMBIGUOUS.read_text(encoding="utf-8"))
    (tmp_path / "rulings.txt").write_text(rulings, encoding="utf-8")
    (tmp_path / "notes.md").write_text(notes, encoding="utf-8")
    _, out, _ = cli("audit", str(tmp_path / "rulings.txt"), "--json")
    fields = ("line", "column", "cited", "number", "game", "dated", "lang", "version")
    expected = [[c[name] for name in fields] + [c["dated_by"]] for c in json.loads(out)["citations"]]
    _, _, err = cli("link", str(tmp_path / "notes.md"))
    problems = [line.split(":", 1)[1] for line in err.splitlines()]
    open_page(page, serve_dir, link_site)
    found = page.evaluate("""([text, fields]) => window.rulesKbLinker.audit(text, "text", {game: null, asOf: null})
        .map((c) => fields.map((name) => c[name]).concat([c.datedBy]))""", [rulings, list(fields)])
    assert len(found) == 800 and found == expected
    linked = page.evaluate("""(text) => window.rulesKbLinker.link(text, "md",
        {baseUrl: "https://example.org/", game: null, pin: null, asOf: null}).problems""", notes)
    assert len(linked) == len(problems) == 40 and linked == problems


def test_page_audits_a_note_citing_tournament_sections_as_the_command_does(page, serve_dir, link_site, cli) -> None:
    """A judge's note citing IPG 2.3, MTR 3.10 and 競技イベント運営ルール 10.3 beside rules: the sections are
    linked, not audited (one version of each document so far), by the command and the page alike; the
    page's Audit button threw on the first section before session 32."""
    note = FIXTURES / "notes" / "mixed-tournament.md"
    _, out, _ = cli("audit", str(note), "--json")
    expected = [[c["line"], c["column"], c["number"], c["verdict"] if c["verdict"] in ("undated", "unresolved")
                 else "audited"] for c in json.loads(out)["citations"]]
    assert expected and all(number[0].isdigit() for _, _, number, _ in expected)  # no section among them
    open_page(page, serve_dir, link_site)
    page.select_option("#link-format", "md")
    page.fill("#link-input", note.read_text(encoding="utf-8"))
    page.click("#link-audit")
    page.wait_for_selector("#link-audit-result[data-done=true]", timeout=15000)
    found = page.evaluate("""(text) => window.rulesKbLinker.audit(text, "md", {game: null, asOf: null})
        .map((c) => [c.line, c.column, c.number, c.verdict === "undated" || c.verdict === "unresolved" ? c.verdict
                     : "audited"])""", note.read_text(encoding="utf-8"))
    assert found == expected
    assert page.locator("#link-status").inner_text().startswith(f"{len(expected)} citation")
