"""The rule graph: facts a reader can check in the corpus files named in each test."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

from rules_kb.ask.chains import analogues_of
from rules_kb.ask.query import citations_of, history
from rules_kb.compare.lineage import trace_lineage
from rules_kb.kb.graph import build_graph
from rules_kb.kb.ids import rule_id, text_id
from rules_kb.numbers import RuleNumber
from rules_kb.render.export import graph_from_json, graph_json_chunks, graph_to_json


def edges_of(graph, kind):
    return [(s, t, d) for s, t, d in graph.edges(data=True) if d["kind"] == kind]


def test_every_node_and_edge_kind_of_the_design_is_built(knowledge):
    graph = knowledge.graph
    node_kinds = Counter(d["kind"] for _, d in graph.nodes(data=True))
    edge_kinds = Counter(d["kind"] for _, _, d in graph.edges(data=True))
    assert set(node_kinds) == {"rule", "text", "version", "document", "term", "section", "section-text"}
    for kind in ("contains", "next_version", "translation", "cites", "changed_by", "discussed_by",
                 "analogue", "defines", "cites_section"):
        assert edge_kinds[kind] > 0, kind
    assert node_kinds["document"] == 40  # one per manifest entry: 37, and the MTR, the IPG, 競技イベント運営ルール
    assert node_kinds["section-text"] == 104 + 36 + 103  # 競技イベント運営ルール prints 9.1 twice: one node


def test_hierarchy_links_section_rule_subrule(knowledge):
    graph = knowledge.graph
    assert graph.has_edge(rule_id("dm", "507"), rule_id("dm", "507.2"))
    assert graph.has_edge(rule_id("dm", "507.2"), rule_id("dm", "507.2a"))


def test_who_cites_603_2e(knowledge):
    """Ver.1.48 506.3b and 507.3d cite (参考603.2e) / （参考：603.2e）; seed 000's 1.38 507.3d too,
    but 1.38 (an excerpt of 506-507) has no 603.2e, so that citation resolves in another version."""
    citations = citations_of(knowledge, RuleNumber.parse("603.2e"), "dm")
    found = {(c.lang, c.version, c.number, c.resolution) for c in citations}
    assert found == {
        ("ja", "1.38", "507.3d", "other-version"),
        ("ja", "1.48", "506.3b", "same-version"),
        ("ja", "1.48", "507.3d", "same-version"),
    }


def test_history_of_507_2a_in_japanese_is_notice_then_1_38_then_1_48(knowledge):
    texts = history(knowledge, RuleNumber.parse("507.2a"), "dm", "ja")
    assert [(t.version, t.document) for t in texts] == [
        ("2021-09-07", "seed-001"), ("1.38", "seed-000"), ("1.48", "dm-rulebook-ja-1.48")]
    assert all("最終的に、ブロッカー能力によって" in t.text for t in texts)


def test_next_version_chain_of_japanese_507_2a(knowledge):
    texts = history(knowledge, RuleNumber.parse("507.2a"), "dm", "ja")
    graph = knowledge.graph
    for older, newer in pairwise(texts):
        assert any(d["kind"] == "next_version" for d in graph.get_edge_data(text_id(older), text_id(newer)).values())


def test_magic_309_2a_versions_chain_from_rulings_to_the_2008_release(knowledge):
    """Seed 004 dates 309.2a 2007/10/01 and 2008/02/01; CR-2008-10-01 prints it again."""
    texts = history(knowledge, RuleNumber.parse("309.2a"), "mtg")
    assert [t.version for t in texts][:4] == ["2007-10-01", "2008-02-01", "2008-10-01", "2009-05-01"]


def test_translation_of_1_38_507_1_is_flagged_as_drifted(knowledge):
    """Seed 000: English 507.1 has 507.1a-d, Japanese 507.1 has 507.1a-b (the 2021 rewrite)."""
    english = knowledge.catalog.text_of("dm", "en", "1.38", RuleNumber.parse("507.1"))
    edges = [d for _, _, d in knowledge.graph.out_edges(text_id(english), data=True) if d["kind"] == "translation"]
    assert edges and all(d["drifted"] for d in edges)
    assert "only in English 507.1c, 507.1d;" in edges[0]["drift"][0]


def test_translation_of_1_38_507_1a_is_aligned(knowledge):
    english = knowledge.catalog.text_of("dm", "en", "1.38", RuleNumber.parse("507.1a"))
    edges = [d for _, _, d in knowledge.graph.out_edges(text_id(english), data=True) if d["kind"] == "translation"]
    assert edges and not any(d["drifted"] for d in edges)


def test_change_notice_and_commentary_links(knowledge):
    graph = knowledge.graph
    out_edges = graph.out_edges(rule_id("dm", "507.2a"), data=True)
    targets = {(graph.nodes[t]["document"], d["kind"]) for _, t, d in out_edges
               if d["kind"] in ("changed_by", "discussed_by")}
    assert ("seed-001", "changed_by") in targets
    discussed = {graph.nodes[t]["document"] for _, t, d in graph.out_edges(rule_id("dm", "507.3c"), data=True)
                 if d["kind"] == "discussed_by"}
    assert "seed-003" in discussed  # 「…判定される(総合ルール 507.3c.)。」


def test_analogue_of_dm_507_is_magic_309_then_509(knowledge):
    """The two curated pairs (309 in 2008, 509 from 2009) are one rule of Magic, renumbered in 2009."""
    rows = analogues_of(knowledge, RuleNumber.parse("507"), "dm")
    assert [(r.analogue, [e.number for e in r.chain.eras]) for r in rows] == [("309", ["309", "509"])]
    assert rows[0].mtg_versions[:3] == ("2008-10-01", "2009-05-01", "2009-07-08")


def test_analogue_is_symmetric_from_the_magic_side(knowledge):
    rows = analogues_of(knowledge, RuleNumber.parse("509.4f"), "mtg")
    assert sorted(r.analogue for r in rows) == ["507.2a", "507.3b"]


def test_every_analogue_names_rules_that_exist(knowledge):
    catalog = knowledge.catalog
    dm_numbers, mtg_numbers = set(catalog.numbers_of("dm")), set(catalog.numbers_of("mtg"))
    sections = 0
    for source, target, _ in edges_of(knowledge.graph, "analogue"):
        found, other = knowledge.graph.nodes[source], knowledge.graph.nodes[target]
        if found["kind"] == "section":  # a penalty-guideline section and the IPG section it follows
            assert catalog.sections.section("dm", found["document"], found["number"]) is not None
            assert catalog.sections.section("mtg", other["document"], other["number"]) is not None
            sections += 1
            continue
        assert RuleNumber.parse(found["number"]) in dm_numbers
        assert RuleNumber.parse(other["number"]) in mtg_numbers
    assert sections == 27  # corpus/tournament-analogues.toml: 30 entries, 3 with one side only


def test_terms_are_defined(knowledge):
    graph = knowledge.graph
    glossary = [t for s, t, d in edges_of(graph, "defines") if graph.nodes[s]["kind"] == "version"
                and graph.nodes[s]["label"] == "2022-11-18"]
    assert len(glossary) == 647  # CR-2022-11-18's glossary entries
    assert graph.has_edge(rule_id("dm", "507.2a"), "term:dm:ja:ブロッククリーチャー")


def test_unresolved_citations_are_reported_not_dropped(knowledge):
    """CR-2009-07-08 401.6 cites 'rule 602.1i', which no release in the corpus has."""
    unresolved = {(u.source, u.number) for u in knowledge.unresolved}
    assert ("text:mtg:en:2009-07-08:401.6@mtg-cr-2009-07-08", "602.1i") in unresolved
    edges = [d for _, _, d in knowledge.graph.out_edges("text:mtg:en:2009-07-08:401.6@mtg-cr-2009-07-08", data=True)
             if d["kind"] == "cites" and d["resolution"] == "unresolved"]
    assert edges


def test_alignment_feeds_renumbered_edges(knowledge):
    old = knowledge.catalog.text_of("mtg", "en", "2009-05-01", RuleNumber.parse("309.2a"))
    new = knowledge.catalog.text_of("mtg", "en", "2009-07-08", RuleNumber.parse("509.1a"))
    data = knowledge.graph.get_edge_data(text_id(old), text_id(new))
    assert [d["kind"] for d in data.values()] == ["renumbered"]


def test_a_complete_release_without_a_number_ends_its_era(knowledge):
    """309.2a is absent from every release 2009-07-08 ... 2019-05-03; the 2022 309.2a is another rule."""
    old = knowledge.catalog.text_of("mtg", "en", "2009-05-01", RuleNumber.parse("309.2a"))
    later = knowledge.catalog.text_of("mtg", "en", "2022-11-18", RuleNumber.parse("309.2a"))
    assert not knowledge.graph.has_edge(text_id(old), text_id(later))


def test_other_version_citations_say_where_they_resolve(knowledge):
    text = knowledge.catalog.text_of("dm", "ja", "1.38", RuleNumber.parse("507.3d"))
    cites = [d for _, t, d in knowledge.graph.out_edges(text_id(text), data=True) if d["kind"] == "cites"]
    assert [(c["resolution"], c["resolved_in"][-1]) for c in cites] == [("other-version", "ja:1.48")]


def test_json_export_loads_back_unchanged(knowledge):
    graph = knowledge.graph
    loaded = graph_from_json(graph_to_json(graph))
    assert loaded.number_of_nodes() == graph.number_of_nodes()
    assert loaded.number_of_edges() == graph.number_of_edges()
    assert dict(loaded.nodes(data=True)) == dict(graph.nodes(data=True))
    assert sorted(loaded.edges(keys=True, data=True), key=repr) == sorted(graph.edges(keys=True, data=True), key=repr)


def test_export_is_deterministic(knowledge):
    assert graph_to_json(knowledge.graph) == graph_to_json(knowledge.graph)


def test_streamed_export_is_byte_identical_to_networkx_node_link_json(knowledge):
    """The export is written as the graph is walked; its bytes are those networkx's own node-link
    data dumped whole would give (small batches, so several chunks are joined)."""
    import json

    import networkx as nx

    graph = knowledge.graph
    whole = json.dumps(nx.node_link_data(graph, edges="edges"), ensure_ascii=False, sort_keys=True, indent=None,
                       separators=(",", ":"))
    chunks = list(graph_json_chunks(graph, batch=997))
    assert len(chunks) > 10
    assert "".join(chunks) == whole


def test_a_number_taken_over_in_one_step_starts_a_new_era(knowledge):
    """2022-11-18 put Dungeons at 309 and moved Planes from 309 to 310: no next_version 309 -> 309."""
    planes = knowledge.catalog.text_of("mtg", "en", "2019-05-03", RuleNumber.parse("309"))
    dungeons = knowledge.catalog.text_of("mtg", "en", "2022-11-18", RuleNumber.parse("309"))
    assert (planes.title, dungeons.title) == ("Planes", "Dungeons")
    assert not knowledge.graph.has_edge(text_id(planes), text_id(dungeons))
    moved = [d["new"] for _, _, d in knowledge.graph.out_edges(text_id(planes), data=True) if d["kind"] == "renumbered"]
    assert moved == ["310"]


def test_lineage_is_decided_before_the_graph_and_drawn_as_is(knowledge):
    """The era of 309 ends in 2022 in the lineage itself; the graph draws exactly its links."""
    lineage = trace_lineage(knowledge.catalog, knowledge.alignments, knowledge.forced)
    links = {(text_id(a), text_id(b)) for a, b in lineage.successions}
    planes = knowledge.catalog.text_of("mtg", "en", "2019-05-03", RuleNumber.parse("309"))
    dungeons = knowledge.catalog.text_of("mtg", "en", "2022-11-18", RuleNumber.parse("309"))
    assert (text_id(planes), text_id(dungeons)) not in links
    assert [str(m.new.number) for m in lineage.moves if m.old is planes] == ["310"]
    assert links == {(s, t) for s, t, _ in edges_of(knowledge.graph, "next_version")}
    assert len(lineage.moves) == len(edges_of(knowledge.graph, "renumbered"))
    bare, _ = build_graph(knowledge.catalog)
    assert not edges_of(bare, "next_version") and not edges_of(bare, "renumbered")


def test_a_text_node_gives_what_its_release_prints_in_the_attributes_order(knowledge):
    """Text nodes read their attributes from the parsed text (``kb.graph.TextNode``), not a copy:
    the keys, order and values every reader and the export saw when they were a dict. 702.19b of
    the 2024-11-08 release (trample) and its two examples, characters 486,621-487,418 of its text."""
    data = knowledge.graph.nodes["text:mtg:en:2024-11-08:702.19b@mtg-cr-2024-11-08"]
    assert list(data) == ["kind", "game", "lang", "version", "date", "number", "title", "text", "examples",
                          "document", "span", "truncated", "written_as"]
    assert {key: data[key] for key in ("kind", "game", "lang", "version", "number", "document", "span")} == {
        "kind": "text", "game": "mtg", "lang": "en", "version": "2024-11-08", "number": "702.19b",
        "document": "mtg-cr-2024-11-08", "span": [486621, 487418]}
    assert data["text"].startswith("The controller of an attacking creature with trample first assigns damage")
    assert [e[:24] for e in data["examples"]] == ["A 2/2 creature that can ", "A 6/6 green creature wit"]
    assert (data["title"], data["truncated"], data["written_as"], data.get("missing", "-")) == (None, False, None, "-")
    assert "text" in data and "missing" not in data and len(data) == 13
