"""GraphML export: written as the graph is walked, read back whole by networkx (``render/export.py``)."""

from __future__ import annotations

import json
from collections import Counter

import networkx as nx
import pytest

from rules_kb.errors import ExportError
from rules_kb.kb.ids import rule_id
from rules_kb.numbers import RuleNumber
from rules_kb.render.export import export_lines, graph_to_graphml_lines, read_graph
from rules_kb.render.output import write_atomically


def flat(data: dict) -> dict:
    """What GraphML can hold of an element's attributes: lists and dicts as JSON, no None."""
    return {key: json.dumps(value, ensure_ascii=False) if isinstance(value, list | dict) else value
            for key, value in data.items() if value is not None}


@pytest.fixture(scope="module")
def exported(knowledge, tmp_path_factory):
    path = tmp_path_factory.mktemp("graphml") / "graph.graphml"
    write_atomically(path, export_lines(knowledge.graph, "graphml"), newline=False)
    return path


def test_graphml_reads_back_every_node_edge_and_value(knowledge, exported):
    graph, loaded = knowledge.graph, read_graph(exported, "graphml")
    assert list(loaded.nodes) == [str(node) for node in graph.nodes]
    assert {node: data for node, data in loaded.nodes(data=True)} == {
        str(node): flat(data) for node, data in graph.nodes(data=True)}
    # networkx reads an edge's id back as its key, turning digits into an int
    read = Counter((s, t, str(k), repr(sorted(d.items()))) for s, t, k, d in loaded.edges(keys=True, data=True))
    held = Counter((str(s), str(t), str(k), repr(sorted(flat(d).items())))
                   for s, t, k, d in graph.edges(keys=True, data=True))
    assert read == held


def test_graphml_is_utf8_one_element_a_line(knowledge, exported):
    """Japanese text as itself, not as character references; an element opens on a line of its own."""
    text = exported.read_text(encoding="utf-8")
    assert text.startswith("<?xml version='1.0' encoding='utf-8'?>\n<graphml ")
    assert text.endswith("  </graph>\n</graphml>\n")
    assert "&#12" not in text
    node = rule_id("dm", RuleNumber.parse("507.2a"))
    assert f'    <node id="{node}">\n' in text
    starts = Counter(line.split()[0] for line in text.splitlines() if line.startswith("    <"))
    graph = knowledge.graph
    assert (starts["<node"], starts["<edge"]) == (graph.number_of_nodes(), graph.number_of_edges())


def test_graphml_export_is_deterministic_and_batch_independent(knowledge, exported):
    chunks = list(graph_to_graphml_lines(knowledge.graph, batch=997))
    assert len(chunks) > 10
    assert "".join(chunks) == exported.read_text(encoding="utf-8")


def test_markup_and_whitespace_in_values_and_ids_come_back_as_they_were(tmp_path):
    graph = nx.MultiDiGraph()
    graph.add_node('x <"&"> \t\n', text="<script>alert(1)</script> & 「ブロック」\r\nline two", count=3, share=0.5,
                   shown=False, parts=["a", "b"], gone=None)
    graph.add_edge('x <"&"> \t\n', "y", kind="cites", count=2)
    graph.add_edge('x <"&"> \t\n', "y", kind="cites")
    path = tmp_path / "g.graphml"
    write_atomically(path, export_lines(graph, "graphml"), newline=False)
    assert "<script>" not in path.read_text(encoding="utf-8")
    loaded = read_graph(path, "graphml")
    assert dict(loaded.nodes(data=True)) == {str(n): flat(d) for n, d in graph.nodes(data=True)}
    assert sorted((s, t, str(k), sorted(d.items())) for s, t, k, d in loaded.edges(keys=True, data=True)) \
        == sorted((s, t, str(k), sorted(d.items())) for s, t, k, d in graph.edges(keys=True, data=True))


def test_a_character_xml_cannot_hold_is_named_and_nothing_is_written(tmp_path):
    """A form feed cannot be written in XML 1.0, not even as a reference: the export names where it
    is and leaves neither the file nor a temporary one."""
    graph = nx.MultiDiGraph()
    graph.add_node("rule:dm:100.1", text="ok")
    graph.add_node("rule:dm:100.2", text="page\x0cbreak")
    path = tmp_path / "g.graphml"
    with pytest.raises(ExportError) as raised:
        write_atomically(path, export_lines(graph, "graphml"), newline=False)
    assert str(raised.value) == ("GraphML (XML 1.0) cannot hold the character U+000C: attribute 'text' of "
                                 '<node id="rule:dm:100.2">')
    assert list(tmp_path.iterdir()) == []
