"""The knowledge store at one or more corpus sizes: warm lookups, cold build, add + rebuild.

Every figure is one ``rules-kb`` process (wall seconds; CPU seconds of it and its workers, which
a shared machine inflates less than wall time; peak RSS of the largest process in MB),
run on a copy of the corpus with a fresh cache folder (``RULES_KB_CACHE``). The copy first
lacks its newest Magic release: the cold build covers the rest, then ``add`` puts the release
back and the next lookup rebuilds (its parse and one alignment; the rest comes from the caches).
With several ``--corpus``, the last table gives each figure's ratio to the first corpus.

The processes run a frozen copy of ``rules_kb`` (byte-compiled once, as an installed package
is), started with ``-P`` from the temporary folder: with ``-c`` Python puts the current folder
first on ``sys.path``, so a run started in the checkout used to import the live source, and an
edit of the checkout during the run changed the store's input key (a "rebuilding" note in a
warm lookup).

Run: .venv/bin/python benchmarks/bench_store.py [--corpus DIR ...] [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOOKUPS = (["show", "509.1a"], ["history", "509.1a"], ["refs", "509.1a"])
# Runs one command and reports its wall time and the peak RSS of its largest process (children included).
MEASURE = """
import json, resource, subprocess, sys, time
started = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
wall = time.perf_counter() - started
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss / 1024,
                  "code": done.returncode, "err": done.stderr}))
"""


def freeze_source(target: Path, checkout: Path = ROOT) -> Path:
    """A byte-compiled copy of ``checkout``'s package under ``target``; returns the folder to put on ``PYTHONPATH``."""
    shutil.copytree(checkout / "rules_kb", target / "rules_kb", ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(target / "rules_kb")], check=True,
                   stdout=subprocess.DEVNULL)
    return target


def frozen_python(source: Path) -> tuple[list[str], dict[str, str]]:
    """The interpreter's argv prefix and environment that import ``rules_kb`` from ``source`` only."""
    return [sys.executable, "-P"], {**os.environ, "PYTHONPATH": str(source)}


def run(argv: list[str], cache: Path, source: Path) -> dict:
    python, env = frozen_python(source)
    env["RULES_KB_CACHE"] = str(cache)
    out = subprocess.run([*python, "-c", MEASURE, *argv], capture_output=True, text=True, env=env, check=True,
                         cwd=source)
    result = json.loads(out.stdout)
    if result["code"] != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {result['err']}")
    for line in result["err"].splitlines():  # a rebuild where none was expected would skew the figures
        print(f"  ({argv[-2]} {argv[-1]}: {line})", flush=True)
    return result


def copy_without_newest_magic(corpus: Path, target: Path) -> dict:
    """Copy the corpus without its newest Magic release; returns that release's manifest entry."""
    shutil.copytree(corpus, target, symlinks=True)  # a stray link is copied as a link, never followed
    entries = tomllib.loads((corpus / "manifest.toml").read_text(encoding="utf-8"))["document"]
    magic = [e for e in entries if e["format"] == "mtg-cr" and e["kind"] == "rules"]
    newest = max(magic, key=lambda e: e["versions"][0])
    lines = []
    for entry in entries:
        if entry is newest:
            continue
        lines.append("[[document]]")
        lines.extend(f"{key} = {json.dumps(value, ensure_ascii=False)}" for key, value in entry.items())
        lines.append("")
    (target / "manifest.toml").write_text("\n".join(lines), encoding="utf-8")
    (target / newest["file"]).rename(target.parent / Path(newest["file"]).name)
    return {**newest, "outside": target.parent / Path(newest["file"]).name}


def measure_corpus(corpus: Path, repeat: int) -> dict[str, tuple[float, float]]:
    figures: dict[str, tuple[float, float, float]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-store-") as temporary:
        work = Path(temporary)
        copy = work / "corpus"
        newest = copy_without_newest_magic(corpus, copy)
        cache = work / "cache"
        source = freeze_source(work / "source")  # editing the checkout meanwhile changes nothing measured
        cli = [sys.executable, "-P", "-c", "import sys; from rules_kb.cli import main; sys.exit(main(sys.argv[1:]))",
               "--corpus", str(copy)]
        cold = run([*cli, "show", "509.1a"], cache, source)
        figures["cold build (ingest -> store) + show"] = _figure([cold])
        for argv in LOOKUPS:
            runs = [run([*cli, *argv], cache, source) for _ in range(repeat)]
            figures[f"warm {' '.join(argv)}"] = _figure(runs)
        added = run([*cli, "add", str(newest["outside"]), "--game", "mtg", "--lang", "en", "--format", "mtg-cr",
                     "--version", newest["versions"][0], *(["--date", newest["dates"][0]] if newest.get("dates")
                                                           else [])], cache, source)
        figures[f"add {newest['versions'][0]}"] = _figure([added])
        rebuilt = run([*cli, "show", "509.1a"], cache, source)
        figures["rebuild after add + show"] = _figure([rebuilt])
        warm = [run([*cli, "show", "509.1a"], cache, source) for _ in range(repeat)]
        figures["warm show 509.1a after add"] = _figure(warm)
        stores = list(cache.glob("store-*.sqlite"))
        size = stores[0].stat().st_size / 2**20 if stores else 0.0
        figures["store size (MB)"] = (size, 0.0, 0.0)
        releases = sum(1 for e in tomllib.loads((copy / "manifest.toml").read_text(encoding="utf-8"))["document"]
                       if e["format"] == "mtg-cr" and e["kind"] == "rules")
        figures["Magic releases"] = (float(releases), 0.0, 0.0)
    return figures


def _figure(runs: list[dict]) -> tuple[float, float, float]:
    """Median wall and CPU seconds, largest peak RSS."""
    return (statistics.median(r["wall"] for r in runs), statistics.median(r["cpu"] for r in runs),
            max(r["rss"] for r in runs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, action="append", help="corpus folder (repeatable; default corpus/)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per warm lookup (median reported)")
    args = parser.parse_args()
    corpora = args.corpus or [ROOT / "corpus"]
    results = []
    for corpus in corpora:
        figures = measure_corpus(corpus.resolve(), args.repeat)
        results.append(figures)
        print(f"\n{corpus}  ({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f})")
        print(f"{'figure':42} {'wall s':>9} {'CPU s':>9} {'peak MB':>9}")
        for name, (wall, cpu, rss) in figures.items():
            print(f"{name:42} {wall:9.3f} {cpu:9.3f} {rss:9.0f}")
    if len(results) > 1:
        print(f"\nratios to {corpora[0]}")
        for name in results[0]:
            ratios = []
            for figures in results[1:]:
                (wall, cpu, rss), (wall0, cpu0, rss0) = figures[name], results[0][name]
                ratios.append(f"{wall / wall0:7.2f} x wall {cpu / cpu0 if cpu0 else 0:6.2f} x CPU "
                              f"{rss / rss0 if rss0 else 0:6.2f} x memory")
            print(f"{name:42} {'   '.join(ratios)}")


if __name__ == "__main__":
    main()
