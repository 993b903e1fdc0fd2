"""Build the graph for the whole corpus: seconds, nodes, edges, peak memory.

Run: .venv/bin/python benchmarks/bench_graph.py
"""

from __future__ import annotations

import resource
import time
from collections import Counter
from pathlib import Path

from rules_kb.compare.lineage import trace_lineage
from rules_kb.compare.memory import AlignmentMemo
from rules_kb.ingest.curated import load_analogues, load_terms
from rules_kb.ingest.pipeline import ingest_corpus
from rules_kb.kb.catalog import build_catalog
from rules_kb.kb.graph import build_graph
from rules_kb.render.export import graph_to_json

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def main() -> None:
    started = time.perf_counter()
    ingested = ingest_corpus(CORPUS)
    ingest_s = time.perf_counter() - started
    started = time.perf_counter()
    catalog = build_catalog([i.parsed for i in ingested])
    catalog_s = time.perf_counter() - started
    started = time.perf_counter()
    lineage = trace_lineage(catalog, AlignmentMemo())
    moves = len(lineage.moves)
    align_s = time.perf_counter() - started
    started = time.perf_counter()
    graph, unresolved = build_graph(catalog, load_analogues(CORPUS), load_terms(CORPUS), lineage.successions,
                                    lineage.moves)
    graph_s = catalog_s + time.perf_counter() - started
    started = time.perf_counter()
    exported = graph_to_json(graph)
    export_s = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"ingest {ingest_s:.2f} s; catalog + graph {graph_s:.2f} s; alignment of adjacent complete releases "
          f"{align_s:.2f} s ({moves} renumbered edges); node-link JSON {export_s:.2f} s "
          f"({len(exported) / 1e6:.1f} MB)")
    print(f"{graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges, {len(unresolved)} unresolved citations")
    print("edges by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(
        Counter(d['kind'] for _, _, d in graph.edges(data=True)).items())))
    print(f"peak memory (max RSS): {peak:.0f} MB")


if __name__ == "__main__":
    main()
