"""Official Duel Masters change notices: facts checkable in corpus/dm/official-change-notice-excerpts/."""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import CORPUS

from rules_kb.errors import ParseError
from rules_kb.ingest.corpus import load_manifest
from rules_kb.ingest.pipeline import Ingested, ingest_corpus
from rules_kb.model import ParsedDocument, RuleText
from rules_kb.sources.change_notice import notice as change_notice

NOTICE_IDS = [m.id for m in load_manifest(CORPUS) if m.format == "dm-change-notice"]


@pytest.fixture(scope="module")
def ingested() -> dict[str, Ingested]:
    return {item.parsed.meta.id: item for item in ingest_corpus(CORPUS, only=NOTICE_IDS)}


def doc(ingested: dict[str, Ingested], doc_id: str) -> ParsedDocument:
    return ingested[doc_id].parsed


def rule(parsed: ParsedDocument, number: str, version: str) -> RuleText:
    found = [r for r in parsed.rules if str(r.number) == number and r.version == version]
    assert len(found) == 1, f"{number}@{version}: {len(found)} found"
    return found[0]


def codes(parsed: ParsedDocument) -> list[tuple[str, str]]:
    """(code, message) of every anomaly, for readable assertions."""
    return [(a.code, a.message) for a in parsed.anomalies]


def test_every_notice_document_is_in_the_manifest():
    assert "seed-001" in NOTICE_IDS
    assert {"dm-notice-index", "dm-ruling-change-attack-redirect", "dm-notice-2016-09-13"} <= set(NOTICE_IDS)
    assert len(NOTICE_IDS) == 13


@pytest.mark.parametrize("doc_id", NOTICE_IDS)
def test_every_character_is_accounted_for(ingested, doc_id):
    accounting = ingested[doc_id].accounting
    assert accounting.complete, (accounting.uncovered, accounting.overlapping)
    assert accounting.percent == 100.0


# -- seed 001: the 2021-09-07 notice, new text only --------------------------------------------

SEED_001_NUMBERS = [
    "803.1c", "803.1d", "801.1b", "507", "507.1", "507.1a", "507.1b",
    "507.2", "507.2a", "507.2b", "507.2c", "507.3", "507.3a",
]


def test_seed_001_rules_in_order_at_the_notice_version(ingested):
    parsed = doc(ingested, "seed-001")
    assert [str(r.number) for r in parsed.rules] == SEED_001_NUMBERS
    assert {(r.version, r.date, r.lang, r.game) for r in parsed.rules} == {("2021-09-07", "2021-09-07", "ja", "dm")}
    assert not any(r.truncated for r in parsed.rules)
    assert [(v.label, v.date, v.kind) for v in parsed.versions] == [("2021-09-07", "2021-09-07", "change-notice")]


def test_seed_001_new_text_format_exact_texts(ingested):
    parsed = doc(ingested, "seed-001")
    assert rule(parsed, "803.1c", "2021-09-07").text == (
        "ゴッドがバトルゾーンに出ることでカードの能力が誘発する場合、そのゴッドがリンクして1体のクリーチャーに"
        "なったとしても、実際にバトルゾーンに出たカードの特性を参照します。"
    )
    assert rule(parsed, "507.3a", "2021-09-07").text == (
        "「このクリーチャーがブロックした時」という誘発条件を持つ誘発型能力は、その能力を持つクリーチャー自身が"
        "ブロッククリーチャーに指定されることで誘発します。"
    )


def test_seed_001_section_heading_rule(ingested):
    heading = rule(doc(ingested, "seed-001"), "507", "2021-09-07")
    assert heading.title == "ブロッククリーチャー指定ステップ"
    assert heading.text == ""


def test_seed_001_examples_belong_to_the_rule_above(ingested):
    parsed = doc(ingested, "seed-001")
    examples = rule(parsed, "507.1a", "2021-09-07").examples
    assert len(examples) == 4
    assert examples[0].text == (
        "ブロッカーを持つタップ状態のクリーチャーを、能力を使用するクリーチャーとして選ぶことはできません。"
    )
    assert parsed.text[examples[0].spans[0][0]:].startswith("例:ブロッカー")
    assert len(rule(parsed, "507.1b", "2021-09-07").examples) == 1
    assert len(rule(parsed, "507.2a", "2021-09-07").examples) == 1
    assert rule(parsed, "507.2", "2021-09-07").examples == []


def test_seed_001_period_less_507_2_is_the_only_anomaly(ingested):
    parsed = doc(ingested, "seed-001")
    assert [a.code for a in parsed.anomalies] == ["missing-period"]
    anomaly = parsed.anomalies[0]
    assert "507.2 " in anomaly.message + " "
    assert parsed.text[anomaly.position:].startswith("507.2 選んだ")


def test_seed_001_topics_are_commentary_and_site_furniture_is_chrome(ingested):
    parsed = doc(ingested, "seed-001")
    by_kind: dict[str, list[str]] = {}
    for item in parsed.residue:
        by_kind.setdefault(item.kind, []).append(item.text)
    assert by_kind["commentary"] == [
        "ゴッドに関して、記載を修正、追加しました。",
        "複数のカードを進化元とする進化クリーチャーに関して、記載を追加しました。",
        "ブロッククリーチャー指定ステップの記載を修正、追加しました。",
    ]
    assert by_kind["chrome"][:4] == ["デュエル・マスターズ", "メニュー", "商品情報", "PAGE TOP"]
    assert by_kind["chrome"][4].startswith("TM and © 2024, Wizards of the Coast")
    assert [(h.text, h.level) for h in parsed.headings] == [("変更点(2021.09.07)", 1), ("■総合ゲームルール更新箇所", 2)]


def test_the_2021_notice_excerpt_repeats_seed_001_and_is_cut_in_an_example(ingested):
    seed = doc(ingested, "seed-001")
    excerpt = doc(ingested, "dm-notice-2021-09-07")
    assert [str(r.number) for r in excerpt.rules] == SEED_001_NUMBERS[:6]
    for cut in excerpt.rules[:5]:
        assert cut.text == rule(seed, str(cut.number), "2021-09-07").text
    last = excerpt.rules[-1]
    assert last.truncated
    assert [e.text for e in last.examples] == ["ブロッカーを持つタップ状態のクリーチャーを、能力"]
    message = "507.1a: its last example is cut off mid-sentence by the excerpt's end"
    assert ("truncated-excerpt", message) in codes(excerpt)


# -- 修正前 / ↓ / 修正後 ------------------------------------------------------------------------

def test_before_after_with_arrow_2023_09_14(ingested):
    parsed = doc(ingested, "dm-notice-2023-09-14")
    before = rule(parsed, "509.4", "before-2023-09-14")
    after = rule(parsed, "509.4", "2023-09-14")
    assert before.text == (
        "509.3.で待機中となった効果の解決を行います。それらの効果の解決がすべて終わった後、"
        "それにより新たに誘発した能力があれば、それを解決します。"
    )
    assert after.text == (
        "誘発した「ブレイクする前に」や「ブレイクの前に」の能力により待機した効果の解決を行います。"
        "それらの効果の解決がすべて終わった後、他に待機している効果があれば、それを解決します。"
    )
    assert (before.date, after.date) == (None, "2023-09-14")
    assert [(v.label, v.date) for v in parsed.versions] == [("2023-09-14", "2023-09-14"), ("before-2023-09-14", None)]
    assert rule(parsed, "603.7", "2023-09-14").truncated
    markers = [x.text for x in parsed.residue if x.kind == "change-marker"]
    assert markers == ["修正前", "↓", "修正後"] * 2


def test_before_text_of_2023_is_the_text_added_in_2019(ingested):
    """109.2c as added on 2019-09-27 is what the 2023-09-14 notice quotes as its old text."""
    added = rule(doc(ingested, "dm-notice-2019-09-27"), "109.2c", "2019-09-27")
    quoted = rule(doc(ingested, "dm-notice-2023-09-14"), "109.2c", "before-2023-09-14")
    assert quoted.text == added.text
    assert rule(doc(ingested, "dm-notice-2023-09-14"), "109.2c", "2023-09-14").text.endswith(
        "また、封印はエレメントの構成カードに含まれません。"
    )


def test_before_after_without_parenthesis_2020_10_23(ingested):
    parsed = doc(ingested, "dm-notice-2020-10-23")
    assert rule(parsed, "506.3c", "before-2020-10-23").text == (
        "その後、ターン・プレイヤーの待機状態の効果を好きな順番で処理します。この過程で非ターンプレイヤー側の"
        "効果が生じた場合、ターンプレイヤーの効果処理後に処理します。"
    )
    after = rule(parsed, "506.3c", "2020-10-23")
    assert after.text == "その後、ターン・プレイヤーの待機状態の効果を好きな順番で処理します。"
    # The numbered summaries above the blocks are commentary citing the rule, not rule texts.
    summary = next(x for x in parsed.residue if x.text.startswith("506.3b"))
    assert (summary.kind, summary.cites) == ("commentary", ("506.3b",))
    assert len([r for r in parsed.rules if str(r.number) == "506.3b"]) == 2


def test_number_printed_alone_quotes_one_sentence_2023_08_10(ingested):
    parsed = doc(ingested, "dm-notice-2023-08-10")
    before = rule(parsed, "601.1a", "before-2023-08-10")
    after = rule(parsed, "601.1a", "2023-08-10")
    assert before.text == (
        "また、効果の適用に必要な処理を実行できない場合や、別の効果を先に適用することによって効果の処理が"
        "実行できなくなる場合も、その効果は使用できません。"
    )
    assert after.text == (
        "また、効果の適用に必要な処理を実行できない場合や、別の効果を先に適用することによって効果の適用に"
        "必要な処理を実行できなくなる場合も、その効果は使用できません。"
    )
    assert before.truncated and after.truncated
    assert parsed.text[before.spans[0][0]:before.spans[0][1]] == "601.1a"
    assert [a.code for a in parsed.anomalies].count("partial-quote") == 2


def test_doubled_example_label_2023_08_10(ingested):
    parsed = doc(ingested, "dm-notice-2023-08-10")
    example = rule(parsed, "202.6a", "2023-08-10").examples
    assert len(example) == 1
    assert example[0].text.startswith("《神聖龍 エモーショナル・ハードコア》など")
    assert "doubled-example-label" in [a.code for a in parsed.anomalies]


# -- 変更前) / 変更後) ------------------------------------------------------------------------

def test_before_after_with_parenthesis_2016_09_13(ingested):
    parsed = doc(ingested, "dm-notice-2016-09-13")
    assert rule(parsed, "701.2a", "before-2016-09-13").text == "カードをタップするとは、カードを横向きに倒すことです。"
    assert rule(parsed, "701.2a", "2016-09-13").text == "カードをタップするとは、正位置から90°回転させることです。"
    assert rule(parsed, "701.2b", "2016-09-13").text == "カードをアンタップするとは、 正位置に戻すことである。"
    assert rule(parsed, "701.2", "before-2016-09-13").text == "タップとアンタップ"
    assert len(parsed.rules) == 6
    assert ("stray-space", "701.2b has a space after Japanese punctuation") in codes(parsed)


def test_2016_change_list_is_commentary_and_event_rules_are_not_rules(ingested):
    parsed = doc(ingested, "dm-notice-2016-09-13")
    listed = [x for x in parsed.residue if x.kind == "commentary"]
    assert [x.cites for x in listed] == [
        ("104.2c",), ("116.4a",), ("116.4b",), ("308.3",), ("605.2d",), ("703.4k",), ("805.1a",), ("806",), ("701.2",),
    ]
    event = [x.text for x in parsed.residue if x.kind == "event-rules"]
    assert event[0] == "6.2 殿堂レギュレーション構築 が更新されました。(8/19)"
    assert "フェアリー・ギフト" in event
    assert ("●殿堂入りカード", 3) in [(h.text, h.level) for h in parsed.headings]


# -- numbering defects ---------------------------------------------------------------------

def test_capital_subrule_letter_and_missing_period_2019_06_18(ingested):
    parsed = doc(ingested, "dm-notice-2019-06-18")
    capital = rule(parsed, "200.3c", "2019-06-18")
    assert capital.written_as == "200.3C"
    assert capital.text == "両面カードをカード指定する場合、表になっている面を参照します。"
    assert ("capital-subrule-letter", "200.3C written with capital subrule letter") in codes(parsed)
    assert [a.message for a in parsed.anomalies if a.code == "missing-period"] == [
        "200.3 has no trailing period where its siblings have one"
    ]
    assert rule(parsed, "505.6a", "2019-06-18").truncated


def test_no_space_after_number_2022_04_08(ingested):
    parsed = doc(ingested, "dm-notice-2022-04-08")
    assert rule(parsed, "204.2", "2022-04-08").text.startswith("カードタイプには、「クリーチャー」")
    assert [a.message for a in parsed.anomalies if a.code == "no-space-after-number"] == [
        "204.2. is glued to its text", "300.1. is glued to its text",
    ]
    assert rule(parsed, "813", "2022-04-08").title == "S-MAX進化クリーチャー"


def test_explanations_under_rules_are_commentary_2018_03_02(ingested):
    parsed = doc(ingested, "dm-notice-2018-03-02")
    commentary = [x.text for x in parsed.residue if x.kind == "commentary"]
    assert "ブロックされなかった→攻撃先の変更がされなかった、に変更しました。" in commentary
    # Not in the rule (Ver.1.48 110.5a ends its example at 参照します。): an explanation.
    assert "印刷の数値ではなく、パワーの変動なども考慮します。" in commentary
    example = rule(parsed, "110.5a", "2018-03-02").examples
    assert len(example) == 1 and example[0].text.startswith("相手のクリーチャーの合計パワーを")
    assert rule(parsed, "501", "2018-03-02").title == "ターン開始ステップ"
    # No period anywhere in this notice's numbers: a convention, not a defect.
    assert "missing-period" not in [a.code for a in parsed.anomalies]


def test_excerpt_cut_inside_a_number_2018_08_09(ingested):
    parsed = doc(ingested, "dm-notice-2018-08-09")
    assert parsed.residue[-1].text == "11"
    assert parsed.residue[-1].kind == "fragment"
    assert [str(r.number) for r in parsed.rules] == ["605.2b", "100.2a", "100.3a", "112.3c", "112.3d"]
    assert not any(r.truncated for r in parsed.rules)


# -- pages without rule texts --------------------------------------------------------------

def test_ruling_change_page_has_no_rules(ingested):
    parsed = doc(ingested, "dm-ruling-change-attack-redirect")
    assert parsed.rules == []
    assert parsed.versions == []
    steps = [x.text for x in parsed.residue if x.kind == "ruling"]
    assert steps[0] == "1.相手クリーチャーの攻撃に対して、自分は攻撃先を変更する能力を使うクリーチャーを選ぶ。"
    assert len(steps) == 8
    assert [x.kind for x in parsed.residue if x.text.startswith("Q:")] == ["faq"]
    assert parsed.headings[0].text == "攻撃先を変更する能力の処理に関する裁定変更のお知らせ"


def test_index_page_states_the_current_rulebook(ingested):
    parsed = doc(ingested, "dm-notice-index")
    assert parsed.rules == []
    assert [(v.label, v.date, v.kind) for v in parsed.versions] == [("1.45", "2025-04-18", "full")]
    navigation = [x.text for x in parsed.residue if x.kind == "navigation"]
    assert "- 総合ルールのアップデート" in navigation
    assert len(navigation) == 20  # 8 lines of PDF links, 12 news links


# -- format detection and robustness ----------------------------------------------------------

@pytest.mark.parametrize("doc_id", NOTICE_IDS)
def test_sniff_recognises_every_notice_page(ingested, doc_id):
    assert change_notice.sniff(ingested[doc_id].parsed.text) >= 50


def test_sniff_is_low_for_other_formats():
    for doc_id in ("seed-000", "seed-003", "seed-004", "dmwiki-rules-text-toc-1.40"):
        meta = next(m for m in load_manifest(CORPUS) if m.id == doc_id)
        text = (CORPUS / meta.file).read_text(encoding="utf-8")
        assert change_notice.sniff(text) < 20, doc_id


def test_text_of_another_format_is_refused(ingested):
    meta = doc(ingested, "seed-001").meta
    with pytest.raises(ParseError):
        change_notice.parse("- 309.1 - As the declare blockers step begins.\n", meta)


def test_parsing_is_deterministic(ingested):
    parsed = doc(ingested, "dm-notice-2016-09-13")
    again = change_notice.parse(parsed.text, parsed.meta)
    assert [r.to_record() for r in again.rules] == [r.to_record() for r in parsed.rules]
    assert again.residue == parsed.residue


def test_title_date_is_checked_against_the_manifest(ingested):
    parsed = doc(ingested, "seed-001")
    wrong = replace(parsed.meta, dates=("2021-09-08",))
    reparsed = change_notice.parse(parsed.text, wrong)
    assert ("date-mismatch", "title says 2021-09-07, manifest says 2021-09-08") in codes(reparsed)
    assert {r.version for r in reparsed.rules} == {"2021-09-07"}
