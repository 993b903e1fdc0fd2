"""Text to tokens: Sudachi (split mode A) for Japanese, word tokens for English.

One tokenizer serves the token diff and, later, the search index, so that a query is cut
exactly like the text it must match. Tokens keep their character offsets into the text they
came from: the diff rebuilds both texts from them, whitespace included. Whitespace is never
a token.

``normalized`` is what two spellings of one word share:

* Japanese: Sudachi's normalized form (プレイヤー and プレーヤー both give プレーヤー,
  すべて gives 全て, ５０７ gives 507). Tokens written in Latin letters (``GR``, ``S-MAX``)
  are folded like English words instead, because Sudachi maps some English words to
  katakana loan words (``non`` → ノン) and leaves others alone (``nonactive``).
* English: NFKC, typographic quotes folded to ASCII (’ → '), lowercased.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from sudachipy import Dictionary, Morpheme, Tokenizer

# Sudachi refuses one input longer than this many UTF-8 bytes.
SUDACHI_MAX_BYTES = 49_149

# Words: letters and digits, joined by apostrophes inside a word (it's, player’s) and by a
# period or comma between digits (rule numbers 509.1a, 1,000), so that a rule reference
# stays one token. Anything else that is not whitespace is a token of one character:
# "non-active" is non, -, active.
ENGLISH_TOKEN = re.compile(r"[^\W_]+(?:(?:['\u2018\u2019]|(?<=\d)[.,](?=\d))[^\W_]+)*|\S")
# Typographic quotes and their ASCII forms: tokens fold them, the diff names the change "quotes".
QUOTE_FOLD = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"'})
_LATIN_WORD = re.compile(r"[A-Za-z0-9'\-.,]+")
# Where a long text may be cut before Sudachi sees it, best first.
_CUT_POINTS = (re.compile(r"\n"), re.compile(r"[。．.!?！？]"), re.compile(r"\s"))


class Token(NamedTuple):
    """One token: ``surface`` is ``text[start:end]`` exactly.

    ``pos`` is Sudachi's part of speech, comma-joined, for Japanese (empty for English):
    the diff uses it to tell a spelling variant (same normalized form, same inflection)
    from a grammatical change (same normalized form, other inflection). A named tuple, not a
    frozen dataclass: a build makes millions of tokens, and a tuple is made several times faster.
    """

    surface: str
    normalized: str
    start: int
    end: int
    pos: str = ""

    @property
    def is_word(self) -> bool:
        """True when the token has a letter or a digit (punctuation tokens do not)."""
        return any(ch.isalnum() for ch in self.surface)


def tokenize(text: str, lang: str) -> list[Token]:
    """Cut ``text`` into tokens with offsets into ``text``; ``lang`` is ``ja`` or ``en``."""
    if lang == "ja":
        return _tokenize_japanese(text)
    if lang == "en":
        return _tokenize_english(text)
    raise ValueError(f"no tokenizer for language {lang!r} (expected 'ja' or 'en')")


def token_forms(text: str, lang: str) -> list[tuple[str, str]]:
    """(surface, normalized form) of each token ``tokenize`` cuts, without offsets: what the search
    index reads. An English text's tokens are most of an index's, and a pair of strings from
    ``findall`` costs a fraction of a ``Token`` from a match."""
    if lang == "en":
        return [(surface, fold_latin(surface)) for surface in ENGLISH_TOKEN.findall(text)]
    return [(token.surface, token.normalized) for token in tokenize(text, lang)]


def normalize_for_search(text: str, lang: str) -> str:
    """Space-joined normalized word tokens, for the search index and its queries.

    Punctuation tokens are left out: they carry nothing a reader searches for, and
    keeping them would make ``non-active`` and ``non active`` index differently.
    """
    return " ".join(token.normalized for token in tokenize(text, lang) if token.is_word)


def fold_latin(surface: str) -> str:
    """The normalized form of an English word: NFKC, ASCII quotes, lower case."""
    if surface.isascii():  # nearly every English token: NFKC and the quote fold change nothing
        return surface.lower()
    return unicodedata.normalize("NFKC", surface).translate(QUOTE_FOLD).lower()


def _tokenize_english(text: str) -> list[Token]:
    return [
        Token(match.group(), fold_latin(match.group()), match.start(), match.end())
        for match in ENGLISH_TOKEN.finditer(text)
    ]


# --- Japanese -----------------------------------------------------------------------------

_local = threading.local()
_POS_NAMES: dict[int, str] = {}  # one dictionary per process, so its ids are stable
_SPACE = re.compile(r"\s")
_HAS_LATIN = re.compile(r"[A-Za-zＡ-Ｚａ-ｚ]")


@cache
def _dictionary() -> Dictionary:
    """Load the Sudachi dictionary once per process; it is the expensive part."""
    from sudachipy import Dictionary

    return Dictionary()


def unload_dictionary() -> None:
    """Let this thread's tokenizer and the dictionary go: its file is mapped, and the ~160 MB of it a
    corpus's Japanese touches stay resident while it is held. A step that has made all its tokens
    calls this before its heavy part (the search index's postings, the snapshot's pickle); the next
    Japanese text loads the dictionary again (0.2 s), so a wrong call costs time, never output."""
    _local.tokenizer = None
    _dictionary.cache_clear()


def _sudachi() -> Tokenizer:
    """One mode-A tokenizer per thread: a Sudachi tokenizer may not be shared across threads."""
    tokenizer = getattr(_local, "tokenizer", None)
    if tokenizer is None:
        from sudachipy import SplitMode

        tokenizer = _dictionary().tokenizer(mode=SplitMode.A)
        _local.tokenizer = tokenizer
    return tokenizer


def _tokenize_japanese(text: str) -> list[Token]:
    tokenizer = _sudachi()
    tokens: list[Token] = []
    for offset, chunk in split_for_sudachi(text):
        for morpheme in tokenizer.tokenize(chunk):
            surface = morpheme.surface()
            if _SPACE.search(surface):  # Sudachi makes whitespace a morpheme of its own
                if not surface.isspace():
                    tokens.extend(_split_on_whitespace(surface, offset + morpheme.begin()))
                continue
            start = offset + morpheme.begin()
            normalized = morpheme.normalized_form()
            if _HAS_LATIN.search(surface):
                normalized = _japanese_normalized(surface, normalized)
            pos = _POS_NAMES.get(morpheme.part_of_speech_id()) or _pos_name(morpheme)
            tokens.append(Token(surface, normalized, start, start + len(surface), pos))
    return tokens


def synonym_groups(word: str) -> tuple[int, ...]:
    """The synonym groups Sudachi's dictionary puts a Japanese word in (its entries whose normalized
    form is ``word``): 順番 and 順序 share one, 使う and 使用 another. Empty for a word in none."""
    groups = {group for morpheme in _dictionary().lookup(word) if morpheme.normalized_form() == word
              for group in morpheme.synonym_group_ids()}
    return tuple(sorted(groups))


def _pos_name(morpheme: Morpheme) -> str:
    """The comma-joined part of speech, made once per part-of-speech id and kept."""
    name = _POS_NAMES[morpheme.part_of_speech_id()] = ",".join(morpheme.part_of_speech())
    return name


def _japanese_normalized(surface: str, normalized: str) -> str:
    """Sudachi's form, except for Latin words, which are folded like English (see module doc)."""
    if _LATIN_WORD.fullmatch(unicodedata.normalize("NFKC", surface)):
        return fold_latin(surface)
    return normalized


def _split_on_whitespace(surface: str, start: int) -> list[Token]:
    """A morpheme with whitespace inside (never seen, but whitespace is never a token)."""
    return [
        Token(m.group(), fold_latin(m.group()), start + m.start(), start + m.end())
        for m in re.finditer(r"\S+", surface)
    ]


def split_for_sudachi(text: str, limit: int = SUDACHI_MAX_BYTES) -> list[tuple[int, str]]:
    """Cut ``text`` into ``(offset, chunk)`` pieces of at most ``limit`` UTF-8 bytes.

    Cuts fall after a line end if the window has one, else after a sentence end, else at
    whitespace, else anywhere (a single unbroken run longer than the limit).
    """
    if len(text) * 4 <= limit or len(text.encode("utf-8")) <= limit:
        return [(0, text)]
    chunks: list[tuple[int, str]] = []
    position = 0
    while position < len(text):
        window = text[position : position + limit]
        window = window.encode("utf-8")[:limit].decode("utf-8", errors="ignore")
        if position + len(window) < len(text):
            window = window[: _last_cut(window)]
        chunks.append((position, window))
        position += len(window)
    return chunks


def _last_cut(window: str) -> int:
    """Length of the longest prefix of ``window`` that ends at a good cut point."""
    for pattern in _CUT_POINTS:
        ends = [m.end() for m in pattern.finditer(window)]
        if ends:
            return ends[-1]
    return len(window)
