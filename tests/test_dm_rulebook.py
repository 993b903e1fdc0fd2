"""The official 総合ゲームルール Ver.1.48 (PDF extraction): facts checkable in the file itself.

Open ``corpus/dm/official-rule-text/dm_rule-ja-v1.48.md`` beside this file: every number,
text and count asserted here can be found there by eye or with grep.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from conftest import CORPUS, SHARED

from rules_kb.errors import ParseError
from rules_kb.ingest.accounting import account
from rules_kb.ingest.corpus import load_manifest, read_document_bytes
from rules_kb.ingest.decode import decode_document
from rules_kb.ingest.pipeline import ingest_corpus
from rules_kb.model import DocumentMeta, Version
from rules_kb.numbers import RuleNumber
from rules_kb.sources.dm_rulebook import rulebook as dm_rulebook

DOC = "dm-rulebook-ja-1.48"
RULEBOOK = CORPUS / "dm" / "official-rule-text" / "dm_rule-ja-v1.48.md"
MIRRORS = SHARED / "corpus" / "dm" / "pdf-mirror-excerpts"


@pytest.fixture(scope="module")
def ingested():
    [result] = ingest_corpus(CORPUS, only=[DOC])
    return result


@pytest.fixture(scope="module")
def rules(ingested):
    return {str(rule.number): rule for rule in ingested.parsed.rules}


def anomalies(ingested, code: str) -> list:
    return [a for a in ingested.parsed.anomalies if a.code == code]


def meta_for(name: str) -> DocumentMeta:
    return DocumentMeta(name, name, "", "dm", ("ja",), "dm-rulebook", "rules")


# --- the whole document -------------------------------------------------------------------


def test_every_character_is_accounted_for(ingested):
    assert ingested.accounting.complete, (ingested.accounting.uncovered[:5], ingested.accounting.overlapping[:5])
    assert ingested.accounting.percent == 100.0


def test_version_and_date_come_from_the_title_block(ingested, rules):
    assert ingested.parsed.versions == [Version("dm", "ja", "1.48", "2025-12-17", "full")]
    assert {(r.version, r.date) for r in rules.values()} == {("1.48", "2025-12-17")}
    titles = [x.text for x in ingested.parsed.residue if x.kind == "title"]
    assert titles == ["# デュエル・マスターズ 総合ゲームルール", "デュエル・マスターズ総合ゲームルール Ver.1.48",
                      "最終更新日 2025 年12 月17 日"]


def test_chapters_are_headings(ingested):
    assert [h.text for h in ingested.parsed.headings] == [
        "0. はじめに", "1. ゲームの基本", "2. カードの見方", "3. カードタイプ", "4. ゾーン",
        "5. ターンの構造", "6. カードの使用、能力、効果", "7. その他のルール", "8.特別なカード",
    ]


def test_contents_are_residue_and_list_every_section_but_000(ingested, rules):
    contents = [x for x in ingested.parsed.residue if x.kind == "contents"]
    assert contents[0].text == "もくじ"
    cited = [x.cites[0] for x in contents if x.cites]
    sections = [number for number, rule in rules.items() if rule.number.depth == 0]
    assert cited == [s for s in sections if s != "000"]
    assert len(cited) == 103
    # The entry split over two lines in the contents is one record with two spans.
    [entry_818] = [x for x in contents if x.cites == ("818",)]
    assert entry_818.text == "818.超魂X"
    assert len(entry_818.spans) == 2


def test_sections_carry_titles(rules):
    assert (rules["507"].title, rules["507"].text) == ("ブロッククリーチャー指定ステップ", "")
    assert rules["804"].title == "ゴッド"  # printed without a space: 804.ゴッド
    assert rules["815"].title == "S-MAX 進化クリーチャー"
    assert rules["000"].title == "この文書の目的"
    assert rules["000.1"].text.startswith("この文書はデュエル・マスターズにおけるルールの細則をまとめたものです。")


def test_rule_counts_per_section_match_a_grep_of_the_file(rules):
    """An independent count: lines starting with ``ddd.d`` followed by a blank or the line end.

    The grep-like count differs from the parse in exactly these explained places:
    ``103.2．`` and ``401.7．`` (full-width period), ``118.1.バトル…``, ``118.2.超ＧＲ…`` and
    ``603.2c「…`` (no blank after the number) escape the strict pattern; ``311.2.`` and
    ``505.2a`` are typos that grep counts under 311 and 505 and the parser files under 312
    and 506.
    """
    strict = re.compile(r"^[ \u3000]*(\d{3})\.\d{1,3}[a-zA-Z]?\.?(?:[ \u3000]|$)")
    lines = RULEBOOK.read_text(encoding="utf-8").split("\n")
    grep = Counter(int(m[1]) for m in map(strict.match, lines) if m)
    explained = Counter({103: 1, 401: 1, 118: 2, 603: 1, 312: 1, 506: 1})
    explained.subtract({311: 1, 505: 1})
    expected = Counter(grep)
    expected.update(explained)
    parsed = Counter(rule.number.section for rule in rules.values() if rule.number.depth > 0)
    assert +expected == parsed
    assert sum(parsed.values()) == 749


# --- rules and their texts -----------------------------------------------------------------


def test_507_2a_is_the_new_blocking_rule(rules):
    rule = rules["507.2a"]
    assert "最終的に、ブロッカー能力によって" in rule.text
    assert rule.written_as == "507.2a."
    assert rule.examples[0].text.startswith("２体のクリーチャーのブロッカー能力を使用した場合")


def test_507_3a_to_507_3g_exist_in_order(ingested):
    numbers = [str(r.number) for r in ingested.parsed.rules if str(r.number).startswith("507.3")]
    assert numbers == ["507.3", "507.3a", "507.3b", "507.3c", "507.3d", "507.3e", "507.3f", "507.3g"]


def test_hard_wraps_are_rejoined_without_spaces(rules):
    assert rules["609.8"].text == (
        "複数の置換効果が単一のイベントを同時に修整しようとした場合、どの効果が適用されるかはターン・プレイヤーの"
        "効果を優先したうえで、同じプレイヤーが複数個の置換効果を持つ場合、そのプレイヤーがどの効果が適用されるかを選びます。"
    )
    # A page break (blank line) inside 805.1a does not end it.
    assert rules["805.1a"].text.endswith("そのクリーチャーを「裏返す」覚醒能力を持ちます。")
    # The number alone on its line, the text on the next.
    assert rules["111.1"].text.startswith("いずれかの処理が行われるとき")


def test_real_line_ends_are_kept(rules):
    # A short first line with no sentence end, then a break: the rule's title (issue 14: 101.1 merged it into the text).
    assert rules["101.1"].title == "カードの効果はルールに勝つ"
    assert rules["101.1"].text.startswith("カードの文章がルールに直接矛盾しているときは")
    assert (rules["110.3a"].title, rules["110.3a"].text[:8]) == ("呪文能力", "呪文を唱えてから")
    assert rules["100.5"].text.endswith("カード例：\n《禁断～封印されしX～》\n《FORBIDDEN STAR～世界最後の日～》"
                                        "\n《滅亡の起源 零無》\n《Forbidden New Year》")


def test_a_space_inside_a_wrapped_card_name_is_kept(rules):
    assert "その《蒼き王道 ドギラゴン超》が持つ" in rules["816.2d"].examples[0].text


def test_continuations_starting_with_digits_are_not_rules(rules):
    assert "タップします。1 枚で火と闇と自然すべてを持つ" in rules["112.2a"].examples[0].text
    assert "それぞれがパワー－2000 の修正を受けたクリーチャー３体" in rules["801.2"].examples[0].text
    # ``603.2e）`` closes the citation of 506.3b; the real 603.2e is elsewhere.
    assert rules["506.3b"].text.endswith("（参考603.2e）")
    assert rules["603.2e"].text.startswith("誘発型能力の中には使用宣言")


def test_examples_belong_to_the_rule_above(rules, ingested):
    assert len(rules["200.3a"].examples) == 2
    assert rules["200.3a"].examples[1].text.startswith("《卍月 ガ・リュザーク 卍》の無月の門・絶は魔導具を参照")
    text = RULEBOOK.read_text(encoding="utf-8")
    labels = len(re.findall(r"^[ \u3000]*例[ \u3000]*[0-9０-９]*[ \u3000]*：", text, re.MULTILINE))
    assert sum(len(r.examples) for r in ingested.parsed.rules) == labels == 111


# --- defects of the official text -----------------------------------------------------------


def test_typo_numbers_are_filed_under_their_parent(ingested, rules):
    assert rules["312.2"].written_as == "311.2."
    assert rules["312.2"].text == "Artifact は実行したら、バトルゾーンに出ます。"
    assert rules["506.2a"].written_as == "505.2a"
    assert "505.2a" not in rules
    assert rules["311.2"].text.startswith("零龍の儀と零龍星雲")  # the real 311.2 is untouched
    messages = [a.message for a in anomalies(ingested, "number-out-of-parent")]
    assert messages == ["'311.2.' printed after 312.1, outside its parent section",
                        "'505.2a' printed after 506.2, outside its parent section"]


def test_odd_number_forms_are_reported(ingested, rules):
    assert rules["701.23b"].written_as == "701.23 b"
    assert rules["200.3c"].written_as == "200.3C"
    assert rules["103.2"].written_as == "103.2．"
    assert [a.message for a in anomalies(ingested, "space-in-number")] == [
        "'701.23 b' is written with space before the subrule letter"]
    assert len(anomalies(ingested, "capital-letter")) == 1
    assert len(anomalies(ingested, "full-width-number")) == 2  # 103.2． and 401.7．


def test_period_inconsistencies_are_reported(ingested):
    subrules = [a.message.split("'")[1] for a in anomalies(ingested, "subrule-period")]
    assert subrules == ["507.2a.", "507.2b.", "507.2c.", "507.3a.", "507.3b.", "507.3c.", "507.3d.",
                        "507.3e.", "507.3f.", "507.3g.", "812.4a."]
    missing = [a.message.split("'")[1] for a in anomalies(ingested, "missing-period")]
    # The README's sixth, 701.23, is the 701.23 b read as 701.23b (reported as space-in-number).
    assert missing == ["100.5", "114.5", "114.6", "200.3", "810.2"]


def test_the_wrapped_citation_is_reported_as_text(ingested):
    [report] = anomalies(ingested, "number-like-continuation")
    assert "603.2e）" in report.message
    assert report.decision == "kept as text of 506.3b, not as a rule"


def test_numbers_are_otherwise_in_sequence(ingested):
    codes = Counter(a.code for a in ingested.parsed.anomalies)
    assert codes["number-gap"] == codes["duplicate-number"] == codes["stray-text"] == 0
    numbers = [r.number for r in ingested.parsed.rules]
    assert numbers == sorted(numbers)
    assert len(set(numbers)) == len(numbers)


def test_parse_is_deterministic(ingested):
    again = dm_rulebook.parse(ingested.parsed.text, ingested.parsed.meta)
    assert [r.to_record() for r in again.rules] == [r.to_record() for r in ingested.parsed.rules]
    assert again.anomalies == ingested.parsed.anomalies


# --- other inputs ----------------------------------------------------------------------------


@pytest.mark.skipif(not MIRRORS.exists(), reason="shared mirror excerpts not available")
@pytest.mark.parametrize(("name", "label", "date"), [
    ("123deta.com__Ver1.12.txt", "1.12", "2018-09-28"),
    ("dokumen.tips__dm-rule-20191212__Ver1.17.txt", "1.17", "2019-12-12"),
])
def test_mirror_excerpts_are_read_as_contents(name, label, date):
    text = decode_document((MIRRORS / name).read_bytes(), name).text
    parsed = dm_rulebook.parse(text, meta_for(name))
    assert parsed.rules == []
    assert parsed.versions == [Version("dm", "ja", label, date, "excerpt")]
    assert account(parsed).complete
    kinds = Counter(x.kind for x in parsed.residue)
    assert set(kinds) <= {"contents", "title", "chrome"} and kinds["contents"] >= 5
    assert "2.カードの見方" in {x.text.split(" ")[0] for x in parsed.residue if x.kind == "contents"}
    assert dm_rulebook.sniff(text) >= 50


def test_sniff_prefers_the_rulebook_to_every_other_corpus_document():
    for meta in load_manifest(CORPUS):
        text = decode_document(read_document_bytes(CORPUS, meta), meta.file).text
        score = dm_rulebook.sniff(text)
        if meta.format == "dm-rulebook":
            assert score == 100, meta.id
        else:
            assert score < 50, meta.id


SYNTHETIC = """デュエル・マスターズ総合ゲームルール Ver.9.9
1. ゲームの基本
章の前書きです。
100. 総則
100.1. 最初の規則です。
100.1a 細則です。
100.1a 同じ番号がもう一度あります。
100.4. 二つ飛ばしました。
102.1. 見出しのない節です。
102.2. ここで切れ
"""


def test_defects_in_a_small_text_become_anomalies_not_crashes():
    parsed = dm_rulebook.parse(SYNTHETIC, meta_for("synthetic"))
    codes = [a.code for a in parsed.anomalies]
    assert codes.count("duplicate-number") == 1
    assert "number-gap" in codes and "missing-section-heading" in codes
    assert "date-not-stated" in codes and "stray-text" in codes
    assert [str(r.number) for r in parsed.rules] == ["100", "100.1", "100.1a", "100.1a", "100.4", "102.1", "102.2"]
    assert parsed.rules[0].number == RuleNumber(100)
    assert parsed.versions == [Version("dm", "ja", "9.9", None, "full")]
    assert [x.text for x in parsed.residue] == ["デュエル・マスターズ総合ゲームルール Ver.9.9", "章の前書きです。"]
    assert parsed.rules[-1].truncated and "truncated" in codes
    assert account(parsed).complete


def test_text_of_another_format_is_refused():
    with pytest.raises(ParseError):
        dm_rulebook.parse("507.1. The nonactive player declares blockers.\nAdvertisement\n", meta_for("english"))


def test_a_rule_longer_than_any_real_one_is_reported():
    """Rules run together (numbers the parser missed) make one huge text; it must not pass silently."""
    (meta,) = [m for m in load_manifest(CORPUS) if m.id == DOC]
    text = decode_document(read_document_bytes(CORPUS, meta), meta.file).text
    at = text.index("\n", text.index("\n507.2a. ") + 1)
    parsed = dm_rulebook.parse(text[:at] + "\nブロックされたクリーチャーは攻撃を続けます" * 20000 + text[at:], meta)
    (anomaly,) = [a for a in parsed.anomalies if a.code == "overlong-rule"]
    assert anomaly.message == "rule 507.2a is 420,126 characters long, more than any real rule (10,000)"
    assert not [a for a in dm_rulebook.parse(text, meta).anomalies if a.code == "overlong-rule"]
