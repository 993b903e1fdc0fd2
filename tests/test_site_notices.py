"""Change-notice and commentary pages (``/{game}/notice/{document}/``) in the built site.

Facts from the corpus: the 2020-10-23 notice (rulechange_31618__2020-10-23.txt) prints 506.3b,
506.3c and 603.2e as they read before (変更前) and after (変更後) the change; 506.3b is also
printed in the 1.17 excerpt (seed 002, 2019-12-13) and in Ver.1.48.
"""

from __future__ import annotations

from conftest import CORPUS
from site_helpers import file_of, parse

from rules_kb import links
from rules_kb.ingest.corpus import load_manifest
from rules_kb.numbers import RuleNumber

NOTICE = "dm-notice-2020-10-23"
KINDS = {"change-notice", "rulings", "commentary"}


def test_every_notice_and_commentary_document_has_a_page_listed_on_its_game_page(real_site, knowledge):
    documents = [d.meta for d in knowledge.catalog.documents.values() if d.meta.kind in KINDS]
    assert len(documents) >= 15
    for game in ("dm", "mtg"):
        listed = {a.get("href") for a in parse(file_of(real_site, links.game_page(game))).iter("a")}
        for meta in (m for m in documents if m.game == game):
            assert file_of(real_site, links.notice_page(game, meta.id)).is_file(), meta.id
            assert f"notice/{meta.id}/" in listed, meta.id


def test_a_notice_page_shows_provenance_and_its_entries_in_order(real_site):
    meta = next(m for m in load_manifest(CORPUS) if m.id == NOTICE)
    tree = parse(file_of(real_site, links.notice_page("dm", NOTICE)))
    provenance = tree.find_class("rk-provenance")[0].text_content()
    assert meta.sha256 in provenance and "2020-10-23" in provenance
    assert meta.file not in provenance and "corpus/" not in provenance  # where the project keeps it is no address
    source = (CORPUS / meta.file).read_text(encoding="utf-8")
    rules = tree.find_class("rk-notice-rule")
    numbers = [r.find_class("rk-num")[0].text_content() for r in rules]
    assert numbers == ["506.3b", "506.3c", "506.3b", "506.3c", "603.2e", "603.2e"]
    texts = [r.find_class("rk-text")[0].text_content() for r in rules]
    positions = [-1]
    for text in texts:  # each text is printed after the one before it (ValueError otherwise)
        positions.append(source.index(text, positions[-1] + 1))
    positions = positions[1:]
    assert source.index("変更前") < positions[0] < source.index("変更後") < positions[2]
    assert rules[0].get("id") == "506.3b" and rules[2].get("id") is None


def test_notice_entries_link_the_versions_before_and_after(real_site):
    page = links.notice_page("dm", NOTICE)
    tree = parse(file_of(real_site, page))
    entry = tree.get_element_by_id("506.3b")
    hrefs = {a.text_content(): a.get("href") for a in entry.find_class("rk-notice-links")[0].iter("a")}
    number = RuleNumber.parse("506.3b")
    assert hrefs["before: 1.17"] == links.relative(page, links.pinned_rule("dm", "ja", "1.17", number))
    assert hrefs["after: 1.48"] == links.relative(page, links.pinned_rule("dm", "ja", "1.48", number))
    assert hrefs["as printed here: before-2020-10-23"] == links.relative(
        page, links.pinned_rule("dm", "ja", "before-2020-10-23", number))
    assert hrefs["506.3b: every version"] == links.relative(page, links.rule_page("dm", number))


def test_rule_pages_link_their_notices(real_site):
    page = links.rule_page("dm", RuleNumber.parse("506.3b"))
    hrefs = [a.get("href") for a in parse(file_of(real_site, page)).iter("a")]
    assert links.relative(page, links.notice_page("dm", NOTICE) + "#506.3b") in hrefs


def test_commentary_pages_link_the_rules_they_cite(real_site):
    tree = parse(file_of(real_site, links.notice_page("mtg", "seed-004")))
    cited = [e for e in tree.find_class("rk-notice-commentary") if "Rule 306" in e.text_content()]
    assert cited and cited[0].find_class("rk-notice-links")
