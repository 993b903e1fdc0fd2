"""Parse a ~10 MB synthetic input per format and shape: wall and CPU seconds, MB/s (of CPU
time, which a busy machine does not inflate), rules, accounting, peak memory.

The inputs come from ``tests/synthetic.py`` (real documents grown, and whole synthetic Magic
releases); the last line is the issue-15 case, 60,000 continuation lines (960 KB) under one
Magic rule, which took over 300 s before the parsers were made linear.
Run: .venv/bin/python benchmarks/bench_parsers.py [MB]
"""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from synthetic import MTG_SHAPES, SAMPLES, SHAPES, magic_release, sample, synthetic

from rules_kb.ingest.accounting import account
from rules_kb.sources.registry import get_parser


def measure(label: str, format_name: str, meta, text: str) -> None:
    started, cpu = time.perf_counter(), time.process_time()
    parsed = get_parser(format_name)(text, meta)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    accounted = account(parsed).percent
    size = len(text.encode("utf-8")) / 1e6
    print(f"{label:32} {size:7.2f} {seconds:8.2f} {cpu:8.2f} {size / cpu:7.2f} {len(parsed.rules):>9,} "
          f"{accounted:8.2f}%", flush=True)


def continuation_case() -> str:
    """One Magic rule followed by 60,000 16-byte continuation lines (960 KB)."""
    head, rest = magic_release("continuation", 0).split("100.1. ", 1)
    first, tail = rest.split("\n", 1)
    return head + "100.1. " + first + "\n" + "and more words.\n" * 60_000 + "\n" + tail


def main() -> None:
    size = int(float(sys.argv[1] if len(sys.argv) > 1 else 10) * 1_000_000)
    print(f"{'format/shape':32} {'MB':>7} {'wall s':>8} {'CPU s':>8} {'MB/s':>7} {'rules':>9} {'account':>9}")
    for format_name in SAMPLES:
        shapes = MTG_SHAPES if format_name == "mtg-cr" else SHAPES
        for shape in shapes:
            meta, text = synthetic(format_name, shape, size)
            measure(f"{format_name}/{shape}", format_name, meta, text)
    meta, _ = sample("mtg-cr")
    measure("mtg-cr/960KB-continuation", "mtg-cr", meta, continuation_case())
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {peak:.0f} MB")


if __name__ == "__main__":
    main()
