"""One lineage per search result: every result's texts continue one another by the aligner's moves,
and a result carries the words of its own rule only."""

from __future__ import annotations

from itertools import pairwise

import search_support as support

from rules_kb.kb.ids import text_id
from rules_kb.search.documents import LINEAGE_EDGES, collect
from rules_kb.search.query import search

# The session's index (built once from the knowledge fixture), shared with test_search.py.
search_root = support.search_root
search_index = support.search_index


def _linked(graph, older: list, newer: list) -> bool:
    """Whether some text of the older slot has a next_version or renumbered edge to one of the newer."""
    targets = {text_id(rule) for rule in newer}
    return any(data.get("kind") in LINEAGE_EDGES and target in targets
               for rule in older if text_id(rule) in graph
               for _, target, data in graph.out_edges(text_id(rule), data=True))


def test_every_lineage_is_a_chain_of_the_aligners_moves(knowledge):
    """Walk every search group of the test corpus, oldest version first: each release appears once,
    and each text continues the one before it by a ``next_version`` (same rule, same number) or a
    ``renumbered`` (the aligner moved it) edge. A number reused for another rule is not a link."""
    groups, documents, version_lists = collect(knowledge)
    catalog = knowledge.catalog
    by_number: dict[tuple[str, str, str], dict[str, list]] = {}

    def texts(game: str, lang: str, label: str, number: str) -> list:
        if (game, lang, label) not in by_number:
            by_number[(game, lang, label)] = {str(n): rules for n, rules in catalog.rules_in(game, lang, label).items()}
        return by_number[(game, lang, label)].get(number, [])

    broken = []
    for group in groups:
        if isinstance(group.number, str):  # a tournament section (IPG 2.3): its document's versions, no aligner
            continue
        labels = version_lists[(group.game, group.lang)]
        slots = [(labels.index(label), documents[doc].number) for label, _, doc in reversed(group.versions)]
        ordinals = [ordinal for ordinal, _ in slots]
        assert ordinals == sorted(set(ordinals)), (group.game, group.lang, str(group.number), slots)
        for (a, number_a), (b, number_b) in pairwise(slots):
            if not _linked(knowledge.graph, texts(group.game, group.lang, labels[a], number_a),
                           texts(group.game, group.lang, labels[b], number_b)):
                broken.append(f"{group.game}/{group.lang} {group.number}: {labels[a]} {number_a} -> "
                              f"{labels[b]} {number_b}")
    assert not broken, f"{len(broken)} links no move of the aligner makes, e.g. {broken[:5]}"


def test_a_first_rule_carries_the_heading_printed_beside_it(search_index):
    """Magic's 309 was the Declare Blockers Step until 2009 and is Dungeons today: today's 309.1
    ("Dungeon is a card type…") carries the words of its own heading, never the old one's, so a
    query for declaring blockers does not find it (it ranked third, a text with none of the words)."""
    hits = search(search_index, "declares blockers", game="mtg", limit=10)
    assert hits[0].number == "509.1"
    assert "309.1" not in [hit.number for hit in hits]
