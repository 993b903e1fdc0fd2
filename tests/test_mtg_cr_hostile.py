"""Magic releases altered the ways a probe did: each parses as a reader would or is reported.

Before: odd number characters merged rules into the one above (full-width numbering
throughout gave 145 rules of 3,151), text after a heading went into its title, and a rule
or back matter of any size passed without an anomaly.
"""

from __future__ import annotations

import re

import pytest
from conftest import CORPUS

from rules_kb.ingest.accounting import account
from rules_kb.ingest.corpus import load_manifest, read_document_bytes
from rules_kb.ingest.decode import decode_document
from rules_kb.sources.mtg_cr.release import parse

(META,) = [m for m in load_manifest(CORPUS) if m.id == "mtg-cr-2024-11-08"]
TEXT = decode_document(read_document_bytes(CORPUS, META), META.file).text
NUMBER_AT_LINE_START = re.compile(r"^(\d{3}\.(?:\d{1,3}[a-z]?\.?)?)(?= )", re.MULTILINE)
FULL_WIDTH = str.maketrans("0123456789.abcdefghijklmnopqrstuvwxyz",
                           "０１２３４５６７８９．ａｂｃｄｅｆｇｈｉｊｋｌｍｎｏｐｑｒｓｔｕｖｗｘｙｚ")


@pytest.fixture(scope="module")
def original():
    return parse(TEXT, META)


def parsed_complete(text: str):
    parsed = parse(text, META)
    assert account(parsed).complete
    return parsed


def codes(parsed) -> set[str]:
    return {a.code for a in parsed.anomalies}


def rules_of(parsed) -> list[tuple[str, str]]:
    return [(str(r.number), r.text) for r in parsed.rules]


def test_full_width_numbering_throughout_reads_every_rule(original):
    body = TEXT.index("\n100.1. ")
    altered = TEXT[:body] + NUMBER_AT_LINE_START.sub(lambda m: m.group().translate(FULL_WIDTH), TEXT[body:])
    parsed = parsed_complete(altered)
    assert len(parsed.rules) == len(original.rules) == 3151
    assert rules_of(parsed) == rules_of(original)
    assert "odd-number-characters" in codes(parsed)
    rule = next(r for r in parsed.rules if str(r.number) == "100.1a")
    assert rule.written_as == "１００．１ａ"


@pytest.mark.parametrize(("old", "new"), [
    ("\n100.1a A two-player", "\n100.1a\u00a0A two-player"),  # NBSP after the number
    ("\n100.1a A two-player", "\n100.1\u200ba A two-player"),  # zero-width space inside it
    ("\n100.1a A two-player", "\n\u200f100.1a A two-player"),  # a right-to-left mark before it
])
def test_invisible_characters_in_a_number_do_not_merge_the_rule(original, old, new):
    parsed = parsed_complete(TEXT.replace(old, new, 1))
    assert rules_of(parsed) == rules_of(original)
    anomaly = next(a for a in parsed.anomalies if a.code == "odd-number-characters")
    assert anomaly.position == TEXT.index(old) + 1


def test_a_four_digit_number_is_reported(original):
    at = TEXT.index("\n\n100.1b ")
    parsed = parsed_complete(TEXT[:at] + "\n\n1000.1. A rule no release has." + TEXT[at:])
    anomaly = next(a for a in parsed.anomalies if a.code == "overlong-number")
    assert anomaly.position == at + 2 and "1000.1." in anomaly.message


def test_text_after_a_heading_stays_out_of_its_title(original):
    at = TEXT.index("\n100. General\n\n100.1. ") + len("\n100. General")
    junk = "\nunrecognised words that are not a rule" * 5000  # about 200 KB
    parsed = parsed_complete(TEXT[:at] + junk + TEXT[at:])
    section = next(r for r in parsed.rules if str(r.number) == "100")
    assert section.title == "General"
    anomaly = next(a for a in parsed.anomalies if a.code == "text-after-heading")
    assert anomaly.position == at + 1 and "5000 line(s)" in anomaly.message
    assert sum(len(x.text) for x in parsed.residue if x.kind == "orphan") == 5000 * len(junk.split("\n")[1])


def test_rules_after_the_credits_are_reported():
    tail = "".join(f"\n\n{900 + n // 100}.{n % 100 + 1}. An extra rule after the credits." for n in range(300))
    parsed = parsed_complete(TEXT + tail)
    anomaly = next(a for a in parsed.anomalies if a.code == "unexpected-back-matter")
    assert "numbered rule '900.1. An extra rule" in anomaly.message


def test_a_rule_longer_than_any_real_one_is_reported():
    at = TEXT.index("\n\n100.1b ")
    parsed = parsed_complete(TEXT[:at] + "\nmore words of the same rule" * 2000 + TEXT[at:])
    anomaly = next(a for a in parsed.anomalies if a.code == "overlong-rule")
    assert anomaly.message.startswith("rule 100.1a runs to 56,")


def test_the_real_release_has_none_of_these_anomalies(original):
    assert not codes(original) & {"odd-number-characters", "overlong-number", "text-after-heading",
                                  "unexpected-back-matter", "overlong-rule"}


SEPARATORS = {"em space": "\u2003", "en space": "\u2002", "thin space": "\u2009", "VT": "\x0b", "FF": "\x0c",
              "FS": "\x1c", "NEL": "\x85", "line separator": "\u2028", "paragraph separator": "\u2029"}


@pytest.mark.parametrize("separator", SEPARATORS.values(), ids=SEPARATORS.keys())
def test_any_whitespace_between_number_and_text_starts_the_rule(original, separator):
    """509.1a must stay 509.1a, not the tail of 509.1, whatever whitespace follows its number."""
    old = "\n509.1a The defending player chooses"
    parsed = parsed_complete(TEXT.replace(old, old.replace(" ", separator, 1), 1))
    assert rules_of(parsed) == rules_of(original)
    anomaly = next(a for a in parsed.anomalies if a.code == "odd-separator")
    assert anomaly.position == TEXT.index(old) + 1
    assert "numbering-gap" not in codes(parsed)


def test_a_glossary_heading_framed_by_dashes_starts_the_glossary(original):
    """The 1999 releases print the heading between lines of dashes; the glossary must not become
    the last rule's text."""
    heading = TEXT.index("\n\nGlossary\n\n", TEXT.index("\nGlossary\n") + 1)
    framed = TEXT[:heading] + "\n\n--------\nGlossary\n--------\n\n" + TEXT[heading + len("\n\nGlossary\n\n"):]
    parsed = parsed_complete(framed)
    assert rules_of(parsed) == rules_of(original)
    assert [t.term for t in parsed.terms] == [t.term for t in original.terms] and len(parsed.terms) > 600
    assert [r.text for r in parsed.residue if r.kind == "chrome"].count("--------") == 2


def test_a_release_cut_inside_the_glossary_is_truncated_and_says_where():
    end = TEXT.index("Banding is a keyword ability that modifies") + len("Banding is a keyword ability that modifies")
    parsed = parsed_complete(TEXT[:end])
    (anomaly,) = [a for a in parsed.anomalies if a.code == "truncated"]
    assert anomaly.position == end
    assert "in the glossary" in anomaly.message and "'nding is a keyword ability that modifies'" in anomaly.message


def test_a_release_cut_inside_a_rule_names_the_rule_and_the_place():
    end = TEXT.index("\n509.1a The defending player cho") + len("\n509.1a The defending player cho")
    parsed = parsed_complete(TEXT[:end])
    (anomaly,) = [a for a in parsed.anomalies if a.code == "truncated"]
    assert f"mid-sentence at character {end}: '509.1a The defending player cho'" in anomaly.message
    assert "rule 509.1a is marked truncated" in anomaly.decision
    assert parsed.rules[-1].truncated and str(parsed.rules[-1].number) == "509.1a"


def test_no_corpus_release_has_a_rule_longer_than_the_longest_real_one():
    """205.3m (the creature types, 2,683 characters in 2024-11-08) is the longest real rule text."""
    from rules_kb.sources.common import LONGEST_RULE
    assert max(len(r.text) for r in parse(TEXT, META).rules) == 2683 < LONGEST_RULE
