"""Build the whole site in a child process and print pages, files, MB, wall time and peak RSS.

    python benchmarks/bench_site.py [--corpus DIR] [--out DIR]

The child runs ``rules-kb --corpus DIR build --out DIR`` from a cold start (its own knowledge
cache folder, emptied first), so the figures are those of a first build after install.
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

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus")
    parser.add_argument("--out", type=Path, default=None, help="output folder (default: a temporary one)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-site-"))
    out = args.out or work / "site"
    script = ("import sys; from pathlib import Path; from rules_kb.cli import common, main; "
              f"common.DEFAULT_CACHE = Path({str(work / 'cache')!r}); sys.exit(main(sys.argv[1:]))")
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", script, "--corpus", str(args.corpus), "build", "--out", str(out)],
                          capture_output=True, text=True)
    wall = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
        return 1
    files = [p for p in out.rglob("*") if p.is_file()]
    pages = sum(1 for p in files if p.name == "index.html")
    size = sum(p.stat().st_size for p in files) / 2**20
    print(done.stdout.strip().splitlines()[0])
    print(f"corpus {args.corpus}: {pages} HTML pages, {len(files)} files, {size:.0f} MB; wall {wall:.1f} s, "
          f"CPU {usage.ru_utime + usage.ru_stime:.1f} s, peak RSS {usage.ru_maxrss / 1024:.0f} MB "
          f"(load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    if args.out is None:
        shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
