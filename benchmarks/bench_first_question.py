"""The first question after a build and after an add (issue 33): search, show, link, explain.

On a copy of the corpus without its newest Magic release, with a fresh cache folder
(``RULES_KB_CACHE``): ``build --out SITE --store`` (``make build``'s build step, without the graph
export), then the first ``search``, ``show``, ``link`` and ``explain``, each one process; then
``add`` of the newest release and the same four questions again. Every figure is one ``rules-kb``
process: wall seconds, CPU seconds of it and its workers, peak RSS of its largest process in MB
(``bench_store.MEASURE``); each process's stderr lines are printed (progress, rebuild notes).

``--source DIR`` measures the ``rules_kb`` of another checkout (e.g. a worktree of main, for the
figures before a change); it is copied and byte-compiled first, as ``bench_store`` does.
``--seed-cache DIR`` copies the parse and alignment caches (``parsed/``, ``aligned/``) of an earlier
build into the fresh cache: they are content-addressed, so only time is saved, and what a question
costs after a build is measured the same (a build leaves them there anyway).

Run: .venv/bin/python benchmarks/bench_first_question.py [--corpus DIR] [--source DIR] [--seed-cache DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_store import MEASURE, ROOT, copy_without_newest_magic, freeze_source, frozen_python

QUESTIONS = (("search", ["search", "declare blockers", "--game", "mtg"]),
             ("show", ["show", "509.1a"]),
             ("link", ["link", "--game", "mtg", "NOTE"]),
             ("explain", ["explain", "509.1", "--game", "mtg"]))
NOTE = "Declaring blockers: CR 509.1a and 509.1b; the damage step is 510.1.\n"


def measure(argv: list[str], cache: Path, source: Path, name: str) -> dict:
    python, env = frozen_python(source)
    env["RULES_KB_CACHE"] = str(cache)
    cli = [*python, "-c", "import sys; from rules_kb.cli import main; sys.exit(main(sys.argv[1:]))"]
    out = subprocess.run([*python, "-c", MEASURE, *cli, *argv], capture_output=True, text=True, env=env,
                         check=True, cwd=source)
    result = json.loads(out.stdout)
    if result["code"] not in (0, 1):
        raise SystemExit(f"{name} failed: {result['err']}")
    for line in result["err"].splitlines():
        print(f"  ({name}: {line})", flush=True)
    print(f"{name:28} {result['wall']:9.1f} {result['cpu']:9.1f} {result['rss']:9.0f}", flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus", help="corpus folder (default corpus/)")
    parser.add_argument("--source", type=Path, default=ROOT, help="the checkout whose rules_kb is measured")
    parser.add_argument("--seed-cache", type=Path, help="a cache folder whose parsed/ and aligned/ are copied first")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-first-") as temporary:
        work = Path(temporary)
        copy = work / "corpus"
        newest = copy_without_newest_magic(args.corpus.resolve(), copy)
        cache = work / "cache"
        cache.mkdir()
        for part in ("parsed", "aligned") if args.seed_cache else ():
            if (args.seed_cache / part).is_dir():
                shutil.copytree(args.seed_cache / part, cache / part)
        source = freeze_source(work / "source", args.source.resolve())
        shipped = source / "rules_kb" / "_site"  # the site's sources, where an installed package carries them
        shutil.copytree(args.source.resolve() / "site", shipped / "site")
        shutil.copyfile(args.source.resolve() / "mkdocs.yml", shipped / "mkdocs.yml")
        note = work / "note.txt"
        note.write_text(NOTE, encoding="utf-8")
        base = ["--corpus", str(copy)]
        print(f"{args.source} on {args.corpus}: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
        print(f"{'step':28} {'wall s':>9} {'CPU s':>9} {'peak MB':>9}")
        measure([*base, "build", "--out", str(work / "site"), "--store"], cache, source, "build --store")
        for name, argv in QUESTIONS:
            measure([*base, *(str(note) if a == "NOTE" else a for a in argv)], cache, source,
                    f"first {name} after build")
        dates = ["--date", newest["dates"][0]] if newest.get("dates") else []
        measure([*base, "add", str(newest["outside"]), "--game", "mtg", "--lang", "en", "--format", "mtg-cr",
                 "--version", newest["versions"][0], *dates], cache, source,
                f"add {newest['versions'][0]}")
        for name, argv in QUESTIONS:
            measure([*base, *(str(note) if a == "NOTE" else a for a in argv)], cache, source,
                    f"first {name} after add")
        print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
