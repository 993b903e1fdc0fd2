"""Token diffs of real rule texts: what changed, whether it matters, and how it renders.

Rule texts are cut straight from the corpus files (line found by its number, bullet and
number removed, hard-wrapped lines rejoined as each source requires), so that these tests
do not depend on any parser.
"""

import html
import re
from itertools import pairwise

import pytest
from conftest import CORPUS

from rules_kb.compare.diff import diff_tokens
from rules_kb.compare.editorial import is_typo
from rules_kb.ingest.decode import decode_document
from rules_kb.render.diffmarkup import render_html, render_terminal

FANDOM_120 = "dm/fandom-excerpts/Block_Declaration_Step__GGR-v1.20.txt"
SEED_000, SEED_001, SEED_002, SEED_004 = (
    "seeds/000_4db7e39e89e37720.txt",
    "seeds/001_875977f70958757f.txt",
    "seeds/002_e6076c1372c6c682.txt",
    "seeds/004_9e840b7733df29ed.txt",
)
DM_148 = "dm/official-rule-text/dm_rule-ja-v1.48.md"


def corpus_text(name: str) -> str:
    return decode_document((CORPUS / name).read_bytes(), name).text


def line_rule(name: str, number: str, occurrence: int = 0) -> str:
    """The text of a one-line rule: after its bullet (``-``, ``•``) and number."""
    pattern = rf"^[\s•\-]*{re.escape(number)}\.? (.*)$"
    return re.findall(pattern, corpus_text(name), re.M)[occurrence].strip()


def wrapped_rule_148(number: str) -> str:
    """A rule of the Ver.1.48 body: Japanese hard-wrapped lines rejoin with no space."""
    text = corpus_text(DM_148)
    start = text.index(f"\n{number} ", text.index("\n506.3e"))  # the body, not the contents
    lines: list[str] = []
    for line in text[start + 1 :].split("\n"):
        if lines and (re.match(r"\d{3}\.", line) or line.startswith("例")):
            break
        lines.append(line.rstrip())
    return "".join(lines)[len(number) + 1 :]


def magic_309_2a_2007() -> str:
    """Seed 004's 2007/10/01 paragraph of 309.2a, its wrapped lines rejoined with spaces."""
    text = corpus_text(SEED_004)
    paragraph = text[text.index("- 309.2a - For each") : text.index("[CompRules 2007/10/01]\n- 309.2b")]
    return " ".join(paragraph.removeprefix("- 309.2a - ").split())


def assert_round_trip(diff) -> None:
    assert diff.old_text() == diff.old and diff.new_text() == diff.new
    rendered = render_html(diff)
    without_ins = re.sub(r"<ins>.*?</ins>", "", rendered, flags=re.S).replace("<del>", "").replace("</del>", "")
    without_del = re.sub(r"<del>.*?</del>", "", rendered, flags=re.S).replace("<ins>", "").replace("</ins>", "")
    assert html.unescape(without_ins) == diff.old
    assert html.unescape(without_del) == diff.new


def test_typo_fixed_between_english_120_and_138_is_editorial():
    old, new = line_rule(FANDOM_120, "507.1b"), line_rule(SEED_000, "507.1b")
    assert old.startswith("The chosen creature becomes a blocking creatue. It remains")
    diff = diff_tokens(old, new, "en")
    assert diff.classification == "editorial"
    assert diff.editorial_changes == [("creatue", "creature", "typo")]
    terminal = render_terminal(diff, color=False)
    assert terminal.startswith("The chosen creature becomes a blocking [-creatue-]{+creature+}.")
    assert 0.9 < diff.similarity < 1
    assert_round_trip(diff)


def test_nonactive_to_non_active_is_editorial():
    old, new = line_rule(FANDOM_120, "507.1"), line_rule(SEED_000, "507.1")
    assert (old, new) == (
        "The nonactive player specifies a blocking creature.",
        "The non-active player specifies a blocking creature.",
    )
    diff = diff_tokens(old, new, "en")
    assert diff.classification == "editorial"
    assert diff.editorial_changes == [("nonactive", "non-active", "hyphenation")]
    assert render_html(diff) == "The <del>nonactive</del><ins>non-active</ins> player specifies a blocking creature."


def test_english_507_1a_retouch_is_contractions_and_which_to_that():
    diff = diff_tokens(line_rule(FANDOM_120, "507.1a"), line_rule(SEED_000, "507.1a"), "en")
    assert diff.editorial_changes == [
        ("nonactive", "non-active", "hyphenation"),
        ("is not", "isn't", "contraction"),
        ("which", "that", "relative-pronoun"),
        ("cannot", "can't", "contraction"),
    ]
    assert diff.classification == "editorial"


def test_which_to_another_word_stays_substantive():
    diff = diff_tokens("block creature which cannot be blocked", "block creature each cannot be blocked", "en")
    assert diff.classification == "substantive"


def test_japanese_spelling_variant_is_editorial():
    old = line_rule(SEED_001, "507.1")
    assert old == "非ターン・プレイヤーは、攻撃先を変更する能力を使用するクリーチャーを選びます。"
    diff = diff_tokens(old, old.replace("プレイヤー", "プレーヤー"), "ja")
    assert diff.classification == "editorial"
    assert diff.editorial_changes == [("プレイヤー", "プレーヤー", "spelling")]


def test_japanese_inflection_change_is_not_spelling():
    # Same lemma (選ぶ), other inflection: grammar, not orthography.
    diff = diff_tokens("選んで", "選びて", "ja")
    assert diff.classification == "substantive"


def test_notice_2021_and_ver_148_differ_only_in_character_width():
    # 001 writes 1つずつ and (ガードマン等); the Ver.1.48 rulebook writes １つずつ and （ガードマン等）.
    diff = diff_tokens(line_rule(SEED_001, "507.2"), wrapped_rule_148("507.2."), "ja")
    assert diff.classification == "editorial"
    assert diff.editorial_changes == [("1", "１", "width")]
    diff = diff_tokens(line_rule(SEED_001, "507.2b"), wrapped_rule_148("507.2b."), "ja")
    assert diff.editorial_changes == [("(", "（", "width"), (")", "）", "width")]
    assert diff_tokens(line_rule(SEED_001, "507.2a"), wrapped_rule_148("507.2a."), "ja").classification == "unchanged"


def test_half_width_punctuation_in_seed_002_is_editorial():
    # 506.2c repeats 506.3c (merged into the 506.3a line) with ", " and "." for 、 and 。.
    old = line_rule(SEED_002, "506.2c")
    new = re.search(r":::506\.3c(.*?):::", corpus_text(SEED_002)).group(1)
    assert (old, new) == ("その後, ターン・プレイヤーの待機状態の効果を好きな順番で処理します.",
                          "その後、ターン・プレイヤーの待機状態の効果を好きな順番で処理します。")
    diff = diff_tokens(old, new, "ja")
    assert diff.classification == "editorial"
    assert diff.editorial_changes == [(",", "、", "punctuation"), (".", "。", "punctuation")]
    assert_round_trip(diff)


def test_card_name_put_in_brackets_is_editorial():
    # The example under 507.1b: 001 writes 小結 座美の花 where 000 writes 《小結 座美の花》.
    old, new = (re.search(r"例:(.*座美の花.*)$", corpus_text(name), re.M).group(1) for name in (SEED_001, SEED_000))
    diff = diff_tokens(old, new, "ja")
    assert diff.classification == "editorial"
    assert diff.editorial_changes == [("", "《", "punctuation"), ("", "》", "punctuation")]
    assert "相手の<ins>《</ins>小結 座美の花<ins>》</ins>が攻撃した場合" in render_html(diff)


def magic_rule(release: str, number: str) -> str:
    return line_rule(f"mtg/CR-{release}.txt", number)


def test_magic_typo_fixed_in_2009_05_01():
    diff = diff_tokens(magic_rule("2008-10-01", "509.1a"), magic_rule("2009-05-01", "509.1a"), "en")
    assert diff.editorial_changes == [("planewalkers", "planeswalkers", "typo")]
    assert diff.classification == "editorial"


def test_trademark_sign_swap_is_editorial():
    # 206.2: "the Time Spiral® “timeshifted” cards" (2022-11-18) / "Time Spiral™" (2024-11-08).
    diff = diff_tokens(magic_rule("2022-11-18", "206.2"), magic_rule("2024-11-08", "206.2"), "en")
    assert diff.classification == "editorial"
    assert diff.editorial_changes == [("®", "™", "punctuation")]


def test_question_mark_for_long_dash_in_2009_05_01_is_not_hidden():
    # 212.2c: "Artifact -- Equipment." (2008-10-01) / "Artifact ? Equipment." (2009-05-01).
    diff = diff_tokens(magic_rule("2008-10-01", "212.2c"), magic_rule("2009-05-01", "212.2c"), "en")
    assert diff.substantive_changes == [("--", "?")]
    assert diff.classification == "substantive"


def test_sign_of_a_counter_is_substantive():
    old = magic_rule("2024-11-08", "122.3")
    assert old.startswith("If a permanent has both a +1/+1 counter and a -1/-1 counter on it")
    diff = diff_tokens(old, old.replace("and a -1/-1 counter", "and a +1/+1 counter", 1), "en")
    assert diff.classification == "substantive"
    assert diff.substantive_changes == [("-", "+"), ("-", "+")]
    assert "and a <del>-</del><ins>+</ins>1/<del>-</del><ins>+</ins>1 counter" in render_html(diff)


def test_different_japanese_rules_are_substantive():
    diff = diff_tokens(line_rule(SEED_001, "507.2a"), line_rule(SEED_002, "506.3a", occurrence=1), "ja")
    assert diff.classification == "substantive"
    assert diff.similarity < 0.5
    assert_round_trip(diff)


def test_magic_309_2a_rewrite_shows_the_words_inserted_and_deleted():
    old = magic_309_2a_2007()
    new = line_rule("mtg/CR-2008-10-01.txt", "309.2a")
    assert old.startswith("For each untapped creature the defending player controls, that player either")
    diff = diff_tokens(old, new, "en")
    assert diff.classification == "substantive"
    rendered = render_html(diff)
    assert rendered.startswith(
        "<ins>The defending player chooses which creatures that he or she controls, if any, will block. "
        "The chosen creatures must be untapped. </ins>For each <del>untapped creature</del>"
        "<ins>of the chosen creatures,</ins> the defending player "
        "<del>controls, that player either chooses not to block with it, or </del>chooses one creature"
    )
    assert "(See <del>Rule</del><ins>rule</ins> 500, &quot;Legal Attacks and Blocks.&quot;)" in rendered
    assert ("Rule", "rule", "case") in diff.editorial_changes
    assert_round_trip(diff)


def test_html_escapes_hostile_text():
    diff = diff_tokens("Deal 2 & <b>win</b>", "Deal 3 & <b>win</b> <script>alert('x')</script>", "en")
    rendered = render_html(diff)
    assert "<script>" not in rendered and "<b>" not in rendered
    assert rendered == (
        "Deal <del>2</del><ins>3</ins> &amp; &lt;b&gt;win&lt;/b&gt;"
        "<ins> &lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;</ins>"
    )
    assert_round_trip(diff)


def test_terminal_rendering_with_and_without_colour():
    diff = diff_tokens("a blocking creatue", "a blocking creature", "en")
    assert render_terminal(diff, color=False) == "a blocking [-creatue-]{+creature+}"
    assert render_terminal(diff, color=True) == "a blocking \x1b[31mcreatue\x1b[0m\x1b[32mcreature\x1b[0m"


def test_whitespace_is_kept_and_whitespace_only_changes_are_editorial():
    diff = diff_tokens("The chosen  creature\nbecomes", "The chosen creature becomes ", "en")
    assert diff.classification == "editorial"
    assert {reason for _, _, reason in diff.editorial_changes} == {"whitespace"}
    assert_round_trip(diff)
    assert diff_tokens("same", "same", "en").classification == "unchanged"
    assert diff_tokens("", "", "ja").similarity == 1.0


@pytest.mark.parametrize(
    ("old", "new", "typo"),
    [
        ("creatue", "creature", True),
        ("blocked", "blocker", False),  # two forms of one stem
        ("creature", "creatures", False),
        ("attacks", "attacked", False),
        ("player", "layer", False),  # first letter differs
        ("may", "must", False),
    ],
)
def test_typo_or_other_word(old, new, typo):
    assert is_typo(old, new) is typo


def test_neighbouring_rules_of_ver_148_round_trip():
    body = corpus_text(DM_148).split("\n")[1200:1300]
    lines = [line.strip() for line in body if len(line.strip()) > 20]
    for old, new in pairwise(lines):
        assert_round_trip(diff_tokens(old, new, "ja"))


def test_2018_gender_neutral_pronouns_are_editorial():
    # 800.4b: "If a player would be controlled by a player who has left the game, he or she isn’t."
    # (2017-09-29) / "..., they aren’t." (2018-04-27); 801.14: "his or her" -> "that player’s".
    for number in ("800.4b", "800.5", "801.14", "807.4c"):
        diff = diff_tokens(magic_rule("2017-09-29", number), magic_rule("2018-04-27", number), "en")
        assert diff.classification == "editorial", number
        assert {reason for _, _, reason in diff.editorial_changes} == {"pronoun"}, number


def test_a_pronoun_change_with_another_verb_stays_substantive():
    text = "If a player would draw a card, he or she draws it face up."
    assert diff_tokens(text, text.replace("he or she draws", "they discard"), "en").classification == "substantive"
    assert diff_tokens(text, text.replace("he or she", "the opponent"), "en").classification == "substantive"


def test_a_list_reordered_is_editorial_and_a_list_changed_is_not():
    # 500.11 (2019-05-03) "between turns, phases, or steps" / 500.12 (2024-11-08) "steps, phases, or turns".
    old, new = magic_rule("2019-05-03", "500.11"), magic_rule("2024-11-08", "500.12")
    assert "between turns, phases, or steps" in old and "between steps, phases, or turns" in new
    diff = diff_tokens(old, new, "en")
    assert diff.classification == "editorial"
    assert {reason for _, _, reason in diff.editorial_changes} == {"list-order"}
    assert diff_tokens(old, old.replace("turns, phases, or steps", "phases or steps"), "en").classification \
        == "substantive"


def test_commentary_sentence_dropped_is_editorial():
    # 510.2 ends "... the time it’s dealt. This is a change from previous rules." in 2015-07-17 only.
    old, new = magic_rule("2015-07-17", "510.2"), magic_rule("2016-09-30", "510.2")
    assert old.endswith("This is a change from previous rules.") and not new.endswith("previous rules.")
    assert diff_tokens(old, new, "en").editorial_changes[-1][2] == "commentary"
    assert diff_tokens(old, new, "en").classification == "editorial"


def test_a_range_written_with_an_en_dash_is_editorial_but_a_minus_sign_is_not():
    # 506.6g: "Rules 506.6 and 506.6a-f apply" (2013-11-01) / "506.6a–f" (2014-09-26).
    diff = diff_tokens(magic_rule("2013-11-01", "506.6g"), magic_rule("2014-09-26", "506.6g"), "en")
    assert diff.classification == "editorial"
    assert diff_tokens("gets +1/+1", "gets -1/-1", "en").classification == "substantive"


def test_digits_and_number_words_are_editorial():
    assert diff_tokens("Alex controls 2 creatures.", "Alex controls two creatures.", "en").classification \
        == "editorial"
    assert diff_tokens("Alex controls 2 creatures.", "Alex controls three creatures.", "en").classification \
        == "substantive"


def test_a_diff_made_from_kept_tokens_is_the_diff_made_afresh():
    """Magic 104.3f from 2017-09-29 to 2018-04-27 ("he or she loses" / "that player loses") diffed
    with the text memories filled, then after ``forget_texts`` emptied them: the same ops,
    similarity and changes, and nothing kept after."""
    from rules_kb.compare.diff import _diff_changed, _memo, forget_texts
    from rules_kb.compare.similarity import word_set

    old = "If a player would both win and lose the game simultaneously, he or she loses the game."
    new = "If a player would both win and lose the game simultaneously, that player loses the game."
    word_set(old, "en")
    first = diff_tokens(old, new, "en")
    assert word_set.cache_info().currsize > 0
    forget_texts()
    assert word_set.cache_info().currsize == 0
    _memo.pop((old, new, "en"), None)  # the diff memory too, so the second diff is made again
    second = _diff_changed(old, new, "en")
    assert second is not first
    assert (second.ops, second.similarity, second.changes) == (first.ops, first.similarity, first.changes)
    assert [c.reason for c in second.changes] == ["pronoun"]


def test_the_compiled_matcher_gives_difflibs_opcodes_on_every_changed_text_of_two_histories(knowledge):
    """``cydifflib.SequenceMatcher`` stands in for difflib's (a third of the time): on the token lists
    of every pair of differing texts that a number holds in two consecutive versions of the subset,
    both languages, and on the words ``is_typo`` compares, it gives difflib's opcodes and ratio."""
    import difflib

    import cydifflib

    from rules_kb.tokens import tokenize

    catalog = knowledge.catalog
    pairs = []
    for game, lang in sorted({(g, lg) for g, lg, _ in catalog.versions}):
        last: dict = {}
        for label in catalog.version_labels(game, lang):
            for number, texts in catalog.rules_in(game, lang, label).items():
                text = texts[0].text
                if number in last and last[number] != text:
                    pairs.append((last[number], text, lang))
                last[number] = text
    assert len(pairs) > 1000 and {lang for _, _, lang in pairs} == {"en", "ja"}
    for old, new, lang in pairs:
        a, b = [t.surface for t in tokenize(old, lang)], [t.surface for t in tokenize(new, lang)]
        ours, theirs = cydifflib.SequenceMatcher(None, a, b, autojunk=False), difflib.SequenceMatcher(
            None, a, b, autojunk=False)
        assert (ours.get_opcodes(), ours.ratio()) == (theirs.get_opcodes(), theirs.ratio()), (old, new)
        for x, y in zip(a, b, strict=False):  # characters, as is_typo compares two words
            assert (cydifflib.SequenceMatcher(None, x, y, autojunk=False).ratio()
                    == difflib.SequenceMatcher(None, x, y, autojunk=False).ratio())
