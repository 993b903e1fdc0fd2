"""Where a build's time goes, step by step: with ``RULES_KB_STEPS`` naming a file, each step
appends one JSON line (process, step, wall start and end, CPU seconds of its process), so a
benchmark can draw which process did what when (``benchmarks/bench_site.py``). Unset, nothing
is measured or written."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

ENVIRONMENT = "RULES_KB_STEPS"


@contextmanager
def record_step(name: str) -> Iterator[None]:
    """Time the block as the step ``name`` when ``RULES_KB_STEPS`` is set."""
    path = os.environ.get(ENVIRONMENT)
    if not path:
        yield
        return
    wall, cpu = time.time(), time.process_time()
    try:
        yield
    finally:
        line = {"pid": os.getpid(), "step": name, "start": round(wall, 3), "end": round(time.time(), 3),
                "cpu": round(time.process_time() - cpu, 3)}
        with open(path, "a", encoding="utf-8") as handle:  # one short write per line: O_APPEND keeps lines whole
            handle.write(json.dumps(line) + "\n")
