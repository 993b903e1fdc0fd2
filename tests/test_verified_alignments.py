"""The verified alignment set: 323 rows a person read in both texts, against what ``diff`` says.

The releases of the verified pairs (and every release between them, which the comparison
composes through) are read from the whole corpus, not the test subset: the 2018 and 2014 pairs
are outside it. benchmarks/bench_alignment.py prints precision and recall per class on the
same rows; here every disagreement is listed and only the known one is allowed.
"""

from __future__ import annotations

import tomllib

import pytest
from conftest import CORPUS, FIXTURES

from rules_kb.compare.align import align_versions
from rules_kb.compare.alignment import Scope
from rules_kb.compare.changes import compare_versions
from rules_kb.compare.memory import AlignmentMemo
from rules_kb.ingest.corpus import load_manifest
from rules_kb.ingest.pipeline import ingest_corpus
from rules_kb.kb.catalog import build_catalog
from rules_kb.numbers import RuleNumber

PAIRS = tomllib.loads((FIXTURES / "verified-alignments.toml").read_text(encoding="utf-8"))["pair"]
R = RuleNumber.parse


def needed_documents() -> list[str]:
    """Each document holding a version of a verified pair's game and language between its ends."""
    wanted = []
    for meta in load_manifest(CORPUS):
        game = "mtg" if meta.format == "mtg-cr" else "dm"
        if any(game == p["game"] and p["lang"] in meta.languages
               and any(p["old"] <= v <= p["new"] or v in (p["old"], p["new"]) for v in meta.versions)
               for p in PAIRS):
            wanted.append(meta.id)
    return wanted


MEMO = AlignmentMemo()  # the aligner's memory of the module's one catalog


@pytest.fixture(scope="module")
def catalog():
    return build_catalog([item.parsed for item in ingest_corpus(CORPUS, needed_documents())])


def disagreements_of(catalog, pair: dict) -> list[str]:
    scope = Scope(chapter=pair["section"]) if "section" in pair else None
    comparison = compare_versions(catalog, MEMO, pair["game"], pair["lang"], pair["old"], pair["new"], within=scope)
    by_old = {row.pair.old_number: row for row in comparison.rows if row.pair.old is not None}
    added = {row.pair.new_number for row in comparison.rows if row.pair.old is None}
    found_wrong = []
    for row in pair["row"]:
        where = f"{pair['old']}->{pair['new']} {row['old'] or '-'}->{row['new'] or '-'}"
        if not row["old"]:
            if (R(row["new"]) in added) != (row["placement"] == "added"):
                found_wrong.append(f"{where}: added is {R(row['new']) in added}, verified {row['placement']}")
            continue
        found = by_old.get(R(row["old"]))
        claim = found.pair.kind if found else "unknown"
        if claim != row["placement"]:
            found_wrong.append(f"{where}: {claim}, verified {row['placement']}")
        elif claim == "moved" and str(found.pair.new_number) != row["new"]:
            found_wrong.append(f"{where}: moved to {found.pair.new_number}, verified {row['new']}")
        elif claim == "split" and not {str(t) for t in found.pair.targets} & set(row["targets"]):
            found_wrong.append(f"{where}: split into {[str(t) for t in found.pair.targets]}")
        elif row["text"] and found.text_class != row["text"]:
            found_wrong.append(f"{where}: text {found.text_class}, verified {row['text']}")
    return found_wrong


def test_the_set_has_three_hundred_rows_across_eras_and_both_games():
    assert sum(len(p["row"]) for p in PAIRS) >= 300
    assert {p["game"] for p in PAIRS} == {"mtg", "dm"} and {p["lang"] for p in PAIRS} == {"en", "ja"}
    assert {"unchanged", "editorial", "renumbered-reference", "substantive"} <= {
        r["text"] for p in PAIRS for r in p["row"]}
    assert {"in-place", "moved", "split", "added", "removed", "unknown"} == {
        r["placement"] for p in PAIRS for r in p["row"]}


def test_every_verified_row_but_one_agrees(catalog):
    found_wrong = [miss for pair in PAIRS for miss in disagreements_of(catalog, pair)]
    # 805.3a: "his or her teammate" -> "a teammate" is editorial only because Two-Headed Giant has one
    # teammate; no fold knows that.
    assert found_wrong == ["2017-09-29->2018-04-27 805.3a->805.3a: text substantive, verified editorial"]


def test_two_headed_giant_combat_rules_dropped_in_2018_are_removed(catalog):
    """2018-04-27 replaced 810.7a-f by a reference to 805.10, whose rules said the same already
    (unchanged since 2017): removed, not "split into 805.10a"."""
    alignment = align_versions(catalog, MEMO, "mtg", "en", "2017-09-29", "2018-04-27", within=Scope(chapter=8))
    for letter in "abcdef":
        assert alignment.pair_for_old(R(f"810.7{letter}")).kind == "removed", letter
