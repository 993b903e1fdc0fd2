"""Every parser is linear: doubling the input at most about doubles the time.

Measured as a ratio of CPU times within one run, never as a wall-clock limit: the two sizes
are parsed in turn, three times each, and the best of each is compared, so a burst of load
from other processes touches both; a ratio over the limit is measured again (up to three
rounds) before the test fails. A quadratic parser fails every round (before the fix
Magic's continuation lines gave x4.35 and the Duel Masters rulebook's line joining x3.80).
"""

from __future__ import annotations

import gc
import time

import pytest
from synthetic import LINE_FORMATS, MTG_SHAPES, SAMPLES, SHAPES, sample, synthetic

from rules_kb.ingest.accounting import account
from rules_kb.sources.registry import get_parser

SIZE = 150_000  # bytes at the smaller size: a few tenths of a second per parse
MIN_SECONDS = 0.05  # a faster parse is grown first, so that timer noise does not decide
MAX_SIZE = 2_500_000
LIMIT = 2.8  # linear doubles (x2), quadratic quadruples (x4): 2.8 is about halfway on a log scale
ROUNDS = 3
CASES = [(f, s) for f in SAMPLES if f != "mtg-cr" for s in SHAPES] + [("mtg-cr", s) for s in MTG_SHAPES] + [
    (f, "line") for f in LINE_FORMATS]  # before the fix the MTR's contents reader gave x4 on one long line


@pytest.fixture(autouse=True, scope="module")
def _frozen_heap():
    """What the session holds before these tests (the knowledge base fixtures: a heap of ~1 GB) is
    moved out of the collector's sight, so each ``gc.collect()`` below walks only what the parses
    made: it took about a second each, most of this file's time in the full suite."""
    thaw = gc.get_freeze_count() == 0  # else the session froze its fixtures (conftest.knowledge): kept frozen
    gc.collect()
    gc.freeze()
    yield
    if thaw:
        gc.unfreeze()


def cpu_time(parse, text: str, meta) -> float:
    """CPU seconds of one parse, with the cyclic garbage collector off.

    A full collection walks the whole heap of the test session (the knowledge base fixtures
    included), so one that happens to fall in the larger parse only made the ratio jump.
    """
    gc.collect()
    gc.disable()
    try:
        started = time.process_time()  # CPU time: other processes' load does not count
        parse(text, meta)
        return time.process_time() - started
    finally:
        gc.enable()


def best_ratio(format_name: str, inputs: list[tuple]) -> tuple[float, float]:
    """Best CPU time of the small and the large input, parsed in turn three times each."""
    parse = get_parser(format_name)
    small = large = float("inf")
    for _ in range(3):
        small = min(small, cpu_time(parse, inputs[0][1], inputs[0][0]))
        large = min(large, cpu_time(parse, inputs[1][1], inputs[1][0]))
    return small, large


@pytest.mark.parametrize(("format_name", "shape"), CASES)
def test_doubling_the_input_at_most_about_doubles_the_time(format_name, shape):
    size = max(SIZE, 2 * len(sample(format_name)[1].encode("utf-8"))) if shape == "repeated" else SIZE
    meta, text = synthetic(format_name, shape, size)
    parse = get_parser(format_name)
    while cpu_time(parse, text, meta) < MIN_SECONDS and size < MAX_SIZE:  # too quick to time reliably
        size *= 4
        meta, text = synthetic(format_name, shape, size)
    inputs = [(meta, text), synthetic(format_name, shape, 2 * size)]
    assert len(inputs[1][1]) > 1.8 * len(text)  # the input really doubled
    assert account(parse(*reversed(inputs[1]))).complete
    ratios = []
    for _ in range(ROUNDS):
        small, large = best_ratio(format_name, inputs)
        ratios.append(large / small)
        print(f"{format_name} {shape}: {len(text):,} chars {small:.3f}s, {len(inputs[1][1]):,} chars {large:.3f}s, "
              f"x{ratios[-1]:.2f}")
        if ratios[-1] <= LIMIT:
            break
    assert min(ratios) <= LIMIT, f"{format_name} {shape}: doubling the input took x{min(ratios):.2f} the time"
