"""A judge's warm lookups, one ``rules-kb`` process each: wall seconds and peak RSS (MB).

The store is built first (not timed); every question of the README's judge table and of issue 23
(``versions``, a glossary term by name, ``history`` of a rule with forty releases) is then asked
``--repeat`` times from a frozen copy of the package (see ``bench_store.py``: an edit of the
checkout during the run cannot change the store's key). The median wall time is printed, with
the 300 ms target for lookups and the 1 s target for ``diff --section``; last, the first ``link`` of a
note after a build (2 s, 200 MB).

Run: .venv/bin/python benchmarks/bench_judge.py [--corpus DIR] [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_store import freeze_source, run

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = (
    ["versions"],
    ["versions", "--game", "mtg"],
    ["show", "507.2a", "--game", "dm"],
    ["show", "507.2a", "--game", "dm", "--version", "1.38"],
    ["show", "deathtouch"],
    ["show", "ブロッククリーチャー"],
    ["history", "507.2a", "--game", "dm"],
    ["history", "309.2a"],
    ["refs", "603.2e", "--game", "dm"],
    ["analogue", "506.1a", "--game", "dm"],
    ["show", "CR 509.1a"],
    ["explain", "507", "--game", "dm"],
    ["explain", "509.1", "--game", "mtg"],  # 113 Magic steps
    ["explain", "702.2", "--game", "mtg"],  # a keyword among a hundred: one alignment part per step
    ["diff", "--game", "mtg", "--lang", "en", "2019-05-03", "2024-11-08", "--section", "5", "--substantive"],
    ["diff", "--game", "dm", "--lang", "ja", "2021-09-07", "1.48", "--rule", "507"],
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus")
    parser.add_argument("--cache", type=Path, help="cache folder to reuse (default: a new one; the build is untimed)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-judge-") as work:
        source = freeze_source(Path(work) / "src")
        cache = args.cache or Path(work) / "cache"
        cli = [sys.executable, "-P", "-c", "import sys; from rules_kb.cli import main; sys.exit(main(sys.argv[1:]))",
               "--corpus", str(args.corpus.resolve())]
        build = run([*cli, "store"], cache, source)
        print(f"store ready: {build['wall']:.1f} s, {build['rss']:.0f} MB (untimed)", flush=True)
        print(f"{'question':<80} {'wall s (median)':>16} {'max':>6} {'peak MB':>8} target")
        for question in QUESTIONS:
            figures = [run([*cli, *question], cache, source) for _ in range(args.repeat)]
            walls = [f["wall"] for f in figures]
            target = 1.0 if question[0] == "diff" else 0.3
            median = statistics.median(walls)
            verdict = "met" if median <= target else "missed"
            print(f"{' '.join(question):<80} {median:>16.3f} {max(walls):>6.3f} "
                  f"{max(f['rss'] for f in figures):>8.0f} {target:.1f} s {verdict}", flush=True)
        first_link(cli, cache, source, Path(work), args.repeat)


def first_link(cli: list[str], cache: Path, source: Path, work: Path, repeat: int) -> None:
    """``link`` of a judge's note as the first one after a build: the note index it reads is deleted
    before each run (the build leaves only the store), so each run makes it from the store again."""
    note = work / "note.md"
    note.write_text("Blocking: CR 509.1a, CR 509.1b and CR 702.19b-c; DM 507.2a (1.48), DM 507.3c.\n",
                    encoding="utf-8")
    figures = []
    for _ in range(repeat):
        for made in cache.glob("note-index-*.json"):
            made.unlink()
        figures.append(run([*cli, "link", str(note)], cache, source))
    median = statistics.median(f["wall"] for f in figures)
    print(f"{'first link after a build (note index made from the store)':<80} {median:>16.3f} "
          f"{max(f['wall'] for f in figures):>6.3f} {max(f['rss'] for f in figures):>8.0f} 2.0 s "
          f"{'met' if median <= 2.0 else 'missed'}", flush=True)


if __name__ == "__main__":
    main()
