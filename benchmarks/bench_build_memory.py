"""What holds memory in a build: resident memory and CPU after each stage, in one process.

    python benchmarks/bench_build_memory.py [--corpus DIR] [--cache DIR] [--releases N]

Runs the stages ``build --graph --store`` runs (parse, catalog, alignments, lineage, graph,
the site's data), then every page generator and writer in turn with nothing written, and prints
after each: CPU seconds so far, resident memory (after a collection) and its peak so far. A
stage that raises the resident figure holds what it made until the build ends; one that raises
only the peak made it and let it go. ``--cache`` reuses a cache folder (a previous build's, so
the figures are those of a build after the first); without it parses and alignments are made
here, in worker processes, and only this process is measured. ``--releases N`` builds a corpus
of the oldest N Magic releases and every other document first (``corpora.py``).
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpora import write_corpus  # sibling script, not a package

ROOT = Path(__file__).resolve().parent.parent


def memory() -> tuple[int, int]:
    """Resident and peak resident memory of this process, MB."""
    with open("/proc/self/status", encoding="ascii") as handle:
        fields = dict(line.split(":", 1) for line in handle)
    return int(fields["VmRSS"].split()[0]) // 1024, int(fields["VmHWM"].split()[0]) // 1024


def report(name: str) -> None:
    gc.collect()
    resident, peak = memory()
    print(f"| {name} | {time.process_time():.1f} | {resident:,} | {peak:,} |", flush=True)


def measure(corpus: Path, cache: Path) -> None:
    from rules_kb.assemble.knowledge import Knowledge, KnowledgeReport, align_adjacent, parse_documents
    from rules_kb.compare.lineage import trace_lineage
    from rules_kb.compare.memory import AlignmentMemo
    from rules_kb.ingest import curated
    from rules_kb.kb.catalog import build_catalog
    from rules_kb.kb.graph import build_graph
    from rules_kb.render.site_data import load_site_data
    from rules_kb.site.build import EXTRA_WRITERS, SITE_WRITERS, write_offline, write_sitemap
    from rules_kb.site.pages import MKDOCS_GENERATORS, PAGE_GENERATORS

    print("| stage | CPU s so far | resident MB | peak MB so far |")
    print("| --- | --- | --- | --- |")
    report("start")
    made = KnowledgeReport()
    documents = parse_documents(corpus, cache, made)
    report(f"parse ({len(documents)} documents, {len(made.parsed)} parsed)")
    catalog = build_catalog(documents)
    report("catalog")
    forced, memo = curated.load_forced_matches(corpus), AlignmentMemo()
    align_adjacent(catalog, memo, forced, cache, made)
    report(f"alignments ({len(memo)} pairs, {len(made.aligned)} aligned)")
    lineage = trace_lineage(catalog, memo, forced)
    report("lineage")
    graph, unresolved = build_graph(catalog, curated.load_analogues(corpus), curated.load_terms(corpus),
                                    lineage.successions, lineage.moves, curated.load_section_analogues(corpus))
    del lineage
    report(f"graph ({graph.number_of_nodes():,} nodes, {graph.number_of_edges():,} edges)")
    knowledge = Knowledge(catalog, graph, unresolved, forced, memo, curated.load_correspondences(corpus))
    site = load_site_data(knowledge)
    report("site data")
    for generate in (*MKDOCS_GENERATORS, *PAGE_GENERATORS):
        count = sum(1 for _ in generate(site))
        report(f"{generate.__name__} ({count:,} pages)")
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as folder:
        for writer in SITE_WRITERS:
            writer(site, Path(folder))
            report(writer.__name__)
        for writer in EXTRA_WRITERS:
            writer(knowledge, Path(folder))
            report(writer.__name__)
        write_sitemap(site, Path(folder))
        report("write_sitemap")
        write_offline(knowledge, Path(folder))
        report("write_offline")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus")
    parser.add_argument("--cache", type=Path, default=None, help="a cache folder to reuse (default: a fresh one)")
    parser.add_argument("--releases", type=int, default=None, help="the oldest N Magic releases only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as work:
        corpus = args.corpus
        if args.releases is not None:
            corpus = Path(work) / "corpus"
            write_corpus(args.corpus, args.releases, corpus)
        measure(corpus, args.cache or Path(work) / "cache")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
