"""Fuzzing every parser, the decoder, rule numbers and the reference grammar with hypothesis.

Inputs: random bytes; rule-like lines (numbers in every width and spacing, examples,
headings, landmarks such as ``Glossary``/``Credits``, Japanese, NBSP, zero-width and
direction characters, U+2028, very long lines) joined with mixed line ends, encoded with
or without a BOM, alone or spliced into a real document of the format. Each example must
give records with lossless accounting or a typed error (``RulesKbError``), never another
exception, within a deadline. The number of cases run is printed at the end of the module.
"""

from __future__ import annotations

import codecs
import os
from collections import Counter
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from synthetic import SAMPLES, sample

from rules_kb.errors import MalformedRuleNumber, RulesKbError
from rules_kb.ingest.decode import decode_document
from rules_kb.ingest.pipeline import parse_bytes
from rules_kb.numbers import RuleNumber
from rules_kb.refs import find_references
from rules_kb.sources.registry import FORMATS

# Per test and format: the module stays within a minute or two. RULES_KB_FUZZ_EXAMPLES=N runs
# N examples each with fresh random seeds instead (a longer hunt, outside make test).
EXAMPLES = int(os.environ.get("RULES_KB_FUZZ_EXAMPLES", "0")) or 40
EXPLORE = "RULES_KB_FUZZ_EXAMPLES" in os.environ
# The deadline catches a hang (a pattern gone quadratic), not slowness: 5 s failed examples on a
# machine at load 20, so it is a minute.
FUZZ = settings(max_examples=EXAMPLES, deadline=timedelta(seconds=60), derandomize=not EXPLORE, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
RUN: Counter[str] = Counter()

DIGITS = st.sampled_from(["0123456789", "０１２３４５６７８９"])
ODD = ["\u00a0", "\u200b", "\u200f", "\u202e", "\u2028", "\u2029", "\ufeff", "\u3000", "\t", "\x0c", "\x85", "\x1b"]


@st.composite
def numbers(draw) -> str:
    digits = draw(DIGITS)
    section = "".join(draw(st.sampled_from(digits)) for _ in range(draw(st.integers(1, 4))))
    out = section
    if draw(st.booleans()):
        out += draw(st.sampled_from([".", "．", ". "])) + "".join(
            draw(st.sampled_from(digits)) for _ in range(draw(st.integers(0, 4))))
        if draw(st.booleans()):
            out += draw(st.sampled_from("abckmnpzABCａｂ"))
    if draw(st.booleans()):
        out += draw(st.sampled_from([".", "．", ")", "）"]))
    if draw(st.booleans()):
        at = draw(st.integers(0, len(out)))
        out = out[:at] + draw(st.sampled_from(ODD)) + out[at:]
    return out


WORDS = st.sampled_from([
    "The active player", "may", "choose", "target creature", "Example:", "Examples:", "See rule", "rules",
    "509.1a–c", "and 702.19b", "（参考：603.2e）", "ブロック", "クリーチャー", "ターン", "《蒼き王道 ドギラゴン超》",
    "[[", "]]", "--", "* ", "■", "#author(\"2021-09-12T05:14:43+09:00\",\"\",\"\")", "[CompRules 2003/10/01]",
    "- ", "•", "|", "&nbsp;", "<b>", "Version 1.38", "Ver.1.48", "2024年", "Rules.text = [[", "-- END RULES",
])
LANDMARKS = st.sampled_from(["Glossary", "Credits", "Contents", "1. Game Concepts", "100. General", "Introduction",
                             "Rulings[]", "Details[]", "もくじ", "変更点(2021.09.07)", "Customer Service Information",
                             "These rules are effective as of November 8, 2024.",
                             "Magic: The Gathering Comprehensive Rules"])


@st.composite
def lines(draw) -> str:
    kind = draw(st.integers(0, 5))
    if kind == 0:
        return draw(LANDMARKS)
    if kind == 1:
        return ""
    if kind == 2:  # a very long line
        return draw(WORDS) * draw(st.integers(200, 3000))
    if kind == 3:
        return draw(st.text(max_size=40))
    indent = draw(st.sampled_from(["", " ", "  ", "\u3000", "\u00a0"]))
    number = draw(numbers()) + draw(st.sampled_from([" ", "", "\u00a0", "\t"]))
    words = " ".join(draw(st.lists(WORDS, max_size=8)))
    odd = draw(st.sampled_from(["", *ODD]))
    return indent + number + words + odd


@st.composite
def documents(draw) -> str:
    ends = st.sampled_from(["\n", "\r\n", "\r", "\n\n"])
    return "".join(line + draw(ends) for line in draw(st.lists(lines(), min_size=1, max_size=40)))


def encode(draw, text: str) -> bytes:
    how = draw(st.sampled_from(["utf-8", "utf-8-bom", "utf-16-le", "utf-16-be", "cp1252"]))
    if how == "utf-8":
        return text.encode("utf-8", "surrogatepass")
    if how == "utf-8-bom":
        return codecs.BOM_UTF8 + text.encode("utf-8", "surrogatepass")
    if how == "cp1252":
        return text.encode("cp1252", "replace")
    bom = codecs.BOM_UTF16_LE if how == "utf-16-le" else codecs.BOM_UTF16_BE
    return bom + text.encode(how, "surrogatepass")


def check_parse(format_name: str, data: bytes) -> None:
    """Records with lossless accounting, or a typed error; anything else fails the test."""
    meta, _ = sample(format_name)
    RUN[format_name] += 1
    try:
        item = parse_bytes(data, meta)
    except RulesKbError:
        RUN["typed errors"] += 1
        return
    assert item.accounting.complete, (item.accounting.uncovered[:3], item.accounting.overlapping[:3])
    for rule in item.parsed.rules:
        assert all(0 <= start <= end <= len(item.parsed.text) for start, end in rule.spans)


REAL = {name: sample(name)[1] for name in SAMPLES}


def spliced(draw, format_name: str) -> str:
    """A real document of the format, cut to at most 8,000 characters, with fuzzed lines inside."""
    text = REAL[format_name]
    head, tail = text[:6000], text[-2000:] if len(text) > 8000 else ""
    at = draw(st.integers(0, len(head)))
    return head[:at] + draw(documents()) + head[at:] + tail


@pytest.fixture(scope="module", autouse=True)
def report_cases(request):
    yield
    line = "fuzz cases run: " + ", ".join(f"{name} {count}" for name, count in sorted(RUN.items()))
    line += f"; total {sum(v for k, v in RUN.items() if k != 'typed errors')}"
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    with capture.global_and_fixture_disabled():
        print("\n" + line)


@pytest.mark.parametrize("format_name", sorted(FORMATS))
@FUZZ
@given(data=st.binary(max_size=3000))
def test_random_bytes(format_name, data):
    check_parse(format_name, data)


@pytest.mark.parametrize("format_name", sorted(FORMATS))
@FUZZ
@given(st.data())
def test_rule_like_lines(format_name, data):
    check_parse(format_name, encode(data.draw, data.draw(documents())))


@pytest.mark.parametrize("format_name", sorted(FORMATS))
@FUZZ
@given(st.data())
def test_fuzzed_lines_inside_a_real_document(format_name, data):
    check_parse(format_name, encode(data.draw, spliced(data.draw, format_name)))


@FUZZ
@given(data=st.binary(max_size=3000))
def test_decoder_gives_text_or_a_typed_error(data):
    RUN["decode"] += 1
    try:
        decoded = decode_document(data, "fuzz.txt")
    except RulesKbError as error:
        assert error.position is None or 0 <= error.position <= len(data)
        return
    assert "\r" not in decoded.text and "\x00" not in decoded.text


@settings(FUZZ, max_examples=300)
@given(raw=st.one_of(numbers(), st.text(max_size=20)))
def test_rule_numbers_parse_or_raise_malformed(raw):
    RUN["rule numbers"] += 1
    try:
        number = RuleNumber.parse(raw)
    except MalformedRuleNumber:
        return
    assert RuleNumber.parse(str(number)) == number


@settings(FUZZ, max_examples=300)
@given(text=st.one_of(documents(), st.text(max_size=300)), game=st.sampled_from([None, "mtg", "dm"]))
def test_references_are_ordered_disjoint_spans_of_the_text(text, game):
    RUN["references"] += 1
    found = find_references(text, game=game)
    end = 0
    for reference in found:
        assert end <= reference.start < reference.end <= len(text)
        assert reference.raw == text[reference.start:reference.end] and reference.numbers
        end = reference.end
