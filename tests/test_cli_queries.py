"""The CLI's questions, run in-process against the real corpus."""

from __future__ import annotations

import json

from conftest import ROOT

from rules_kb.render.export import read_graph


def test_show_pinned_version(cli):
    code, out, err = cli("show", "507.2a", "--game", "dm", "--lang", "ja", "--version", "1.48")
    assert code == 0 and err == ""
    assert out.startswith("507.2a  [dm ja 1.48 (2025-12-17); dm-rulebook-ja-1.48:")
    assert "最終的に、ブロッカー能力によってその能力を使用したクリーチャーに攻撃先が変更された場合" in out
    assert "例：２体のクリーチャーのブロッカー能力を使用した場合" in out


def test_show_accepts_full_width_numbers(cli):
    code, out, _ = cli("show", "５０７．２ａ", "--game", "dm", "--lang", "en", "--json")
    records = json.loads(out)
    assert code == 0 and [(r["version"], r["number"]) for r in records] == [("1.38", "507.2a")]


def test_unknown_rule_suggests_the_nearest_numbers(cli):
    code, out, err = cli("show", "507.9", "--game", "dm")
    assert code == 1 and out == ""
    assert err == "Error: no rule 507.9 (nearest: 507.3g, 507.4, 508, 508.1, 509)\n"


def test_malformed_rule_number_is_a_clear_error(cli):
    code, _, err = cli("history", "5o7")  # a letter in it: read as a name too, as show reads it
    assert code == 1 and err.startswith("Error: no rule, glossary term or keyword ability named '5o7'")
    assert err.count("\n") == 1


def test_unknown_version_names_the_known_ones(cli):
    code, _, err = cli("show", "507.2a", "--game", "dm", "--lang", "ja", "--version", "9.99")
    assert code == 1 and err.startswith("Error: no version 9.99 of dm ja (nearest: ") and "1.48" in err
    assert "2019-09-27" not in err  # nearest labels of the same shape


def test_refs_lists_citing_texts_by_version(cli):
    code, out, _ = cli("refs", "603.2e", "--game", "dm")
    assert code == 0
    assert out.splitlines() == [  # newest version first
        'dm ja 1.48: text 506.3b (dm-rulebook-ja-1.48) cites "参考603.2e"',
        'dm ja 1.48: text 507.3d (dm-rulebook-ja-1.48) cites "参考 603.2e"',
        'dm ja 1.38: text 507.3d (seed-000) cites "参考:603.2e"  '
        '[other-version: ja:before-2020-10-23, ja:2020-10-23, ja:1.48]',
    ]


def test_history_is_oldest_first_with_provenance_and_notices(cli):
    code, out, _ = cli("history", "507.2a", "--game", "dm", "--lang", "ja", "--json")
    data = json.loads(out)
    assert code == 0
    assert [(t["version"], t["document"]) for t in data["texts"]] == [
        ("2021-09-07", "seed-001"), ("1.38", "seed-000"), ("1.48", "dm-rulebook-ja-1.48")]
    assert {"kind": "changed_by", "document": "seed-001", "date": "2021-09-07", "marks": []} in data["documents"]["dm"]


def test_history_marks_the_era_break_and_the_move_of_309_2a(cli):
    """309.2a (blockers) moved to 509.1a on 2009-07-08; from 2022-11-18 on 309.2a is a Dungeon rule."""
    code, out, _ = cli("history", "309.2a", "--game", "mtg")
    assert code == 0
    lines = out.splitlines()
    heads = [line for line in lines if not line.startswith("  ")]
    # 2009-05-01 prints the 2008-10-01 text unchanged: one entry, its last version named under it.
    assert heads[2].startswith("309.2a  [mtg en 2008-10-01")
    assert "  = unchanged in 1 later version, 2009-05-01 (last: mtg-cr-2009-05-01:91334)" in lines
    assert heads[3] == ("-- 309.2a is another rule from 2022-11-18 on: the rule that held the number before "
                        "moved or was removed (see 'moved to' below)")
    assert heads[-1] == "mtg en: moved to 509.1a in 2009-07-08 (from 2009-05-01; similarity 0.66)"


def test_analogue(cli):
    code, out, _ = cli("analogue", "507", "--game", "dm")
    assert code == 0
    assert out.splitlines()[:3] == ["dm 507 ~ mtg 309, now 509", "  Duel Masters texts: all versions",
                                    "  Magic en: 309 2008-03-17 to 2009-05-01 → 509 since 2009-07-08"]


def test_graph_export_json_and_graphml_load_back(cli, tmp_path, knowledge):
    for fmt in ("json", "graphml"):
        path = tmp_path / f"graph.{fmt}"
        code, out, _ = cli("graph", "export", "--format", fmt, str(path))
        assert code == 0 and out.startswith(f"wrote {path}: ")
        loaded = read_graph(path, fmt)
        assert loaded.number_of_nodes() == knowledge.graph.number_of_nodes()
        assert loaded.number_of_edges() == knowledge.graph.number_of_edges()
        assert loaded.nodes["rule:dm:507.2a"]["number"] == "507.2a"


def test_every_command_is_documented_in_the_readme():
    from rules_kb.cli import build_parser

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = build_parser()._subparsers._group_actions[0].choices
    for name in commands:
        assert f"rules-kb {name}" in readme, name


def test_show_says_when_a_number_left_the_rules(cli):
    """Magic 507.3c is in the 2009-05-01 release and not in 2009-07-08's (the M10 renumbering)."""
    code, out, _ = cli("show", "507.3c", "--game", "mtg")
    assert code == 0
    first = out.splitlines()[0]
    assert first.startswith("! 507.3c (mtg en) is not in the rules since 2009-07-08; its text is ")
    assert first.endswith("its last text is 2009-05-01's")
    code, out, _ = cli("history", "507.3c", "--game", "mtg")
    assert code == 0 and out.splitlines()[-1] == first
    for command in ("show", "history"):
        code, out, _ = cli(command, "509.1a", "--game", "mtg")
        assert code == 0 and "not in the rules since" not in out
