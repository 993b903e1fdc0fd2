"""RuleNumber: parsing every way sources write numbers, and numeric ordering."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_kb.errors import MalformedRuleNumber
from rules_kb.numbers import RuleNumber, number_quirks

sections = st.integers(min_value=0, max_value=999)
rules = st.none() | st.integers(min_value=1, max_value=999)
letters = st.none() | st.sampled_from("abcdefghijkmnpqrstuvwxyz")


@st.composite
def numbers(draw):
    rule = draw(rules)
    letter = draw(letters) if rule is not None else None
    return RuleNumber(draw(sections), rule, letter)


@given(numbers())
def test_round_trip(number):
    assert RuleNumber.parse(str(number)) == number


@given(numbers())
def test_trailing_period_and_full_width_are_tolerated(number):
    text = str(number)
    full_width = text.translate(str.maketrans("0123456789.abcdefghijklmnopqrstuvwxyz",
                                              "０１２３４５６７８９．ａｂｃｄｅｆｇｈｉｊｋｌｍｎｏｐｑｒｓｔｕｖｗｘｙｚ"))
    assert RuleNumber.parse(text + ".") == number
    assert RuleNumber.parse(full_width) == number


@given(numbers(), numbers())
def test_order_is_numeric_not_textual(a, b):
    assert (a < b) == (a.sort_key() < b.sort_key())
    if a.section != b.section:
        assert (a < b) == (a.section < b.section)


def test_known_orderings():
    ordered = ["000.1", "100.1", "507", "507.1", "507.1a", "507.1b", "507.2", "702.9", "702.10",
               "702.139", "702.139a"]
    shuffled = list(reversed(ordered))
    assert [str(n) for n in sorted(RuleNumber.parse(x) for x in shuffled)] == ordered


def test_full_width_example_from_the_design():
    assert RuleNumber.parse("５０７．２ａ") == RuleNumber(507, 2, "a")
    assert number_quirks("５０７．２ａ") == ["full-width characters"]


def test_capital_letter_and_inner_space_are_canonicalised_and_reported():
    assert RuleNumber.parse("200.3C") == RuleNumber(200, 3, "c")
    assert "capital subrule letter" in number_quirks("200.3C")
    assert RuleNumber.parse("701.23 b") == RuleNumber(701, 23, "b")
    assert "space before the subrule letter" in number_quirks("701.23 b")


def test_parent_and_depth():
    number = RuleNumber.parse("507.2a")
    assert number.depth == 2
    assert str(number.parent) == "507.2"
    assert str(number.parent.parent) == "507"
    assert number.parent.parent.parent is None


def test_section_with_trailing_period():
    assert RuleNumber.parse("507.") == RuleNumber(507)


@pytest.mark.parametrize("raw", ["", "50", "1.38", "507.1ab", "5072", "abc", "507..1", "507.1a.b"])
def test_malformed_numbers_raise_a_typed_error(raw):
    with pytest.raises(MalformedRuleNumber):
        RuleNumber.parse(raw)
