"""Every parser is linear: doubling the input at most about doubles the time.

Measured as a ratio of CPU times within one run (best of three at each size), never as
a wall-clock limit, so a slow or busy machine does not fail it; a quadratic parser does (before the
fix Magic's continuation lines and the Duel Masters rulebook's line joining gave 4x).
"""

from __future__ import annotations

import gc
import time

import pytest
from synthetic import MTG_SHAPES, SAMPLES, SHAPES, synthetic

from rules_kb.ingest.accounting import account
from rules_kb.sources.registry import get_parser

SIZE = 150_000  # bytes at the smaller size: a few tenths of a second per parse
MIN_SECONDS = 0.05  # a faster parse is grown first, so that timer noise does not decide
MAX_SIZE = 2_500_000
LIMIT = 2.8  # linear doubles (x2), quadratic quadruples (x4): 2.8 is about halfway on a log scale
CASES = [(f, s) for f in SAMPLES if f != "mtg-cr" for s in SHAPES] + [("mtg-cr", s) for s in MTG_SHAPES]


def best_time(format_name: str, shape: str, size: int) -> tuple[float, int]:
    meta, text = synthetic(format_name, shape, size)
    parse = get_parser(format_name)
    times = []
    for _ in range(3):
        gc.collect()  # each run starts from the same heap
        started = time.process_time()  # CPU time: other processes' load does not count
        parsed = parse(text, meta)
        times.append(time.process_time() - started)
    assert account(parsed).complete
    return min(times), len(text)


@pytest.mark.parametrize(("format_name", "shape"), CASES)
def test_doubling_the_input_at_most_about_doubles_the_time(format_name, shape):
    size = SIZE
    small, small_size = best_time(format_name, shape, size)
    while small < MIN_SECONDS and size < MAX_SIZE:  # too quick to time reliably: grow first
        size *= 4
        small, small_size = best_time(format_name, shape, size)
    large, large_size = best_time(format_name, shape, 2 * size)
    assert large_size > 1.8 * small_size  # the input really doubled
    ratio = large / small
    print(f"{format_name} {shape}: {small_size:,} chars {small:.3f}s, {large_size:,} chars {large:.3f}s, x{ratio:.2f}")
    assert ratio <= LIMIT, f"{format_name} {shape}: doubling the input took x{ratio:.2f} the time"
