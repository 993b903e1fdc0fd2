"""Search reads a question as a judge phrases it: question words and particles, a name written with
or without its middle dot, a question about a name, the inflections and old words the rules print."""

from __future__ import annotations

import search_support as support
from search_support import result_ids

from rules_kb.search import query
from rules_kb.search.documents import collect, defined_names, defining_subject
from rules_kb.search.query import search
from rules_kb.search.segment import name_terms, query_terms, segment

# The session's index (built once from the knowledge fixture), shared with the other search tests.
search_root = support.search_root
search_index = support.search_index


def ids(index, query, **filters) -> list[str]:
    return result_ids([h.to_record() for h in search(index, query, **filters)])


def read(index, query: str) -> tuple[list[str], list[str]]:
    return query_terms(segment(query, index.vocabulary))


def test_question_words_and_particles_match_only_in_pairs(search_index):
    terms, pairs = read(search_index, "デッキは何枚で組む")
    assert terms == ["デッキ", "枚", "組む"]  # 何 asks; は and で are particles
    assert "デッキ は" in pairs and "何 枚" in pairs
    # "does" is the term "doe" once its -s is taken off: still a stop word, matching no text saying "doe".
    assert read(search_index, "does a land have a mana cost")[0] == ["land", "have", "mana", "cost"]
    # 106.1: 「…における文明には、光、水、闇、火、自然の５種類があります」; 701.10b merely says 何.
    assert ids(search_index, "文明は何種類ありますか")[0] == "dm/ja/106.1"


def test_a_question_about_a_name_reads_the_name(search_index):
    """The whole-text term is the query's content words: "what is a token" is the term of a text
    or title that is "token", as ゾーンとは何か is ゾーン's."""
    assert read(search_index, "ゾーンとは何か")[1][-1] == "=ゾーン"
    assert read(search_index, "what is a token")[1][-1] == "=token"
    # 111.1 "Some effects put tokens onto the battlefield..." is the first rule of 111 Tokens.
    assert ids(search_index, "what is a token", game="mtg")[0] == "mtg/en/111.1"
    # 102.1 defines ターン・プレイヤー; before, 運営ルール 1.4 (a long section) came first.
    assert ids(search_index, "ターン・プレイヤーとは誰のこと")[0] == "dm/ja/102.1"


def test_a_word_of_a_longer_question_is_also_asked_as_a_name(search_index, monkeypatch):
    """Each content word of a question of several is also the name term of a text or title that is
    that word, at half its weight: the rule defining a word the question only uses comes forward."""
    tokens = segment("what counts as an event", search_index.vocabulary)
    assert name_terms(tokens) == ["=count", "=event"]
    assert name_terms(segment("what is a token", search_index.vocabulary)) == []  # "=token" is its whole term
    # 700.1 "Anything that happens in a game is an event." is named by the event: third in the
    # subset's index (615.7 and 712.21e use both words), where without the name terms it is not in
    # the first ten, behind the rules that use "event" and "count" more often (mtr:E, 305.4, 614.17b…).
    asked = ids(search_index, "what counts as an event", game="mtg")
    monkeypatch.setattr(query, "name_terms", lambda tokens: [])
    unnamed = ids(search_index, "what counts as an event", game="mtg")
    assert asked.index("mtg/en/700.1") == 2 and "mtg/en/700.1" not in unnamed


def test_a_rule_is_named_by_the_subject_its_first_sentence_defines(knowledge, search_index):
    """The texts below are each rule's as the subset's newest releases print it."""
    newest = (("dm", "ja", "1.48"), ("mtg", "en", "2024-11-08"))
    texts = {(r.game, str(r.number)): r.text for game, lang, label in newest
             for rules in knowledge.catalog.rules_in(game, lang, label).values() for r in rules}
    # 「ツインパクトカードは…新たなカードの種類です。」, 「能力とは、…ものです。」, "A player is one of the people…"
    assert defining_subject(texts[("dm", "810.1")], "ja") == "ツインパクトカード"
    assert defining_subject(texts[("dm", "110.1")], "ja") == "能力"
    assert defining_subject(texts[("mtg", "102.1")], "en") == "player"
    assert defining_subject(texts[("mtg", "800.1")], "en") == "multiplayer game"
    # what a subject does, not what it is: 「カードの文章が…ときは、カードの記述が優先されます。」
    assert defining_subject(texts[("dm", "101.1")], "ja") is None
    # 「ゲーム内で起こるあらゆることはイベントです。」 says what an event is, not what あらゆること is
    assert defining_subject(texts[("dm", "700.1")], "ja") is None
    # so the rule answers the question about its subject, before the rules that merely use the word
    assert ids(search_index, "ツインパクトカードとは")[0] == "dm/ja/810.1"
    assert ids(search_index, "能力とは")[0] == "dm/ja/110.1"


def test_a_rule_saying_what_everything_of_a_kind_is_is_named_by_it(knowledge, search_index):
    """「ゲーム内で起こるあらゆることはイベントです。」 and "Anything that happens in a game is an event."
    name what they define after the verb: the subject is everything, the name is the predicate."""
    newest = (("dm", "ja", "1.48"), ("mtg", "en", "2024-11-08"))
    texts = {(r.game, str(r.number)): r.text for game, lang, label in newest
             for rules in knowledge.catalog.rules_in(game, lang, label).values() for r in rules}
    assert defined_names(texts[("dm", "700.1")], "ja")[0] == "イベント"
    assert defined_names(texts[("mtg", "700.1")], "en")[0] == "event"
    assert defined_names(texts[("mtg", "205.4c")], "en")[0] == "basic land"  # "Any land with … is a basic land."
    # a defining subject stays the only name: 「非公開ゾーンとは、すべてのプレイヤーが…ゾーンのことです。」
    assert defined_names(texts[("dm", "400.2b")], "ja") == ["非公開ゾーン"]
    # what each player is in one variant is no definition: "Each player in this game is an archenemy."
    assert defined_names("Each player in this game is an archenemy.", "en") == []
    assert "dm/ja/700.1" in ids(search_index, "イベントとは")[:3]


def test_a_middle_dot_or_a_hyphen_joins_the_parts_of_a_name(search_index):
    # The rules print Ｗ・ブレイカー (509.2b) and S・トリガー; a judge types Wブレイカー.
    assert read(search_index, "Wブレイカー") == read(search_index, "W・ブレイカー")
    assert "w ブレーカー" in read(search_index, "Wブレイカー")[1]
    assert search_index.postings("w ブレーカー"), "the printed Ｗ・ブレイカー holds the pair"
    assert ids(search_index, "S・トリガーを宣言する")[0] == "dm/ja/509.5a"
    # 703.2 "Turn-based actions are not controlled by any player.": turn-based is one name, and
    # controlled is an inflection of control (a doubled l undone).
    assert "turn based" in read(search_index, "who controls turn-based actions")[1]
    assert "control" in search_index.forms["controlled"]
    assert ids(search_index, "who controls turn-based actions", game="mtg")[0] == "mtg/en/703.2"


def test_an_old_glossary_word_names_the_rules_of_the_entry_it_sends_to(knowledge):
    """"In Play (Obsolete): An obsolete term for the battlefield. … See Battlefield." cites no rule:
    it names the rules the Battlefield entry cites (403, the battlefield zone)."""
    groups, _, _ = collect(knowledge)
    battlefield = [g for g in groups if g.game == "mtg" and str(g.number) == "403" and g.current]
    assert battlefield and "Battlefield" in battlefield[0].terms
    assert any(term.startswith("In Play") for term in battlefield[0].terms)


def test_a_japanese_word_finds_its_synonyms_in_sudachis_dictionary(search_index):
    """507.1a (1.48): 「ブロッカーやガードマンなど、攻撃先を変更する能力を使用したい場合、…」: a judge asks
    with 使う, the rule prints 使用; Sudachi's dictionary puts both in one synonym group."""
    assert "使用" in search_index.synonyms["使う"] and "使う" in search_index.synonyms["使用"]
    assert "順序" in search_index.synonyms["順番"]
    assert all(word.isascii() is False for word in search_index.synonyms)  # Japanese words only
    first = search(search_index, "ブロッカーを使いたいとき")[0]
    assert (first.game, first.number) == ("dm", "507.1a")
    assert {text for text, marked in first.snippet if marked} == {"ブロッカー", "使用"}  # why it was found


def test_an_english_verb_finds_the_noun_made_from_it(search_index):
    """704.5f: "If a creature has toughness 0 or less, it's put into its owner's graveyard.
    Regeneration can't replace this event." A judge asks whether it can *regenerate*."""
    assert "regeneration" in search_index.forms["regenerate"]
    assert "reduce" in search_index.forms["reduction"]
    assert "mtg/en/704.5f" in ids(search_index, "creature with 0 toughness can it regenerate")[:3]


def test_an_old_wording_does_not_carry_its_rule_past_todays_answer(knowledge, search_index):
    """Duel Masters 505.2 (1.28): "…the active player can use their creatures to attack the
    non-active player or their tapped creatures." Magic's 508.1d spoke of tapped creatures in
    2009-07-08 and no longer does; that wording still finds 508.1d, at half weight, after the rule
    whose words answer today (before, at 90%, 508.1d came first)."""
    def text(number: str, label: str) -> str:
        return knowledge.catalog.rules_in("mtg", "en", label)[number][0].text

    [number] = [n for n in knowledge.catalog.rules_in("mtg", "en", "2024-11-08") if str(n) == "508.1d"]
    assert "tapped" in text(number, "2009-07-08").lower() and "tapped" not in text(number, "2024-11-08").lower()
    found = ids(search_index, "attack tapped creatures", limit=20)
    assert found[0] == "dm/en/505.2"
    # still found, eleventh: 508, which the glossary's "Attack" names, comes before it since each word
    # of a question is also asked as a name
    assert "mtg/en/508.1d" in found and "mtg/en/508" in found[:10]
