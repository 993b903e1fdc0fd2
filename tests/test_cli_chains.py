"""Whole chains: a gone number names where its text is after every renumbering, and analogues follow
each rule's lineage (the test subset holds Magic 2008-10-01, 2009-05-01, 2009-07-08, 2013-04-29,
2015-07-17, 2016-09-30, 2019-05-03, 2022-11-18 and 2024-11-08)."""

from __future__ import annotations

import json


def test_a_gone_number_names_every_renumbering_to_today(cli):
    """509.4f (trigger characteristics at the point of blocking) became 509.5f in 2016-09-30 and 509.3f in
    2024-11-08 (CR-2024-11-08.txt: "509.3f If an ability triggers when a creature with certain
    characteristics blocks"). Before: "its text is now 509.5f", itself gone since 2024-11-08."""
    code, out, _ = cli("show", "509.4f", "--game", "mtg")
    assert code == 0
    assert out.splitlines()[0] == (
        "! 509.4f (mtg en) is not in the rules since 2016-09-30; its text is now 509.3f: 509.4f → 509.5f "
        "(2016-09-30) → 509.3f (2024-11-08); its last text is 2015-07-17's")
    code, out, _ = cli("show", "509.3f", "--game", "mtg")
    assert "If an ability triggers when a creature with certain characteristics blocks" in out


def test_the_gone_note_is_in_show_json_too(cli):
    code, out, _ = cli("show", "509.4f", "--game", "mtg", "--json")
    records = json.loads(out)
    assert code == 0 and records[0]["number"] == "509.4f"
    assert records[0]["warnings"][0].startswith("509.4f (mtg en) is not in the rules since 2016-09-30; its text is "
                                                "now 509.3f")


def test_an_analogue_follows_the_magic_rule_through_every_renumbering(cli):
    """corpus/analogues.toml pairs Duel Masters 507.2a with Magic 509.4f "for 2009-07-08 … 2024-11-08";
    509.4f left the rules in 2016-09-30. Before: only that list of releases."""
    code, out, _ = cli("analogue", "507.2a", "--game", "dm")
    assert code == 0
    row = out.split("dm 507.2a ~ mtg 509.4f")[1].splitlines()
    assert row[0] == ", now 509.3f"
    assert row[1] == "  Duel Masters texts: English 1.20-1.38 (pre-2021 structure)"
    assert row[2] == ("  Magic en: 509.4f 2009-07-08 to 2015-07-17 → 509.5f 2016-09-30 to 2022-11-18 → 509.3f "
                      "since 2024-11-08")


def test_todays_magic_number_finds_the_analogue_made_with_its_old_number(cli):
    """Before: "509.3f: no analogue recorded in corpus/analogues.toml"."""
    code, out, _ = cli("analogue", "509.3f", "--game", "mtg")
    assert code == 0
    heads = [line for line in out.splitlines() if not line.startswith(" ")]
    assert heads == ["mtg 509.3f ~ dm 507.2a", "mtg 509.3f ~ dm 507.3b"]
    assert "  Duel Masters texts: Japanese from 2021-09-07 (new structure)" in out
    code, out, _ = cli("analogue", "509.3f", "--game", "mtg", "--json")
    rows = json.loads(out)
    assert [e["number"] for e in rows[0]["chain"]["eras"]] == ["509.4f", "509.5f", "509.3f"]
    assert rows[0]["chain"]["lang"] == "en" and rows[0]["chain"]["gone"] == ""


def test_show_json_carries_the_not_the_same_rule_warning_of_each_text(cli):
    """English 1.38's 507.2a is Japanese 507.3b since the 2021-09-07 rewrite (corpus/correspondences.toml).
    Before: the warning went to stderr as a note and the JSON had none."""
    code, out, _ = cli("show", "507.2a", "--game", "dm", "--json")
    records = {r["lang"]: r for r in json.loads(out)}
    assert code == 0
    for lang in ("ja", "en"):
        assert any("English 1.38 507.2a is the rule numbered 507.3b in Japanese since the 2021-09-07 change" in w
                   for w in records[lang]["warnings"])
    code, out, _ = cli("show", "101.1", "--game", "dm", "--json")
    assert json.loads(out)[0]["warnings"] == []
