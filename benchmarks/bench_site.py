"""Build the whole site in a child process and print pages, files, MB, wall time and peak RSS.

    python benchmarks/bench_site.py [--corpus DIR] [--out DIR] [--add-newest]

The child runs ``rules-kb --corpus DIR build --out DIR`` from a cold start (its own knowledge
cache folder, emptied first), so the figures are those of a first build after install. With
``--add-newest`` the corpus is first copied without its newest Magic release; after the cold
build, ``rules-kb add`` puts that release back and the site is built again with the caches
of the first build: the cost of one more release.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_store import copy_without_newest_magic  # a sibling script, not a package

ROOT = Path(__file__).resolve().parent.parent


def run_cli(argv: list[str], cache: Path) -> tuple[str, float, float, float]:
    """One ``rules-kb`` process: its output, wall seconds, CPU seconds and peak RSS (MB)."""
    script = ("import sys; from pathlib import Path; from rules_kb.cli import common, main; "
              f"common.DEFAULT_CACHE = Path({str(cache)!r}); sys.exit(main(sys.argv[1:]))")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", script, *argv], capture_output=True, text=True)
    wall = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stderr}")
    cpu = usage.ru_utime + usage.ru_stime - before.ru_utime - before.ru_stime
    return done.stdout, wall, cpu, usage.ru_maxrss / 1024


def report(label: str, corpus: Path, out: Path, figures: tuple[str, float, float, float]) -> None:
    """The build's figures, and the site's as a host counts them (``rules-kb publish --check``)."""
    from rules_kb.site.publish import BUDGET, describe, measure, over_limits

    stdout, wall, cpu, rss = figures
    pages = sum(1 for _, _, names in os.walk(out) for name in names if name == "index.html")
    site = measure(out)
    over = over_limits(site, BUDGET)
    print(f"{label}: {stdout.strip().splitlines()[0]}")
    print(f"  corpus {corpus}: {pages} HTML pages; {describe(site)}; "
          f"{'over the budget: ' + '; '.join(over) if over else 'within the budget'}")
    print(f"  wall {wall:.1f} s, CPU {cpu:.1f} s, peak RSS so far {rss:.0f} MB (load average now "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus")
    parser.add_argument("--out", type=Path, default=None, help="output folder (default: a temporary one)")
    parser.add_argument("--add-newest", action="store_true",
                        help="build without the newest Magic release, add it, build again")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-site-"))
    out, cache, corpus = args.out or work / "site", work / "cache", args.corpus.resolve()
    newest = None
    if args.add_newest:
        newest = copy_without_newest_magic(corpus, work / "corpus")
        corpus = work / "corpus"
    report("cold build", corpus, out, run_cli(["--corpus", str(corpus), "build", "--out", str(out)], cache))
    if newest is not None:
        version = newest["versions"][0]
        added = run_cli(["--corpus", str(corpus), "add", str(newest["outside"]), "--game", "mtg", "--lang", "en",
                         "--format", "mtg-cr", "--version", version,
                         *(["--date", newest["dates"][0]] if newest.get("dates") else [])], cache)
        print(f"add {version}: wall {added[1]:.1f} s, CPU {added[2]:.1f} s")
        report(f"build after adding {version}", corpus, out,
               run_cli(["--corpus", str(corpus), "build", "--out", str(out)], cache))
    if args.out is None:
        shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
