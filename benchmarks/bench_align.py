"""Align and diff every adjacent pair of Magic releases: seconds per pair, rules per second.

Run: .venv/bin/python benchmarks/bench_align.py
"""

from __future__ import annotations

import resource
import time
from itertools import pairwise
from pathlib import Path

from rules_kb.compare.changes import compare_versions
from rules_kb.compare.memory import AlignmentMemo
from rules_kb.ingest.pipeline import ingest_corpus
from rules_kb.kb.catalog import build_catalog

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def main() -> None:
    ingested = ingest_corpus(CORPUS, [f"mtg-cr-{d}" for d in (
        "2008-10-01", "2009-05-01", "2009-07-08", "2013-04-29", "2015-07-17", "2016-09-30", "2019-05-03",
        "2022-11-18", "2024-11-08")])
    catalog = build_catalog([i.parsed for i in ingested])
    labels = [v for v in catalog.version_labels("mtg", "en") if catalog.versions[("mtg", "en", v)].complete]
    memo = AlignmentMemo()
    total_rules = 0
    total_seconds = 0.0
    for old, new in pairwise(labels):
        started = time.perf_counter()
        comparison = compare_versions(catalog, memo, "mtg", "en", old, new)
        seconds = time.perf_counter() - started
        rules = len(catalog.rules_in("mtg", "en", old)) + len(catalog.rules_in("mtg", "en", new))
        total_rules += rules
        total_seconds += seconds
        counts = " ".join(f"{k}={n}" for k, n in comparison.counts().items())
        print(f"{old} -> {new}: {seconds:6.2f} s, {rules / seconds:7.0f} rules/s  {counts}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"all {len(labels) - 1} pairs: {total_seconds:.2f} s, {total_rules / total_seconds:.0f} rules/s aligned "
          f"and diffed; peak memory {peak:.0f} MB")


if __name__ == "__main__":
    main()
