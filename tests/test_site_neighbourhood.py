"""The neighbourhood diagram of a rule page: hierarchy plus the rules it cites and the rules
citing it in the newest version of each language, capped, every box a link.

Facts from Ver.1.48 (dm_rule-ja-v1.48.md): 506.3b and 507.3d end with （参考 603.2e）.
"""

from __future__ import annotations

from site_helpers import file_of, parse

from rules_kb import links
from rules_kb.ask.query import citations_of
from rules_kb.numbers import RuleNumber
from rules_kb.render.neighbourhood import MAX_CITATIONS


def _boxes(real_site, game: str, number: str, cls: str) -> tuple[list[str], list[str], str]:
    page = links.rule_page(game, RuleNumber.parse(number))
    tree = parse(file_of(real_site, page))
    found = tree.find_class(cls)
    if not found:
        return [], [], ""
    anchors = [a for a in found[0].iter("a")]
    return [a.text_content() for a in anchors], [a.get("href") for a in anchors], found[0].text_content()


def test_cited_by_and_cites_on_duel_masters_pages(real_site):
    numbers, hrefs, _ = _boxes(real_site, "dm", "603.2e", "rk-cites-in")
    assert numbers == ["506.3b", "507.3d"]
    assert hrefs == ["../506.3b/", "../507.3d/"]
    numbers, hrefs, _ = _boxes(real_site, "dm", "507.3d", "rk-cites-out")
    assert "603.2e" in numbers and "../603.2e/" in hrefs


def test_the_lists_are_capped(real_site, knowledge):
    newest = knowledge.catalog.version_labels("mtg", "en")[-1]
    counts = {}
    for number in knowledge.catalog.rules_in("mtg", "en", newest):
        if number.depth < 2:
            citers = {c.number for c in citations_of(knowledge, number, "mtg", newest) if c.source_kind == "text"}
            counts[number] = len(citers - {str(number)})
    number, count = max(counts.items(), key=lambda item: (item[1], item[0]))
    assert count > MAX_CITATIONS
    shown, _, text = _boxes(real_site, "mtg", str(number), "rk-cites-in")
    assert len(shown) == MAX_CITATIONS and f"… {count - MAX_CITATIONS} more" in text
