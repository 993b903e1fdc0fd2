"""Lineage: what alignment tells the graph. ``renumbered`` edges for moved rules, and the
end of an era where a number passed to another rule.

It runs after the graph is built (graph → align → lineage), over adjacent complete
versions only: a lineage is a chain of releases, each aligned with the next.
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx

from rules_kb.compare.align import Alignment, align_pair
from rules_kb.ingest.curated import ForcedMatch
from rules_kb.kb.catalog import Catalog
from rules_kb.kb.graph import text_id


def add_renumbered_edges(graph: nx.MultiDiGraph, catalog: Catalog, forced: list[ForcedMatch] = ()) -> int:
    """Feed the alignment back into the graph: a ``renumbered`` edge per moved rule.

    Only adjacent complete versions are aligned here (what a lineage is made of); the
    alignments stay in the catalog's cache, so later diffs over the same releases are free.
    The alignment also ends eras: when the rule holding a number moved or went away and
    another rule took the number in the very next release (Magic's 309: Planes, then
    Dungeons in 2022), the ``next_version`` edge between the two is removed.
    """
    added = 0
    for game, lang in sorted({(g, lg) for g, lg, _ in catalog.versions}):
        complete = [label for label in catalog.version_labels(game, lang)
                    if catalog.versions[(game, lang, label)].complete and catalog.rules_in(game, lang, label)]
        for old, new in pairwise(complete):
            alignment = align_pair(catalog, game, lang, old, new, tuple(forced))
            _end_broken_eras(graph, catalog, alignment)
            for pair in alignment.pairs:
                if pair.kind == "moved":
                    graph.add_edge(text_id(pair.old), text_id(pair.new), kind="renumbered", from_version=old,
                                   to_version=new, old=str(pair.old_number), new=str(pair.new_number),
                                   similarity=round(pair.similarity, 3), forced=pair.forced)
                    added += 1
    return added


def _end_broken_eras(graph: nx.MultiDiGraph, catalog: Catalog, alignment: Alignment) -> None:
    new_rules = catalog.rules_in(alignment.game, alignment.lang, alignment.new_version)
    for pair in alignment.pairs:
        if pair.old is None or pair.new_number == pair.old_number:
            continue
        for successor in new_rules.get(pair.old_number, []):
            source, target = text_id(pair.old), text_id(successor)
            for key, data in list((graph.get_edge_data(source, target) or {}).items()):
                if data["kind"] == "next_version":
                    graph.remove_edge(source, target, key)
