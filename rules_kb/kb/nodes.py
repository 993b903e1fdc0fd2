"""The graph's shared node helpers: the rule node with its ancestors, and an unresolved citation.

Both the rules' graph (``kb.graph``) and the tournament documents' part of it (``kb.section_graph``)
add rule nodes and report citations that resolve nowhere; they share these, and neither imports
the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules_kb.kb.ids import rule_id
from rules_kb.numbers import RuleNumber

if TYPE_CHECKING:
    import networkx as nx


@dataclass(frozen=True)
class Unresolved:
    """A citation that names a rule (or a section) existing in no version of its game."""

    source: str  # node id of the citing text, term or section text
    number: str
    raw: str


def ensure_rule(graph: nx.MultiDiGraph, game: str, number: RuleNumber) -> str:
    """Add the rule node and its ancestors with ``contains`` edges; return its id."""
    node = rule_id(game, number)
    if node in graph:
        return node
    graph.add_node(node, kind="rule", game=game, number=str(number))
    parent = number.parent
    if parent is not None:
        graph.add_edge(ensure_rule(graph, game, parent), node, kind="contains")
    return node
