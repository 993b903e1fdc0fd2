"""Alignment and diffs: the 2009 renumbering against verified pairs, and the 507 story."""

from __future__ import annotations

import json
import tomllib

import pytest
from conftest import FIXTURES

from rules_kb.ask.story import explain_rule
from rules_kb.compare.align import align_versions
from rules_kb.compare.alignment import Scope
from rules_kb.compare.changes import compare_versions
from rules_kb.ingest.curated import ForcedMatch
from rules_kb.numbers import RuleNumber

VERIFIED = tomllib.loads((FIXTURES / "renumbering-2009.toml").read_text(encoding="utf-8"))
R = RuleNumber.parse


@pytest.fixture(scope="module")
def renumbering(knowledge):
    return align_versions(knowledge.catalog, knowledge.alignments, "mtg", "en", "2009-05-01", "2009-07-08")


@pytest.mark.parametrize("pair", VERIFIED["pair"], ids=lambda p: f"{p['old']}->{p['new']}")
def test_verified_2009_pair(renumbering, pair):
    found = renumbering.pair_for_old(R(pair["old"]))
    assert found is not None and str(found.new_number) == pair["new"]
    assert found.kind == "moved"


def test_precision_and_recall_against_the_verified_pairs(renumbering):
    """Recall: verified pairs found. Precision: automatic pairs of the scored old rules that are right."""
    verified = {R(p["old"]): R(p["new"]) for p in VERIFIED["pair"]}
    automatic = {old: renumbering.pair_for_old(old) for old in verified}
    paired = {old: p.new_number for old, p in automatic.items() if p is not None and p.new_number is not None}
    correct = sum(1 for old, new in paired.items() if verified[old] == new)
    recall, precision = correct / len(verified), correct / len(paired)
    print(f"\n2009 renumbering, 308/309: recall {recall:.2f} ({correct}/{len(verified)}), "
          f"precision {precision:.2f} ({correct}/{len(paired)})")
    assert recall == 1.0 and precision == 1.0


def test_split_rules_are_reported_with_where_their_sentences_went(renumbering):
    """308.1, 309.1, 309.3, 309.4 have no one successor; the aligner names the new rules that
    hold their sentences. Scored against the person-verified lists in the fixture."""
    found_total = verified_total = correct = 0
    for split in VERIFIED["split"]:
        pair = renumbering.pair_for_old(R(split["old"]))
        assert pair.kind == "split" and pair.new is None
        found, verified = {str(n) for n in pair.targets}, set(split["new"])
        assert found & verified, split["old"]
        found_total, verified_total, correct = found_total + len(found), verified_total + len(verified), \
            correct + len(found & verified)
    precision, recall = correct / found_total, correct / verified_total
    print(f"\nsplit targets: precision {precision:.2f} ({correct}/{found_total}), "
          f"recall {recall:.2f} ({correct}/{verified_total})")
    assert precision >= 0.9 and recall >= 0.9


def test_whole_release_counts_are_a_move_not_delete_and_add(renumbering):
    counts = renumbering.counts()
    assert counts["moved"] > 1000  # the 2009 renumbering moved most rules
    assert sum(counts.values()) == len(renumbering.pairs)


def test_forced_match_overrides_and_a_useless_one_is_reported(knowledge):
    forced = [
        ForcedMatch("mtg", "en", "2009-05-01", "2009-07-08", R("309.3"), R("509.4a"), "test"),
        ForcedMatch("mtg", "en", "2009-05-01", "2009-07-08", R("308.2c"), R("508.1f"), "test"),
    ]
    alignment = align_versions(knowledge.catalog, knowledge.alignments, "mtg", "en", "2009-05-01", "2009-07-08", forced)
    pair = alignment.pair_for_old(R("309.3"))
    assert pair.forced and str(pair.new_number) == "509.4a"
    assert alignment.pair_for_old(R("308.2c")).forced
    # 308.2c -> 508.1f is found automatically too, but by a move, so the override is not "nothing".
    forced_same = [ForcedMatch("dm", "ja", "1.38", "1.48", R("507.2a"), R("507.2a"), "test")]
    same = align_versions(knowledge.catalog, knowledge.alignments, "dm", "ja", "1.38", "1.48", forced_same)
    assert same.notes == ["forced match 507.2a -> 507.2a changes nothing (paired automatically)"]


def test_partial_versions_report_unknown_not_removed(knowledge):
    """The 2021-09-07 notice prints 507-507.3a only: 1.38's 507.3b-507.4 are unknown there, not added."""
    comparison = compare_versions(knowledge.catalog, knowledge.alignments,
                                  "dm", "ja", "2021-09-07", "1.38", within=Scope(rule=R("507")))
    assert comparison.counts()["added"] == 0
    assert [str(n) for n in comparison.alignment.unknown_new] == [
        "507.3b", "507.3c", "507.3d", "507.3e", "507.3f", "507.3g", "507.4"]


def test_english_507_from_1_20_to_1_38_is_editorial_only(knowledge):
    comparison = compare_versions(knowledge.catalog, knowledge.alignments,
                                  "dm", "en", "1.20", "1.38", within=Scope(rule=R("507")))
    counts = comparison.counts()
    assert counts["substantive"] == counts["moved"] == counts["added"] == counts["removed"] == 0
    edits = {str(row.pair.old_number): row.diff.editorial_changes for row in comparison.rows if row.kind == "editorial"}
    assert edits["507.1b"] == [("creatue", "creature", "typo")]
    assert edits["507.1"] == [("nonactive", "non-active", "hyphenation")]


def test_japanese_507_from_1_38_to_1_48_changed_only_in_width(knowledge):
    comparison = compare_versions(knowledge.catalog, knowledge.alignments,
                                  "dm", "ja", "1.38", "1.48", within=Scope(rule=R("507")))
    assert comparison.counts()["substantive"] == 0
    reasons = {reason for row in comparison.rows if row.diff
               for _, _, reason in row.diff.editorial_changes}
    assert reasons <= {"width", "punctuation"}


def test_the_507_story(knowledge):
    story = explain_rule(knowledge, "dm", R("507"))
    assert [(c.alignment.old_version, c.alignment.new_version) for c in story.chains["ja"]] == [
        ("2021-09-07", "1.38"), ("1.38", "1.48")]
    assert story.lags == [
        "en 1.38 (2023-09-14) only retouched en 1.20 (2020-07-17) across the 2021-09-07 change (4 editorial, "
        "4 unchanged, nothing of substance): it still states the rules as they were before 2021-09-07."]
    drifted = {d.number for d in story.drift}
    assert {"507.1", "507.2", "507.3"} <= drifted
    pairs = {(str(c.old[2]), str(c.new[2])) for c in story.correspondences}
    assert {("507.1b", "507.2a"), ("507.1d", "507.2c"), ("507.3", "507.4"), ("507.2a", "507.3b")} <= pairs
    texts = " ".join(p.text for p in story.commentary)
    assert "変更前は3ドロー、変更後は1ドロー" in texts
    assert "「ブロックされていない」として扱う" in texts
    assert story.gaps and story.gaps[0].startswith("No Japanese text of rule 507 from before the 2021-09-07 change")


def test_diff_cli_where_did_309_go(cli):
    code, out, _ = cli("diff", "--game", "mtg", "--lang", "en", "2009-05-01", "2009-07-08", "--rule", "309", "--json")
    data = json.loads(out)
    moves = {(r["old"], r["new"]) for r in data["rows"] if r["kind"] == "moved"}
    assert code == 0 and ("309.2a", "509.1a") in moves and ("309.5", "509.7") in moves


def test_diff_cli_any_two_versions_by_section(cli):
    code, out, _ = cli("diff", "--game", "mtg", "--lang", "en", "2008-10-01", "2024-11-08", "--section", "5")
    assert code == 0
    assert out.splitlines()[0].startswith("mtg en 2008-10-01 -> 2024-11-08: ")
    assert "309.2a -> 509.1a (moved" in out


def test_diff_cli_html_escapes_source_text(cli):
    code, out, _ = cli("diff", "--game", "dm", "--lang", "en", "1.20", "1.38", "--rule", "507", "--json")
    assert code == 0
    rows = {r["old"]: r for r in json.loads(out)["rows"]}
    assert rows["507.1b"]["html"].count("<del>creatue</del><ins>creature</ins>") == 1
    assert "it&#x27;s" in rows["507.1b"]["html"]  # apostrophes in source text are escaped


def test_explain_cli(cli):
    code, out, _ = cli("explain", "507", "--game", "dm")
    assert code == 0
    assert "en 1.38 507.1b -> ja 2021-09-07 507.2a: Was: every chosen creature becomes a blocking creature." in out
    assert "-- not in the corpus" in out


def test_diff_cli_unknown_version(cli):
    code, _, err = cli("diff", "--game", "dm", "--lang", "ja", "1.38", "9.99")
    assert code == 1 and "version 9.99 of dm ja" in err


def test_templated_siblings_follow_their_renumbered_section(knowledge):
    """2024-11-08 inserted 310 Battles: 312 Vanguards became 313, and 312.3 'Vanguard cards have
    no subtypes.' must pair with 313.3, not with the new 312.3 'Phenomenon cards have no subtypes.'"""
    alignment = align_versions(knowledge.catalog, knowledge.alignments, "mtg", "en", "2022-11-18", "2024-11-08")
    assert str(alignment.pair_for_old(R("312")).new_number) == "313"
    assert str(alignment.pair_for_old(R("312.3")).new_number) == "313.3"
    assert str(alignment.pair_for_old(R("311.3")).new_number) == "312.3"


def test_the_corpus_forced_match_corrects_305_3(knowledge):
    """corpus/forced-matches.toml pairs 305.3 with 505.3 (read in both texts); word similarity
    alone picks 505.4a. The override is used by diffs and by the graph's renumbered edges."""
    automatic = align_versions(knowledge.catalog, knowledge.alignments, "mtg", "en", "2009-05-01", "2009-07-08")
    forced = align_versions(knowledge.catalog, knowledge.alignments,
                            "mtg", "en", "2009-05-01", "2009-07-08", knowledge.forced)
    assert str(automatic.pair_for_old(R("305.3")).new_number) == "505.4a"
    pair = forced.pair_for_old(R("305.3"))
    assert str(pair.new_number) == "505.3" and pair.forced
    old = knowledge.catalog.text_of("mtg", "en", "2009-05-01", R("305.3"))
    moved_to = [d["new"] for _, _, d in knowledge.graph.out_edges(
        "text:mtg:en:2009-05-01:305.3@mtg-cr-2009-05-01", data=True) if d["kind"] == "renumbered"]
    assert old is not None and moved_to == ["505.3"]


def test_a_whole_section_renumbered_is_found_by_its_title(knowledge):
    alignment = align_versions(knowledge.catalog, knowledge.alignments, "mtg", "en", "2009-05-01", "2009-07-08")
    assert str(alignment.pair_for_old(R("305")).new_number) == "505"  # Main Phase


def test_split_targets_of_a_long_diff_are_numbers_of_the_last_release(knowledge):
    alignment = align_versions(knowledge.catalog, knowledge.alignments, "mtg", "en", "2008-10-01", "2024-11-08")
    last = knowledge.catalog.rules_in("mtg", "en", "2024-11-08")
    splits = [p for p in alignment.pairs if p.kind == "split"]
    assert splits and all(target in last for p in splits for target in p.targets)


def test_a_renumbered_rule_rewritten_in_its_new_place_is_one_move(knowledge):
    """2024 moved Planes 310 -> 311; 310.7 (chaos abilities) was reworded there as 311.7."""
    alignment = align_versions(knowledge.catalog, knowledge.alignments, "mtg", "en", "2022-11-18", "2024-11-08")
    pair = alignment.pair_for_old(R("310.7"))
    assert pair.kind == "moved" and str(pair.new_number) == "311.7"
    assert not [p for p in alignment.pairs if p.kind == "added" and str(p.new_number) == "311.7"]


def test_a_retitled_section_whose_rules_stayed_is_the_same_section(knowledge):
    """308 'Tribals' became 'Kindreds' in 2024-11-08; 308.1 and 308.2 stayed under it."""
    alignment = align_versions(knowledge.catalog, knowledge.alignments, "mtg", "en", "2022-11-18", "2024-11-08")
    pair = alignment.pair_for_old(R("308"))
    assert pair.kind == "in-place" and pair.new.title == "Kindreds" and pair.old.title == "Tribals"


def test_a_forced_match_the_aligner_finds_anyway_is_reported(knowledge):
    forced = [ForcedMatch("mtg", "en", "2022-11-18", "2024-11-08", R("312.3"), R("313.3"), "test")]
    alignment = align_versions(knowledge.catalog, knowledge.alignments, "mtg", "en", "2022-11-18", "2024-11-08", forced)
    assert alignment.notes == ["forced match 312.3 -> 313.3 changes nothing (paired automatically)"]


@pytest.mark.parametrize(("args", "message"), [
    (["2009-05-01", "2009-05-01"], "Error: compare two different versions (both are 2009-05-01)"),
    (["2024-11-08", "2009-05-01"], "Error: 2024-11-08 is newer than 2009-05-01: give the older version first"),
    (["2009-05-01", "2009-07-08", "--rule", "999"], "Error: no rule 999 in mtg en 2009-05-01 or 2009-07-08"),
    (["2009-05-01", "2009-07-08", "--section", "99"], "Error: --section takes a chapter from 0 to 9, not 99"),
])
def test_diff_cli_refuses_questions_it_cannot_answer(cli, args, message):
    code, out, err = cli("diff", "--game", "mtg", "--lang", "en", *args)
    assert code == 1 and out == "" and err.startswith(message) and err.count("\n") == 1


def test_composing_with_the_rest_of_the_chain_equals_composing_every_step(knowledge):
    """Each release against the newest is its first step composed with the (memoised) rest of
    the chain; that must be exactly what following every rule release by release gives."""
    from itertools import pairwise

    from rules_kb.compare.align import align_pair, complete_chain
    from rules_kb.compare.alignment import pair_order
    from rules_kb.compare.compose import compose

    catalog, forced = knowledge.catalog, tuple(knowledge.forced)
    labels = [label for label in catalog.version_labels("mtg", "en") if catalog.rules_in("mtg", "en", label)]

    def rows(alignment):
        return sorted(((p.kind, p.old_number, p.new_number, p.similarity, p.forced, p.targets)
                       for p in alignment.pairs), key=repr)

    compared = 0
    for old in labels[:-2]:
        chain = complete_chain(catalog, "mtg", "en", old, labels[-1])
        steps = [align_pair(catalog, knowledge.alignments, "mtg", "en", a, b, forced) for a, b in pairwise(chain)]
        stepwise = compose(steps)
        composed = align_versions(catalog, knowledge.alignments, "mtg", "en", old, labels[-1], list(forced))
        assert rows(composed) == rows(stepwise), old
        assert [pair_order(p) for p in composed.pairs] == sorted(pair_order(p) for p in stepwise.pairs)
        assert composed.notes == stepwise.notes
        compared += 1
    assert compared >= 7  # of the nine Magic releases alone, seven are two or more steps from the newest


def test_damage_assignment_order_removed_in_2024_is_removed_not_split(knowledge):
    """2024-11-08 dropped damage assignment order: 2019-05-03's 509.2 and 509.3 announced it.
    Their one sentence "This turn-based action doesn't use the stack." is also in 500.4, but
    the rest of them is nowhere: removed, not "split into 500.4"."""
    alignment = align_versions(knowledge.catalog, knowledge.alignments,
                               "mtg", "en", "2019-05-03", "2024-11-08", within=Scope(chapter=5))
    for number in ("509.2", "509.3", "509.2a", "509.3a"):
        pair = alignment.pair_for_old(R(number))
        assert pair.kind == "removed" and not pair.targets, number
    assert not [p for p in alignment.pairs if p.kind == "split" and R("500.4") in p.targets]


def test_a_split_claims_most_of_the_old_words(knowledge):
    """Every split of the 2009 renumbering names targets holding at least SPLIT_COVERAGE of its words."""
    from rules_kb.compare.thresholds import SPLIT_COVERAGE
    alignment = align_versions(knowledge.catalog, knowledge.alignments, "mtg", "en", "2009-05-01", "2009-07-08")
    splits = [p for p in alignment.pairs if p.kind == "split"]
    assert splits and min(p.similarity for p in splits) >= SPLIT_COVERAGE


def test_a_step_renumbered_by_its_ordinal_is_not_substantive(knowledge):
    """2024's 502.3 "Third, the active player determines which permanents ... untap" was 502.2
    "Second, ..." in 2019-05-03: a day/night step was inserted before it, nothing else changed."""
    comparison = compare_versions(knowledge.catalog, knowledge.alignments, "mtg", "en", "2019-05-03", "2024-11-08",
                                  within=Scope(chapter=5))
    row = next(r for r in comparison.rows if r.pair.old_number == R("502.2"))
    assert str(row.pair.new_number) == "502.3" and row.kind == "moved"
    assert row.text_class == "renumbered-reference" and not row.substantive
    ordinal_and_reference = next(r for r in comparison.rows if r.pair.old_number == R("509.4"))
    assert ordinal_and_reference.text_class == "renumbered-reference"  # Fourth -> Second, rule 116 -> 117
    rewritten = next(r for r in comparison.rows if r.pair.old_number == R("509.7"))
    assert rewritten.text_class == "substantive"  # lost its damage-assignment-order clause


def test_partial_versions_with_nothing_in_common_claim_no_move(knowledge):
    """Duel Masters 1.17's excerpt is the attack step (506); 2021-09-07's notice rewrote the block
    step (507). An attacking creature staying attacking (506.1d) is not a blocking creature staying
    blocking (507.2a), though the words are close: with no 507 in 1.17, nothing is claimed."""
    alignment = align_versions(knowledge.catalog, knowledge.alignments, "dm", "ja", "1.17", "2021-09-07")
    assert not alignment.pairs
    assert R("506.1d") in alignment.unknown_old and R("507.2a") in alignment.unknown_new
    later = align_versions(knowledge.catalog, knowledge.alignments,
                           "dm", "ja", "2021-09-07", "1.48")  # a near copy still moves
    assert str(later.pair_for_old(R("803.1c")).new_number) == "804.1c"


def test_a_sentence_already_in_an_unchanged_rule_is_not_a_split_target(knowledge):
    """2016-09-30 rewrote 503.2 "Second, the active player gets priority. Players may cast spells
    and activate abilities." as 503.1 "... Once it begins, the active player gets priority."; the
    second sentence was also in 514.3a before and after, so 503.2 did not split into 514.3a."""
    alignment = align_versions(knowledge.catalog, knowledge.alignments,
                               "mtg", "en", "2015-07-17", "2016-09-30", within=Scope(chapter=5))
    pair = alignment.pair_for_old(R("503.2"))
    assert pair.kind == "moved" and str(pair.new_number) == "503.1"



def test_scope_bounds_hold_every_number_of_their_scope(knowledge):
    """A scope's string bounds (what the store's number index and alignment parts are read by)
    take in every number the scope holds: chapter 9's run from "900" to "9~", not to "1000"."""
    numbers = knowledge.catalog.numbers_of("mtg")
    for chapter in range(1, 10):
        low, high = Scope(chapter=chapter).bounds()
        inside = [n for n in numbers if Scope(chapter=chapter).contains(n)]
        assert inside and all(low <= str(n) < high for n in inside), chapter
    for rule in ("509.1", "702.2", "702", "100.1a"):
        scope = Scope(rule=RuleNumber.parse(rule))
        low, high = scope.bounds()
        inside = [n for n in numbers if scope.contains(n)]
        assert inside and all(low <= str(n) < high for n in inside), rule
