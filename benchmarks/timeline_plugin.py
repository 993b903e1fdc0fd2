"""A pytest plugin for ``bench_tests.py``: per test, its worker, start, end and the CPU seconds of the
worker's whole process tree (``-p timeline_plugin``, the output file in ``RULES_KB_TIMELINE``).

The CPU is read from ``/proc`` (each live descendant's own and reaped children's time), not from
``getrusage(RUSAGE_CHILDREN)``: that counts a process only once its parent has waited for it, so
Chromium's renderers (reaped by its zygote, the zygote by the browser, the browser by Playwright's
driver at the end of the session) would land on whichever test ran last, not on the tests that
made them work."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

TICKS = os.sysconf("SC_CLK_TCK")


def _processes() -> dict[int, tuple[int, int]]:
    """pid -> (parent pid, CPU ticks of the process and of its reaped children)."""
    table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:  # gone between the listing and the read
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # the name in parentheses may hold spaces
        table[int(name)] = (int(fields[1]), sum(int(value) for value in fields[11:15]))
    return table


def tree_cpu(root: int) -> float:
    """CPU seconds used so far by ``root`` and every process under it, live or reaped."""
    table = _processes()
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += table.get(pid, (0, 0))[1]
        stack.extend(children.get(pid, ()))
    return total / TICKS


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    start, cpu = time.time(), tree_cpu(os.getpid())
    yield
    row = {"worker": os.environ.get("PYTEST_XDIST_WORKER", "main"), "test": item.nodeid, "start": start,
           "end": time.time(), "cpu": tree_cpu(os.getpid()) - cpu}
    with open(os.environ["RULES_KB_TIMELINE"], "a", encoding="utf-8") as out:
        out.write(json.dumps(row) + "\n")
