"""The tournament documents parsed from their real PDFs (../shared/corpus/tournament): MTR 2025-04-21,
IPG 2024-09-23 and the Duel Masters 競技イベント運営ルール 2025-05-01. Every fact asserted here can
be read in the PDFs; the contents pages are read apart from the body and must agree with it."""

from __future__ import annotations

import json
import re
from itertools import pairwise

import pytest
from conftest import SHARED

from rules_kb.ingest.detect import score_formats
from rules_kb.ingest.pipeline import parse_bytes
from rules_kb.model import DocumentMeta
from rules_kb.numbers import SectionNumber
from rules_kb.sources.tournament.contents import check_contents, contents_entries
from rules_kb.sources.tournament.names import find_infraction, name_key, normalise_penalty

TOURNAMENT = SHARED / "corpus" / "tournament"
DOCUMENTS = {
    "mtr": ("mtg/MTG_MTR_2025_Apr_21_EN.pdf", "mtg-mtr", "mtg", "en", "2025-04-21"),
    "ipg": ("mtg/MTG_IPG_2024Sep23_EN.pdf", "mtg-ipg", "mtg", "en", "2024-09-23"),
    "dm": ("dm/dm_competition_rule_20250501.pdf", "dm-competition", "dm", "ja", "2025-05-01"),
}


def ingest(key: str, version: str | None = None):
    file, fmt, game, lang, effective = DOCUMENTS[key]
    path = TOURNAMENT / file
    meta = DocumentMeta(id=f"{key}-test", file=str(path), sha256="", game=game, languages=(lang,), format=fmt,
                        kind="tournament", versions=(version or effective,))
    return parse_bytes(path.read_bytes(), meta)


@pytest.fixture(scope="module")
def docs():
    return {key: ingest(key) for key in DOCUMENTS}


def section(parsed, number: str, title: str | None = None):
    found = [s for s in parsed.sections if s.number == number and (title is None or s.title == title)]
    assert len(found) == 1, (number, [s.title for s in found])
    return found[0]


@pytest.mark.parametrize("key", DOCUMENTS)
def test_every_character_is_accounted_for(docs, key):
    accounting = docs[key].accounting
    assert accounting.complete, (accounting.uncovered[:3], accounting.overlapping[:3])
    assert accounting.characters > 40_000


@pytest.mark.parametrize("key, count", [("mtr", 104), ("ipg", 36), ("dm", 104)])
def test_section_counts(docs, key, count):
    assert len(docs[key].parsed.sections) == count


@pytest.mark.parametrize("key", DOCUMENTS)
def test_sections_come_in_natural_order(docs, key):
    numbers = [SectionNumber.parse(s.number) for s in docs[key].parsed.sections]
    assert all(a <= b for a, b in pairwise(numbers))


@pytest.mark.parametrize("key", DOCUMENTS)
def test_version_is_read_from_the_document(docs, key):
    parsed = docs[key].parsed
    assert {s.version for s in parsed.sections} == {DOCUMENTS[key][4]}
    assert not [a for a in parsed.anomalies if a.code in ("version-mismatch", "no-effective-date")]


def test_a_manifest_version_the_text_contradicts_is_an_anomaly():
    parsed = ingest("ipg", version="2024-04-15").parsed
    assert [a.code for a in parsed.anomalies if a.code == "version-mismatch"] == ["version-mismatch"]
    assert parsed.sections[0].version == "2024-09-23"


# --- the contents, read apart from the body ----------------------------------------------------


@pytest.mark.parametrize("key", ["mtr", "ipg"])
def test_every_contents_entry_is_a_section_with_its_number_and_title_in_order(docs, key):
    parsed = docs[key].parsed
    entries = contents_entries(parsed)
    assert len(entries) > 30
    assert check_contents(parsed) == []


def test_the_contents_entries_as_printed(docs):
    mtr = contents_entries(docs["mtr"].parsed)
    assert mtr[:3] == [("", "Introduction"), ("1", "Tournament Fundamentals"), ("1.1", "Tournament Types")]
    assert ("1.10", "Players") in mtr and ("3.10", "Card Shuffling") in mtr
    assert ("", "Booster Draft Timing") in mtr and mtr[-1] == ("F", "Rules Enforcement Levels of Programs")
    ipg = contents_entries(docs["ipg"].parsed)
    assert ("2.1", "Game Play Error — Missed Trigger") in ipg
    dm = contents_entries(docs["dm"].parsed)
    assert dm[0] == ("0", "はじめに") and dm[-1] == ("13", "ペナルティ一覧")
    assert ("8.1", "制限時間") in dm  # printed "8.1 - 制限時間"


def test_duel_masters_contents_disagree_only_where_the_publisher_slipped(docs):
    """The もくじ prints 10.5 with its category twice and calls 11.7 リミテッド手順抵触行為 where the
    body says ドラフト手順抵触行為; the body has 4.8 and a first 9.1 the もくじ lacks."""
    parsed = docs["dm"].parsed
    findings = check_contents(parsed)
    listed = [(f.entry.number, f.entry.title, f.body_title) for f in findings if f.entry is not None]
    assert listed == [
        ("10.5", "ゲーム上の誤り ─ ゲーム上の誤り ─ 過剰なシールドを置いた", "ゲーム上の誤り ─過剰なシールドを置いた"),
        ("11.7", "イベント上の誤り ─ リミテッド手順抵触行為", "イベント上の誤り ─ ドラフト手順抵触行為"),
    ]
    omitted = [(f.section, f.body_title) for f in findings if f.entry is None]
    assert omitted == [("4.8", "選択肢を持つ能力"), ("9.1", "デュエル・マスターズ・ペナルティガイドラインとは")]
    codes = [a.code for a in parsed.anomalies]
    assert codes.count("contents-title-differs") == 2 and codes.count("section-not-in-contents") == 2
    assert codes.count("duplicate-section-number") == 1
    slip = next(a for a in parsed.anomalies if a.code == "contents-title-differs")
    assert "ゲーム上の誤り ─ ゲーム上の誤り" in slip.message


@pytest.mark.parametrize("key", DOCUMENTS)
def test_contents_pages_are_residue_not_sections(docs, key):
    parsed = docs[key].parsed
    contents = [r for r in parsed.residue if r.kind == "contents"]
    assert contents
    assert not any(re.search(r"\.{5,}", s.text) for s in parsed.sections)


# --- page furniture ------------------------------------------------------------------------------


@pytest.mark.parametrize("key, pages", [("mtr", 55), ("ipg", 31)])
def test_page_numbers_are_reported_and_never_in_a_text(docs, key, pages):
    parsed = docs[key].parsed
    notes = [a for a in parsed.anomalies if a.code == "page-furniture"]
    printed = sorted(int(re.search(r"page (\d+):", a.message)[1]) for a in notes)
    assert printed == list(range(1, pages + 1))
    assert all(re.search(r"page (\d+): header, footer or page number '\1'", a.message) for a in notes)
    for s in parsed.sections:
        texts = [s.text, *(p.text for p in s.parts)]
        assert not any(re.fullmatch(r"\d{1,2}", line.strip()) for text in texts for line in text.split("\n"))


def test_the_duel_masters_pdf_prints_no_page_furniture(docs):
    """Nothing to report: no page of the PDF has a header, footer or page number (plain extraction)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(TOURNAMENT / DOCUMENTS["dm"][0])
    try:
        lines = [line for i in range(len(pdf)) for line in pdf[i].get_textpage().get_text_range().splitlines()]
    finally:
        pdf.close()
    assert len(lines) > 1000 and not [line for line in lines if re.fullmatch(r"\s*[0-9０-９]+\s*", line)]
    assert not [a for a in docs["dm"].parsed.anomalies if a.code == "page-furniture"]


# --- sections and parts: facts read in the PDFs -----------------------------------------------


def test_ipg_missed_trigger(docs):
    missed = section(docs["ipg"].parsed, "2.1")
    assert (missed.title, missed.category, missed.name) == (
        "Game Play Error — Missed Trigger", "Game Play Error", "Missed Trigger")
    assert missed.penalty == "No Penalty" and missed.document == "ipg" and missed.game == "mtg"
    assert [p.label for p in missed.parts] == ["penalty", "definition", "examples", "philosophy",
                                               "additional-remedy", "upgrade"]
    penalty, definition, examples = missed.parts[:3]
    assert penalty.text == "No Penalty"
    assert docs["ipg"].parsed.text[slice(*penalty.spans[0])] == "No Penalty"  # printed on the heading line
    assert definition.heading == "Definition"
    assert definition.text.startswith("A triggered ability triggers, but the player controlling the ability "
                                      "doesn’t demonstrate awareness of the trigger’s existence")
    assert examples.text.split("\n")[0].startswith("A. Knight of Infamy (a 2/1 creature with exalted)")
    assert [line[:2] for line in examples.text.split("\n")] == ["A.", "B.", "C.", "D."]
    assert missed.parts[-1].text.startswith("If the triggered ability is usually considered detrimental")


@pytest.mark.parametrize("number, title, penalty", [
    ("2.3", "Game Play Error — Hidden Card Error", "Warning"),
    ("3.1", "Tournament Error — Tardiness", "Game Loss"),
    ("3.2", "Tournament Error — Outside Assistance", "Match Loss"),
    ("4.8", "Unsporting Conduct — Cheating", "Disqualification"),
])
def test_ipg_infraction_penalties(docs, number, title, penalty):
    infraction = section(docs["ipg"].parsed, number)
    assert (infraction.title, infraction.penalty) == (title, penalty)


def test_ipg_unnumbered_parts(docs):
    parsed = docs["ipg"].parsed
    assert [(s.number, s.title, s.numbered) for s in parsed.sections[:3]] == [
        ("0", "INTRODUCTION", False), ("0.1", "FRAMEWORK OF THIS DOCUMENT", False), ("1", "GENERAL PHILOSOPHY", True)]
    penalties = section(parsed, "1.1")
    assert [p.heading for p in penalties.parts] == ["Warning", "Game Loss", "Match Loss", "Disqualification"]
    assert penalties.penalty is None
    assert [(s.number, s.title) for s in parsed.sections[-2:]] == [
        ("A", "PENALTY QUICK REFERENCE"), ("B", "CHANGES FROM PREVIOUS VERSIONS")]


def test_mtr_sections(docs):
    parsed = docs["mtr"].parsed
    assert section(parsed, "3.10").title == "Card Shuffling"
    assert section(parsed, "1.10").title == "Players"
    # 3.8 stands at the top of page 18 after a full last line on page 17: a heading all the same
    assert section(parsed, "3.8").title == "Game Markers"
    assert section(parsed, "3.8").text.startswith("Small items (e.g., glass beads) may be used as markers")
    assert not section(parsed, "3.7").text.endswith("3.8 Game Markers")
    # the numbered lists inside 2.3 and 3.1 are text, not sections
    assert "4. Opponents’ game-win percentage" in section(parsed, "3.1").text
    assert [p.heading for p in section(parsed, "B").parts] == [
        "Booster Draft Timing", "Rochester Draft Timing", "Two-Headed Giant Draft Timing"]
    assert section(parsed, "0").title == "Introduction" and not section(parsed, "0").numbered
    assert [p.heading for p in section(parsed, "C").parts] == [
        "Match Points", "Game Points", "Match-win percentage", "Game-win percentage",
        "Opponents’ match-win percentage", "Opponents’ game-win percentages", "Byes"]
    # the last row of appendix F's table stands over the colophon, not over a sentence of its own
    assert section(parsed, "F").parts == [] and section(parsed, "F").text.endswith("World Championship Professional")
    colophon = [r.text for r in parsed.residue if r.kind == "colophon"]
    assert colophon[0].startswith("All trademarks are property of Wizards of the Coast LLC")
    assert not [s for s in parsed.sections if "All trademarks" in s.text or "©" in s.text]


def test_a_paragraph_cut_by_a_page_break_is_one_paragraph(docs):
    remedy = next(p for p in section(docs["ipg"].parsed, "2.3").parts if p.label == "additional-remedy")
    assert "return them to the set that was being selected from; the player then reperforms" in remedy.text


def test_duel_masters_infractions(docs):
    parsed = docs["dm"].parsed
    drew = section(parsed, "10.3")
    assert (drew.title, drew.category, drew.name, drew.penalty) == (
        "ゲーム上の誤り ─ 過剰なカードを引いた", "ゲーム上の誤り", "過剰なカードを引いた", "警告")
    assert [(p.label, p.heading) for p in drew.parts] == [
        ("penalty", "ペナルティ："), ("definition", "定義："), ("philosophy", "理念："),
        ("additional-remedy", "追加措置：")]
    definition = drew.parts[1].text
    assert definition.startswith("プレイヤーが不正に１枚またはそれ以上のカードを手札に入れ、")
    assert "〔その他一般のゲームルール抵触行為〕" in definition  # printed as 〔そ / の他… across a wrap
    missed = section(parsed, "10.1")
    assert (missed.penalty, missed.parts[0].text) == ("警告", "【警告】*")
    assert section(parsed, "10.7").penalty == "注意"
    assert section(parsed, "12.2").penalty == "マッチの敗北"
    assert section(parsed, "12.8").penalty == "失格"
    shields = section(parsed, "10.5")
    assert (shields.category, shields.name) == ("ゲーム上の誤り", "過剰なシールドを置いた")


def test_duel_masters_outline(docs):
    parsed = docs["dm"].parsed
    assert (parsed.sections[0].number, parsed.sections[0].title) == ("0", "はじめに")
    assert section(parsed, "8.1").title == "制限時間" and section(parsed, "8.3").title.startswith("スイス式")
    assert [s.title for s in parsed.sections if s.number == "9.1"] == [
        "デュエル・マスターズ・ペナルティガイドラインとは", "一般理念"]
    assert [p.heading for p in section(parsed, "9.2").parts] == [
        "【注意】", "【警告】", "【ゲームの敗北】", "【マッチの敗北】", "【失格】"]
    loops = section(parsed, "4.5").text.split("\n")
    assert loops[1:3] == ["1．単独のプレイヤーによる任意のループ", "2．ルール上強制的に継続するループ"]
    assert section(parsed, "13").text.split("\n")[0] == "ゲーム上の誤り 誘発忘れ 警告*"


# --- cross-references ---------------------------------------------------------------------------


def test_citations(docs):
    mtr, ipg, dm = (docs[k].parsed for k in ("mtr", "ipg", "dm"))
    assert section(mtr, "9.4").cites[:2] == [("section", "9.3"), ("cr", "103.4c")]
    assert ("cr", "103.4") in section(mtr, "2.3").cites and ("cr", "") not in section(mtr, "2.3").cites
    assert ("cr", "") in section(mtr, "0").cites
    assert ("mtr", "4.3") in section(ipg, "2.1").cites
    assert ("mtr", "5.2") in section(ipg, "4.4").cites and ("mtr", "4") in section(ipg, "3.7").cites
    assert section(ipg, "0.1").cites == [("section", "1"), ("section", "2"), ("section", "3"), ("section", "4"),
                                         ("mtr", "")]  # "See the Magic Tournament Rules for further definitions"
    assert ("infraction", name_key("Game Play Error — Game Rule Violation")) in section(ipg, "2.1").cites
    assert ("cr", "") in section(ipg, "2").cites
    assert ("infraction", name_key("〔非紳士的行為 ― 故意の違反〕")) in section(dm, "10.1").cites
    assert ("section", "4") in section(dm, "11.8").cites  # 〔意思疎通〕(4)


def test_infraction_citations_resolve(docs):
    ipg, dm = docs["ipg"].parsed, docs["dm"].parsed
    assert find_infraction(dm.sections, name_key("ゲーム上の誤り ─ 過剰なシールドを置いた")).number == "10.5"
    assert find_infraction(dm.sections, name_key("過剰なカードを引いた")).number == "10.3"
    assert find_infraction(dm.sections, name_key("〔非紳士的行為〕")).number == "12"
    assert find_infraction(dm.sections, name_key("故意の違反")).number == "12.8"
    assert find_infraction(ipg.sections, name_key("Unsporting Conduct — Cheating")).number == "4.8"
    unresolved = sorted({a.message.split("infraction ")[1].split(",")[0] for a in dm.anomalies
                         if a.code == "unresolved-citation"})
    assert unresolved == ["'買収行為'", "'過剰のカードを引いた'"]  # the writer's own words, not a heading's
    assert not [a for a in ipg.anomalies if a.code == "unresolved-citation"]


def test_names_fold_separators_spaces_width_and_case():
    assert name_key("ゲーム上の誤り ─過剰なシールドを置いた") == name_key("ゲーム上の誤り ─ 過剰なシールドを置いた")
    assert name_key("〔非紳士的行為 ― 故意の違反〕") == name_key("非紳士的行為 ─ 故意の違反")
    assert name_key("Unsporting Conduct — Cheating") == name_key("unsporting conduct—cheating")
    assert name_key("デッキ／リストの問題") == name_key("デッキ/リストの問題")
    assert name_key("Game Loss") != name_key("Match Loss")
    assert normalise_penalty("【警告】*") == "警告" and normalise_penalty("no penalty") == "No Penalty"
    assert normalise_penalty("Upgrade") is None


# --- formats ----------------------------------------------------------------------------------


@pytest.mark.parametrize("key", DOCUMENTS)
def test_each_document_is_recognised_as_its_own_format(docs, key):
    scores = score_formats(docs[key].decoded.text)
    assert scores[0] == (90, DOCUMENTS[key][1]) and scores[1][0] < 40


@pytest.mark.parametrize("key", DOCUMENTS)
def test_records_are_json(docs, key):
    records = [s.to_record() for s in docs[key].parsed.sections]
    text = json.dumps(records, ensure_ascii=False)
    assert json.loads(text)[0]["version"] == DOCUMENTS[key][4]


@pytest.mark.parametrize("text, document, expected", [
    # sentences as the PDFs print them
    ("(Rules on mulligans can be found in the Magic Comprehensive Rules, rule 103.4).", "mtr", [("cr", "103.4")]),
    ("General Definitions and Philosophy (section 1), and Infractions (sections 2-4).", "ipg",
     [("section", "1"), ("section", "2"), ("section", "3"), ("section", "4")]),
    ("Refer to section 5.2 of the Magic Tournament Rules for a more detailed", "ipg", [("mtr", "5.2")]),
    ("See the Magic Tournament Rules for further definitions of terms", "ipg", [("mtr", "")]),
    ("the Infraction Procedure Guide and the Magic Tournament Rules", "mtr", [("ipg", "")]),
    ("The Out-of-Order Sequencing rules (MTR section 4.3) may also be applicable", "ipg", [("mtr", "4.3")]),
    ("Doing so will be considered Bribery (see section 5.2).", "mtr", [("section", "5.2")]),
    ("violations of the Magic Comprehensive Rules. Many offenses", "ipg", [("cr", "")]),
    ("この違反は、〔非紳士的行為 ― 故意の違反〕に該当する。総合ゲームルールに", "competition",
     [("infraction", name_key("非紳士的行為 ─ 故意の違反")), ("cr", "")]),
    ("the penalty is 0.33 is used. April 11, 2025 3 cards 5 seconds", "mtr", []),
])
def test_find_cites(text, document, expected):
    from rules_kb.sources.tournament.cites import find_cites

    game = "dm" if document == "competition" else "mtg"
    assert find_cites(text, document=document, game=game, names={}) == expected
