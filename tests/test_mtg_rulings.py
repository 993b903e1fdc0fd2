"""Magic rulings search (seed 004, "309 - Declare Blockers Step"): facts checkable in the file."""

from __future__ import annotations

import pytest
from conftest import CORPUS

from rules_kb.errors import ParseError
from rules_kb.ingest.corpus import load_manifest
from rules_kb.ingest.pipeline import Ingested, ingest_corpus
from rules_kb.model import ParsedDocument, RuleText
from rules_kb.sources.mtg_rulings import rulings as mtg_rulings

# Every paragraph of the file and the date of its [CompRules YYYY/MM/DD] tag, in file order.
DATED_PARAGRAPHS = [
    ("309.1", "2003-10-01"),
    ("309.2", "2003-07-01"),
    ("309.2a", "2008-02-01"),
    ("309.2a", "2007-10-01"),
    ("309.2b", "2003-07-01"),
    ("309.2c", "2003-07-01"),
    ("309.2d", "2003-07-01"),
    ("309.2e", "2007-10-01"),
    ("309.2f", "2006-10-01"),
    ("309.3", "2007-10-01"),
    ("309.4", "2006-05-01"),
    ("309.5", "2007-10-01"),
]


@pytest.fixture(scope="module")
def seed_004() -> Ingested:
    return ingest_corpus(CORPUS, only=["seed-004"])[0]


@pytest.fixture(scope="module")
def parsed(seed_004: Ingested) -> ParsedDocument:
    return seed_004.parsed


def rule(parsed: ParsedDocument, number: str, version: str) -> RuleText:
    found = [r for r in parsed.rules if str(r.number) == number and r.version == version]
    assert len(found) == 1, f"{number}@{version}: {len(found)} found"
    return found[0]


def test_every_character_is_accounted_for(seed_004):
    assert seed_004.accounting.complete, (seed_004.accounting.uncovered, seed_004.accounting.overlapping)
    assert seed_004.accounting.percent == 100.0


def test_each_paragraph_is_a_rule_dated_by_its_tag(parsed):
    paragraphs = [(str(r.number), r.version) for r in parsed.rules if r.title is None]
    assert paragraphs == DATED_PARAGRAPHS
    for r in parsed.rules:
        assert (r.game, r.lang) == ("mtg", "en")
        if r.title is None:
            assert r.date == r.version
            assert "[CompRules" not in r.text


def test_309_2a_is_two_versions_not_a_duplicate(parsed):
    newer = rule(parsed, "309.2a", "2008-02-01")
    older = rule(parsed, "309.2a", "2007-10-01")
    assert newer.text.startswith("The defending player chooses which creatures that he or she controls")
    assert older.text.startswith("For each untapped creature the defending player controls")
    assert parsed.anomalies == []


def test_wrapped_lines_are_rejoined_with_one_space(parsed):
    assert rule(parsed, "309.2d", "2003-07-01").text == (
        "Once the player has enough mana in his or her mana pool, he or she pays all costs in any order. "
        "Partial payments are not allowed."
    )
    assert rule(parsed, "309.2e", "2007-10-01").text.endswith("whichever comes first. See Rule 306.4.")


def test_section_heading_is_rule_309_with_its_title(parsed):
    heading = parsed.rules[0]
    assert (str(heading.number), heading.title, heading.text) == ("309", "Declare Blockers Step", "")
    assert (heading.version, heading.date) == ("2008-03-17", "2008-03-17")


def test_example_belongs_to_309_4_and_keeps_its_own_date(parsed):
    examples = rule(parsed, "309.4", "2006-05-01").examples
    assert len(examples) == 1
    assert examples[0].text == (
        'A creature has the ability "Whenever this creature becomes blocked by a white creature, destroy that '
        'creature at end of combat." If that creature is blocked by a black creature that is later turned white, '
        "the ability will not trigger. [CompRules 2003/07/01]"
    )
    assert parsed.text[examples[0].spans[0][0]:].startswith("Example: A creature")
    assert sum(len(r.examples) for r in parsed.rules) == 1


def test_note_is_commentary_and_page_lines_are_chrome(parsed):
    notes = [x for x in parsed.residue if x.kind == "commentary"]
    note = "- Note - See Rule 306 for additional details on blocking."
    assert [(x.text, x.cites) for x in notes] == [(note, ("306",))]
    chrome = [x.text for x in parsed.residue if x.kind == "chrome"]
    assert chrome == ["This search based on the March 17, 2008 release of the Rulings."] * 2 + ["|"] * 4


def test_versions_are_the_release_and_every_paragraph_date(parsed):
    assert [(v.label, v.kind) for v in parsed.versions] == [
        ("2008-03-17", "excerpt"),
        ("2003-07-01", "dated-paragraph"),
        ("2003-10-01", "dated-paragraph"),
        ("2006-05-01", "dated-paragraph"),
        ("2006-10-01", "dated-paragraph"),
        ("2007-10-01", "dated-paragraph"),
        ("2008-02-01", "dated-paragraph"),
    ]


def test_a_paragraph_cut_off_by_the_end_is_truncated(parsed):
    cut = parsed.text.index("effect that put it into play")
    reparsed = mtg_rulings.parse(parsed.text[:cut], parsed.meta)
    last = reparsed.rules[-1]
    assert (str(last.number), last.truncated, last.date) == ("309.5", True, None)
    assert [a.code for a in reparsed.anomalies] == ["truncated-excerpt"]


def test_same_number_and_same_date_twice_is_a_duplicate(parsed):
    start = parsed.text.index("- 309.3 -")
    end = parsed.text.index("- 309.4 -")
    doubled = parsed.text[:end] + parsed.text[start:end] + parsed.text[end:]
    reparsed = mtg_rulings.parse(doubled, parsed.meta)
    assert [a.code for a in reparsed.anomalies] == ["duplicate-number"]


def test_sniff_prefers_this_format():
    texts = {m.id: m for m in load_manifest(CORPUS)}
    own = (CORPUS / texts["seed-004"].file).read_text(encoding="utf-8")
    assert mtg_rulings.sniff(own) == 100
    for other in ("seed-000", "seed-001", "seed-003", "mtg-cr-2008-10-01"):
        assert mtg_rulings.sniff((CORPUS / texts[other].file).read_text(encoding="utf-8")) == 0, other


def test_text_of_another_format_is_refused(parsed):
    with pytest.raises(ParseError):
        mtg_rulings.parse("309. Declare Blockers Step\n\n309.1. As the declare blockers step begins\n", parsed.meta)


def test_parsing_is_deterministic(parsed):
    again = mtg_rulings.parse(parsed.text, parsed.meta)
    assert [r.to_record() for r in again.rules] == [r.to_record() for r in parsed.rules]
    assert again.versions == parsed.versions
