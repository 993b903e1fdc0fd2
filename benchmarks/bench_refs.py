"""Throughput of the reference finder over the largest recent Magic release.

Run: .venv/bin/python benchmarks/bench_refs.py
"""

from __future__ import annotations

import time
from pathlib import Path

from rules_kb.ingest.decode import decode_document
from rules_kb.refs import find_references

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    for name, game in (("mtg/CR-2024-11-08.txt", "mtg"), ("dm/official-rule-text/dm_rule-ja-v1.48.md", "dm")):
        text = decode_document((ROOT / "corpus" / name).read_bytes(), name).text
        size = len(text.encode("utf-8"))
        rounds = 5
        best = float("inf")
        for _ in range(rounds):
            started = time.perf_counter()
            found = find_references(text, game=game)
            best = min(best, time.perf_counter() - started)
        print(f"{name}: {len(found)} references, {size / 1e6:.2f} MB in {best * 1000:.0f} ms "
              f"= {size / best / 1e6:.1f} MB/s (best of {rounds})")


if __name__ == "__main__":
    main()
