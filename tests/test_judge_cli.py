"""Issue 23: what a judge asks of the CLI: the versions, suggestions that mean something, a history
that shows each wording once, glossary terms and keyword abilities by name. Facts from the real corpus."""

from __future__ import annotations

import json
from itertools import pairwise

import pytest

from rules_kb.ask.versions import nearest_labels
from rules_kb.numbers import RuleNumber

# --- versions ----------------------------------------------------------------------------------


def test_versions_lists_each_game_and_language_oldest_first(cli):
    code, out, _ = cli("versions", "--game", "dm", "--lang", "ja")
    assert code == 0
    lines = out.split("\n\n")[0].splitlines()  # the rules' versions; the tournament documents' follow
    assert lines[0].startswith("dm ja: ") and "complete" in lines[0]
    labels = [line.split()[0] for line in lines[1:]]
    # 1.48 is the newest full Japanese rulebook in the corpus; the 2021-09-07 notice is a partial version
    assert labels.index("1.38") < labels.index("1.48")
    row = next(line for line in lines if line.split()[0] == "1.48")
    assert "complete" in row
    notice = next(line for line in lines if line.split()[0] == "2021-09-07")
    assert "partial (change-notice)" in notice and "2021-09-07" in notice


def test_versions_json_counts_rules_as_the_catalog_does(cli, knowledge):
    code, out, _ = cli("versions", "--game", "mtg", "--json")
    assert code == 0
    rows = [r for r in json.loads(out) if r["document"] == "cr"]  # the tournament documents' versions follow
    assert {r["lang"] for r in rows} == {"en"}
    newest = rows[-1]
    assert newest["label"] == "2024-11-08" and newest["complete"]
    assert newest["rules"] == len(knowledge.catalog.rules_in("mtg", "en", "2024-11-08"))
    assert [r["label"] for r in rows] == knowledge.catalog.version_labels("mtg", "en")


# --- suggestions -------------------------------------------------------------------------------


def test_a_version_number_suggests_the_nearest_numbers_not_the_likest_strings():
    labels = ["1.4", "1.7", "1.38", "1.40", "1.45", "1.48", "2021-09-07"]
    assert nearest_labels("1.47", labels) == ["1.48", "1.45", "1.40", "1.38", "1.7"]


def test_a_date_suggests_the_nearest_dates(cli):
    code, _, err = cli("show", "509.1a", "--game", "mtg", "--version", "2030-01-01")
    assert code == 1
    assert err.startswith("Error: no version 2030-01-01 of mtg (nearest: 2024-11-08, 2022-11-18, 2019-05-03")
    code, _, err = cli("show", "509.1a", "--game", "mtg", "--version", "2009-06")
    assert err.startswith("Error: no version 2009-06 of mtg (nearest: 2009-05-01, 2009-07-08")


def test_link_pin_names_the_nearest_labels_not_all_of_them(cli, tmp_path):
    note = tmp_path / "note.txt"
    note.write_text("DM 507.2a\n", encoding="utf-8")
    code, out, err = cli("link", str(note), "--pin", "1.47")
    assert (code, out) == (1, "")
    # the versions a note can link to (those with rule pages) nearest 1.47 by number, not all of them
    assert err == ("Error: --pin '1.47': no version with rule texts has that label "
                   "(nearest: 1.48, 1.38, 1.28, 1.20, 1.17; rules-kb versions lists them all)\n")


# --- history -----------------------------------------------------------------------------------


def test_history_prints_each_wording_once_with_the_versions_that_repeat_it(cli, knowledge):
    code, out, _ = cli("history", "509.1a", "--game", "mtg")
    assert code == 0
    heads = [line for line in out.splitlines() if line.startswith("509.1a  [")]
    repeats = [line for line in out.splitlines() if line.startswith("  = unchanged in ")]
    versions = [label for label in knowledge.catalog.version_labels("mtg", "en")
                if knowledge.catalog.text_of("mtg", "en", label, RuleNumber.parse("509.1a"))]
    assert repeats, out
    shown = len(heads) + sum(int(line.split()[3]) for line in repeats)
    assert shown == len(versions)  # every version accounted for, once
    texts = out.split("509.1a  [")[1:]
    bodies = ["\n".join(line for line in t.splitlines()[1:] if not line.startswith("  = ")) for t in texts]
    assert all(a != b for a, b in pairwise(bodies))  # neighbours differ


# --- glossary by name --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["deathtouch", "DEATHTOUCH", "Ｄｅａｔｈｔｏｕｃｈ"])
def test_show_a_magic_glossary_term_in_any_case(cli, name):
    code, out, _ = cli("show", name)
    assert code == 0
    # CR-2024-11-08.txt, glossary: "Deathtouch / A keyword ability that causes damage dealt by an object to be
    # especially effective. See rule 702.2, "Deathtouch."" and 702.2a "Deathtouch is a static ability."
    assert out.startswith("Deathtouch  [mtg en; glossary of 2024-11-08;")
    assert "A keyword ability that causes damage dealt by an object to be especially effective." in out
    assert "702.2a  [mtg en 2024-11-08" in out and "Deathtouch is a static ability." in out
    assert out.count("702.2a  [") == 1  # the keyword rule is not repeated as an entry of its own


def test_show_a_term_as_json(cli):
    code, out, _ = cli("show", "deathtouch", "--json")
    records = json.loads(out)
    assert code == 0 and records[0]["source"] == "glossary" and records[0]["rules"] == ["702.2"]
    assert "2008-10-01" in records[0]["versions"]
    assert [t["number"] for t in records[0]["texts"]][:2] == ["702.2", "702.2a"]


def test_show_a_curated_duel_masters_term_with_the_rule_that_defines_it(cli):
    code, out, _ = cli("show", "ブロッククリーチャー")
    assert code == 0
    assert out.startswith("ブロッククリーチャー  [dm ja; curated term, corpus/terms.toml]")
    # 507.2a (1.48): 選ばれたクリーチャーはブロッククリーチャーとして指定されます。
    assert "507.2a  [dm ja" in out and "ブロッククリーチャーとして指定されます" in out


def test_an_unknown_name_is_one_error_line_with_the_nearest_terms(cli):
    code, out, err = cli("show", "deathtuch")
    assert (code, out) == (1, "")
    assert err.startswith("Error: no rule, glossary term or keyword ability named 'deathtuch' (nearest terms: "
                          "Deathtouch")
    assert err.count("\n") == 1


def test_a_rule_number_is_still_a_rule(cli):
    code, out, _ = cli("show", "702.2a", "--game", "mtg")
    assert code == 0 and out.startswith("702.2a  [mtg en 2024-11-08")
    code, _, err = cli("show", "5072a", "--game", "dm")
    assert err == "Error: '5072a' is not a rule number; did you mean 507.2a?\n"


# --- link: the first run after a build reads the store ---------------------------------------------


def test_the_note_index_read_from_the_store_equals_the_one_from_memory(cli, knowledge, subset_corpus, cache_dir):
    from rules_kb.assemble.stored import open_store
    from rules_kb.notes.index import note_index

    assert cli("versions")[0] == 0  # the store exists, as after `make build`
    assert note_index(open_store(subset_corpus, cache_dir)) == note_index(knowledge)
