"""A rule's versions read the same on its page, in ``history`` and in ``explain``.

For every Duel Masters number and every Magic number of chapter 5 (in the test subset): the
page's runs of identical versions are ``history``'s runs, and each change the page names
("changes from 1.38 (editorial)") has the class ``explain`` gives the same rule between the
same two versions; inside a run, ``explain`` says unchanged.
"""

from __future__ import annotations

from itertools import pairwise

import pytest

from rules_kb.ask.query import era_starts, history
from rules_kb.ask.story import version_chains
from rules_kb.compare.alignment import Scope
from rules_kb.render.rule_pages import entry_change, rule_entries
from rules_kb.render.textformat import same_text_once, unchanged_runs


def numbers_of(knowledge, game: str, chapter: int | None = None) -> list:
    catalog = knowledge.catalog
    found = {number for (g, lang, label) in catalog.versions if g == game
             for number in catalog.rules_in(g, lang, label)}
    return sorted(n for n in found if chapter is None or n.chapter == chapter)


def history_runs(knowledge, game: str, number) -> dict[str, list[list[str]]]:
    texts = history(knowledge, number, game)
    runs: dict[str, list[list[str]]] = {}
    for run in unchanged_runs(texts, same_text_once(texts), era_starts(knowledge, texts)):
        lang = texts[run[0][0]].lang
        runs.setdefault(lang, []).append(list(dict.fromkeys(texts[i].version for i, _ in run)))
    return runs


def disagreements(knowledge, game: str, number) -> tuple[list[str], int]:
    _, by_lang = rule_entries(knowledge, game, number)
    found, checked = [], 0
    if {lang: [e.labels for e in entries] for lang, entries in by_lang.items()} != history_runs(knowledge, game,
                                                                                               number):
        found.append(f"{game} {number}: page and history group the versions differently")
    chains = version_chains(knowledge, game, Scope(rule=number), tuple(by_lang))
    for lang, entries in by_lang.items():
        classes = {}
        for comparison in chains[lang]:
            for row in comparison.rows:
                if row.pair.old_number == number and row.pair.new_number == number:
                    classes[(comparison.alignment.old_version, comparison.alignment.new_version)] = row.text_class
        for previous, entry in pairwise(entries):
            key = (previous.labels[-1], entry.labels[0])
            if entry.new_era or key not in classes:
                continue
            checked += 1
            page = entry_change(previous, entry).text_class
            if page != classes[key]:
                found.append(f"{game} {lang} {number} {key[0]}->{key[1]}: page {page}, explain {classes[key]}")
        for entry in entries:
            for key in pairwise(entry.labels):
                if key in classes:
                    checked += 1
                    if classes[key] != "unchanged":
                        found.append(f"{game} {lang} {number} {key[0]}->{key[1]}: page one run, explain "
                                     f"{classes[key]}")
    return found, checked


@pytest.mark.parametrize(("game", "chapter"), [("dm", None), ("mtg", 5)])
def test_page_history_and_explain_agree_on_every_chain(knowledge, game, chapter):
    found, checked = [], 0
    for number in numbers_of(knowledge, game, chapter):
        wrong, count = disagreements(knowledge, game, number)
        found += wrong
        checked += count
    print(f"\n{game}: {checked} version steps checked")
    assert checked >= (30 if game == "dm" else 1000)
    assert found == []


@pytest.mark.parametrize("kind", ["renumbered", "analogue", "translation", "cites"])
def test_the_kind_edges_read_in_one_walk_are_the_edges_each_node_gives(knowledge, kind):
    """Pages ask each rule for its moves, analogues, translations and citations from one walk of
    the graph (``kind_edges``): every node's edges of the kind, in the order ``out_edges``/``in_edges`` give
    them, as the store's graph is asked (``EdgesAsked``), and no (game, number) left out."""
    from rules_kb.ask.query import EdgesAsked, kind_edges

    graph = knowledge.graph
    found, asked = kind_edges(knowledge, kind), EdgesAsked(graph, kind)
    touched = {node for source, target, data in graph.edges(data=True) if data["kind"] == kind
               for node in (source, target)}
    assert touched, f"the test corpus has {kind} edges"
    for node in graph.nodes:
        assert found.out_edges(node) == asked.out_edges(node)
        assert found.in_edges(node) == asked.in_edges(node)
    assert found.numbers == {(graph.nodes[n].get("game"), graph.nodes[n]["number"]) for n in touched
                             if "number" in graph.nodes[n]}


def test_a_history_read_once_is_the_history_asked_afresh(knowledge):
    """``history_with_eras`` keeps each number's texts and era starts for the pages and chains
    that ask again; what it keeps is what ``history`` and ``era_starts`` give (Magic 309: the
    declare-blockers rule until 2009, another rule since)."""
    from rules_kb.ask.query import history_with_eras
    from rules_kb.numbers import RuleNumber

    for game in ("dm", "mtg"):
        for number in numbers_of(knowledge, game, 3):
            texts = history(knowledge, number, game)
            assert history_with_eras(knowledge, number, game) == (texts, era_starts(knowledge, texts))
    texts, starts = history_with_eras(knowledge, RuleNumber.parse("309"), "mtg")
    assert any(starts), "309 holds two rules in the test corpus"


def test_a_numbers_texts_from_the_index_are_what_walking_every_version_gives(knowledge):
    """``texts_by_number`` (one walk of the catalog, kept on the knowledge base) gives each game,
    language and number's texts in version order, as reading the number out of every version's
    dict does; ``history``, moves and ``require_rule`` read it instead of walking the versions."""
    from rules_kb.ask.query import texts_by_number

    catalog = knowledge.catalog
    walked = {}
    for game, lang in sorted({(g, lg) for g, lg, _ in catalog.versions}):
        for number in catalog.numbers_of(game):
            texts = [text for label in catalog.version_labels(game, lang)
                     for text in catalog.rules_in(game, lang, label).get(number, [])]
            if texts:
                walked[(game, lang, number)] = texts
    index = texts_by_number(knowledge)
    assert index == walked
    assert sum(len(texts) for texts in index.values()) == sum(
        len(texts) for rules in catalog.texts.values() for texts in rules.values())


def test_a_magic_rule_whose_moves_reach_no_pairing_has_no_analogue(knowledge):
    """``analogues_of`` skips following the chains of a Magic rule that no run of moves joins to a
    number a curated pairing names (``_may_have_analogues``): for every Magic number of the test
    corpus it gives what following every chain gives, and some numbers do have analogues."""
    from rules_kb.ask import chains

    numbers = knowledge.catalog.numbers_of("mtg")
    kept = vars(knowledge)
    previous = kept.get("_analogue_reach", "absent")
    kept["_analogue_reach"] = None  # no reach known: every chain followed
    try:
        followed = {number: chains.analogues_of(knowledge, number, "mtg") for number in numbers}
    finally:
        del kept["_analogue_reach"]
    skipped = {number: chains.analogues_of(knowledge, number, "mtg") for number in numbers}
    if previous != "absent":
        assert kept["_analogue_reach"] == previous
    assert skipped == followed
    with_analogues = [number for number, rows in followed.items() if rows]
    reach = kept["_analogue_reach"]
    print(f"\n{len(numbers)} Magic numbers, {len(with_analogues)} with analogues, {len(reach)} within reach")
    assert len(with_analogues) >= 20
    assert len(reach) < len(numbers) / 2, "the shortcut skips most Magic numbers"
