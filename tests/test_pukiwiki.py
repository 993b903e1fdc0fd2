"""dmwiki PukiWiki sources: structure recovered from flattened lines, residue classified.

Every expected value below can be checked by reading the three source files
(seeds/003…, dm/dmwiki-excerpts/…) with a text editor.
"""


import pytest
from conftest import CORPUS

from rules_kb.errors import ParseError, SourceError
from rules_kb.ingest.corpus import load_manifest, read_document_bytes
from rules_kb.ingest.decode import decode_document
from rules_kb.ingest.pipeline import ingest_corpus
from rules_kb.model import DocumentMeta, Version
from rules_kb.sources.pukiwiki.page import parse, sniff

SEED = "seed-003"
ATTACK = "dmwiki-attack-target-change-abilities"
TOC = "dmwiki-rules-text-toc-1.40"


@pytest.fixture(scope="module")
def docs():
    return {ingested.parsed.meta.id: ingested for ingested in ingest_corpus(CORPUS, only=[SEED, ATTACK, TOC])}


def residue(docs, doc_id, kind=None):
    return [item for item in docs[doc_id].parsed.residue if kind is None or item.kind == kind]


def raw(docs, doc_id, item):
    text = docs[doc_id].parsed.text
    return text[item.spans[0][0] : item.spans[-1][1]]


def synthetic(text: str) -> DocumentMeta:
    return DocumentMeta("test", "test.txt", "", "dm", ("ja",), "pukiwiki", "commentary")


@pytest.mark.parametrize("doc_id", [SEED, ATTACK, TOC])
def test_every_character_is_accounted_for(docs, doc_id):
    accounting = docs[doc_id].accounting
    assert accounting.complete, (accounting.uncovered[:5], accounting.overlapping[:5])
    assert accounting.percent == 100.0


def test_seed_headings_and_levels(docs):
    headings = [(h.text, h.level) for h in docs[SEED].parsed.headings]
    assert headings == [("ブロッククリーチャー指定ステップ", 1), ("処理の流れ", 2), ("補足", 3), ("参考", 2)]


def test_seed_lost_line_breaks_reported_once(docs):
    codes = [a.code for a in docs[SEED].parsed.anomalies]
    assert codes == ["lost-line-breaks"]
    assert docs[SEED].parsed.anomalies[0].position == 0


def test_list_marker_at_lost_line_start_is_one_item(docs):
    items = [
        i for i in residue(docs, SEED, "commentary") if i.text == "ブロッカー能力を持っているが、タップ状態である。"
    ]
    assert len(items) == 1
    assert items[0].level == 2
    assert raw(docs, SEED, items[0]) == "--ブロッカー能力を持っているが、タップ状態である。"


def test_hyphen_before_a_year_starts_an_item(docs):
    """`-2021年9月7日に…` is a list item although digits follow the hyphen."""
    texts = [(i.text, i.level) for i in residue(docs, SEED, "commentary")]
    assert ("ガードマン能力を持っておりアンタップ状態でもあるが、元々の攻撃先がプレイヤーである。", 2) in texts
    assert any(t.startswith("2021年9月7日に行われた変更前は") and level == 1 for t, level in texts)


def test_seed_list_levels(docs):
    commentary = residue(docs, SEED, "commentary")
    assert sum("ordered" in i.marks for i in commentary) == 5  # the five `+` steps of 処理の流れ
    assert [i.text for i in commentary if i.level == 3] == [
        "つまり、1回の攻撃で2体以上のブロッククリーチャーが存在することはない。"
    ]
    assert [i.text for i in commentary if i.level == 1][-4:] == ["用語集", "ステップ", "攻撃ステップ", "攻撃"]


def test_seed_cites_507_3c(docs):
    citing = [i for i in docs[SEED].parsed.residue if i.cites]
    assert [i.cites for i in citing] == [("507.3c",)]
    assert citing[0].kind == "commentary"
    assert citing[0].text.endswith("(総合ルール 507.3c.)。")
    assert citing[0].text.startswith(
        "非ターン・プレイヤーが、攻撃先を変更する能力を使用するクリーチャーを選ぶステップ。このステップ中に"
    )


def test_red_items_marked_with_the_legend_date(docs):
    marked = [i for i in docs[SEED].parsed.residue if "changed:2021-09-07" in i.marks]
    assert [i.text.split("、")[-1] for i in marked] == [
        "元々の攻撃先がそのクリーチャー自身である。",
        "元々の攻撃先がプレイヤーである。",
    ]
    assert all(i.level == 2 and i.kind == "commentary" for i in marked)


def test_red_mark_date_comes_from_the_text():
    text = (
        '#author("2020-01-01T00:00:00+09:00","","") *見出し [#abc123] '
        "-状況。(赤太字は2019年12月13日の変更によるもの。) --&color(red){''新しい条件''};。"
    )
    parsed = parse(text, synthetic(text))
    assert [i.marks for i in parsed.residue if i.text == "新しい条件。"] == [("changed:2019-12-13",)]


def test_cosmo_politan_sentence_is_one_item(docs):
    items = [i for i in residue(docs, SEED, "commentary") if "コスモ・ポリタン" in i.text]
    assert [(i.text, i.level) for i in items] == [
        (
            "具体的には、《コスモ・ポリタン》が3体いた場合に3体をブロッククリーチャーに指定したら、変更前は3ドロー、変更後は1ドローを行えるということ。",
            2,
        )
    ]


def test_seed_table_rows_and_footnotes(docs):
    rows = residue(docs, SEED, "table")
    assert len(rows) == 12
    assert [r.text for r in residue(docs, SEED, "table-format")] == ["|8|>|220|c"]
    assert (rows[0].text, rows[0].marks) == ("(相手のターン終了ステップ)", ("header",))
    assert (rows[-1].text, rows[-1].marks) == ("(相手のターン開始ステップ)", ("footer",))
    assert rows[8].text == "バトルステップ | ダイレクトアタックステップ\n(ダイレクトアタック/シールドブレイク)"
    notes = residue(docs, SEED, "footnote")
    assert [n.text for n in notes] == [
        "ただし、追加ターンを得ていた場合はこの限りではない。",
        "先攻の最初のターンのみ、このステップは存在しない。",
        "ただし、追加ターンを得ている場合はこの限りではない。",
    ]
    assert raw(docs, SEED, notes[1]) == "((先攻の最初のターンのみ、このステップは存在しない。))"
    # the row keeps its own markup around the carved-out footnote: two spans
    draw_row = rows[2]
    assert draw_row.text == "ドローステップ" and len(draw_row.spans) == 2


def test_seed_author_lines_and_tags(docs):
    meta = residue(docs, SEED, "meta")
    assert [(m.text, m.marks) for m in meta] == [
        ("2021-09-12T05:14:43+09:00", ("edited:2021-09-12",)),
        ("2021-10-04T17:45:40+09:00", ("edited:2021-10-04",)),
    ]
    assert [t.text for t in residue(docs, SEED, "tag")] == ["用語集,攻撃ステップ,ステップ"]
    assert docs[SEED].parsed.versions == []
    assert docs[SEED].parsed.rules == []


def test_page_with_line_breaks_is_not_split(docs):
    parsed = docs[ATTACK].parsed
    assert [(h.text, h.level) for h in parsed.headings] == [
        ("攻撃先変更能力", 1),
        ("攻撃先変更能力の例", 2),
        ("ルール", 2),
    ]
    assert parsed.anomalies == []
    examples = [i for i in residue(docs, ATTACK, "commentary") if "\n例:" in i.text]
    assert [(i.level, i.text.split("\n")[1]) for i in examples] == [
        (1, "例:相手クリーチャーがプレイヤーを攻撃した時にガードマンを選ぶことはできない。"),
        (
            2,
            "例:相手クリーチャーがプレイヤーを攻撃した時にブロッカーを使い、攻撃先をクリーチャーに変更したうえでガードマンを使うことはできない。",
        ),
    ]
    assert [r.text for r in residue(docs, ATTACK, "table")] == [
        "ブロッカー(このクリーチャーをタップして、相手クリーチャーの攻撃先をこのクリーチャーに変更してもよい)"
    ]


def test_toc_version_heading_and_contents(docs):
    parsed = docs[TOC].parsed
    assert parsed.versions == [Version("dm", "ja", "1.40", "2024-04-12", "contents")]
    assert [h.text for h in parsed.headings] == ["デュエル・マスターズ総合ゲームルール Ver.1.40"]
    contents = residue(docs, TOC, "contents")
    cited = [c.cites[0] for c in contents if c.cites]
    expected = ["000", *(f"{n}" for n in range(100, 119)), *(f"{n}" for n in range(200, 209))]
    assert cited == expected + [f"{n}" for n in range(300, 310)]
    assert [c.text for c in contents if c.level == 1] == [
        "0.はじめに",
        "1.ゲームの基本",
        "2.カードの見方",
        "3.カードタイプ",
    ]
    entry = next(c for c in contents if c.cites == ("100",))
    assert (entry.text, entry.level) == ("100.ゲームに必要なもの", 2)
    assert raw(docs, TOC, entry) == "--[[100.ゲームに必要なもの>#rule100]]"


def test_toc_comment_notice_and_cut_off_end(docs):
    parsed = docs[TOC].parsed
    assert [(c.text, raw(docs, TOC, c)) for c in residue(docs, TOC, "comment")] == [
        ("000.1.", "//---[[000.1.>#rule000_1]]")
    ]
    notice = residue(docs, TOC, "commentary")[0]
    assert notice.text.startswith("※注意\nこのページは有志によって著しく改変されています。")
    assert notice.text.endswith("https://dm.takaratomy.co.jp/rule/rulechange/")
    assert [a.code for a in parsed.anomalies] == ["lost-line-breaks", "unclosed-block", "unclosed-markup"]
    assert "truncated" in parsed.residue[-1].marks


def test_hyphens_inside_text_are_not_line_starts():
    text = (
        '#author("2024-01-01T00:00:00+09:00","","") *見出し [#a1b2c3] '
        "パワー -1000 される。S-MAXは進化 - 例外あり。 -次の項目[[リンク -内部]] --子の項目((注 -釈))"
    )
    parsed = parse(text, synthetic(text))
    items = [(i.text, i.level, i.kind) for i in parsed.residue if i.kind in ("commentary", "footnote")]
    assert items == [
        ("パワー -1000 される。S-MAXは進化 - 例外あり。", 0, "commentary"),
        ("次の項目リンク -内部", 1, "commentary"),
        ("子の項目", 2, "commentary"),
        ("注 -釈", 0, "footnote"),
    ]


def test_text_without_pukiwiki_markup_is_refused():
    text = "Magic: The Gathering Comprehensive Rules\n- 309.1 - As the declare blockers step begins"
    with pytest.raises(ParseError):
        parse(text, synthetic(text))


def _corpus_texts():
    for meta in load_manifest(CORPUS):
        try:
            yield meta, decode_document(read_document_bytes(CORPUS, meta), meta.file).text
        except SourceError:
            continue  # the corrupt Magic release is refused by decode, not sniffed


def test_sniff_separates_pukiwiki_from_every_other_corpus_format():
    scores = {meta.id: (meta.format, sniff(text)) for meta, text in _corpus_texts()}
    assert {i: s for i, (f, s) in scores.items() if f == "pukiwiki"} == {SEED: 100, ATTACK: 100, TOC: 100}
    assert max(s for f, s in scores.values() if f != "pukiwiki") < 10


def test_line_oriented_constructs_of_an_intact_page():
    text = (
        '#author("2020-01-01T00:00:00+09:00","","")\n*見出し\n 整形済み\n 2行\n:用語|説明\n続きの行~\n'
        "#region2(目次){{\n-[[507.ブロック>#rule507]]\n}}\n-普通の項目 507.2a\n----\n"
    )
    parsed = parse(text, synthetic(text))
    assert [(h.text, h.level) for h in parsed.headings] == [("見出し", 1)]
    assert [(i.kind, i.text, i.cites, i.marks) for i in parsed.residue[1:]] == [
        ("commentary", "整形済み\n2行", (), ("preformatted",)),
        ("commentary", "用語: 説明\n続きの行", (), ("definition",)),
        ("contents", "目次", (), ()),
        ("contents", "507.ブロック", ("507",), ()),
        ("markup", "", (), ()),
        ("commentary", "普通の項目 507.2a", ("507.2a",), ()),
        ("markup", "", (), ()),
    ]
    assert parsed.anomalies == []


def test_parse_is_deterministic(docs):
    parsed = docs[SEED].parsed
    again = parse(parsed.text, parsed.meta)
    assert [(r.kind, r.text, r.spans, r.cites, r.marks) for r in again.residue] == [
        (r.kind, r.text, r.spans, r.cites, r.marks) for r in parsed.residue
    ]
