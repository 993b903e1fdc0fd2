"""Graph export: node-link JSON (round-trips exactly) and GraphML (attributes flattened)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from rules_kb.errors import ExportError

if TYPE_CHECKING:
    import networkx as nx

FORMATS = ("json", "graphml")


def graph_to_json(graph: nx.MultiDiGraph) -> str:
    """Node-link JSON as one string (``graph_json_chunks`` joined): small graphs and tests."""
    return "".join(graph_json_chunks(graph))


def graph_json_chunks(graph: nx.MultiDiGraph, batch: int = 2000) -> Iterable[str]:
    """Node-link JSON written as the graph is walked, never held whole (0.3 GB at full history).

    The bytes are those of ``json.dumps(nx.node_link_data(graph, edges="edges"), sort_keys=True,
    ensure_ascii=False, separators=(",", ":"))`` (``edges="edges"`` explicitly: networkx changed the
    default key): the same top-level keys in sorted order, each node and edge a sorted object, in
    networkx's node and out-edge order. ``tests/test_graph.py`` checks the two agree. orjson writes
    them: 1.44 million objects at full history took json 9.4 CPU s, orjson 3.0 (the graph's walk 3.5).
    """
    def encode(value: object) -> str:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()

    yield f'{{"directed":{encode(graph.is_directed())},"edges":['
    yield from _joined(({**data, "source": source, "target": target, "key": key}
                        for source, target, key, data in graph.edges(keys=True, data=True)), encode, batch)
    yield f'],"graph":{encode(graph.graph)},"multigraph":{encode(graph.is_multigraph())},"nodes":['
    yield from _joined(({**data, "id": node} for node, data in graph.nodes(data=True)), encode, batch)
    yield "]}"


def _joined(objects: Iterable[dict], encode, batch: int) -> Iterable[str]:
    """Comma-separated encodings, yielded ``batch`` at a time (fewer, larger writes)."""
    chunk: list[str] = []
    first = True
    for item in objects:
        chunk.append(encode(item))
        if len(chunk) == batch:
            yield ("" if first else ",") + ",".join(chunk)
            first, chunk = False, []
    if chunk:
        yield ("" if first else ",") + ",".join(chunk)


def graph_from_json(text: str) -> nx.MultiDiGraph:
    import networkx as nx

    return nx.node_link_graph(json.loads(text), directed=True, multigraph=True, edges="edges")


# How GraphML names each Python type a value can have, and how the value is written: lists and
# dicts as JSON strings (GraphML holds scalars only). networkx reads each back as its type.
def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


GRAPHML_TYPES: dict[type, tuple[str, Callable[[Any], str]]] = {
    str: ("string", str), bool: ("boolean", lambda value: "true" if value else "false"), int: ("long", str),
    float: ("double", repr), list: ("string", _json), dict: ("string", _json),
}
# What XML 1.0 cannot hold at all, not even as a character reference.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_GRAPHML_NAMESPACES = ('xmlns="http://graphml.graphdrawing.org/xmlns" '
                       'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
                       'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
                       'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd"')


def _xml_text(value: str) -> str:
    """``value`` as element text (a carriage return kept as a reference, which parsers would fold).

    Four replaces rather than ``xml.sax.saxutils.escape``, which does the same with a dict's loop:
    1.3-1.5 µs against 1.7-2.3 µs a value, and the whole corpus writes 8.5 million values."""
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")


def _xml_attribute(value: str) -> str:
    """``value`` as a double-quoted attribute (whitespace kept as references, which parsers would fold)."""
    return _xml_text(value).replace('"', "&quot;").replace("\n", "&#10;").replace("\t", "&#9;")


def _refuse_what_xml_cannot_hold(chunk: str, names: dict[str, str]) -> str:
    """``chunk`` as it is, or ``ExportError`` naming the element and attribute holding a character
    XML 1.0 has no way to write (one search of each chunk, not of each value)."""
    found = _NOT_XML.search(chunk)
    if found is None:
        return chunk
    before = chunk[:found.start()]
    line = before[before.rfind("\n") + 1:]
    opening = next((text for text in reversed(before.split("\n")) if text.lstrip().startswith(("<node", "<edge"))), "")
    key = re.match(r'\s*<data key="([^"]+)">', line)
    where = opening.strip().rstrip(">/") + ">" if opening else "the graph"
    what = f"attribute {names[key.group(1)]!r} of " if key else ""
    raise ExportError(f"GraphML (XML 1.0) cannot hold the character U+{ord(found.group(0)):04X}: {what}{where}")


def graph_to_graphml_lines(graph: nx.MultiDiGraph, batch: int = 2000) -> Iterable[str]:
    """GraphML written as the graph is walked, one element a line, UTF-8: never a tree of the whole graph.

    networkx's writer builds an ElementTree of every node, edge and value and serializes it whole: at
    the full history 5.7 GB at its peak and 95 CPU s (``benchmarks/bench_graph_export.py``), in one
    line of character references for every Japanese letter. Here a first walk collects the attribute
    keys, which GraphML declares before the graph, and a second writes each element as it is
    reached. Keys are numbered ``d0``, ``d1``… in order of first use (graph, nodes, edges); an edge's
    ``id`` is its key in the multigraph; list and dict values are JSON strings and None is left out,
    as before. ``nx.read_graphml(path, force_multigraph=True)`` reads back every node, edge and value
    (``tests/test_graph_export.py``). A character XML 1.0 cannot hold raises ``ExportError`` naming
    the element and attribute (before the file is in place: ``write_atomically``).
    """
    keys: dict[tuple[str, str, str], str] = {}  # (scope, name, GraphML type): key id
    found: dict[str, dict[tuple[str, type], tuple[str, Callable[[Any], str]]]] = {}  # scope: (name, type): key, writer

    def note(scope: str, data: dict) -> None:
        table = found.setdefault(scope, {})
        for name, value in data.items():
            kind = type(value)
            if value is None or (name, kind) in table:
                continue
            if kind not in GRAPHML_TYPES:
                raise ExportError(f"GraphML holds no {kind.__name__}: attribute {name!r} of a {scope}")
            graphml, writer = GRAPHML_TYPES[kind]
            key = keys.setdefault((scope, str(name), graphml), f"d{len(keys)}")
            table[(name, kind)] = (key, writer)

    note("graph", graph.graph)
    for _, data in graph.nodes(data=True):
        note("node", data)
    for _, _, data in graph.edges(data=True):
        note("edge", data)

    def data_lines(scope: str, data: dict, indent: str) -> list[str]:
        table = found[scope]
        lines = []
        for name, value in data.items():
            if value is not None:
                key, writer = table[(name, type(value))]
                lines.append(f'{indent}<data key="{key}">{_xml_text(writer(value))}</data>\n')
        return lines

    def node_lines(node: object, data: dict) -> str:
        start = f'    <node id="{_xml_attribute(str(node))}"'
        inner = data_lines("node", data, "      ")
        return f"{start}/>\n" if not inner else f"{start}>\n{''.join(inner)}    </node>\n"

    def edge_lines(source: object, target: object, key: object, data: dict) -> str:
        start = (f'    <edge id="{_xml_attribute(str(key))}" source="{_xml_attribute(str(source))}"'
                 f' target="{_xml_attribute(str(target))}"')
        inner = data_lines("edge", data, "      ")
        return f"{start}/>\n" if not inner else f"{start}>\n{''.join(inner)}    </edge>\n"

    names = {key: name for (_, name, _), key in keys.items()}
    edgedefault = "directed" if graph.is_directed() else "undirected"
    head = "".join([f"<?xml version='1.0' encoding='utf-8'?>\n<graphml {_GRAPHML_NAMESPACES}>\n",
                    *(f'  <key id="{key}" for="{scope}" attr.name="{_xml_attribute(name)}" attr.type="{kind}"/>\n'
                      for (scope, name, kind), key in keys.items()),
                    f'  <graph edgedefault="{edgedefault}">\n', *data_lines("graph", graph.graph, "    ")])
    yield _refuse_what_xml_cannot_hold(head, names)
    for chunk in _batched((node_lines(node, data) for node, data in graph.nodes(data=True)), batch):
        yield _refuse_what_xml_cannot_hold(chunk, names)
    for chunk in _batched((edge_lines(*edge) for edge in graph.edges(keys=True, data=True)), batch):
        yield _refuse_what_xml_cannot_hold(chunk, names)
    yield "  </graph>\n</graphml>\n"


def _batched(lines: Iterable[str], batch: int) -> Iterable[str]:
    chunk: list[str] = []
    for line in lines:
        chunk.append(line)
        if len(chunk) == batch:
            yield "".join(chunk)
            chunk = []
    if chunk:
        yield "".join(chunk)


def export_lines(graph: nx.MultiDiGraph, fmt: str) -> Iterable[str]:
    if fmt == "json":
        return graph_json_chunks(graph)
    return graph_to_graphml_lines(graph)


def read_graph(path: Path, fmt: str) -> nx.MultiDiGraph:
    import networkx as nx

    if fmt == "json":
        return graph_from_json(path.read_text(encoding="utf-8"))
    return nx.read_graphml(path, force_multigraph=True)
