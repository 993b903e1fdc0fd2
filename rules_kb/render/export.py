"""Graph export: node-link JSON (round-trips exactly) and GraphML (attributes flattened)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx

FORMATS = ("json", "graphml")


def graph_to_json(graph: nx.MultiDiGraph) -> str:
    """Node-link JSON. ``edges="edges"`` is passed explicitly: networkx changed the default key."""
    import networkx as nx

    data = nx.node_link_data(graph, edges="edges")
    return json.dumps(data, ensure_ascii=False, sort_keys=True, indent=None, separators=(",", ":"))


def graph_from_json(text: str) -> nx.MultiDiGraph:
    import networkx as nx

    return nx.node_link_graph(json.loads(text), directed=True, multigraph=True, edges="edges")


def _flatten(attributes: dict) -> dict:
    """GraphML holds scalars only: lists become JSON strings, None is left out."""
    flat = {}
    for key, value in attributes.items():
        if value is None:
            continue
        flat[key] = json.dumps(value, ensure_ascii=False) if isinstance(value, list | dict) else value
    return flat


def graph_to_graphml_lines(graph: nx.MultiDiGraph) -> Iterable[str]:
    import networkx as nx

    flat = nx.MultiDiGraph()
    for node, data in graph.nodes(data=True):
        flat.add_node(node, **_flatten(data))
    for source, target, key, data in graph.edges(keys=True, data=True):
        flat.add_edge(source, target, key=key, **_flatten(data))
    return nx.generate_graphml(flat, encoding="utf-8", prettyprint=True)


def export_lines(graph: nx.MultiDiGraph, fmt: str) -> Iterable[str]:
    if fmt == "json":
        return [graph_to_json(graph)]
    return graph_to_graphml_lines(graph)


def read_graph(path: Path, fmt: str) -> nx.MultiDiGraph:
    import networkx as nx

    if fmt == "json":
        return graph_from_json(path.read_text(encoding="utf-8"))
    return nx.read_graphml(path, force_multigraph=True)
