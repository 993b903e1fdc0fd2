"""The Magic Comprehensive Rules parser, checked against facts readable in the releases."""

from __future__ import annotations

import re
from functools import cache

import pytest
from conftest import CORPUS

from rules_kb.errors import ParseError, SourceError
from rules_kb.ingest.corpus import load_manifest, read_document_bytes
from rules_kb.ingest.decode import decode_document
from rules_kb.ingest.pipeline import Ingested, ingest_corpus
from rules_kb.model import DocumentMeta, ParsedDocument
from rules_kb.numbers import RuleNumber
from rules_kb.sources.mtg_cr import release as mtg_cr

# The date each release states in "These rules are effective (current) as of …"; the file
# names are upload dates and differ for 2009-07-08 and 2013-04-29.
EFFECTIVE = {
    "mtg-cr-2008-10-01": "2008-10-01",
    "mtg-cr-2009-05-01": "2009-05-01",
    "mtg-cr-2009-07-08": "2009-07-11",
    "mtg-cr-2013-04-29": "2013-05-01",
    "mtg-cr-2015-07-17": "2015-07-17",
    "mtg-cr-2016-09-30": "2016-09-30",
    "mtg-cr-2019-05-03": "2019-05-03",
    "mtg-cr-2022-11-18": "2022-11-18",
    "mtg-cr-2024-11-08": "2024-11-08",
}


@cache
def ingest(doc_id: str) -> Ingested:
    [ingested] = ingest_corpus(CORPUS, only=[doc_id])
    return ingested


def parsed(doc_id: str) -> ParsedDocument:
    return ingest(doc_id).parsed


def rule(doc_id: str, number: str):
    found = [r for r in parsed(doc_id).rules if r.number == RuleNumber.parse(number)]
    assert len(found) == 1, f"{number}: {len(found)} rule texts"
    return found[0]


def meta(versions: tuple[str, ...] = ("test",)) -> DocumentMeta:
    return DocumentMeta("test-doc", "test.txt", "", "mtg", ("en",), "mtg-cr", "rules", versions)


# --- whole releases ---------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("doc_id", sorted(EFFECTIVE))
def test_every_character_is_accounted_for(doc_id: str) -> None:
    accounting = ingest(doc_id).accounting
    assert accounting.complete, (accounting.uncovered[:5], accounting.overlapping[:5])
    assert accounting.percent == 100.0


@pytest.mark.slow
@pytest.mark.parametrize("doc_id", sorted(EFFECTIVE))
def test_effective_date_and_version(doc_id: str) -> None:
    document = parsed(doc_id)
    label = doc_id.removeprefix("mtg-cr-")
    assert [(v.label, v.date, v.kind) for v in document.versions] == [(label, EFFECTIVE[doc_id], "full")]
    stamps = {(r.version, r.date, r.game, r.lang) for r in document.rules}
    assert stamps == {(label, EFFECTIVE[doc_id], "mtg", "en")}
    assert not [a for a in document.anomalies if a.code in ("no-effective-date", "conflicting-dates")]


@pytest.mark.slow
@pytest.mark.parametrize("doc_id", sorted(EFFECTIVE))
def test_rules_are_in_order_and_unique(doc_id: str) -> None:
    numbers = [r.number for r in parsed(doc_id).rules]
    assert numbers == sorted(numbers)
    assert len(set(numbers)) == len(numbers)


def test_numbered_rule_count_2022_matches_a_strict_line_count() -> None:
    # Every rule and subrule starts a line with "NNN.N": the contents list only sections
    # ("100. General") and glossary entries never start with a number, so counting such
    # lines in the decoded text counts the numbered rules independently of the parser.
    document = parsed("mtg-cr-2022-11-18")
    independent = len(re.findall(r"(?m)^\d{3}\.\d{1,3}", document.text))
    numbered = [r for r in document.rules if r.number.depth > 0]
    assert independent == 2791
    assert len(numbered) == 2791
    assert len([r for r in document.rules if r.number.depth == 0]) == 141


def test_glossary_count_2022_matches_blank_separated_blocks() -> None:
    # The glossary runs from the second "Glossary" line to the second "Credits" line; its
    # entries are separated by blank lines.
    document = parsed("mtg-cr-2022-11-18")
    lines = document.text.split("\n")
    start = [i for i, line in enumerate(lines) if line == "Glossary"][1]
    end = [i for i, line in enumerate(lines) if line == "Credits"][1]
    blocks = re.split(r"\n\s*\n", "\n".join(lines[start + 1:end]).strip())
    assert len(blocks) == 647
    assert len(document.terms) == 647
    assert (document.terms[0].term, document.terms[-1].term) == ("Abandon", "Zone-Change Triggers")
    assert document.terms[-1].definition == "Trigger events that involve objects changing zones. See rule 603.6."


def test_headings_2022() -> None:
    document = parsed("mtg-cr-2022-11-18")
    assert [h.text for h in document.headings] == [
        "Magic: The Gathering Comprehensive Rules", "Introduction",
        "1. Game Concepts", "2. Parts of a Card", "3. Card Types", "4. Zones", "5. Turn Structure",
        "6. Spells, Abilities, and Effects", "7. Additional Rules", "8. Multiplayer Rules",
        "9. Casual Variants", "Glossary", "Credits",
    ]
    section = rule("mtg-cr-2022-11-18", "509")
    assert (section.title, section.text) == ("Declare Blockers Step", "")


def test_residue_kinds_2022() -> None:
    kinds = [r.kind for r in parsed("mtg-cr-2022-11-18").residue]
    assert kinds == ["version-statement", "commentary", "commentary", "contents", *["credits"] * 6,
                     "version-statement", "legal", "legal"]


# --- rule texts ---------------------------------------------------------------------------


DECLARE_BLOCKERS_2008 = {
    "309.2a": "The defending player chooses which creatures that he or she controls, if any, will block. The "
              "chosen creatures must be untapped. For each of the chosen creatures, the defending player chooses "
              "one creature for it to block that's attacking him, her, or a planeswalker he or she controls. Then "
              "he or she determines whether this set of blocks is legal. (See rule 500, \"Legal Attacks and "
              "Blocks.\")",
    "309.2b": "If any of the creatures require paying costs to block, the defending player determines the total "
              "cost to block. Costs may include paying mana, tapping permanents, sacrificing permanents, "
              "discarding cards, and so on. Once the total cost is determined, it becomes \"locked in.\" If "
              "effects would change the total cost after this time, ignore this change.",
    "309.2c": "If any of the costs require mana, the defending player then has a chance to play mana abilities "
              "(see rule 411, \"Playing Mana Abilities\").",
    "309.2d": "Once the player has enough mana in his or her mana pool, he or she pays all costs in any order. "
              "Partial payments are not allowed.",
    "309.2e": "Each chosen creature becomes a blocking creature, but only if it's controlled by the defending "
              "player. Each one is blocking the attacking creature chosen for it. It remains a blocking creature "
              "until it's removed from combat or the combat phase ends, whichever comes first. See rule 306.4.",
    "309.2f": "An attacking creature with one or more creatures declared as blockers for it becomes a blocked "
              "creature; one with no blockers becomes an unblocked creature. This remains unchanged until the "
              "creature is removed from combat or the combat phase ends, whichever comes first. (Some effects "
              "can change whether a creature is blocked or unblocked.)",
}


@pytest.mark.parametrize("number", sorted(DECLARE_BLOCKERS_2008))
def test_declare_blockers_2008(number: str) -> None:
    found = rule("mtg-cr-2008-10-01", number)
    assert found.text == DECLARE_BLOCKERS_2008[number]
    assert found.written_as is None and found.examples == []
    start, end = found.spans[0]
    assert found.document == "mtg-cr-2008-10-01"
    assert parsed("mtg-cr-2008-10-01").text[start:end] == f"{number} {DECLARE_BLOCKERS_2008[number]}"


def test_declare_blockers_2008_heading_and_neighbours() -> None:
    assert rule("mtg-cr-2008-10-01", "309").title == "Declare Blockers Step"
    numbers = [str(r.number) for r in parsed("mtg-cr-2008-10-01").rules if str(r.number).startswith("309.2")]
    assert numbers == ["309.2", "309.2a", "309.2b", "309.2c", "309.2d", "309.2e", "309.2f"]


def test_declare_blockers_after_the_2009_renumbering() -> None:
    assert rule("mtg-cr-2009-07-08", "509").title == "Declare Blockers Step"
    assert rule("mtg-cr-2009-07-08", "509.1a").text == (
        "The defending player chooses which creatures that he or she controls, if any, will block. The chosen "
        "creatures must be untapped. For each of the chosen creatures, the defending player chooses one creature "
        "for it to block that's attacking him, her, or a planeswalker he or she controls."
    )
    assert not [r for r in parsed("mtg-cr-2009-07-08").rules if r.number.section == 309 and r.title]


def test_example_belongs_to_its_rule() -> None:
    found = rule("mtg-cr-2022-11-18", "509.1c")
    assert found.text.endswith("the creature blocks if able during each declare blockers step in that turn.")
    assert len(found.examples) == 1
    example = found.examples[0]
    assert example.text.startswith("A player controls one creature that “blocks if able”")  # label in the span only
    assert example.text.endswith("Having neither creature block fulfills the restriction but not the requirement.")
    assert example.spans[0][0] > found.spans[-1][1]


def test_indented_paragraph_stays_a_separate_paragraph() -> None:
    found = rule("mtg-cr-2013-04-29", "205.3i")
    assert found.text.endswith(
        "Power-Plant, Swamp, Tower, and Urza's.\n"
        "Of that list, Forest, Island, Mountain, Plains, and Swamp are the basic land types. See rule 305.6."
    )
    assert len(found.spans) == 2


def test_underscore_italics_are_kept_as_published() -> None:
    assert rule("mtg-cr-2008-10-01", "103").title == "The _Magic_ Golden Rules"
    assert rule("mtg-cr-2008-10-01", "100.1").text.startswith("These _Magic_ rules apply")


def test_three_digit_rule_numbers_order_numerically() -> None:
    numbers = [r.number for r in parsed("mtg-cr-2022-11-18").rules if r.number.section == 702]
    assert RuleNumber.parse("702.139") in numbers
    assert numbers.index(RuleNumber.parse("702.9")) < numbers.index(RuleNumber.parse("702.10"))


# --- defects in the releases ---------------------------------------------------------------


def codes(doc_id: str) -> list[str]:
    return [a.code for a in parsed(doc_id).anomalies]


def test_2008_typo_numbers_under_306_3() -> None:
    # The file prints "306.b" and "306.1c" between 306.3a and 306.4.
    assert rule("mtg-cr-2008-10-01", "306.3b").written_as == "306.b"
    assert rule("mtg-cr-2008-10-01", "306.3c").written_as == "306.1c"
    assert rule("mtg-cr-2008-10-01", "306.3c").text.startswith("If an effect would put a creature into play blocking")
    assert codes("mtg-cr-2008-10-01").count("malformed-number") == 1
    assert codes("mtg-cr-2008-10-01").count("number-out-of-parent") == 1


def test_2008_old_style_periods_are_one_anomaly_per_kind() -> None:
    document = parsed("mtg-cr-2008-10-01")
    [subrules] = [a for a in document.anomalies if a.code == "subrule-period"]
    assert "6 line(s)" in subrules.message and "212.1b." in subrules.message
    [rules] = [a for a in document.anomalies if a.code == "rule-missing-period"]
    assert "3 line(s)" in rules.message and "216.4" in rules.message
    assert rule("mtg-cr-2008-10-01", "212.1b").written_as == "212.1b."
    assert rule("mtg-cr-2008-10-01", "216.4").written_as == "216.4"


def test_2008_glossary_entries_without_a_blank_line_between() -> None:
    document = parsed("mtg-cr-2008-10-01")
    terms = {t.term: t.definition for t in document.terms}
    assert terms["Floor Rules"].startswith("The current DCI _Magic: The Gathering_ Floor Rules can be found at")
    assert "Floor Rules" not in terms["Flip Cards"]
    assert codes("mtg-cr-2008-10-01").count("glossary-missing-blank") == 1
    assert len(document.terms) == 399


def test_2008_blank_section_211() -> None:
    title = rule("mtg-cr-2008-10-01", "211").title
    assert title == "[This section has been intentionally left blank to preserve the ordering of other rules.]"
    assert "contents-mismatch" in codes("mtg-cr-2008-10-01")


def test_2009_07_08_defects() -> None:
    assert rule("mtg-cr-2009-07-08", "702.37a").written_as == "702. 37a"
    assert rule("mtg-cr-2009-07-08", "509.1c").written_as is None  # printed " 509.1c", leading space
    found = codes("mtg-cr-2009-07-08")
    for code in ("numbering-gap", "space-in-number", "leading-space", "indented-example", "body-start-guessed"):
        assert found.count(code) == 1, code
    # Its contents announce "1. Game Concepts", its body prints "1. The Game".
    assert found.count("contents-mismatch") == 2
    assert "1. The Game" in [h.text for h in parsed("mtg-cr-2009-07-08").headings]


def test_2022_missing_space_after_number() -> None:
    found = rule("mtg-cr-2022-11-18", "901.4")
    assert found.text.startswith("All plane and phenomenon cards remain in the command zone")
    assert found.written_as is None
    assert "missing-space" in codes("mtg-cr-2022-11-18")


@pytest.mark.parametrize("doc_id", ["mtg-cr-2015-07-17", "mtg-cr-2016-09-30"])
def test_clean_releases_report_nothing(doc_id: str) -> None:
    assert codes(doc_id) == []


# --- format detection ------------------------------------------------------------------------


def test_sniff_separates_magic_releases_from_the_rest_of_the_corpus() -> None:
    for entry in load_manifest(CORPUS):
        try:
            text = decode_document(read_document_bytes(CORPUS, entry), entry.file).text
        except SourceError:
            continue
        score = mtg_cr.sniff(text)
        if entry.format == "mtg-cr":
            assert score >= 90, entry.id
        else:
            assert score <= 30, (entry.id, score)


def test_text_without_rules_is_refused() -> None:
    with pytest.raises(ParseError):
        mtg_cr.parse("Just some prose.\n\nNothing numbered here.\n", meta())


# --- hard-wrapped and defective input (old releases are not in the corpus yet) ---------------

WRAPPED = """\
Magic: The Gathering Comprehensive Rules

These rules are effective as of June 1, 2004.

1. The Game

100. General

100.1. These Magic rules apply to any Magic game with two or more
- 12 -
players. See rule
100.3. for details on decks, and the state-
based actions in rule 420.
Example: A player with an empty library loses
the game.

100.2. A deck has at least sixty cards.

100.2a A two-player game begins with two players.

100.2a A duplicate line.

100.4. Skips a number.

Glossary

Deck
The cards a player starts the
game with.

Credits

Design: Someone
"""


def test_wrapped_release_rejoins_lines_with_spaces() -> None:
    document = mtg_cr.parse(WRAPPED, meta(("2004-06-01",)))
    first = next(r for r in document.rules if r.number == RuleNumber.parse("100.1"))
    assert first.text == (
        "These Magic rules apply to any Magic game with two or more players. See rule 100.3. for details "
        "on decks, and the state-based actions in rule 420."
    )
    assert [e.text for e in first.examples] == ["A player with an empty library loses the game."]
    assert [t.definition for t in document.terms] == ["The cards a player starts the game with."]
    assert [r.kind for r in document.residue if r.text == "- 12 -"] == ["chrome"]
    assert document.versions[0].date == "2004-06-01"


def test_wrapped_release_reports_defects() -> None:
    document = mtg_cr.parse(WRAPPED, meta())
    by_code = {a.code: a for a in document.anomalies}
    assert "1 line(s)" in by_code["number-like-continuation"].message
    assert "100.3." in by_code["number-like-continuation"].message
    assert "body-start-guessed" not in by_code  # no contents to repeat: not a defect
    assert "100.2a printed after 100.2a" in by_code["duplicate-number"].message
    assert "100.4 follows 100.2a" in by_code["numbering-gap"].message
    assert [str(r.number) for r in document.rules] == ["100", "100.1", "100.2", "100.2a", "100.2a", "100.4"]


def test_parse_is_deterministic() -> None:
    text = parsed("mtg-cr-2009-07-08").text
    entry = parsed("mtg-cr-2009-07-08").meta
    first, second = mtg_cr.parse(text, entry), mtg_cr.parse(text, entry)
    assert [r.to_record() for r in first.rules] == [r.to_record() for r in second.rules]
    assert first.anomalies == second.anomalies
    assert first.residue == second.residue and first.terms == second.terms
