"""Query-side tokens without Sudachi: the one algorithm that ``site/assets/search.js`` mirrors.

The index is cut with Sudachi at build time; a browser has no Sudachi, and the CLI should not
load its dictionary for every query. So the build also emits a *vocabulary*: every Japanese
surface Sudachi produced, with the normalized form it stood for and an integer cost (rarer
surfaces cost more). A query is folded character by character (NFKC, lower case), cut into
Japanese runs and other runs; a Japanese run is segmented by the cheapest path through the
vocabulary (dynamic programming on integers, so Python and JavaScript agree exactly), other
runs by the English word pattern of ``rules_kb.tokens``. Every step here has a line-for-line
twin in the JavaScript; ``tests/test_search_browser.py`` checks both give the same tokens.
The patterns and numbers both steps use are not written twice: ``browser_grammar`` hands these
very objects to the page (in the index's ``meta.json``), spelt for JavaScript by ``rules_kb.jsregex``.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from rules_kb.jsregex import export_pattern
from rules_kb.numbers import RULE_NUMBER
from rules_kb.tokens import ENGLISH_TOKEN

# Characters segmented with the vocabulary: kana, the long vowel mark, CJK ideographs, 々〆ヵヶ.
JAPANESE_CHAR = re.compile(
    r"[\u3041-\u309f\u30a0-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3005\u3006]")
WORD_CHAR = re.compile(r"[^\W_]")  # a letter or a number: what makes a token a word (str.isalnum)
RUN_TOGETHER = re.compile(r"([0-9]{3})([0-9]{1,3})([a-z]?)\.?")  # 5072a: 507.2a typed without its point
CITES = re.compile(r"^cites:\s*(\S+)$")
QUOTES_FOLDED = "\u2018\u2019"  # folded to "'", as rules_kb.tokens folds English words
QUOTES = str.maketrans(dict.fromkeys(QUOTES_FOLDED, "'"))
UNKNOWN_COST = 1000  # a character no vocabulary entry covers
MAX_SURFACE = 16  # longest vocabulary surface tried, in characters
SNIPPET_BEFORE = 40  # characters of context before the first highlighted word
SNIPPET_LENGTH = 160
NEAREST_EDITS, NEAREST_COUNT = 3, 5  # an empty result offers up to this many words this close
WHOLE_MAX = 8  # texts of at most this many words are also indexed whole ("=deathtouch")
# Words a question is phrased with ("who taps the blocking creature", "can a creature ..."):
# they still form pairs with their neighbours, but match nothing alone and are never highlighted.
STOP_WORD_SPELLINGS = (
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "how", "i", "if", "in",
    "is", "it", "its", "many", "much", "of", "on", "or", "that", "the", "this", "to", "what", "when", "where",
    "which", "who", "why", "will", "with",
    # Japanese question words, as Sudachi normalizes them (なに is 何): デッキは何枚で組む asks
    # about デッキ and 枚, not about the texts that say 何.
    "何", "誰", "いつ", "どこ", "どう", "どの", "どちら", "どれ")
PLAIN_ENDINGS = ("ss", "us", "is", "'s")  # words ending so are not plurals (pass, status, this, player's)
# Negations the rules print both ways ("doesn't use the stack", "does not use the stack"): a word
# with this ending, or one of these words, is the term "not", so either spelling meets the other.
NEGATION_ENDING, NEGATION_WORDS, NEGATION_TERM = "n't", ("cannot",), "not"
# A middle dot or a hyphen joins the parts of one name (Ｗ・ブレイカー, ニンジャ・ストライク,
# turn-based): it is no break between two terms, so Wブレイカー typed without it meets the printed name.
JOINERS = ("\u30fb", "-")
FORM_WEIGHT = (3, 5)  # another inflection of a query word weighs 3/5 of its weight (integers: Python = JavaScript)
SYNONYM_WEIGHT = (2, 5)  # a word Sudachi's dictionary calls a synonym (順番: 順序) weighs 2/5
WHOLE_WEIGHT = (1, 1)  # the word as typed
NAME_WEIGHT = (1, 2)  # one content word of a longer question, asked as a name (``name_terms``)


def english_term(word: str) -> str:
    """A folded English word's term: a plural or third person ``-s`` taken off, nothing more.

    ``mulligans`` meets ``mulligan`` and ``declares`` meets ``declare``, while ``blocker`` and
    ``blocked`` stay apart from ``block`` (no stemming beyond the final ``s``; the index's word
    families join inflections at query time). A negation, ``doesn't`` or ``cannot``, is ``not``.
    """
    if word.endswith(NEGATION_ENDING) or word in NEGATION_WORDS:
        return NEGATION_TERM
    if len(word) < 4 or not word.isalpha() or not word.isascii() or word.endswith(PLAIN_ENDINGS):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("s"):
        return word[:-1]
    return word


# As terms: "does" is the term "doe" (english_term takes a final -s off), and must stay a stop word.
STOP_WORDS = frozenset(english_term(word) for word in STOP_WORD_SPELLINGS)


@dataclass(frozen=True, slots=True)
class QueryToken:
    """One token of folded text: ``start``/``end`` index the *original* text's code points."""

    surface: str
    term: str
    start: int
    end: int
    word: bool


def fold(text: str) -> tuple[str, list[int]]:
    """NFKC, lower case and ASCII apostrophes, one code point at a time, with each folded character's origin.

    Per character (not per string) so that offsets map back to the original text for
    highlighting, and so that JavaScript's ``normalize`` sees the same inputs.
    """
    out: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(text):
        folded = _fold_char(char)
        out.append(folded)
        origin.extend([index] * len(folded))
    return "".join(out), origin


@lru_cache(maxsize=8192)
def _fold_char(char: str) -> str:
    """One character folded: the same few thousand characters recur in every snippet."""
    return unicodedata.normalize("NFKC", char).lower().translate(QUOTES)


def is_word(surface: str) -> bool:
    return WORD_CHAR.search(surface) is not None


def segment(text: str, vocabulary: dict[str, list]) -> list[QueryToken]:
    """Tokens of ``text`` (query or rule text) with their terms; punctuation tokens have ``word`` False."""
    folded, origin = fold(text)
    origin.append(len(text))
    tokens: list[QueryToken] = []
    position = 0
    while position < len(folded):
        japanese = bool(JAPANESE_CHAR.match(folded, position))
        end = position
        while end < len(folded) and bool(JAPANESE_CHAR.match(folded, end)) == japanese:
            end += 1
        pieces = _segment_japanese(folded[position:end], vocabulary) if japanese else _segment_other(
            folded[position:end])
        for start, stop, term in pieces:
            surface = folded[position + start:position + stop]
            tokens.append(QueryToken(surface, term, origin[position + start], origin[position + stop],
                                     is_word(surface)))
        position = end
    return tokens


def _segment_other(run: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), english_term(m.group())) for m in ENGLISH_TOKEN.finditer(run)
            if not m.group().isspace()]


def _segment_japanese(run: str, vocabulary: dict[str, list]) -> list[tuple[int, int, str]]:
    """Cheapest cut of ``run`` into vocabulary surfaces; ties go to the longer last token."""
    size = len(run)
    best = [0] + [-1] * size
    back = [0] * (size + 1)
    for end in range(1, size + 1):
        for length in range(min(MAX_SURFACE, end), 0, -1):
            start = end - length
            entry = vocabulary.get(run[start:end])
            if entry is None:
                if length != 1:
                    continue
                cost = UNKNOWN_COST
            else:
                cost = entry[1]
            total = best[start] + cost
            if best[end] < 0 or total < best[end]:
                best[end] = total
                back[end] = start
    cuts = []
    end = size
    while end > 0:
        cuts.append((back[end], end))
        end = back[end]
    out = []
    for start, end in reversed(cuts):
        surface = run[start:end]
        entry = vocabulary.get(surface)
        out.append((start, end, entry[0] if entry is not None and entry[0] else surface))
    return out


def rule_number(text: str) -> str | None:
    """The canonical rule number when ``text`` is one (any width, trailing period), else None."""
    folded, _ = fold(text.strip())
    match = RULE_NUMBER.fullmatch(folded)
    if match is None:
        return None
    section, rule, letter = match.groups()
    if rule is None:
        return section
    return f"{section}.{int(rule)}{letter or ''}"


def run_together(text: str) -> str | None:
    """The rule number a run of digits may stand for (``5072a`` → ``507.2a``), else None."""
    folded, _ = fold(text.strip())
    match = RUN_TOGETHER.fullmatch(folded)
    if match is None:
        return None
    section, rule, letter = match.groups()
    return f"{section}.{int(rule)}{letter}"


def edit_distance(a: str, b: str, bound: int) -> int:
    """Edits (insert, delete, replace, swap two neighbours) from ``a`` to ``b``, or ``bound + 1``
    once it is sure to exceed ``bound``: ``secnod`` is one edit from ``second``."""
    if abs(len(a) - len(b)) > bound:
        return bound + 1
    before: list[int] = []
    previous = list(range(len(b) + 1))
    for i, char in enumerate(a, 1):
        current = [i]
        for j, other in enumerate(b, 1):
            cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char != other))
            if i > 1 and j > 1 and char == b[j - 2] and a[i - 2] == other:
                cost = min(cost, before[j - 2] + 1)
            current.append(cost)
        if min(current) > bound and (i == len(a) or min(previous) > bound):
            return bound + 1
        before, previous = previous, current
    return previous[-1]


def nearest_words(word: str, words: dict[str, int], bound: int, count: int) -> list[str]:
    """Up to ``count`` words within ``bound`` edits of ``word``: nearest first, then commonest, then by code point."""
    scored = []
    for candidate, frequency in words.items():
        distance = edit_distance(word, candidate, bound)
        if distance <= bound and candidate != word:
            scored.append((distance, -frequency, candidate))
    return [candidate for _, _, candidate in sorted(scored)[:count]]


def typo_bound(word: str) -> int:
    """Edits a mistyped English word may be away from the word meant: none under 4 letters."""
    size = len(word)
    return 0 if size < 4 or not word.isascii() or not word.isalpha() else 1 if size < 7 else 2


def is_content(term: str) -> bool:
    """Whether a term counts as a word of the query matched: not a particle or an ending
    (に, た, れる: at most two hiragana), which every Japanese text has."""
    return not (len(term) <= 2 and all("\u3041" <= char <= "\u309f" for char in term))


def is_function_word(term: str) -> bool:
    """A question word or a particle: what a text is phrased with, not what it is about."""
    return term in STOP_WORDS or not is_content(term)


def whole_term(words: list[str]) -> str | None:
    """The term standing for a whole short text: its content words in order behind ``=``, so that
    a question about a name (ゾーンとは何か, what is the initiative) meets the heading it names."""
    content: list[str] = []
    for word in words:
        if not is_function_word(word):
            content.append(word)
            if len(content) > WHOLE_MAX:  # a rule's text: read no further (the index asks of every text)
                return None
    return "=" + " ".join(content) if content else None


def name_terms(tokens: list[QueryToken]) -> list[str]:
    """Each content word of a question of several, asked as a name: ``=event`` for *what counts as an
    event* meets the rule whose text or title is that name (700.1: "Anything that happens in a game
    is an event."), which the question's other words do not name. A question of one content word is
    already asked as that name (``whole_term``)."""
    content = list(dict.fromkeys(token.term for token in tokens if token.word and not is_function_word(token.term)))
    return [f"={word}" for word in content] if len(content) > 1 else []


def adjacent_pairs(terms: list[str]) -> list[str]:
    """Each two terms that follow one another; "" (punctuation) breaks them. Function words are kept
    in pairs: *the stack*, カードを and を引く say more together than apart."""
    return [f"{a} {b}" for a, b in itertools.pairwise(terms) if a and b]


def pair_sequence(tokens: list[QueryToken]) -> list[str]:
    """The word terms of ``tokens`` in order, "" where punctuation breaks them (a joiner does not)."""
    return [token.term if token.word else "" for token in tokens if token.word or token.surface not in JOINERS]


def query_terms(tokens: list[QueryToken]) -> tuple[list[str], list[str]]:
    """Distinct word terms (function words left out unless the query is nothing else: they match
    only in pairs); adjacent pairs (never across punctuation, a joiner is none) and the whole-text term."""
    words = [token.term for token in tokens if token.word]
    whole = whole_term(words)
    alone = all(is_function_word(word) for word in words)  # a query of nothing else searches them
    terms = list(dict.fromkeys(word for word in words if alone or not is_function_word(word)))
    pairs = list(dict.fromkeys(adjacent_pairs(pair_sequence(tokens))))
    return terms, pairs + ([whole] if whole else [])


def browser_grammar() -> dict:
    """The patterns and numbers ``search.js`` cuts and reads a query with: the very objects this
    module and ``query`` use (``query`` takes its numbers from here; rule numbers come from
    ``rules_kb.numbers``, English words from ``rules_kb.tokens``), so the page and the CLI cannot
    drift apart."""
    return {
        "patterns": {
            "japaneseChar": export_pattern(JAPANESE_CHAR.pattern, JAPANESE_CHAR.flags & ~re.U, unicode=True),
            "englishToken": export_pattern(ENGLISH_TOKEN.pattern, ENGLISH_TOKEN.flags & ~re.U, unicode=True,
                                           every=True),
            "wordChar": export_pattern(WORD_CHAR.pattern, WORD_CHAR.flags & ~re.U, unicode=True),
            "ruleNumber": export_pattern(RULE_NUMBER.pattern, RULE_NUMBER.flags & ~re.U, whole=True),
            "runTogether": export_pattern(RUN_TOGETHER.pattern, RUN_TOGETHER.flags & ~re.U, whole=True),
            "cites": export_pattern(CITES.pattern, CITES.flags & ~re.U),
        },
        "quotes": sorted(QUOTES_FOLDED),
        "plainEndings": list(PLAIN_ENDINGS),
        "formWeight": list(FORM_WEIGHT),
        "synonymWeight": list(SYNONYM_WEIGHT),
        "nameWeight": list(NAME_WEIGHT),
        "joiners": list(JOINERS),
        "negation": {"ending": NEGATION_ENDING, "words": list(NEGATION_WORDS), "term": NEGATION_TERM},
        "unknownCost": UNKNOWN_COST,
        "maxSurface": MAX_SURFACE,
        "wholeMax": WHOLE_MAX,
        "nearestEdits": NEAREST_EDITS,
        "nearestCount": NEAREST_COUNT,
        "snippetBefore": SNIPPET_BEFORE,
        "snippetLength": SNIPPET_LENGTH,
    }
