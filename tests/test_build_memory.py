"""What keeps the knowledge base small across near-identical releases: equal strings read back
from the caches are one object, and a pair of nodes joined by one plain edge shares a key dict."""

from __future__ import annotations

import json

import networkx as nx

from rules_kb.kb.ids import rule_id, text_id, version_id
from rules_kb.kb.nodes import link_plain
from rules_kb.model import ParsedDocument
from rules_kb.numbers import RuleNumber
from rules_kb.store.records import document_from_record, document_record


def test_two_releases_read_back_share_their_unchanged_texts(knowledge):
    """Two Magic releases read from their cache records: a rule text unchanged between them, its
    version's date and its game are each one string object, not one per release."""
    old, new = (knowledge.catalog.documents[doc] for doc in ("mtg-cr-2022-11-18", "mtg-cr-2024-11-08"))
    number = RuleNumber.parse("702.2b")  # deathtouch: the same words in both

    def read_back(parsed: ParsedDocument) -> ParsedDocument:
        return document_from_record(json.loads(json.dumps(document_record(parsed))))  # as the cache gives it

    (first,), (second,) = ([r for r in read_back(d).rules if r.number == number] for d in (old, new))
    assert first.text == second.text and first.version != second.version
    assert first.text is second.text
    assert first.game is second.game and first.lang is second.lang
    terms = {t.term: t for t in read_back(old).terms}
    again = {t.term: t for t in read_back(old).terms}
    assert terms["Attacking Creature"].definition is again["Attacking Creature"].definition


def test_plain_edges_between_two_nodes_share_one_read_only_key_dict(knowledge):
    graph = knowledge.graph
    first, second = (text_id(knowledge.catalog.text_of("mtg", "en", label, RuleNumber.parse("509.1a")))
                     for label in ("2022-11-18", "2024-11-08"))
    target = rule_id("mtg", RuleNumber.parse("509.1a"))
    assert graph._succ[first][target] is graph._succ[second][target] is graph._pred[target][first]
    assert dict(graph.get_edge_data(first, target)) == {0: {"kind": "text_of"}}
    assert next(iter(graph.out_edges(first, keys=True, data=True))) == (first, target, 0, {"kind": "text_of"})
    assert graph.has_edge(first, second) and [d["kind"] for d in graph.get_edge_data(first, second).values()] == [
        "next_version"]


def test_a_second_edge_between_two_plainly_joined_nodes_leaves_the_others_alone():
    graph = nx.MultiDiGraph()
    texts = ["text:a", "text:b"]
    version = version_id("mtg", "en", "2024-11-08")
    graph.add_nodes_from([*texts, version])
    for text in texts:
        link_plain(graph, text, version, "in_version")
    link_plain(graph, "text:a", version, "in_version")  # a second edge between the same two nodes
    graph.add_edge("text:a", version, kind="cites")
    assert [(k, d) for _, _, k, d in graph.out_edges("text:a", keys=True, data=True)] == [
        (0, {"kind": "in_version"}), (1, {"kind": "in_version"}), (2, {"kind": "cites"})]
    assert [(k, d) for _, _, k, d in graph.out_edges("text:b", keys=True, data=True)] == [(0, {"kind": "in_version"})]
    assert graph.number_of_edges() == 4
