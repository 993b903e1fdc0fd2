"""The built site: a crawl of every page (links, anchors, every rule text at its permalinks),
hostile source text shown literally, and byte-identical rebuilds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES
from site_helpers import drawn_glossary_tree, drawn_ids, drawn_rules, file_of, internal_links, parse, reader_of

from rules_kb import links
from rules_kb.assemble.knowledge import build_knowledge
from rules_kb.numbers import RuleNumber
from rules_kb.render.api import folded_history, whole_version
from rules_kb.site.build import build_site

HOSTILE = FIXTURES / "hostile"
PREFIX = "/rules-kb/"  # the crawl resolves links as served from a project site's sub-path


@pytest.fixture(scope="session")
def hostile_site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("hostile") / "site"
    build_site(HOSTILE, out, knowledge=build_knowledge(HOSTILE))
    return out


@pytest.fixture(scope="session")
def crawl(real_site):
    """Every HTML page of the real site: its ids (with those ``reader.js`` draws from the
    version's JSON on an older release's chapter or glossary page) and its internal links (an older
    glossary's drawn links too)."""
    pages = {}
    for file in sorted(real_site.rglob("*.html")):
        tree = parse(file)
        ids = {e.get("id") for e in tree.iter() if e.get("id")}
        reader = reader_of(tree)
        targets = internal_links(real_site, file, tree, prefix=PREFIX)
        if reader is not None:
            ids |= drawn_ids(real_site, reader)
            if reader.get("data-kind") == "glossary":  # its links come from the JSON: checked as well
                targets += internal_links(real_site, file, drawn_glossary_tree(real_site, reader), prefix=PREFIX)
        pages[file] = (ids, targets)
    return pages


def test_no_broken_internal_link_or_anchor(real_site, crawl):
    """Every link resolved as a browser does on the site served under ``/rules-kb/`` (a GitHub
    project site): it must stay under the prefix and land on a file and an id of the site."""
    broken = []
    for file, (_, targets) in crawl.items():
        for path, fragment in targets:
            if fragment == "EXTERNAL":
                broken.append(f"{file.relative_to(real_site)}: external {path}")
                continue
            if file.name == "404.html":
                continue  # served at any depth, resolved against its own <base> (test_permalinks.py)
            if not path.startswith(PREFIX):
                broken.append(f"{file.relative_to(real_site)}: leaves {PREFIX}: {path}")
                continue
            path = path[len(PREFIX) - 1:]
            if path.startswith("/search/"):
                continue  # the search page is another helper's (merged later)
            target = file_of(real_site, path)
            if not target.is_file():
                broken.append(f"{file.relative_to(real_site)}: {path}")
            elif fragment and target.suffix == ".html" and fragment not in crawl[target][0]:
                broken.append(f"{file.relative_to(real_site)}: {path}#{fragment}")
    assert broken == []
    assert len(crawl) > 5000


def _rule_elements(tree) -> dict[tuple[str, str], object]:
    """Each rule block of a page by (number, document); a block's document is its own
    ``data-document`` or its nearest ancestor's. The first block of a pair wins, as a reader sees it."""
    found: dict[tuple[str, str], object] = {}
    for element in tree.find_class("rk-rule"):
        number = element.find_class("rk-num")[0].text_content()
        document = element.get("data-document") or next(
            (e.get("data-document") for e in element.iterancestors() if e.get("data-document")), None)
        found.setdefault((number, document), element)
    return found


def _shown_as(knowledge, rule):
    """The text a version's page shows for ``rule``: itself, or the text it is a copy of (``same_text_once``)."""
    from rules_kb.render.textformat import same_text_once

    texts = knowledge.catalog.rules_in(rule.game, rule.lang, rule.version)[rule.number]
    for index, copies in same_text_once(texts):
        if texts[index] is rule or any(copy is rule for copy in copies):
            return texts[index]
    return rule


def test_every_rule_text_is_at_its_pinned_and_its_rule_page(real_site, knowledge):
    """Each page is read once, with the texts it must show gathered first (reading a chapter page
    once per rule on it, and looking each rule up among all of the page's, took minutes)."""
    missing = []
    by_pinned: dict[str, list] = {}
    by_rule_page: dict[str, list] = {}
    for rule in knowledge.catalog.all_texts():
        by_pinned.setdefault(links.pinned_rule(rule.game, rule.lang, rule.version, rule.number), []).append(rule)
        by_rule_page.setdefault(links.rule_page(rule.game, rule.number), []).append(rule)
    pinned_pages: dict[str, list[tuple[str, list]]] = {}
    for pinned, rules in by_pinned.items():
        path, _, anchor = pinned.partition("#")
        pinned_pages.setdefault(path, []).append((anchor, rules))

    for path, anchored in pinned_pages.items():
        tree = parse(file_of(real_site, path))
        reader = reader_of(tree)
        if reader is not None:  # drawn in the browser from the version's JSON (test_reader_browser.py)
            drawn = drawn_rules(real_site, reader)
            for _, rules in anchored:
                for rule in rules:
                    shown = drawn.get(str(rule.number))
                    if shown is None or shown["text"] != rule.text or shown["title"] != rule.title:
                        missing.append(f"drawn {path} {rule.number} {rule.document}")
            continue
        blocks = _rule_elements(tree)
        ids = {e.get("id") for e in tree.iter() if e.get("id")}
        for anchor, rules in anchored:
            for rule in rules:
                shown = _shown_as(knowledge, rule)  # a copy of another document's text is shown once, as that text
                element = blocks.get((str(shown.number), shown.document))
                if element is None or (shown.text and element.find_class("rk-text")[0].text_content() != shown.text):
                    missing.append(f"pinned {path}#{anchor} {rule.document}")
                elif anchor not in ids:
                    missing.append(f"no id {path}#{anchor}")

    for path, rules in by_rule_page.items():
        texts = {e.text_content() for e in parse(file_of(real_site, path)).find_class("rk-text")}
        for rule in rules:
            if rule.truncated and any(t.text.startswith(rule.text.rstrip().rsplit(" ", 1)[0]) for t in
                                      knowledge.catalog.rules_in(rule.game, rule.lang, rule.version)[rule.number]
                                      if not t.truncated):
                continue  # a cut-off copy of its version's whole text: the rule page shows the whole one once
            if rule.text and rule.text not in texts:
                missing.append(f"rule page {rule.game} {rule.number} {rule.version}")
    assert missing == []


def test_rule_page_of_dm_507_2a_says_the_languages_differ(real_site):
    tree = parse(file_of(real_site, "/dm/rule/507.2a/"))
    notice = tree.find_class("rk-mismatch")[0].text_content()
    assert "507.3b" in notice and "before the 2021-09-07 change" in notice
    assert {s.get("lang") for s in tree.find_class("rk-lang")} == {"ja", "en"}
    assert "2021-09-07から1.38まで変更なし（2版）" in tree.text_content()


def read_version(site: Path, path: str) -> dict:
    """Every rule of a version file, overlaid on its base file when it names one."""
    record = json.loads(file_of(site, path).read_text(encoding="utf-8"))
    base = json.loads(file_of(site, record["base_api"]).read_text(encoding="utf-8")) if "base_api" in record else None
    return whole_version(record, base)


def test_every_version_file_gives_every_rule_of_its_version(real_site, knowledge):
    """Whole or overlaid on its base, each version file holds exactly the catalog's first texts."""
    wholes = bases = 0
    for game in ("dm", "mtg"):
        for lang in ("ja", "en"):
            for label in knowledge.catalog.version_labels(game, lang):
                rules = knowledge.catalog.rules_in(game, lang, label)
                if not rules:
                    continue
                path = links.api_version(game, lang, label)
                has_base = "base_api" in json.loads(file_of(real_site, path).read_text(encoding="utf-8"))
                wholes, bases = wholes + (not has_base), bases + has_base
                got = read_version(real_site, path)
                assert {n: r["text"] for n, r in got.items()} == {str(n): t[0].text for n, t in rules.items()}, path
    assert wholes and bases


def test_api_records_are_the_cli_records(real_site, cli):
    code, out, _ = cli("history", "507.2a", "--game", "dm", "--json")
    assert code == 0
    history = file_of(real_site, links.api_history("dm", RuleNumber.parse("507.2a")))
    api = json.loads(history.read_text(encoding="utf-8"))
    assert api["507.2a"] == folded_history(json.loads(out))
    assert {key[:3] for key in api} == {"507"}
    folded = [(t["lang"], t["versions"]) for t in api["507.2a"]["texts"]]
    assert ("ja", ["2021-09-07", "1.38"]) in folded  # unchanged in two versions: one record
    code, out, _ = cli("show", "309.1", "--game", "mtg", "--lang", "en", "--version", "2008-10-01", "--json")
    version = read_version(real_site, "/api/mtg/en/2008-10-01.json")
    shown = json.loads(out)[0]
    assert version["309.1"] == {"title": shown["title"], "text": shown["text"],
                                "examples": [e["text"] for e in shown["examples"]]}
    versions = json.loads(file_of(real_site, "/api/mtg/versions.json").read_text(encoding="utf-8"))
    assert [v["label"] for v in versions["versions"] if v["complete"]][:3] == ["2008-10-01", "2009-05-01", "2009-07-08"]


HOSTILE_STRINGS = ["<script>alert(1)</script>", '<a href="javascript:alert(3)">click</a>', "{{ x }}", "{% x %}",
                   "**b**", "[x](y)", "&amp;", "# h is not a heading", "<b>bold</b>"]


@pytest.mark.parametrize("path", ["/mtg/en/2099-01-01/1/", "/mtg/rule/100.1/", "/mtg/rule/100.1a/"])
def test_hostile_text_shows_literally(hostile_site, path):
    raw = file_of(hostile_site, path).read_text(encoding="utf-8")
    tree = parse(file_of(hostile_site, path))
    shown = tree.text_content()
    wanted = [s for s in HOSTILE_STRINGS if s in (
        "A rule with a script tag <script>alert(1)</script> and a javascript:alert(2) link "
        '<a href="javascript:alert(3)">click</a>.' if path.endswith("100.1/") else
        "Templates {{ x }} and {% x %} stay literal, as do **b**, [x](y) and the entity &amp; (see rule 100.2)."
        "# h is not a heading; <b>bold</b> is not bold." if path.endswith("100.1a/") else HOSTILE_STRINGS[0])]
    if path.endswith("/1/"):
        wanted = HOSTILE_STRINGS
    assert wanted and all(s in shown for s in wanted), [s for s in wanted if s not in shown]
    assert "alert" not in "".join(s.text or "" for s in tree.iter("script"))
    assert not [a for a in tree.iter("a") if (a.get("href") or "").startswith("javascript:")]
    assert "<strong>b</strong>" not in raw and "<b>bold</b>" not in raw


def test_hostile_text_is_literal_in_the_json(hostile_site):
    record = read_version(hostile_site, "/api/mtg/en/2099-01-01.json")
    assert record["100.1a"]["text"] == ("Templates {{ x }} and {% x %} stay literal, as do **b**, [x](y) and the "
                                        "entity &amp; (see rule 100.2).")


def test_hostile_citations_link_or_are_marked(hostile_site):
    tree = parse(file_of(hostile_site, "/mtg/en/2099-01-01/1/"))
    cite = [a for a in tree.find_class("rk-cite") if a.text_content() == "rule 100.2"]
    assert cite and cite[0].get("href") == "./#100.2"
    unresolved = tree.find_class("rk-unresolved")
    assert unresolved and "no rule 100.9" in unresolved[0].get("title")


def test_two_builds_are_byte_identical(hostile_site, tmp_path):
    again = tmp_path / "site"
    build_site(HOSTILE, again, knowledge=build_knowledge(HOSTILE))
    first = {p.relative_to(hostile_site): p.read_bytes() for p in sorted(hostile_site.rglob("*")) if p.is_file()}
    second = {p.relative_to(again): p.read_bytes() for p in sorted(again.rglob("*")) if p.is_file()}
    assert first.keys() == second.keys()
    assert [k for k in first if first[k] != second[k]] == []


def test_build_command_says_how_to_open_the_site(cli, tmp_path):
    code, out, err = cli("--corpus", str(HOSTILE), "build", "--out", str(tmp_path / "site"))
    assert code == 0, err
    assert "rules-kb serve --dir" in out and (tmp_path / "site" / "mtg" / "rule" / "100.1a" / "index.html").is_file()


def test_serve_refuses_a_folder_without_a_site(cli, tmp_path):
    code, _, err = cli("serve", "--dir", str(tmp_path), "--port", "0")
    assert code == 1 and err.startswith("Error: ") and "no built site" in err


def test_a_cut_off_copy_is_its_version_not_a_change(real_site, knowledge):
    """English 1.38 of DM 507.2a is in the seed whole and in a Fandom excerpt cut off: one entry, the whole text."""
    tree = parse(file_of(real_site, "/dm/rule/507.2a/"))
    english = next(s for s in tree.find_class("rk-lang") if s.get("lang") == "en")
    versions = [e.get("data-versions") for e in english.find_class("rk-entry")]
    assert versions.count("1.38") == 1
    texts = knowledge.catalog.rules_in("dm", "en", "1.38")[RuleNumber.parse("507.2a")]
    whole = next(t for t in texts if not t.truncated)
    entry = next(e for e in english.find_class("rk-entry") if e.get("data-versions") == "1.38")
    assert entry.find_class("rk-text")[0].text_content() == whole.text
    assert "changes from 1.38" not in english.text_content()


def test_rule_page_says_when_its_number_left_the_rules(real_site):
    tree = parse(file_of(real_site, "/mtg/rule/507.3c/"))
    gone = [e.text_content() for e in tree.find_class("rk-gone")]
    assert len(gone) == 1 and gone[0].startswith("507.3c (mtg en) is not in the rules since 2009-07-08; ")
    assert not parse(file_of(real_site, "/mtg/rule/509.1a/")).find_class("rk-gone")
