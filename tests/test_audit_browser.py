"""The link page's audit: the browser shows, for every citation of seed 004, the verdict and the
lines `rules-kb audit` prints (the page reads them from the audit JSON the build writes with the
command's own code; it only finds the citations and their dates)."""

from __future__ import annotations

import json
import shutil

import markdown
import pytest
from conftest import CORPUS, ROOT

from rules_kb.notes.assets import write_link_assets
from rules_kb.notes.audit import Finding
from rules_kb.render.audit_data import write_audit_data
from rules_kb.render.audit_text import verdict_lines

SITE = ROOT / "site"
SEED_004 = next((CORPUS / "seeds").glob("004_*.txt"))
SHELL = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Link</title></head>'
         '<body>{body}</body></html>')


@pytest.fixture(scope="module")
def audit_site(knowledge, tmp_path_factory):
    """/link/ (the page), /assets/ (scripts and generated data) and /api/{game}/audit/, as the build lays them out."""
    folder = tmp_path_factory.mktemp("audit-site")
    (folder / "link").mkdir()
    body = markdown.markdown((SITE / "link.md").read_text(encoding="utf-8"))
    (folder / "link" / "index.html").write_text(SHELL.format(body=body), encoding="utf-8")
    (folder / "assets").mkdir()
    for script in ("link.js", "refs.js"):
        shutil.copy(SITE / "assets" / script, folder / "assets" / script)
    write_link_assets(knowledge, folder)
    write_audit_data(knowledge, folder)
    return folder


def test_the_audit_data_holds_the_commands_verdicts(audit_site):
    record = json.loads((audit_site / "api/mtg/audit/309.json").read_text(encoding="utf-8"))
    # 309.2a as the 2008-02-01 rulings quote it (seed 004, line 14): one run, its verdict and lines.
    (run,) = [r for r in record["rules"]["309.2a"] if r[1] == "2008-02-01"]
    assert record["order"]["en"].index("2008-02-01") < record["order"]["en"].index("2008-10-01")
    assert run[:4] == ["en", "2008-02-01", "2008-02-01", "substantive"]
    # the subset's releases after the changes of 2009-07-08, 2018-04-27 (battles) and 2023-04-14 ("they")
    assert run[4][0] == "changed in substance on 2009-07-08, 2019-05-03, 2024-11-08; now 509.1a"


def test_the_page_audits_seed_004_as_the_command_does(page, serve_dir, audit_site, cli):
    code, out, _ = cli("audit", str(SEED_004), "--json")
    expected = []
    for record in json.loads(out)["citations"]:
        finding = Finding(**{k: tuple(map(tuple, v)) if k in ("changes", "editorial") else
                             tuple(v) if isinstance(v, list) else v for k, v in record.items()})
        # the page names its own field where the command names its option (link.js, pageWording)
        problem = (finding.problem or "").replace("no date: give --as-of,", "no date: fill in As of,")
        lines = verdict_lines(finding, word_diff=False) if finding.version else [f"not audited: {problem}"]
        expected.append((finding.number, finding.verdict, lines))
    page.goto(serve_dir(audit_site) + "link/")
    page.wait_for_selector("#link-form[data-ready=true]", timeout=15000)
    page.select_option("#link-format", "text")
    page.fill("#link-input", SEED_004.read_text(encoding="utf-8"))
    page.click("#link-audit")
    page.wait_for_selector("#link-audit-result[data-done=true]", timeout=15000)
    shown = page.eval_on_selector_all("#link-audit-result li", """items => items.map((i) => [i.dataset.number,
        i.dataset.verdict, [...i.querySelectorAll('div')].map((d) => d.textContent)])""")
    assert [tuple(s) for s in shown] == expected and code == 1
    heads = page.locator("#link-audit-result li strong").all_inner_texts()
    assert "25:3 309.2b, as of 2003-07-01 (its entry's tag; mtg en 2003-07-01)" in heads
    assert page.locator("#link-status").inner_text().startswith("20 citations: ")
