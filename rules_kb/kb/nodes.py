"""The graph's shared node helpers: the rule node with its ancestors, and an unresolved citation.

Both the rules' graph (``kb.graph``) and the tournament documents' part of it (``kb.section_graph``)
add rule nodes and report citations that resolve nowhere; they share these, and neither imports
the other.
"""

from __future__ import annotations

import sys
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


# Edges whose attributes are only their kind (three per rule text, one per hierarchy step or
# succession: most of a million edges at full history) share one attribute dict per kind.
PLAIN_KINDS = ("contains", "text_of", "in_version", "from_document", "next_version")
_PLAIN = {kind: {"kind": kind} for kind in PLAIN_KINDS}


def link_plain(graph: nx.MultiDiGraph, source: str, target: str, kind: str) -> None:
    """An edge of a ``PLAIN_KINDS`` kind, its attribute dict shared with every edge of that kind.

    Memory, not meaning: ``add_edge`` gives each edge a fresh dict, ~130 MB of identical
    ``{"kind": ...}`` at full history. Nothing edits a built graph (``docs/architecture.md``), and
    networkx reads the dict from the one key dict ``succ[source][target]`` and ``pred[target][source]``
    share, so every reader sees the same attributes as before.
    """
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
