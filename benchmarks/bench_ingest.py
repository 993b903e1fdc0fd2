"""Ingest the whole corpus: seconds and MB/s per document and overall, and peak memory.

MB are of decoded text (UTF-8 bytes of it), the unit the design's 2 MB/s target uses.
Run: .venv/bin/python benchmarks/bench_ingest.py
"""

from __future__ import annotations

import resource
import time
from pathlib import Path

from rules_kb.ingest.corpus import load_manifest, read_document_bytes
from rules_kb.ingest.pipeline import parse_bytes

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def main() -> None:
    total_bytes = 0
    total_seconds = 0.0
    print(f"{'document':42} {'MB':>7} {'s':>7} {'MB/s':>7}")
    for meta in load_manifest(CORPUS):
        data = read_document_bytes(CORPUS, meta)
        started = time.perf_counter()
        item = parse_bytes(data, meta)
        seconds = time.perf_counter() - started
        size = len(item.parsed.text.encode("utf-8")) / 1e6
        total_bytes += size
        total_seconds += seconds
        print(f"{meta.id:42} {size:7.3f} {seconds:7.3f} {size / seconds:7.2f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{'overall':42} {total_bytes:7.3f} {total_seconds:7.3f} {total_bytes / total_seconds:7.2f}")
    print(f"peak memory (max RSS): {peak:.0f} MB")


if __name__ == "__main__":
    main()
