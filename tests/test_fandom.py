"""Fandom wiki parsers: facts checked against the corpus files themselves."""

from __future__ import annotations

from functools import cache

import pytest
from conftest import CORPUS

from rules_kb.errors import ParseError, SourceError
from rules_kb.ingest.corpus import load_manifest, read_document_bytes
from rules_kb.ingest.decode import decode_document
from rules_kb.ingest.pipeline import Ingested, ingest_corpus
from rules_kb.model import DocumentMeta, ParsedDocument, RuleText
from rules_kb.sources.fandom import module as fandom_module
from rules_kb.sources.fandom import text as fandom

MANIFEST = load_manifest(CORPUS)
FANDOM_TEXT = [m.id for m in MANIFEST if m.format == "fandom-text"]
FANDOM_MODULE = [m.id for m in MANIFEST if m.format == "fandom-module"]


@cache
def ingest(doc_id: str) -> Ingested:
    (result,) = ingest_corpus(CORPUS, only=[doc_id])
    return result


@cache
def decoded_text(doc_id: str) -> str:
    meta = next(m for m in MANIFEST if m.id == doc_id)
    return decode_document(read_document_bytes(CORPUS, meta), meta.file).text


def rules_of(parsed: ParsedDocument, lang: str) -> list[RuleText]:
    return [r for r in parsed.rules if r.lang == lang]


def numbers(rules: list[RuleText]) -> list[str]:
    return [str(r.number) for r in rules]


def rule(parsed: ParsedDocument, lang: str, number: str) -> RuleText:
    (found,) = [r for r in rules_of(parsed, lang) if str(r.number) == number]
    return found


def codes(parsed: ParsedDocument, code: str) -> list[str]:
    return [a.message for a in parsed.anomalies if a.code == code]


def span_text(parsed: ParsedDocument, span: tuple[int, int]) -> str:
    return parsed.text[span[0] : span[1]]


# -- every document ----------------------------------------------------------------------


@pytest.mark.parametrize("doc_id", FANDOM_TEXT + FANDOM_MODULE)
def test_every_character_is_accounted_for(doc_id: str) -> None:
    accounting = ingest(doc_id).accounting
    assert accounting.complete, (accounting.uncovered[:5], accounting.overlapping[:5])


@pytest.mark.parametrize("doc_id", FANDOM_TEXT + FANDOM_MODULE)
def test_nothing_is_left_unclassified(doc_id: str) -> None:
    parsed = ingest(doc_id).parsed
    assert [r.text for r in parsed.residue if r.kind == "unknown"] == []
    assert codes(parsed, "unclassified-line") == []


@pytest.mark.parametrize("doc_id", FANDOM_TEXT + FANDOM_MODULE)
def test_rule_spans_start_with_the_printed_number(doc_id: str) -> None:
    parsed = ingest(doc_id).parsed
    for r in parsed.rules:
        printed = span_text(parsed, r.spans[0]).lstrip("•- ")
        assert printed.startswith(r.written_as or str(r.number)), printed[:20]


@pytest.mark.parametrize("doc_id", FANDOM_TEXT)
def test_fandom_text_parses_twice_the_same(doc_id: str) -> None:
    meta = next(m for m in MANIFEST if m.id == doc_id)
    first = fandom.parse(decoded_text(doc_id), meta)
    second = fandom.parse(decoded_text(doc_id), meta)
    assert [r.to_record() for r in first.rules] == [r.to_record() for r in second.rules]
    assert first.anomalies == second.anomalies


# -- seed 000: Block declaration step, 1.38 ---------------------------------------------


def test_seed_000_japanese_block_holds_exactly_507_of_version_1_38() -> None:
    ja = rules_of(ingest("seed-000").parsed, "ja")
    assert numbers(ja) == [
        "507", "507.1", "507.1a", "507.1b", "507.2", "507.2a", "507.2b", "507.2c",
        "507.3", "507.3a", "507.3b", "507.3c", "507.3d", "507.3e", "507.3f", "507.3g", "507.4",
    ]  # fmt: skip
    assert {(r.version, r.date) for r in ja} == {("1.38", "2023-09-14")}


def test_seed_000_example_of_507_2a_is_not_rule_text() -> None:
    r = rule(ingest("seed-000").parsed, "ja", "507.2a")
    example = (
        "2体のクリーチャーのブロッカー能力を使用した場合、最後に効果を解決した1体のみがブロッククリーチャーになります。"
    )
    assert [e.text for e in r.examples] == [example]
    assert "例" not in r.text and example not in r.text
    assert r.text.endswith("それはブロッククリーチャーであり続けます。")
    assert span_text(ingest("seed-000").parsed, r.examples[0].spans[0]) == f"例: {example}"


def test_seed_000_japanese_507_1a_has_four_examples() -> None:
    r = rule(ingest("seed-000").parsed, "ja", "507.1a")
    assert len(r.examples) == 4
    assert r.examples[2].text.startswith("「ブロックされない」能力を持つクリーチャー")


def test_seed_000_english_block_keeps_the_old_structure() -> None:
    parsed = ingest("seed-000").parsed
    en = rules_of(parsed, "en")
    assert numbers(en) == [
        "507", "507.1", "507.1a", "507.1b", "507.1c", "507.1d",
        "507.2", "507.2a", "507.2b", "507.2c", "507.2d", "507.2e", "507.2f", "507.3",
    ]  # fmt: skip
    assert rule(parsed, "en", "507.1b").text.startswith("The chosen creature becomes a blocking creature.")
    assert rule(parsed, "en", "507.2a").examples[0].text.startswith('A creature has the ability "Whenever')


def test_seed_000_section_lines_are_titles() -> None:
    parsed = ingest("seed-000").parsed
    assert (rule(parsed, "en", "507").title, rule(parsed, "en", "507").text) == ("Block Declaration Step", "")
    assert rule(parsed, "ja", "507").title == "ブロッククリーチャー指定ステップ"


def test_seed_000_versions_and_page_furniture() -> None:
    parsed = ingest("seed-000").parsed
    assert [(v.lang, v.label, v.date, v.kind) for v in parsed.versions] == [
        ("en", "1.38", "2023-09-14", "excerpt"),
        ("ja", "1.38", "2023-09-14", "excerpt"),
    ]
    assert [h.text for h in parsed.headings] == ["Details", "Rulings"]
    kinds = {x.text: x.kind for x in parsed.residue}
    assert kinds["Advertisement"] == kinds["Register"] == kinds["Duel Masters Wiki"] == "chrome"
    assert kinds["Block declaration step is the second substep of the attack step."] == "commentary"
    assert parsed.anomalies == []


# -- seed 002: Attack declaration step, 1.17, with its known defects --------------------


def test_seed_002_english_numbers_after_the_typo_decisions() -> None:
    parsed = ingest("seed-002").parsed
    assert numbers(rules_of(parsed, "en")) == [
        "506", "506.1", "506.1a", "506.1b", "506.1c", "506.1d", "506.1e",
        "506.2", "506.2a", "506.3", "506.3a", "506.3b", "506.3c", "506.3d", "506.3e",
    ]  # fmt: skip
    assert {(r.version, r.date) for r in parsed.rules} == {("1.17", "2019-12-13")}


def test_seed_002_505_2a_under_506_2_is_filed_as_506_2a() -> None:
    parsed = ingest("seed-002").parsed
    r = rule(parsed, "en", "506.2a")
    assert r.written_as == "505.2a"
    assert (
        r.text
        == "If this substep is skipped, the attacking creature can not be declared. The waiting effect can be used."
    )
    (anomaly,) = [a for a in parsed.anomalies if a.code == "number-out-of-parent"]
    assert anomaly.position == parsed.text.index("505.2a")
    assert "506.2a" in anomaly.decision


def test_seed_002_second_506_3c_is_506_3e() -> None:
    parsed = ingest("seed-002").parsed
    r = rule(parsed, "en", "506.3e")
    assert (r.written_as, r.text) == (
        "506.3c",
        "After that, the nonactive player resolves their pending abilities in any order.",
    )
    assert (
        rule(parsed, "en", "506.3c").text
        == "After that, the active player resolves their pending abilities in any order."
    )
    (anomaly,) = [a for a in parsed.anomalies if a.code == "duplicate"]
    english = parsed.text[: parsed.text.index("506. 攻撃")]
    assert anomaly.position == english.rindex("506.3c")


def test_seed_002_japanese_merged_line_is_split() -> None:
    parsed = ingest("seed-002").parsed
    ja = rules_of(parsed, "ja")
    assert numbers(ja)[-6:] == ["506.3", "506.3a", "506.3b", "506.3c", "506.3d", "506.3e"]
    first = rule(parsed, "ja", "506.3a")
    assert first.text.endswith("合致するように変化しても誘発しません。")
    assert [e.text[:11] for e in first.examples] == ["「自然のクリーチャーが"]
    assert rule(parsed, "ja", "506.3e").text == "その後、非ターン・プレイヤーの待機状態の効果を好きな順番で処理します。"
    merged_line = parsed.text.splitlines()[48]
    for r in ja[-5:]:
        assert ":::" not in span_text(parsed, r.spans[0]) and span_text(parsed, r.spans[0]) in merged_line
    assert len(codes(parsed, "merged-line")) == 5
    assert [x.text for x in parsed.residue if x.kind == "markup"] == [":::"] * 5


def test_seed_002_japanese_defects_are_reported_and_kept() -> None:
    parsed = ingest("seed-002").parsed
    assert rule(parsed, "ja", "506.1").text == "ターン・プレイヤーは攻撃クリーチャーを指定します."
    assert "506.1 ends with a half-width '.'" in codes(parsed, "half-width-period")
    repeated = codes(parsed, "duplicate-content")
    assert [m.split()[0] + "/" + m.split()[-3] for m in repeated] == [
        "506.3b/506.2b", "506.3c/506.2c", "506.3d/506.2d", "506.3e/506.2e",
    ]  # fmt: skip
    assert numbers(rules_of(parsed, "ja")).count("506.2b") == 1  # both kept, each once


def test_seed_002_language_comes_from_each_block() -> None:
    parsed = ingest("seed-002").parsed
    assert [(v.lang, v.label) for v in parsed.versions] == [("en", "1.17"), ("ja", "1.17")]
    assert rule(parsed, "ja", "506").title == "攻撃クリーチャー指定ステップ"
    assert {x.kind for x in parsed.residue if x.text.startswith("Community content")} == {"license"}


# -- excerpts cut at 2,000 bytes ---------------------------------------------------------


@pytest.mark.parametrize(
    ("doc_id", "last"),
    [
        ("fandom-attack-step-1.20", "505.6a"),
        ("fandom-attack-step-1.28", "505.6a"),
        ("fandom-block-declaration-step-1.20", "507.2a"),
        ("fandom-block-declaration-step-1.38", "507.2a"),
    ],
)
def test_excerpts_end_with_a_truncated_rule(doc_id: str, last: str) -> None:
    parsed = ingest(doc_id).parsed
    assert str(parsed.rules[-1].number) == last
    assert [r.truncated for r in parsed.rules] == [False] * (len(parsed.rules) - 1) + [True]
    assert len(codes(parsed, "truncated")) == 1


def test_attack_step_1_20_flat_bullets() -> None:
    parsed = ingest("fandom-attack-step-1.20").parsed
    assert numbers(parsed.rules) == ["505", "505.1", "505.2", "505.3", "505.4", "505.5", "505.6", "505.6a"]
    assert parsed.rules[3].text == "Only creatures can attack and block."
    assert parsed.rules[-1].text.endswith("it will not be removed fro")
    assert [v.date for v in parsed.versions] == ["2020-07-17"]
    infobox = [x.text for x in parsed.residue if x.kind == "infobox"]
    assert infobox[0].startswith("Attack Step アタックステップ")


def test_attack_step_1_28_title_lines() -> None:
    parsed = ingest("fandom-attack-step-1.28").parsed
    assert [x.text for x in parsed.residue if x.kind == "title"] == ["Attack Step", "(Atakku Suteppu)"]
    assert [(v.label, v.date) for v in parsed.versions] == [("1.28", "2022-04-08")]


def test_block_declaration_1_20_keeps_its_typos() -> None:
    parsed = ingest("fandom-block-declaration-step-1.20").parsed
    assert "blocking creatue." in rule(parsed, "en", "507.1b").text
    assert rule(parsed, "en", "507.1").text == "The nonactive player specifies a blocking creature."


# -- General Game Rules page: prose only -------------------------------------------------


def test_general_game_rules_is_prose_only() -> None:
    parsed = ingest("fandom-general-game-rules").parsed
    assert parsed.rules == []
    (citing,) = [x for x in parsed.residue if x.cites]
    assert citing.kind == "commentary" and citing.cites == ("100.2",)
    assert "rule 100.2. states" in citing.text


def test_general_game_rules_names_its_editions() -> None:
    parsed = ingest("fandom-general-game-rules").parsed
    named = {(v.label, v.date) for v in parsed.versions}
    assert {("1.13", "2018-03-16"), ("1.12", "2018-09-28"), ("1.4.1", "2017-01-01"), ("1.2.2", None)} <= named
    assert {v.kind for v in parsed.versions} == {"mentioned"}
    assert codes(parsed, "date-order") == ["version 1.13 dated 2018-03-16, before 1.12 (2018-09-28)"]
    assert len(codes(parsed, "truncated")) == 1


# -- the Lua module ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("doc_id", "label", "date", "entries"),
    [
        ("fandom-module-rules-1.13", "1.13", "2018-03-16", 95),
        ("fandom-module-rules-1.38", "1.38", "2023-09-14", 101),
        ("fandom-module-rules-1.8", "1.8", "2018-06-11", 89),
    ],
)
def test_module_versions_and_contents(doc_id: str, label: str, date: str, entries: int) -> None:
    parsed = ingest(doc_id).parsed
    assert [(v.label, v.date, v.kind) for v in parsed.versions] == [(label, date, "excerpt")]
    contents = [x for x in parsed.residue if x.kind == "contents" and x.level]
    assert len(contents) == entries
    assert contents[0].text == "0. Introduction" and contents[0].level == 1
    assert ("507. Block Declaration Step", 2) in [(x.text, x.level) for x in contents]
    assert [x.text for x in parsed.residue if x.kind == "code"][:3] == [
        "local Rules = {}",
        "-- BEGIN RULES",
        "Rules.text = [[",
    ]
    assert len(codes(parsed, "truncated")) == 1


def test_module_1_38_holds_no_rules() -> None:
    parsed = ingest("fandom-module-rules-1.38").parsed
    assert parsed.rules == []
    assert "'809. Gacha' may be cut" in codes(parsed, "truncated")[0]


def test_module_1_8_rules_after_the_contents() -> None:
    parsed = ingest("fandom-module-rules-1.8").parsed
    assert numbers(parsed.rules) == ["000", "000.1"]
    assert parsed.rules[0].title == "Purpose of this document"
    body = parsed.rules[1]
    assert body.text.startswith(
        "This document is a summary of the detailed rules of the Duel Masters Trading Card Game."
    )
    assert body.text.endswith("Although all players that play the game do not need to be")
    assert body.truncated and len(body.spans) == 2
    assert [h.text for h in parsed.headings] == ["0. Introduction"]


def test_module_1_13_last_rule_is_complete() -> None:
    parsed = ingest("fandom-module-rules-1.13").parsed
    assert numbers(parsed.rules) == ["000", "000.1"]
    assert not parsed.rules[1].truncated


# -- format detection and refusal --------------------------------------------------------


@pytest.mark.parametrize("meta", MANIFEST, ids=lambda m: m.id)
def test_sniff_prefers_the_right_format(meta: DocumentMeta) -> None:
    try:
        text = decoded_text(meta.id)
    except SourceError:  # undecodable corpus files are the decoder's business
        pytest.skip("not decodable")
    text_score, module_score = fandom.sniff(text), fandom_module.sniff(text)
    if meta.format == "fandom-text":
        assert text_score >= 60 and module_score < 20
    elif meta.format == "fandom-module":
        assert module_score >= 80 and text_score < 20
    else:
        assert text_score < 40 and module_score < 20


def test_each_parser_refuses_the_other_format() -> None:
    module_meta = next(m for m in MANIFEST if m.id == "fandom-module-rules-1.8")
    page_meta = next(m for m in MANIFEST if m.id == "seed-000")
    with pytest.raises(ParseError):
        fandom.parse(decoded_text(module_meta.id), module_meta)
    with pytest.raises(ParseError):
        fandom_module.parse(decoded_text(page_meta.id), page_meta)


# -- defects in hand-made text never crash -----------------------------------------------


def test_defects_in_a_small_page_become_anomalies() -> None:
    meta = DocumentMeta("t", "t.txt", "", "dm", ("en",), "fandom-text", "rules")
    text = (
        "FANDOM\n"
        "From the Duel Masters - General Game Rules: Version 9.9 (Smarch 1, 2020)\n"
        "- 600. Test\n- 600.1. One.\n- 600.1a A.\n- 600.1c C.\n- 600.1a Again.\n"
        "- 600.3. Three\n"
        "Example: orphan? no, attached to 600.3.\n"
    )
    parsed = fandom.parse(text, meta)
    found = {a.code for a in parsed.anomalies}
    assert {"unreadable-date", "gap", "duplicate", "missing-period"} <= found
    assert numbers(parsed.rules) == ["600", "600.1", "600.1a", "600.1c", "600.1d", "600.3"]
    assert parsed.rules[-1].examples[0].text == "orphan? no, attached to 600.3."


def test_a_complete_small_module_is_full_and_parses_its_rules() -> None:
    meta = DocumentMeta("m", "m.txt", "", "dm", ("en",), "fandom-module", "rules")
    text = (
        "local Rules = {}\n"
        "Rules.text = [[Duel Masters General Game Rules Version 2.0\n"
        "Last update date January 2nd, 2030.\n"
        "Contents\n1. Game Basics\n100. What You Need to Play\n"
        "1. Game Basics\n100. What You Need to Play\n"
        "100.1. Two players.\n100.1a Each brings a deck\n"
        "Example: A deck of 40 cards.\n]]\n"
        "return Rules\n"
    )
    parsed = fandom_module.parse(text, meta)
    assert [(v.label, v.date, v.kind) for v in parsed.versions] == [("2.0", "2030-01-02", "full")]
    assert numbers(parsed.rules) == ["100", "100.1", "100.1a"]
    assert parsed.rules[2].examples[0].text == "A deck of 40 cards."
    assert {a.code for a in parsed.anomalies} == {"contents-unterminated", "missing-period"}
    assert [x.text for x in parsed.residue if x.kind == "code"] == [
        "local Rules = {}",
        "Rules.text = [[",
        "]]",
        "return Rules",
    ]
    assert [h.text for h in parsed.headings] == ["1. Game Basics"]
