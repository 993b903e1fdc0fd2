"""The graph's shared node helpers: the rule node with its ancestors, and an unresolved citation.

Both the rules' graph (``kb.graph``) and the tournament documents' part of it (``kb.section_graph``)
add rule nodes and report citations that resolve nowhere; they share these, and neither imports
the other.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from types import MappingProxyType
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


# Edges whose attributes are only their kind (three per rule text, one per hierarchy step or
# succession: most of a million edges at full history) share one attribute dict per kind, and two
# nodes joined by that one edge share one key dict per kind: ``{0: {"kind": ...}}``, read-only.
PLAIN_KINDS = ("contains", "text_of", "in_version", "from_document", "next_version")
_PLAIN = {kind: {"kind": kind} for kind in PLAIN_KINDS}
_ONE_PLAIN = {kind: MappingProxyType({0: attributes}) for kind, attributes in _PLAIN.items()}


def link_plain(graph: nx.MultiDiGraph, source: str, target: str, kind: str) -> None:
    """An edge of a ``PLAIN_KINDS`` kind, its attribute dict shared with every edge of that kind.

    Memory, not meaning: ``add_edge`` gives each edge a fresh attribute dict and each pair of
    nodes a fresh key dict, ~130 MB and ~200 MB of identical dicts at full history. networkx keeps
    one key dict per pair, ``succ[source][target]`` and ``pred[target][source]`` alike, so a pair
    of existing nodes joined by this one edge gets the kind's shared key dict, exactly what
    ``add_edge`` would have made (key 0). It is a read-only mapping: nothing edits a built graph
    (``docs/architecture.md``), and an edge added to such a pair later would fail, never change
    the other pairs. Every reader sees the same edges, keys, attributes and order as before.
    """
    successors = graph._succ
    if source in successors and target in successors and target not in successors[source]:
        successors[source][target] = graph._pred[target][source] = _ONE_PLAIN[kind]
        return
    shared = successors.get(source, {}).get(target)
    if isinstance(shared, MappingProxyType):  # a second edge between the two: they get a key dict of their own
        successors[source][target] = graph._pred[target][source] = dict(shared)
    key = graph.add_edge(source, target)
    graph._succ[source][target][key] = _PLAIN[kind]


def ensure_rule(graph: nx.MultiDiGraph, game: str, number: RuleNumber) -> str:
    """Add the rule node and its ancestors with ``contains`` edges; return its id."""
    node = sys.intern(rule_id(game, number))
    if node in graph:
        return node
    graph.add_node(node, kind="rule", game=game, number=sys.intern(str(number)))
    parent = number.parent
    if parent is not None:
        link_plain(graph, ensure_rule(graph, game, parent), node, "contains")
    return node
