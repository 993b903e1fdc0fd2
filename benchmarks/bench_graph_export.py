"""`graph export`'s writers on one knowledge base: wall and CPU seconds, the writer's peak memory, bytes.

The knowledge base is loaded once (from the cache, untimed); each writer then runs in a forked child
that writes the whole graph to a file and is measured on its own (``os.wait4``: its CPU and peak RSS,
which counts the knowledge base it shares with the parent). "networkx" is the GraphML writer the
export used before session 32 (``nx.generate_graphml`` on a flattened copy, one string of lines);
"graphml" and "json" are ``render/export.py``'s streamed writers.

Run: .venv/bin/python benchmarks/bench_graph_export.py [--corpus DIR] [--cache DIR] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from rules_kb.assemble.knowledge import load_knowledge
from rules_kb.render.export import export_lines
from rules_kb.render.output import write_atomically

ROOT = Path(__file__).resolve().parent.parent


def networkx_lines(graph):
    """The writer before session 32: an ElementTree of the whole graph, serialized whole."""
    import networkx as nx

    def flat(data: dict) -> dict:
        return {k: json.dumps(v, ensure_ascii=False) if isinstance(v, list | dict) else v
                for k, v in data.items() if v is not None}

    copy = nx.MultiDiGraph()
    for node, data in graph.nodes(data=True):
        copy.add_node(node, **flat(data))
    for source, target, key, data in graph.edges(keys=True, data=True):
        copy.add_edge(source, target, key=key, **flat(data))
    return nx.generate_graphml(copy, encoding="utf-8", prettyprint=True)


WRITERS = {
    "json": lambda graph: export_lines(graph, "json"),
    "graphml": lambda graph: export_lines(graph, "graphml"),
    "networkx": networkx_lines,
}


def measure(graph, name: str, out: Path) -> dict:
    started = time.perf_counter()
    child = os.fork()
    if child == 0:
        try:
            write_atomically(out, WRITERS[name](graph), newline=False)
        finally:
            os._exit(0)
    _, status, usage = os.wait4(child, 0)
    wall = time.perf_counter() - started
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak": usage.ru_maxrss / 1024,
            "bytes": out.stat().st_size if out.exists() else 0, "status": status}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus")
    parser.add_argument("--cache", type=Path, default=ROOT / "build" / "cache")
    parser.add_argument("--only", nargs="+", choices=list(WRITERS), default=list(WRITERS))
    args = parser.parse_args()
    started = time.perf_counter()
    knowledge = load_knowledge(args.corpus, args.cache)
    graph = knowledge.graph
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"knowledge base: {graph.number_of_nodes():,} nodes, {graph.number_of_edges():,} edges, "
          f"{time.perf_counter() - started:.1f} s, {base:,.0f} MB (untimed)", flush=True)
    print(f"{'writer':<10} {'wall s':>8} {'CPU s':>8} {'peak MB':>9} {'file MB':>9}")
    with tempfile.TemporaryDirectory(prefix="bench-export-") as work:
        for name in args.only:
            figures = measure(graph, name, Path(work) / f"graph.{name}")
            failed = "" if figures["status"] == 0 else f"  (exit status {figures['status']})"
            print(f"{name:<10} {figures['wall']:8.1f} {figures['cpu']:8.1f} {figures['peak']:9,.0f} "
                  f"{figures['bytes'] / 1e6:9.1f}{failed}", flush=True)
    sys.exit(0)


if __name__ == "__main__":
    main()
