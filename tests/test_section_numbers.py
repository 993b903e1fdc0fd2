"""SectionNumber: the numbers of tournament documents' sections, as printed and in natural order."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_kb.errors import MalformedRuleNumber
from rules_kb.numbers import SectionNumber

heads = st.integers(min_value=0, max_value=99) | st.sampled_from("ABCDEF")
rests = st.lists(st.integers(min_value=0, max_value=99), max_size=2)


@st.composite
def numbers(draw):
    return SectionNumber((draw(heads), *draw(rests)))


@given(numbers())
def test_round_trip(number):
    assert SectionNumber.parse(str(number)) == number


@given(numbers())
def test_printed_variants_parse_to_the_same_number(number):
    text = str(number)
    full_width = text.translate(str.maketrans("0123456789.ABCDEF", "０１２３４５６７８９．ＡＢＣＤＥＦ"))
    for variant in (text + ".", text + " -", text + "-", full_width, full_width + "．", f" {text}. "):
        assert SectionNumber.parse(variant) == number


@given(numbers(), numbers())
def test_order_is_natural(a, b):
    assert (a < b) == (a.sort_key() < b.sort_key())
    if isinstance(a.parts[0], int) and isinstance(b.parts[0], int) and a.parts[0] != b.parts[0]:
        assert (a < b) == (a.parts[0] < b.parts[0])
    if isinstance(a.parts[0], int) and isinstance(b.parts[0], str):
        assert a < b  # appendices come after every numbered section


@given(numbers())
def test_parent_and_depth(number):
    assert number.depth == len(number.parts) - 1
    if number.depth:
        assert number.parent is not None and number.parent < number and number.parent.depth == number.depth - 1
    else:
        assert number.parent is None


def test_known_orderings():
    ordered = ["0", "1", "1.1", "1.9", "1.10", "1.12", "2", "2.1", "9", "10", "10.5", "13", "A", "B"]
    assert [str(n) for n in sorted(SectionNumber.parse(x) for x in reversed(ordered))] == ordered


def test_printed_forms_from_the_documents():
    assert str(SectionNumber.parse("2.1.")) == "2.1"  # the IPG
    assert str(SectionNumber.parse("０．")) == "0"
    assert str(SectionNumber.parse("8.1 -")) == "8.1"  # the Duel Masters contents
    assert str(SectionNumber.parse("１０．５")) == "10.5"
    assert SectionNumber.parse("1.10").parent == SectionNumber((1,))


@pytest.mark.parametrize("raw", ["", "1..2", "a", "1.a", "AB", "1234", "-1", "1.2.3.4x"])
def test_malformed(raw):
    with pytest.raises(MalformedRuleNumber):
        SectionNumber.parse(raw)


def test_fields_are_checked():
    with pytest.raises(TypeError):
        SectionNumber(("1", 2))  # a digit as text where SectionNumber.parse was meant
