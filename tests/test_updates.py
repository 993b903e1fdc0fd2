"""`rules-kb updates [--fetch]` against the publishers' pages, saved and served on 127.0.0.1.

The real pages (magic.wizards.com/en/rules, dm.takaratomy.co.jp/rule/) cannot be reached from
here: tests/fixtures/updates/ holds stand-ins written from their documented structure, served
with the real release files (shared/corpus/mtg-current) by a local HTTP server. What the
watcher would do on the live pages is therefore checked only as far as their structure is
documented.
"""

from __future__ import annotations

import hashlib
import shutil
import socket
from pathlib import Path

import pytest
from conftest import CORPUS, FIXTURES, SHARED
from pdf_standin import render_standin

from rules_kb.ingest.corpus import load_manifest
from rules_kb.releases.add import add_release

CURRENT = SHARED / "corpus" / "mtg-current"
TOURNAMENT = SHARED / "corpus" / "tournament"
MTR = TOURNAMENT / "mtg/MTG_MTR_2025_Apr_21_EN.pdf"
IPG = TOURNAMENT / "mtg/MTG_IPG_2024Sep23_EN.pdf"
COMPETITION = TOURNAMENT / "dm/dm_competition_rule_20250501.pdf"
PAGES = FIXTURES / "updates"
DM_TEXT = CORPUS / "dm/official-rule-text/dm_rule-ja-v1.48.md"


def snapshot(corpus: Path) -> dict[str, str]:
    return {str(p.relative_to(corpus)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(corpus.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def template_corpus(tmp_path_factory) -> Path:
    """Magic up to 2025-11-14 and the Duel Masters rulebook 1.48: one release behind each page."""
    corpus = tmp_path_factory.mktemp("updates") / "corpus"
    corpus.mkdir()
    (corpus / "manifest.toml").write_text("# test corpus\n", encoding="utf-8")
    add_release(corpus, CURRENT / "txt/CR-2025-11-14.txt", version="2025-11-14")
    add_release(corpus, DM_TEXT)
    return corpus


@pytest.fixture
def corpus(template_corpus, tmp_path) -> Path:
    copy = tmp_path / "corpus"
    shutil.copytree(template_corpus, copy)
    return copy


@pytest.fixture(scope="module")
def standin_148(browser, tmp_path_factory) -> Path:
    return render_standin(browser, DM_TEXT, tmp_path_factory.mktemp("standin") / "dm_rule_20251217.pdf")


def publish(folder: Path, dm_pdf: Path | None = None) -> Path:
    """Lay out the two sites' files as their pages link them (the tournament documents are the
    corpus's own PDFs, which the template corpus does not hold)."""
    (folder / "en/rules").mkdir(parents=True)
    shutil.copy(PAGES / "wizards-rules.html", folder / "en/rules/index.html")
    downloads = folder / "2026/downloads"
    downloads.mkdir(parents=True)
    shutil.copy(CURRENT / "txt/CR-2026-01-16.txt", downloads / "MagicCompRules 20260116.txt")
    shutil.copy(CURRENT / "publisher-formats/CR-2026-01-16.pdf", downloads / "MagicCompRules 20260116.pdf")
    shutil.copy(CURRENT / "publisher-formats/CR-2026-01-16.docx", downloads / "MagicCompRules 20260116.docx")
    (folder / "ContentResources/WPN").mkdir(parents=True)
    for pdf in (MTR, IPG):
        shutil.copy(pdf, folder / "ContentResources/WPN" / pdf.name)
    (folder / "rule").mkdir()
    shutil.copy(PAGES / "dm-rule.html", folder / "rule/index.html")
    if dm_pdf is not None:
        (folder / "img").mkdir()
        shutil.copy(dm_pdf, folder / "img/dm_rule_20260723_5.pdf")
        shutil.copy(COMPETITION, folder / "img" / COMPETITION.name)
    return folder


@pytest.fixture
def site(tmp_path, serve_dir):
    def start(dm_pdf: Path | None = None) -> tuple[Path, str]:
        folder = publish(tmp_path / "site", dm_pdf)
        return folder, serve_dir(folder)
    return start


def urls(base: str) -> list[str]:
    return ["--wizards-url", f"{base}en/rules/", "--dm-url", f"{base}rule/"]


def test_updates_names_the_newer_release_of_each_publisher(cli, corpus, site):
    _, base = site()
    before = snapshot(corpus)
    code, out, err = cli("--corpus", str(corpus), "updates", *urls(base))
    assert code == 0, err
    assert out.splitlines() == [
        f"Magic (Wizards): the corpus's newest is 2025-11-14; newer on {base}en/rules/: 2026-01-16 (TXT, PDF, DOCX)",
        f"Magic MTR (Wizards): the corpus's newest is nothing; newer on {base}en/rules/: 2025-04-21 (PDF)",
        f"Magic IPG (Wizards): the corpus's newest is nothing; newer on {base}en/rules/: 2024-09-23 (PDF)",
        f"Duel Masters (official, ja): the corpus's newest is 1.48; newer on {base}rule/: 1.51 (2026-07-23, PDF)",
        f"Duel Masters 競技イベント運営ルール (official, ja): the corpus's newest is nothing; newer on {base}rule/: "
        "2025-05-01 (PDF)",
    ]
    assert snapshot(corpus) == before  # without --fetch nothing is downloaded or written


def test_fetch_adds_the_newer_magic_release_from_its_txt(cli, corpus, site):
    folder, base = site()
    code, out, err = cli("--corpus", str(corpus), "updates", "--fetch", "--game", "mtg", "--document", "cr",
                         *urls(base))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[1] == ("added mtg-cr-2026-01-16 as mtg/CR-2026-01-16.txt: format mtg-cr, utf-8-sig CRLF+CR, "
                        "mtg en, version 2026-01-16 (2026-01-16), full")
    assert lines[2].startswith("  3260 rules, 276 examples, 725 terms") and "100.00% accounted" in lines[2]
    assert lines[3].startswith("  against 2025-11-14: ")
    added = load_manifest(corpus)[-1]
    assert (corpus / added.file).read_bytes() == (folder / "2026/downloads/MagicCompRules 20260116.txt").read_bytes()
    assert added.source == (f"downloaded by rules-kb updates --fetch from {base}2026/downloads/"
                            f"MagicCompRules%2020260116.txt (listed on {base}en/rules/)")
    code, out, _ = cli("--corpus", str(corpus), "updates", "--game", "mtg", *urls(base))
    assert out.startswith("Magic (Wizards): up to date (the corpus's newest is 2026-01-16;")


def test_fetch_adds_the_tournament_documents_byte_for_byte(cli, corpus, site, standin_148):
    """The IPG and the 競技イベント運営ルール each one PDF named by its date; the rules releases the
    pages also list are left to --document cr."""
    _, base = site(dm_pdf=standin_148)
    for document, pdf in (("ipg", IPG), ("competition", COMPETITION)):
        code, out, err = cli("--corpus", str(corpus), "updates", "--fetch", "--document", document, *urls(base))
        assert code == 0, err
        added = load_manifest(corpus)[-1]
        assert (added.document, added.versions, added.dates) == (document, (added.versions[0],), added.versions)
        assert added.file.endswith("/" + pdf.name) and (corpus / added.file).read_bytes() == pdf.read_bytes()
        assert f"added {added.id} as {added.file}: format " in out
    code, out, _ = cli("--corpus", str(corpus), "updates", "--document", "ipg", *urls(base))
    assert out.startswith("Magic IPG (Wizards): up to date (the corpus's newest is 2024-09-23;")
    assert [m.versions for m in load_manifest(corpus) if m.document != "cr"] == [("2024-09-23",), ("2025-05-01",)]


def test_a_tournament_document_whose_link_names_another_date_adds_nothing(cli, corpus, site):
    """The 2025-04-21 Tournament Rules served as the (unreleased) MTG_MTR_2026_Jan19_EN.pdf: the text
    states 2025-04-21, the link 2026-01-19; refused, nothing written."""
    folder, base = site()
    page = folder / "en/rules/index.html"
    page.write_text(page.read_text(encoding="utf-8").replace("MTG_MTR_2025_Apr_21_EN", "MTG_MTR_2026_Jan19_EN"),
                    encoding="utf-8")
    shutil.copy(MTR, folder / "ContentResources/WPN/MTG_MTR_2026_Jan19_EN.pdf")
    before = snapshot(corpus)
    code, out, err = cli("--corpus", str(corpus), "updates", "--fetch", "--document", "mtr", *urls(base))
    assert code == 1 and out.startswith("Magic MTR (Wizards): the corpus's newest is nothing; newer on ")
    assert err.count("\n") == 1
    assert err.startswith(f"Error: {base}ContentResources/WPN/MTG_MTR_2026_Jan19_EN.pdf: ")
    assert "2026-01-19" in err and "2025-04-21" in err
    assert snapshot(corpus) == before


def test_a_page_that_stops_linking_a_document_says_so_and_checks_the_rest(cli, corpus, site):
    folder, base = site()
    page = folder / "en/rules/index.html"
    page.write_text(page.read_text(encoding="utf-8").replace("MTG_IPG_2024Sep23_EN.pdf", "IPG.pdf"), encoding="utf-8")
    code, out, err = cli("--corpus", str(corpus), "updates", "--game", "mtg", *urls(base))
    assert code == 0, err
    assert f"Magic IPG (Wizards): {base}en/rules/ links no release of it (the page may have moved it); not checked" \
        in out.splitlines()
    assert out.startswith("Magic (Wizards): the corpus's newest is 2025-11-14;")


def test_a_download_that_is_not_the_release_it_claims_adds_nothing(cli, corpus, site, standin_148):
    """The page says Ver.1.51; the PDF behind the link says Ver.1.48: refused, nothing written."""
    _, base = site(dm_pdf=standin_148)
    before = snapshot(corpus)
    code, _, err = cli("--corpus", str(corpus), "updates", "--fetch", "--game", "dm", *urls(base))
    assert code == 1
    assert err.count("\n") == 1 and err.startswith("Error: ")
    assert "--version 1.51 conflicts with the text, which says 1.48" in err
    assert snapshot(corpus) == before


def test_a_pdf_link_serving_an_error_page_adds_nothing(cli, corpus, site):
    folder, base = site()
    (folder / "img").mkdir()
    (folder / "img/dm_rule_20260723_5.pdf").write_text("<!doctype html><title>404</title>", encoding="utf-8")
    before = snapshot(corpus)
    code, _, err = cli("--corpus", str(corpus), "updates", "--fetch", *urls(base))
    assert code == 1
    assert err == (f"Error: {base}img/dm_rule_20260723_5.pdf: the download is not a PDF (it starts "
                   "b'<!doctype ht'); nothing added\n")
    assert snapshot(corpus) == before  # not even the Magic release, which downloaded fine


def test_a_missing_download_is_one_error_line(cli, corpus, site):
    _, base = site()  # no img/ folder: the PDF link answers 404
    before = snapshot(corpus)
    code, _, err = cli("--corpus", str(corpus), "updates", "--fetch", *urls(base))
    assert code == 1 and err == f"Error: {base}img/dm_rule_20260723_5.pdf: cannot fetch: HTTP 404 File not found\n"
    assert snapshot(corpus) == before


def test_an_unreachable_page_is_one_error_line(cli, corpus):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    before = snapshot(corpus)
    code, out, err = cli("--corpus", str(corpus), "updates", "--game", "dm", "--dm-url", f"http://127.0.0.1:{port}/rule/")
    assert code == 1 and out == ""
    assert err == f"Error: http://127.0.0.1:{port}/rule/: cannot fetch: [Errno 111] Connection refused\n"
    assert snapshot(corpus) == before


def test_a_changed_page_layout_is_one_error_line(cli, corpus, site):
    folder, base = site()
    page = folder / "en/rules/index.html"
    page.write_text(page.read_text(encoding="utf-8").replace("MagicCompRules%20", "CR-"), encoding="utf-8")
    code, out, err = cli("--corpus", str(corpus), "updates", *urls(base))
    assert code == 1 and err.count("\n") == 1
    assert err.startswith(f"Error: {base}en/rules/: page layout not recognised: no link to the Comprehensive Rules")
    assert [line.split(":")[0] for line in out.splitlines()] == [  # the other publisher's page is still read
        "Duel Masters (official, ja)", "Duel Masters 競技イベント運営ルール (official, ja)"]


def test_offline_both_publishers_are_tried_and_the_network_is_said_unreachable(cli, corpus):
    """Before: ``Error: https://…: cannot fetch: [Errno -2] Name or service not known``, and the Duel
    Masters page was never tried once Wizards' failed. ``.invalid`` names never resolve (RFC 6761)."""
    before = snapshot(corpus)
    code, out, err = cli("--corpus", str(corpus), "updates", "--wizards-url", "http://rules.invalid/en/rules",
                         "--dm-url", "http://dm.invalid/rule/")
    assert (code, out) == (1, "")
    assert err == ("Error: cannot fetch: the network is unreachable (the host's name cannot be looked up: offline, "
                   "or no such host): http://rules.invalid/en/rules, http://dm.invalid/rule/\n")
    assert snapshot(corpus) == before


def test_one_unreachable_publisher_does_not_hide_the_other(cli, corpus, site):
    _, base = site()
    code, out, err = cli("--corpus", str(corpus), "updates", "--wizards-url", f"{base}en/rules/",
                         "--dm-url", "http://dm.invalid/rule/")
    assert code == 1
    assert out.startswith("Magic (Wizards): the corpus's newest is 2025-11-14; newer on")
    assert err == ("Error: http://dm.invalid/rule/: cannot fetch: the network is unreachable (the host's name "
                   "cannot be looked up: offline, or no such host)\n")
