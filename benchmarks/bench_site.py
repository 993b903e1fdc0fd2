"""``make build`` by corpus size: wall, CPU and peak memory of each step, and the outputs' checksums.

    python benchmarks/bench_site.py [--releases 30 60 all] [--workers N] [--add-newest] [--keep DIR] [--steps]

For each size a corpus folder holds the oldest N Magic releases and every other document
(``corpora.py``, as ``tests/conftest.py`` builds its subset); ``all`` is the whole corpus. Each is
built cold (an empty cache folder, ``RULES_KB_CACHE``) with ``make build``'s steps: ``ingest
--json`` then ``build --graph --store``. Per step: wall seconds, CPU seconds (the step and its
worker processes), the peak RSS of its largest process, and the peak of the sum of the RSS of
all its processes (sampled every 0.2 s: two workers hold memory at once), and the peak of the sum
of their PSS (each page shared by forked processes split between them: the memory really used).
CPU and memory do not depend on the machine's load; wall time does, so the load average is
printed with it. The RSS sum is an upper bound: a page a forked worker still shares with its
parent counts twice.

The steps run a frozen copy of the package, the site sources and ``mkdocs.yml`` (an edit of the
checkout during a run changes nothing measured). ``--workers`` sets ``RULES_KB_WORKERS`` (1: one
process). ``--add-newest`` also builds the whole corpus without its newest Magic release, adds it
with ``rules-kb add`` and builds again into the same folders: the cost of one more release.
``--keep DIR`` keeps each size's outputs in ``DIR/<size>`` for ``checksums.py``. ``--steps`` prints,
under each build, its timeline (``RULES_KB_STEPS``, ``rules_kb/steps.py``): which process ran which
step when, and its CPU seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_store import copy_without_newest_magic  # sibling scripts, not a package
from checksums import file_digest, site_line, store_lines
from corpora import magic_releases, write_corpus

from rules_kb.ingest.corpus import load_manifest

ROOT = Path(__file__).resolve().parent.parent
CLI = "import sys; from rules_kb.__main__ import main; sys.exit(main())"  # as the rules-kb script runs it
# One step, in its own process: wall time, CPU and largest RSS of it and its children, and the sums of
# their RSS (an upper bound: a page a forked worker still shares with its parent counts twice) and PSS.
MEASURE = """
import json, os, resource, subprocess, sys, threading, time

def tree_memory(root):
    pids, rss, pss = [root], 0, 0
    while pids:
        pid = pids.pop()
        try:
            with open(f"/proc/{pid}/smaps_rollup") as handle:
                for line in handle:
                    if line.startswith("Rss:"):
                        rss += int(line.split()[1])
                    elif line.startswith("Pss:"):
                        pss += int(line.split()[1])
            with open(f"/proc/{pid}/task/{pid}/children") as handle:
                pids.extend(int(p) for p in handle.read().split())
        except OSError:
            pass
    return rss, pss

started = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
peak = [0, 0]
def sample():
    while child.poll() is None:
        rss, pss = tree_memory(child.pid)
        peak[0], peak[1] = max(peak[0], rss), max(peak[1], pss)
        time.sleep(0.2)
threading.Thread(target=sample, daemon=True).start()
out, err = child.communicate()
wall = time.perf_counter() - started
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss / 1024,
                  "tree": peak[0] / 1024, "pss": peak[1] / 1024, "code": child.returncode, "out": out, "err": err}))
"""


def freeze(target: Path) -> Path:
    """A byte-compiled copy of the package with the site sources, mkdocs.yml and pyproject.toml beside it."""
    shutil.copytree(ROOT / "rules_kb", target / "rules_kb", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "site", target / "site")
    shutil.copy2(ROOT / "mkdocs.yml", target / "mkdocs.yml")
    shutil.copy2(ROOT / "pyproject.toml", target / "pyproject.toml")  # what makes it a checkout (places.py)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(target / "rules_kb")], check=True,
                   stdout=subprocess.DEVNULL)
    return target


STEPS = False  # --steps: each step's timeline recorded and printed under its row


def step(argv: list[str], source: Path, cache: Path, workers: int | None) -> dict:
    env = {**os.environ, "PYTHONPATH": str(source), "RULES_KB_CACHE": str(cache)}
    if workers is not None:
        env["RULES_KB_WORKERS"] = str(workers)
    timeline = Path(tempfile.mkstemp(prefix="bench-site-steps-")[1])
    if STEPS:
        env["RULES_KB_STEPS"] = str(timeline)
    load = os.getloadavg()[0]
    started = time.time()
    try:
        done = subprocess.run([sys.executable, "-P", "-c", MEASURE, sys.executable, "-P", "-c", CLI, *argv],
                              capture_output=True, text=True, env=env, cwd=source, check=True)
        steps = [json.loads(line) for line in timeline.read_text(encoding="utf-8").splitlines()]
    finally:
        timeline.unlink()
    result = json.loads(done.stdout)
    if result["code"] != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{result['err']}")
    return {**result, "load": (load + os.getloadavg()[0]) / 2, "steps": steps, "started": started}


def print_steps(figures: dict) -> None:
    """The step's timeline: each line a process (P0 the command's, P1… in the order they first
    appear), the seconds since the command started, the CPU of that process in the step, its name."""
    processes: dict[int, int] = {}
    for line in sorted(figures["steps"], key=lambda line: line["start"]):
        number = processes.setdefault(line["pid"], len(processes))
        print(f"    P{number} {line['start'] - figures['started']:6.1f} – {line['end'] - figures['started']:6.1f} s"
              f"  CPU {line['cpu']:5.1f} s  {line['step']}")


def make_build(corpus: Path, out: Path, source: Path, cache: Path, workers: int | None) -> dict[str, dict]:
    """``make build``'s steps on ``corpus`` into ``out`` (model.jsonl, graph.json, site/)."""
    out.mkdir(parents=True, exist_ok=True)
    base = ["--corpus", str(corpus)]
    return {"ingest --json": step([*base, "ingest", "--json", str(out / "model.jsonl")], source, cache, workers),
            "build --graph --store": step([*base, "build", "--out", str(out / "site"), "--graph",
                                           str(out / "graph.json"), "--store"], source, cache, workers)}


def print_rows(label: str, releases: int, documents: int, figures: dict[str, dict]) -> None:
    for name, f in figures.items():
        print(f"| {label} | {releases} | {documents} | {name} | {f['wall']:.1f} | {f['cpu']:.1f} | {f['rss']:,.0f} | "
              f"{f['tree']:,.0f} | {f['pss']:,.0f} | {f['load']:.1f} |", flush=True)
        if f["steps"]:
            print_steps(f)


def print_checksums(out: Path, cache: Path) -> None:
    stores = sorted(cache.glob("store-*.sqlite"))
    lines = [f"graph.json {file_digest(out / 'graph.json')}", f"model.jsonl {file_digest(out / 'model.jsonl')}",
             *site_line(out / "site"), *(store_lines(stores[0]) if stores else [])]
    for line in lines:
        print(f"    {line}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--releases", nargs="*", default=["30", "60", "all"], help="Magic releases per corpus")
    parser.add_argument("--workers", type=int, default=None, help="RULES_KB_WORKERS for every step")
    parser.add_argument("--add-newest", action="store_true", help="also: build without the newest release, add it")
    parser.add_argument("--keep", type=Path, default=None, help="keep each size's outputs under this folder")
    parser.add_argument("--steps", action="store_true", help="print each build's timeline of steps and processes")
    args = parser.parse_args()
    global STEPS
    STEPS = args.steps
    work = Path(tempfile.mkdtemp(prefix="bench-site-"))
    source = freeze(work / "source")
    total = len(magic_releases(ROOT / "corpus"))
    print(f"{os.cpu_count()} cores; workers {args.workers or 'default'}; {time.strftime('%Y-%m-%d %H:%M UTC')}")
    print("| run | Magic releases | documents | step | wall s | CPU s | peak RSS MB (largest process) | "
          "peak RSS MB (sum over processes) | peak PSS MB (sum) | load |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    try:
        for size in args.releases:
            releases = total if size == "all" else int(size)
            corpus = ROOT / "corpus" if size == "all" else work / f"corpus-{size}"
            if size != "all":
                write_corpus(ROOT / "corpus", releases, corpus)
            out = (args.keep.resolve() if args.keep else work) / size
            figures = make_build(corpus, out, source, work / f"cache-{size}", args.workers)
            print_rows("cold", releases, len(load_manifest(corpus)), figures)
            print_checksums(out, work / f"cache-{size}")
        if args.add_newest:
            add_newest(work, source, args.workers)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def add_newest(work: Path, source: Path, workers: int | None) -> None:
    """The whole corpus less its newest Magic release built cold; the release added; built again."""
    corpus, out, cache = work / "add" / "corpus", work / "add" / "out", work / "add" / "cache"
    newest = copy_without_newest_magic(ROOT / "corpus", corpus)
    print_rows("without the newest", 0, 0, make_build(corpus, out, source, cache, workers))
    version = newest["versions"][0]
    added = step(["--corpus", str(corpus), "add", str(newest["outside"]), "--game", "mtg", "--lang", "en",
                  "--format", "mtg-cr", "--version", version,
                  *(["--date", newest["dates"][0]] if newest.get("dates") else [])], source, cache, workers)
    print_rows(f"add {version}", 0, 0, {"add": added})
    print_rows(f"after adding {version}", 0, 0, make_build(corpus, out, source, cache, workers))


if __name__ == "__main__":
    raise SystemExit(main())
