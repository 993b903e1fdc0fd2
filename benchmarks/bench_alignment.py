"""Precision and recall of every placement and text class against the verified alignment rows.

tests/fixtures/verified-alignments.toml holds rows a person checked in both texts. For each
verified pair of releases, the comparison a user gets (``rules-kb diff``, same releases in
between) is computed and every verified row is looked up in it:

* placement (in-place, moved, split, added, removed): a row is right when the kind and, for a
  move, the new number agree; a split is right when it is called split and names at least one
  verified target. An ``added`` claim is also scored against the new numbers the verified rows
  say continue an old rule (it is wrong there).
* ``unknown``: a rule of an excerpt or a change notice whose counterpart the other version
  does not show (Duel Masters 1.17's attack step against 2021's block-step notice): right
  when the comparison makes no claim about it.
* text class (unchanged, editorial, renumbered-reference, substantive): scored on the rows
  verified as continuing (in-place or moved) that the comparison paired the same way.

Run: .venv/bin/python benchmarks/bench_alignment.py
"""

from __future__ import annotations

import time
import tomllib
from collections import Counter
from pathlib import Path

from rules_kb.compare.alignment import Scope
from rules_kb.compare.changes import compare_versions
from rules_kb.compare.kinds import PLACEMENTS, TEXT_CLASSES
from rules_kb.compare.memory import AlignmentMemo
from rules_kb.ingest.corpus import load_manifest
from rules_kb.ingest.curated import load_forced_matches
from rules_kb.ingest.pipeline import ingest_corpus
from rules_kb.kb.catalog import build_catalog
from rules_kb.numbers import RuleNumber

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
VERIFIED = ROOT / "tests" / "fixtures" / "verified-alignments.toml"
# A verdict for a rule of an excerpt or notice whose counterpart the other version does not show.
UNKNOWN = "unknown"


def documents_for(pairs: list[dict]) -> list[str]:
    """Every document of the verified pairs' games holding a version between each pair's ends."""
    wanted = []
    for meta in load_manifest(CORPUS):
        for pair in pairs:
            game = "mtg" if meta.format == "mtg-cr" else "dm"
            if game == pair["game"] and pair["lang"] in meta.languages and any(
                    pair["old"] <= v <= pair["new"] or v in (pair["old"], pair["new"]) for v in meta.versions):
                wanted.append(meta.id)
                break
    return wanted


def score_pair(catalog, memo, forced, pair: dict, placement: Counter, text: Counter) -> list[str]:
    """Add one pair's hits and misses to the counters; return the rows that disagree."""
    scope = Scope(chapter=pair["section"]) if "section" in pair else None
    comparison = compare_versions(catalog, memo, pair["game"], pair["lang"], pair["old"], pair["new"], forced, scope)
    by_old = {row.pair.old_number: row for row in comparison.rows if row.pair.old is not None}
    added = {row.pair.new_number: row for row in comparison.rows if row.pair.old is None}
    continued = {RuleNumber.parse(r["new"]) for r in pair["row"] if r["old"] and r["new"]}
    misses = []
    for verified in pair["row"]:
        expected = verified["placement"]
        if expected == UNKNOWN:  # neither version shows where it went: no claim is right
            row = by_old.get(RuleNumber.parse(verified["old"]))
            claim = row.pair.kind if row else UNKNOWN
            right = claim == UNKNOWN
        elif verified["old"]:
            row = by_old.get(RuleNumber.parse(verified["old"]))
            claim = row.pair.kind if row else "absent"
            right = claim == expected and (
                expected != "moved" or str(row.pair.new_number) == verified["new"]) and (
                expected != "split" or {str(t) for t in row.pair.targets} & set(verified["targets"]))
        else:
            row = added.get(RuleNumber.parse(verified["new"]))
            claim = "added" if row else "paired"
            right = claim == expected
        tally(placement, expected, claim if right or claim != expected else "wrong-target", right)
        where = f"{pair['old']} -> {pair['new']} {verified['old'] or '-'} -> {verified['new'] or '-'}"
        if not right:
            got = f"{claim} {row.pair.new_number or ''} {[str(t) for t in row.pair.targets]}" if row else claim
            misses.append(f"{where}: placement {got}, verified {expected} ({verified['reason']})")
        if verified["text"] and right and row is not None:
            tally(text, verified["text"], row.text_class, row.text_class == verified["text"])
            if row.text_class != verified["text"]:
                misses.append(f"{where}: text {row.text_class}, verified {verified['text']} ({verified['reason']})")
    for number in added:  # an "added" claim for a rule the verified rows say continues another
        if number in continued:
            placement[("added", "claimed")] += 1
            misses.append(f"{pair['old']} -> {pair['new']} - -> {number}: placement added, verified as continuing")
    return misses


def tally(counter: Counter, expected: str, claim: str, right: bool) -> None:
    counter[(expected, "verified")] += 1
    counter[(claim, "claimed")] += 1
    if right:
        counter[(expected, "right")] += 1


def report(title: str, labels: tuple[str, ...], counter: Counter) -> None:
    print(title)
    for label in labels:
        right, claimed, verified = (counter[(label, k)] for k in ("right", "claimed", "verified"))
        precision = f"{right / claimed:.3f}" if claimed else "  -  "
        recall = f"{right / verified:.3f}" if verified else "  -  "
        print(f"  {label:22} precision {precision} ({right}/{claimed})  recall {recall} ({right}/{verified})")


def main() -> None:
    pairs = tomllib.loads(VERIFIED.read_text(encoding="utf-8"))["pair"]
    started = time.perf_counter()
    catalog = build_catalog([i.parsed for i in ingest_corpus(CORPUS, documents_for(pairs))])
    forced = load_forced_matches(CORPUS)
    memo = AlignmentMemo()
    placement: Counter = Counter()
    text: Counter = Counter()
    misses = []
    for pair in pairs:
        misses += score_pair(catalog, memo, forced, pair, placement, text)
    rows = sum(len(p["row"]) for p in pairs)
    print(f"{rows} verified rows in {len(pairs)} release pairs; {time.perf_counter() - started:.1f} s")
    report("placement", (*PLACEMENTS, UNKNOWN), placement)
    report("text class (rows placed right)", TEXT_CLASSES, text)
    print(f"{len(misses)} disagreement(s):")
    for miss in misses:
        print("  " + miss)


if __name__ == "__main__":
    main()
