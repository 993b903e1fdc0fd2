"""The translation-drift report (``/{game}/drift/``) in the built site.

Facts from the corpus: ``corpus/correspondences.toml`` pairs English texts labelled 1.38 with
the Japanese texts that now state the same rule (DM 507.2a → 507.3b); the English 507 labelled
1.38 (seed 000) only retouched the 1.20 translation (fandom excerpt) across the 2021-09-07
rewrite; in seed 002 (1.17) the Japanese 506.2 has subrules 506.2b–e that the English lacks.
"""

from __future__ import annotations

import tomllib

from conftest import CORPUS
from site_helpers import file_of, parse

from rules_kb import links
from rules_kb.numbers import RuleNumber

PAGE = links.drift_page("dm")


def _row(tree, number: str):
    return tree.get_element_by_id(number)


def _hrefs(element) -> list[str]:
    return [a.get("href") for a in element.iter("a")]


def test_every_curated_correspondence_is_a_row_linking_both_texts(real_site):
    tree = parse(file_of(real_site, PAGE))
    entries = tomllib.loads((CORPUS / "correspondences.toml").read_text(encoding="utf-8"))["correspondence"]
    crossing = [e for e in entries if e["game"] == "dm" and e["old"]["lang"] != e["new"]["lang"]]
    assert len(crossing) == 10
    for entry in crossing:
        english = entry["old"] if entry["old"]["lang"] == "en" else entry["new"]
        row = _row(tree, english["number"])
        assert "correspondence" in row.get("data-sources").split()
        hrefs = _hrefs(row)
        for side in (entry["old"], entry["new"]):
            pinned = links.pinned_rule("dm", side["lang"], side["version"], RuleNumber.parse(side["number"]))
            assert links.relative(PAGE, pinned) in hrefs, (english["number"], pinned)
        assert links.relative(PAGE, links.rule_page("dm", RuleNumber.parse(english["number"]))) in hrefs
    counts = tree.get_element_by_id("rk-drift-counts").text_content()
    assert f"{len({e['old']['number'] for e in crossing})} with a curated correspondence" in counts


def test_the_english_lag_and_the_structure_flags_are_rows(real_site):
    tree = parse(file_of(real_site, PAGE))
    row = _row(tree, "507.2a")
    assert set(row.get("data-sources").split()) == {"correspondence", "lag"}
    assert "en 1.38 (2023-09-14) only retouched en 1.20 (2020-07-17) across the 2021-09-07 change" in row.text_content()
    hrefs = _hrefs(row)
    assert links.relative(PAGE, links.pinned_rule("dm", "en", "1.20", RuleNumber.parse("507.2a"))) in hrefs
    assert links.relative(PAGE, links.pinned_rule("dm", "ja", "1.38", RuleNumber.parse("507.3b"))) in hrefs
    flagged = _row(tree, "506.2")
    assert flagged.get("data-sources") == "drift"
    assert "only in Japanese 506.2b, 506.2c, 506.2d, 506.2e" in flagged.text_content()
    # Japanese is what Duel Masters publishes: a Japanese release is never reported as a lagging translation.
    assert all("ja " not in li.text_content()[:40] for li in tree.iter("li") if "translation lag" in li.text_content())


def test_the_report_is_linked_from_the_game_page(real_site):
    for game in ("dm", "mtg"):
        tree = parse(file_of(real_site, links.game_page(game)))
        assert "drift/" in _hrefs(tree.find_class("rk-game-links")[0])
    assert "no translation" in parse(file_of(real_site, links.drift_page("mtg"))).text_content()
