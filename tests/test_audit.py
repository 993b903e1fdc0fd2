"""`rules-kb audit`: each citation of a note, at its date, against today's rules.

The flagship is seed 004, Magic's rulings on 309 (Declare Blockers Step) of March 2008, each entry
tagged with the release it quotes ([CompRules 2008/02/01]). The test subset's newest Magic release
is 2024-11-08; every verdict below was read by hand against the entry's text (the seed, and the
release of its tag in corpus/mtg/) and the rule the audit names in 2024-11-08 and 2026-04-17
(the same wording in both for these rules).
"""

from __future__ import annotations

import json

import pytest
from conftest import CORPUS

SEED_004 = next((CORPUS / "seeds").glob("004_*.txt"))


_AUDITED: dict = {}  # the seed's audit, run once for the module's tests (the cli fixture is per test)


@pytest.fixture
def seed_audit(cli):
    if not _AUDITED:
        code, out, err = cli("audit", str(SEED_004), "--json")
        _AUDITED["seed"] = code, json.loads(out), err
    return _AUDITED["seed"]


@pytest.fixture
def entry(seed_audit):
    """The finding of the citation that opens the entry on ``line`` of the seed (the rule it quotes)."""
    _, record, _ = seed_audit

    def find(line: int) -> dict:
        (found,) = [c for c in record["citations"] if c["line"] == line and c["column"] == 3]
        return found
    return find


def test_the_seed_is_audited_entry_by_entry_and_fails(seed_audit):
    code, record, err = seed_audit
    assert code == 1, err  # cited rules changed in substance
    openers = [(c["line"], c["number"], c["dated"]) for c in record["citations"] if c["column"] == 3]
    assert openers == [  # "- 309.x - ... [CompRules YYYY/MM/DD]": every entry, dated by its own tag
        (3, "309.1", "2003-10-01"), (8, "309.2", "2003-07-01"), (14, "309.2a", "2008-02-01"),
        (20, "309.2a", "2007-10-01"), (25, "309.2b", "2003-07-01"), (31, "309.2c", "2003-07-01"),
        (34, "309.2d", "2003-07-01"), (37, "309.2e", "2007-10-01"), (42, "309.2f", "2006-10-01"),
        (48, "309.3", "2007-10-01"), (52, "309.4", "2006-05-01"), (64, "309.5", "2007-10-01")]
    assert all(c["game"] == "mtg" and c["dated_by"] == "tag" for c in record["citations"] if c["dated"])
    # "- Note - See Rule 306 for additional details on blocking." carries no tag: not audited, said so.
    (note,) = [c for c in record["citations"] if c["line"] == 69]
    assert (note["number"], note["verdict"]) == ("306", "undated") and "--as-of" in note["problem"]


def test_309_2a_of_2008_is_509_1a_changed_in_substance(entry):
    # 2008-02-01: "...chooses one creature for it to block that's attacking him, her, or a planeswalker he
    # or she controls. Then he or she determines whether this set of blocks is legal." Today's 509.1a adds
    # "and they can't also be battles" and "or a battle they protect", and the legality sentence is gone.
    found = entry(14)
    assert (found["verdict"], found["now"], found["changed_on"][0]) == ("substantive", "509.1a", "2009-07-08")
    assert ["", "and they can’t also be battles"] in found["changes"]
    assert found["then_text"].endswith('(See Rule 500, "Legal Attacks and Blocks.")')
    assert "Then he or she determines" not in found["now_text"]


def test_309_2b_is_509_1d_with_editorial_changes_only(entry):
    # 2003: "If any of the creatures require paying costs to block, ..."; 509.1d: "If any of the chosen
    # creatures require paying costs to block, ..." and curly quotes round "locked in": the same rule
    # (corpus-wide, "any of the chosen creatures" is a listed equivalent phrase, compare/diff.py).
    found = entry(25)
    assert (found["verdict"], found["now"], found["text_class"]) == ("renumbered", "509.1d", "editorial")
    assert found["changes"] == [] and ["", "chosen", "wording"] in found["editorial"]


def test_309_2d_is_509_1f_with_the_gender_neutral_pronouns(entry):
    # 2003: "...enough mana in his or her mana pool, he or she pays all costs in any order." 509.1f:
    # "...enough mana in their mana pool, they pay all costs in any order." Nothing else differs.
    found = entry(34)
    assert (found["verdict"], found["now"]) == ("renumbered", "509.1f")
    assert {reason for _, _, reason in found["editorial"]} == {"pronoun"}


def test_309_2e_changed_in_substance_blocking_several_attackers(entry):
    # 2007: "Each one is blocking the attacking creature chosen for it." 509.1g: "...the attacking
    # creatures chosen for it": a blocker may block several attackers, a change of substance.
    found = entry(37)
    assert (found["verdict"], found["now"]) == ("substantive", "509.1g")
    assert ["creature", "creatures"] in found["changes"]


def test_309_3_split_into_509_3a_and_509_3f(entry):
    # 2007's 309.3: triggers "only at the point the creature is declared as a blocker" (today's 509.3a:
    # "It triggers if the creature is declared as a blocker") and "will not trigger if ... that
    # creature's characteristics change" (509.3f: "None of those abilities will trigger if the relevant
    # creature's characteristics change ... later on"). No rule of 2009-07-08 continues it whole.
    found = entry(48)
    assert (found["verdict"], found["changed_on"], found["targets"]) == ("split", ["2009-07-08"], ["509.3a", "509.3f"])


def test_309_1_split_into_the_steps_of_509(entry):
    # 2003: declares blockers "(this game action doesn't use the stack)", then triggered abilities go on the
    # stack, then the active player gets priority: today 509.1 ("First, ... doesn't use the stack"), 509.2a
    # (abilities triggered on blockers being declared) and 509.2 ("Second, the active player gets priority").
    found = entry(3)
    assert (found["verdict"], sorted(found["targets"])) == ("split", ["509.1", "509.2", "509.2a"])


def test_the_text_view_says_each_verdict_in_a_line(cli):
    code, out, _ = cli("audit", str(SEED_004))
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == f"{SEED_004}: 20 citations against today's rules (mtg en 2024-11-08)"
    at = lines.index("25:3 309.2b, as of 2003-07-01 (its entry's tag; mtg en 2003-07-01)")
    assert lines[at + 1] == "  renumbered to 509.1d (same words but for editorial changes)"
    at = lines.index("48:3 309.3, as of 2007-10-01 (its entry's tag; mtg en 2007-10-01)")
    assert lines[at + 1] == "  split on 2009-07-08: its sentences are in 509.3a, 509.3f today"


def test_duel_masters_2021_rewrite_against_1_48(cli, tmp_path):
    # seed 001 (the 2021-09-07 rewrite of 507) and 1.48 print 507.2a alike but for the example's digits
    # ("2体" -> "２体"): editorial. 803.1c of 2021 ("ゴッドがバトルゾーンに出ることでカードの能力が誘発する場合、
    # ...") is 804.1c in 1.48, one space added ("1体" -> "1 体"): renumbered, same words.
    note = tmp_path / "note.txt"
    note.write_text("Blocks: DM 507.2a (2021-09-07). Gods: DM 803.1c (2021-09-07).\n", encoding="utf-8")
    code, out, _ = cli("audit", str(note), "--json")
    block, god = json.loads(out)["citations"]
    assert (block["lang"], block["version"], block["today"], block["verdict"]) == ("ja", "2021-09-07", "1.48",
                                                                                  "editorial")
    assert {reason for _, _, reason in block["editorial"]} == {"width"}
    assert (god["verdict"], god["now"], god["text_class"]) == ("renumbered", "804.1c", "editorial")
    assert code == 0
    code, out, _ = cli("audit", str(note))
    assert "  renumbered to 804.1c (same words but for editorial changes)\n  editorial: whitespace only\n" in out


def test_as_of_dates_untagged_citations_and_a_clean_note_exits_0(cli, tmp_path):
    note = tmp_path / "note.md"
    note.write_text("The attacker is chosen by rule 509.1a.\n", encoding="utf-8")
    code, out, _ = cli("audit", str(note), "--game", "mtg", "--as-of", "2024-11-08")
    assert code == 0
    assert out.splitlines()[-1] == "  unchanged in 2024-11-08"
    code, _, err = cli("audit", str(note), "--as-of", "2024-13-01")
    assert code == 1 and err.startswith("Error: --as-of '2024-13-01': expected a date YYYY-MM-DD")
