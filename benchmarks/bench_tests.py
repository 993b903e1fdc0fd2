"""Where the test suite's time goes: the whole suite as ``make test`` runs it (after the lint), with
each test's wall time and the CPU of its worker's process tree recorded (``timeline_plugin.py``).

Run: .venv/bin/python benchmarks/bench_tests.py [--top N] [--keep FILE] [--costs FILE] [pytest arguments…]
Prints the run's wall time and CPU, each worker's busy time, the files using the most CPU with the
time they waited (a file's first test also pays for the session fixtures it is the first to need),
and the tests that waited longest. ``--costs tests/costs.json`` writes the order the suite's files
are handed out in (``tests/conftest.py``).

A browser closed at the end of a worker's session leaves the process tree without being waited for:
its CPU, counted on the tests that made it work, then shows as a large negative CPU on that worker's
last test, and neither the run's CPU line (``getrusage`` of waited-for children) nor ``/usr/bin/time``
counts it at all.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=20, help="files and tests to list (default 20)")
    parser.add_argument("--keep", type=Path, help="also write the timeline's rows (JSON lines) here")
    parser.add_argument("--costs", type=Path, help="also write each file's busy seconds here (tests/costs.json: "
                                                   "the order conftest.py hands the files out in)")
    args, pytest_args = parser.parse_known_args()
    with tempfile.TemporaryDirectory(prefix="bench-tests-") as work:
        timeline = Path(work) / "timeline.jsonl"
        env = {**os.environ, "RULES_KB_TIMELINE": str(timeline),
               "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "benchmarks"), os.environ.get("PYTHONPATH")]))}
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "timeline_plugin", "-p", "no:cacheprovider",
                               *pytest_args], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        wall = time.perf_counter() - started
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        rows = [json.loads(line) for line in timeline.read_text(encoding="utf-8").splitlines()]
        if args.keep:
            args.keep.write_text(timeline.read_text(encoding="utf-8"), encoding="utf-8")
    if args.costs:
        args.costs.write_text(json.dumps(file_costs(rows), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else "(no output)"
    print(f"{os.cpu_count()} cores; {summary}")
    print(f"wall {wall:.0f} s; CPU {used.ru_utime + used.ru_stime:.0f} s (user {used.ru_utime:.0f}, "
          f"system {used.ru_stime:.0f}); tests' own CPU {sum(r['cpu'] for r in rows):.0f} s")
    first = min(r["start"] for r in rows)
    for worker in sorted({r["worker"] for r in rows}):
        mine = [r for r in rows if r["worker"] == worker]
        busy, cpu = sum(r["end"] - r["start"] for r in mine), sum(r["cpu"] for r in mine)
        ended = max(r["end"] for r in mine) - first
        print(f"{worker}: busy {busy:.0f} s, CPU {cpu:.0f} s, last test ended at {ended:.0f} s")
    files: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0])
    for row in rows:
        totals = files[row["test"].split("::")[0]]
        totals[0] += row["end"] - row["start"]
        totals[1] += row["cpu"]
        totals[2] += 1
    print()
    print("| file | tests | wall s | CPU s | waiting s |")
    print("| --- | --- | --- | --- | --- |")
    for name, (spent, cpu, count) in sorted(files.items(), key=lambda item: -item[1][1])[:args.top]:
        print(f"| {name} | {count} | {spent:.1f} | {cpu:.1f} | {max(spent - cpu, 0):.1f} |")
    # A worker waiting is a core idle unless the other worker has work: a sleep, a timeout, a
    # subprocess blocked on I/O. These are the tests that cost wall time without CPU.
    print()
    print("| test waiting longest | wall s | CPU s |")
    print("| --- | --- | --- |")
    for row in sorted(rows, key=lambda r: r["cpu"] - (r["end"] - r["start"]))[:args.top]:
        print(f"| {row['test']} | {row['end'] - row['start']:.1f} | {row['cpu']:.1f} |")
    return done.returncode


def file_costs(rows: list[dict]) -> dict[str, float]:
    """Seconds each file kept its worker busy: wall time, not CPU (a test waiting on a browser or a
    subprocess holds its worker as much as one computing; the tree's CPU also miscounts a browser
    that exits unreaped)."""
    costs: dict[str, float] = collections.defaultdict(float)
    for row in rows:
        costs[row["test"].split("::")[0]] += row["end"] - row["start"]
    return {name: round(seconds, 1) for name, seconds in costs.items()}


if __name__ == "__main__":
    sys.exit(main())
