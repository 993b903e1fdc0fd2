"""Tokenizing: Sudachi mode A for Japanese, word tokens for English, offsets into the text."""

from itertools import pairwise

import pytest
from conftest import CORPUS

from rules_kb.ingest.decode import decode_document
from rules_kb.tokens import SUDACHI_MAX_BYTES, normalize_for_search, split_for_sudachi, token_forms, tokenize


def corpus_text(name: str) -> str:
    return decode_document((CORPUS / name).read_bytes(), name).text


def surfaces(text: str, lang: str) -> list[str]:
    return [t.surface for t in tokenize(text, lang)]


def test_japanese_rule_sentence_in_mode_a():
    # The first example under 507.1a in the 2021-09-07 change notice.
    sentence = "ブロッカーを持つタップ状態のクリーチャーを、能力を使用するクリーチャーとして選ぶことはできません。"
    assert sentence in corpus_text("seeds/001_875977f70958757f.txt")
    assert surfaces(sentence, "ja") == [
        "ブロッカー", "を", "持つ", "タップ", "状態", "の", "クリーチャー", "を", "、", "能力", "を",
        "使用", "する", "クリーチャー", "と", "し", "て", "選ぶ", "こと", "は", "でき", "ませ", "ん", "。",
    ]


def test_japanese_normalized_forms_join_spelling_variants():
    player, variant = tokenize("非ターン・プレイヤー", "ja")[-1], tokenize("非ターン・プレーヤー", "ja")[-1]
    assert (player.surface, variant.surface) == ("プレイヤー", "プレーヤー")
    assert player.normalized == variant.normalized == "プレーヤー"
    # Ver.1.48 writes digits full-width (１つずつ); the change notice writes 1つずつ.
    assert tokenize("１つずつ", "ja")[0].normalized == tokenize("1つずつ", "ja")[0].normalized == "1"
    assert [t.normalized for t in tokenize("すべて選びます", "ja")][:2] == ["全て", "選ぶ"]


def test_latin_words_in_japanese_text_are_folded_not_katakana():
    tokens = tokenize("ＧＲゾーンのnon-active", "ja")
    assert [(t.surface, t.normalized) for t in tokens if t.surface.isascii() or t.surface == "ＧＲ"] == [
        ("ＧＲ", "gr"), ("non", "non"), ("-", "-"), ("active", "active")
    ]


def test_whitespace_is_never_a_token_and_offsets_point_into_the_text():
    text = corpus_text("seeds/000_4db7e39e89e37720.txt")
    for lang in ("ja", "en"):
        tokens = tokenize(text, lang)
        assert all(text[t.start : t.end] == t.surface and t.surface.strip() == t.surface for t in tokens)
        assert all(a.end <= b.start for a, b in pairwise(tokens))
        assert "".join(t.surface for t in tokens) == "".join(text.split())


def test_whole_rulebook_over_sudachis_input_limit():
    text = corpus_text("dm/official-rule-text/dm_rule-ja-v1.48.md")
    assert len(text.encode("utf-8")) > 3 * SUDACHI_MAX_BYTES  # 199,119 bytes
    chunks = split_for_sudachi(text)
    assert "".join(chunk for _, chunk in chunks) == text
    assert all(len(chunk.encode("utf-8")) <= SUDACHI_MAX_BYTES for _, chunk in chunks)
    assert all(chunk.endswith("\n") for _, chunk in chunks[:-1])  # cut at line ends
    tokens = tokenize(text, "ja")
    assert all(text[t.start : t.end] == t.surface for t in tokens)
    assert "".join(t.surface for t in tokens) == "".join(text.split())
    # Tokens around the first cut are those of the chunk tokenized alone, shifted.
    second_offset, second = chunks[1]
    alone = [(t.surface, t.start + second_offset) for t in tokenize(second, "ja")]
    assert [(t.surface, t.start) for t in tokens if second_offset <= t.start < second_offset + len(second)] == alone


def test_unbroken_text_over_the_limit_is_cut_anywhere():
    text = "あ" * 20_000  # 60,000 bytes, no line end, no sentence end, no space
    chunks = split_for_sudachi(text)
    assert [len(chunk) for _, chunk in chunks] == [16_383, 3_617]
    assert "".join(t.surface for t in tokenize(text, "ja")) == text


def test_english_words_and_punctuation():
    # 507.1 of the English Duel Masters 1.38 (seed 000).
    sentence = "507.1. The non-active player specifies a blocking creature."
    assert sentence in corpus_text("seeds/000_4db7e39e89e37720.txt")
    assert surfaces(sentence, "en") == [
        "507.1", ".", "The", "non", "-", "active", "player", "specifies", "a", "blocking", "creature", ".",
    ]


def test_english_apostrophes_quotes_and_rule_references():
    text = "It can’t block unless the condition is met. See rules 509.1a–c, players' hands."
    assert surfaces(text, "en") == [
        "It", "can’t", "block", "unless", "the", "condition", "is", "met", ".", "See", "rules", "509.1a", "–",
        "c", ",", "players", "'", "hands", ".",
    ]
    assert tokenize(text, "en")[1].normalized == "can't"
    assert tokenize(text, "en")[0].normalized == "it"


def test_english_underscored_italics_of_the_2008_rules():
    heading = "103. The _Magic_ Golden Rules"
    assert heading in corpus_text("mtg/CR-2008-10-01.txt")
    assert surfaces(heading, "en") == ["103", ".", "The", "_", "Magic", "_", "Golden", "Rules"]


def test_normalize_for_search_drops_punctuation_and_folds():
    assert normalize_for_search("The Non-Active player’s creature.", "en") == "the non active player's creature"
    # Inflections share the lemma (a search for ブロックした must find ブロックされた).
    assert normalize_for_search("ブロックした", "ja") == "ブロック 為る た"
    assert normalize_for_search("ブロックされた", "ja") == "ブロック 為る れる た"
    assert normalize_for_search("非ターン・プレイヤー", "ja") == normalize_for_search("非ターン・プレーヤー", "ja")


def test_unknown_language_is_refused():
    with pytest.raises(ValueError, match="no tokenizer"):
        tokenize("text", "fr")


@pytest.mark.parametrize(("name", "lang"), [("mtg/CR-2024-11-08.txt", "en"),
                                            ("dm/official-rule-text/dm_rule-ja-v1.48.md", "ja")])
def test_the_search_index_reads_the_tokens_tokenize_cuts(name, lang):
    """``token_forms`` (the index's reader, strings only) gives each token's surface and normalized
    form in ``tokenize``'s order, a whole rulebook through."""
    text = corpus_text(name)
    forms = token_forms(text, lang)
    assert forms == [(t.surface, t.normalized) for t in tokenize(text, lang)]
    assert len(forms) > 10_000
