"""Glossary and sections in the terminal: a term's every wording, glossary changes in diff, names
suggested in both languages, a section read whole; and diff's word on partial versions."""

from __future__ import annotations

import json

from rules_kb.compare.glossary import compare_glossaries


def test_history_of_a_term_prints_each_wording_once(cli):
    """Deathtouch in 2008-10-01: "Deathtouch is a triggered ability. ..."; from 2009-07-08: "A keyword
    ability that causes damage dealt by an object to be especially effective. See rule 702.2, ...".
    Before: ``Error: no rule deathtouch``."""
    code, out, _ = cli("history", "deathtouch")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("Deathtouch  [mtg en glossary; ")
    assert lines[1].startswith("  2008-10-01 to 2009-05-01 (2 versions; ")
    assert lines[2].startswith("    Deathtouch is a triggered ability.")
    assert any(line.startswith("    A keyword ability that causes damage dealt by an object to be especially")
               for line in lines)
    code, out, _ = cli("history", "deathtouch", "--json")
    record = json.loads(out)[0]
    assert record["wordings"][0]["versions"] == ["2008-10-01", "2009-05-01"]
    assert sum(len(w["versions"]) for w in record["wordings"]) == 9  # every subset release prints it


def test_history_of_a_curated_term_names_its_rule(cli):
    code, out, _ = cli("history", "ブロッククリーチャー")
    assert code == 0 and "rules-kb history 507.2a --game dm" in out


def test_diff_lists_the_glossary_changes_of_whole_versions(cli):
    """CR-2022-11-18.txt's glossary has "Tribal" and "Totem Armor"; CR-2024-11-08.txt's has "Kindred",
    "Umbra Armor", "Tribal (Obsolete)" instead."""
    code, out, _ = cli("diff", "--game", "mtg", "--lang", "en", "2022-11-18", "2024-11-08")
    assert code == 0
    glossary = out[out.index("\nglossary 2022-11-18 -> 2024-11-08: "):].splitlines()
    for line in ("  Kindred (added)", "  Umbra Armor (added)", "  Tribal (removed)", "  Totem Armor (removed)"):
        assert line in glossary
    code, out, _ = cli("diff", "--game", "mtg", "--lang", "en", "2022-11-18", "2024-11-08", "--json")
    changes = json.loads(out)["glossary"]
    assert {"Kindred", "Umbra Armor"} <= set(changes["added"]) and {"Tribal", "Totem Armor"} <= set(changes["removed"])
    code, out, _ = cli("diff", "--game", "mtg", "--lang", "en", "2022-11-18", "2024-11-08", "--section", "5")
    assert "glossary" not in out  # a chapter has no glossary


def test_a_version_without_a_glossary_is_not_every_term_removed():
    changes = compare_glossaries("a", [("Zone", "A place.")], "b", [])
    assert not changes.compared and not changes.removed
    changes = compare_glossaries("a", [("Zone", "A place.")], "b", [("zone", "A  place."), ("Blight", "x")])
    assert (changes.added, changes.removed, changes.reworded) == (("Blight",), (), ())


def test_a_japanese_name_gets_the_nearest_japanese_names(cli):
    """``ブロッカー`` shares only ``ブロッ`` with ``ブロッククリーチャー``. Before: no suggestion at all."""
    code, out, err = cli("show", "ブロッカー")
    assert (code, out) == (1, "")
    assert err.startswith("Error: no rule, glossary term or keyword ability named 'ブロッカー' (nearest terms: "
                          "ブロッククリーチャー")
    assert err.rstrip().endswith("rules-kb search 'ブロッカー' looks for it in the rule texts)")
    assert err.count("\n") == 1


def test_show_all_prints_a_section_with_its_subrules(cli):
    """Before: ``show 507`` printed the heading only, and --all was refused."""
    code, out, _ = cli("show", "507", "--game", "dm", "--lang", "ja", "--all")
    assert code == 0
    numbers = [line.split("  [")[0] for line in out.splitlines() if "  [dm ja 1.48" in line]
    assert numbers[:4] == ["507", "507.1", "507.1a", "507.1b"]
    assert numbers[-1] == "507.4" and "507.3g" in numbers
    assert "選んだクリーチャーの能力を解決します。" in out  # 507.2 of 1.48


def test_a_diff_with_a_partial_version_says_what_it_is_and_why_the_rest_is_unknown(cli):
    """1.38 (seed-000) is an excerpt of 17 rules. Before: ~840 numbers listed, no word that 1.38 is partial."""
    code, out, _ = cli("diff", "--game", "dm", "--lang", "ja", "1.38", "1.48", "--substantive")
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == ("  1.38 is a partial version (an excerpt holding 17 rules): only the rules both versions "
                        "hold are compared")
    assert lines[2].startswith("  836 rules only in 1.48, unknown in 1.38 (partial): not added or removed, not "
                               "compared: 000, 000.1,")
    assert lines[2].endswith(" and 824 more (--all lists them)")


def test_a_name_or_reference_of_several_words_needs_no_quotes(cli):
    """``show CR 509.1a`` and ``history first strike`` as typed at a prompt: the words are one
    argument, as if quoted (before: "unrecognized arguments: 509.1a")."""
    for command in ("show", "history", "refs", "explain"):
        quoted = cli(command, "CR 509.1a")
        assert quoted[0] == 0 and cli(command, "CR", "509.1a") == quoted, command
    quoted = cli("history", "first strike")
    assert quoted[0] == 0 and "First Strike" in quoted[1] and cli("history", "first", "strike") == quoted
