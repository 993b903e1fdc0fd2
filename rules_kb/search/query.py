"""Answer a query from the index files: the ranking ``site/assets/search.js`` repeats step for step.

1. A query that is a rule number (any width, trailing period, or run together: ``5072a``)
   lists the rules with that number first, in every game and language held (current ones
   first), then the rules that once had it, then what the text search finds.
2. ``cites:603.2e`` lists the texts citing the rule.
3. Otherwise the query is segmented (``segment.py``) into word terms (an English word no text
   holds corrected to the nearest one that does), adjacent pairs and the whole-text term;
   a query word also finds the other inflections the texts print (``forms.json``: casting finds
   cast at 3/5 of the weight; a pair the same, one side inflected) and, in Japanese, the words
   Sudachi's dictionary calls its synonyms (``synonyms.json``: 順番 finds 順序 at 2/5), a
   document taking the best of a word's variants; in a question of several content words, each
   of them is also asked as a name (``=event``: a text or title that is that word) at 1/2 of the
   weight, so the rule defining a word the question uses comes forward (what counts as an event:
   700.1 "Anything that happens in a game is an event."); each document scores the sum of its integer
   weights times the square of the number of distinct query words it holds (a text with every
   word beats one that repeats a few), halved for a wording that is no longer its rule's newest
   and halved for a rule gone from its game's newest version. A group (rule lineage) takes its
   best document's score and shows, of its documents scoring at least half of that, the current
   one, else the latest collected. Ties keep the index order (game, language, number).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from rules_kb.search.segment import (
    CITES,
    FORM_WEIGHT,
    NAME_WEIGHT,
    NEAREST_COUNT,
    NEAREST_EDITS,
    SNIPPET_BEFORE,
    SNIPPET_LENGTH,
    SYNONYM_WEIGHT,
    WHOLE_WEIGHT,
    QueryToken,
    is_content,
    name_terms,
    nearest_words,
    query_terms,
    rule_number,
    run_together,
    segment,
    typo_bound,
)

INDEX_DIR = "search-index"  # the index folder, in the site and in the CLI's cache


@dataclass
class Hit:
    """One result: a rule, the version shown first and the older versions offered."""

    game: str
    lang: str
    number: str
    version: str
    url: str
    rule_url: str
    snippet: list[tuple[str, bool]]
    also: list[tuple[str, str]] = field(default_factory=list)
    score: int = 0
    was: list[tuple[str, str]] = field(default_factory=list)  # (old number, first version of the next one)

    def to_record(self) -> dict:
        return {"game": self.game, "lang": self.lang, "number": self.number, "version": self.version,
                "url": self.url, "rule_url": self.rule_url, "score": self.score,
                "was": [[number, until] for number, until in self.was],
                "snippet": [[text, marked] for text, marked in self.snippet],
                "also": [[label, url] for label, url in self.also]}


class SearchIndex:
    """The index files of one folder, each read at most once and only when a query needs it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._shards: dict[str, dict] = {}

    def _load(self, name: str) -> dict:
        if name not in self._shards:
            self._shards[name] = self._read(name)
        return self._shards[name]

    def _read(self, name: str):
        return json.loads((self.folder / name).read_text(encoding="utf-8"))

    @cached_property
    def meta(self) -> dict:
        return self._load("meta.json")

    @cached_property
    def vocabulary(self) -> dict[str, list]:
        return self._load("vocab.json")

    @cached_property
    def words(self) -> dict[str, int]:
        return self._load("words.json")

    @cached_property
    def forms(self) -> dict[str, list[str]]:
        return self._load("forms.json")

    @cached_property
    def synonyms(self) -> dict[str, list[str]]:
        return self._load("synonyms.json")

    def postings(self, term: str) -> list[int]:
        return self._load(f"p/{shard_of(term, self.meta['shards']):03d}.json").get(term, [])

    def group_record(self, group: int) -> tuple[dict, dict]:
        shard = self._load(f"g/{group // self.meta['groupsPerShard']:03d}.json")
        return shard["groups"][group % self.meta["groupsPerShard"]], shard["texts"]

    def tokens(self, text: str) -> list[QueryToken]:
        return segment(text, self.vocabulary)


def shard_of(term: str, shard_count: int) -> int:
    """FNV-1a (32 bit) over the term's code points, modulo the shard count (``search.js`` twin). A
    name term is filed with the word or pair it names (``=event`` with ``event``): asking a question's
    words as names fetches no shard more."""
    value = 0x811C9DC5
    for char in term.removeprefix("="):
        value ^= ord(char)
        value = (value * 0x01000193) & 0xFFFFFFFF
    return value % shard_count


@dataclass
class Answer:
    """The hits and what the search says about the query: a number it read otherwise, a word it
    corrected, the nearest terms when nothing was found."""

    hits: list[Hit]
    notes: list[str] = field(default_factory=list)


def search(index: SearchIndex, query: str, *, game: str | None = None, lang: str | None = None,
           version: str | None = None, limit: int = 10) -> list[Hit]:
    """The ranked hits for ``query`` (see the module doc), at most ``limit``."""
    return answer(index, query, game=game, lang=lang, version=version, limit=limit).hits


def answer(index: SearchIndex, query: str, *, game: str | None = None, lang: str | None = None,
           version: str | None = None, limit: int = 10) -> Answer:
    """The ranked hits for ``query`` and the notes on how it was read."""
    meta = index.meta
    allowed = [(g == game or game is None) and (lg == lang or lang is None) for g, lg in meta["languages"]]
    query = query.strip()
    cites = CITES.match(query)
    number = rule_number(query)
    notes: list[str] = []
    if number is None and (guess := run_together(query)) is not None and _held(meta, guess, allowed):
        number = guess
        notes.append(f"did you mean {guess}? showing it")
    scores: dict[int, int] = {}
    terms: list[str] = []
    if cites:
        cited = rule_number(cites.group(1))
        if cited is not None:
            _accumulate(index, [f"cites:{cited}"], scores)
    else:
        tokens = _corrected(index, index.tokens(query), notes)
        terms, pairs = query_terms(tokens)
        matched: dict[int, int] = {}
        for term in terms + pairs:
            best = _best_of_forms(index, variants(term, index.forms, index.synonyms))
            for doc_id, weight in best.items():
                scores[doc_id] = scores.get(doc_id, 0) + weight
                if term in terms and is_content(term):
                    matched[doc_id] = matched.get(doc_id, 0) + 1
        for name in name_terms(tokens):  # a word of the question that is a text's name: at NAME_WEIGHT
            for doc_id, weight in _best_of_forms(index, [(name, NAME_WEIGHT)]).items():
                scores[doc_id] = scores.get(doc_id, 0) + weight
        scores = {doc_id: raw * matched.get(doc_id, 1) ** 2 for doc_id, raw in scores.items()}
    if version is not None:  # the CLI's --version: only wordings printed in that version count
        scores = {d: s for d, s in scores.items() if allowed[meta["groupLanguage"][meta["docGroup"][d]]]
                  and _printed_in(index, d, version)}
    ranked = _rank_groups(meta, scores, allowed)
    order = list(ranked)
    if number is not None:
        exact = [g for g, n in enumerate(meta["groupNumber"]) if n == number]
        exact = sorted(exact, key=lambda g: -meta["groupCurrent"][g]) + meta["formerNumbers"].get(number, [])
        exact = [g for g in dict.fromkeys(exact) if allowed[meta["groupLanguage"][g]]]
        first = set(exact)
        order = exact + [g for g in order if g not in first]
    hits: list[Hit] = []
    marked = marked_terms(index, terms)
    for group in order:
        if len(hits) >= limit:
            break
        score, doc_id = ranked.get(group, (0, None))
        hit = _hit(index, group, doc_id, score, marked, version)
        if hit is not None:
            hits.append(hit)
    if not hits and limit > 0 and not cites:
        common = [term for term in terms if term in meta["stopWords"]]
        offered = _nearest_terms(index, [term for term in terms if term not in common])
        if common:
            notes.append(f"too common to search for alone: {', '.join(common)}")
        if offered:
            notes.append("nothing found; nearest terms: " + ", ".join(offered))
    return Answer(hits, notes)


def _held(meta: dict, number: str, allowed: list[bool]) -> bool:
    """Whether a rule of the languages searched has or had ``number`` (``5072a`` is 507.2a only
    where a searched game has a 507.2a)."""
    groups = [g for g, n in enumerate(meta["groupNumber"]) if n == number] + meta["formerNumbers"].get(number, [])
    return any(allowed[meta["groupLanguage"][g]] for g in groups)


def _corrected(index: SearchIndex, tokens: list[QueryToken], notes: list[str]) -> list[QueryToken]:
    """Tokens with each English word that no text holds replaced by the nearest word that one does."""
    out = []
    for token in tokens:
        bound = typo_bound(token.term)
        if token.word and bound and token.term not in index.meta["stopWords"] and not index.postings(token.term):
            nearest = nearest_words(token.term, index.words, bound, 1)
            if nearest:
                notes.append(f"no text has {token.surface!r}; showing {nearest[0]!r}")
                token = replace(token, term=nearest[0])
        out.append(token)
    return out


def _nearest_terms(index: SearchIndex, terms: list[str]) -> list[str]:
    """Words of the vocabulary (English words, Japanese surfaces; no stop word, no single
    character) nearest the query's terms."""
    offered: list[str] = []
    japanese = {surface: 1 for surface in index.vocabulary}
    for term in terms:
        words = index.words if term.isascii() else japanese
        for word in nearest_words(term, words, NEAREST_EDITS, 2 * NEAREST_COUNT):
            if word not in offered and len(word) > 1 and word not in index.meta["stopWords"]:
                offered.append(word)
    return offered[:NEAREST_COUNT]


def _printed_in(index: SearchIndex, doc_id: int, version: str) -> bool:
    record, _ = index.group_record(index.meta["docGroup"][doc_id])
    return any(label == version and doc == doc_id for label, _, doc in record["versions"])


def variants(term: str, forms: dict[str, list[str]],
             synonyms: dict[str, list[str]]) -> list[tuple[str, tuple[int, int]]]:
    """(term, share of its weight) for a query term, its inflections (``FORM_WEIGHT``) and its
    synonyms (``SYNONYM_WEIGHT``): a pair with either side replaced (never both); the whole-text
    term as typed."""
    if term.startswith("="):
        return [(term, WHOLE_WEIGHT)]

    def others(word: str) -> list[tuple[str, tuple[int, int]]]:
        return ([(form, FORM_WEIGHT) for form in forms.get(word, [])]
                + [(synonym, SYNONYM_WEIGHT) for synonym in synonyms.get(word, [])])

    if " " not in term:
        return [(term, WHOLE_WEIGHT), *others(term)]
    first, second = term.split(" ", 1)
    return ([(term, WHOLE_WEIGHT)] + [(f"{form} {second}", share) for form, share in others(first)]
            + [(f"{first} {form}", share) for form, share in others(second)])


def _best_of_forms(index: SearchIndex, options: list[tuple[str, tuple[int, int]]]) -> dict[int, int]:
    """Each document's best weight over a term's variants, each taken at its share."""
    best: dict[int, int] = {}
    for term, (share, whole) in options:
        flat = index.postings(term)
        doc_id = 0
        for position in range(0, len(flat), 2):
            doc_id += flat[position]
            weight = flat[position + 1] * share // whole
            if weight > best.get(doc_id, 0):
                best[doc_id] = weight
    return best


def _accumulate(index: SearchIndex, terms: list[str], scores: dict[int, int]) -> None:
    """Add each term's weights to the documents holding it."""
    for term in terms:
        flat = index.postings(term)
        doc_id = 0
        for position in range(0, len(flat), 2):
            doc_id += flat[position]
            scores[doc_id] = scores.get(doc_id, 0) + flat[position + 1]


def adjusted(meta: dict, doc_id: int, raw: int) -> int:
    """A document's score: four times its raw sum, halved for a wording that is no longer its rule's
    newest and halved for a rule gone from its game's newest version. An old wording still finds its
    rule (an old term, *in play*), but does not carry it past a rule whose words today answer the
    question (504.1's old wording spoke of priority; 504.2 does today)."""
    group = meta["docGroup"][doc_id]
    return raw * (2 if meta["docCurrent"][doc_id] else 1) * (2 if meta["groupCurrent"][group] else 1)


def _rank_groups(meta: dict, scores: dict[int, int], allowed: list[bool]) -> dict[int, tuple[int, int]]:
    """group → (score, document shown), best first (dicts keep the order)."""
    members: dict[int, list[tuple[int, int]]] = {}
    for doc_id, raw in scores.items():
        group = meta["docGroup"][doc_id]
        if allowed[meta["groupLanguage"][group]]:
            members.setdefault(group, []).append((doc_id, adjusted(meta, doc_id, raw)))
    ranked = {}
    for group, docs in members.items():
        top = max(value for _, value in docs)
        good = [d for d, value in docs if 2 * value >= top]
        ranked[group] = (top, max(good, key=lambda d: (meta["docCurrent"][d], d)))
    return dict(sorted(ranked.items(), key=lambda item: (-item[1][0], item[0])))


def _hit(index: SearchIndex, group: int, doc_id: int | None, score: int, terms: set[str],
         version: str | None) -> Hit | None:
    meta = index.meta
    record, texts = index.group_record(group)
    versions = record["versions"]
    if version is not None:
        versions = [v for v in versions if v[0] == version]
        if not versions:
            return None
        doc_id = versions[0][2] if doc_id is None or all(v[2] != doc_id for v in versions) else doc_id
    if doc_id is None:
        doc_id = versions[0][2]
    shown = next(v for v in versions if v[2] == doc_id)
    game, lang = meta["languages"][meta["groupLanguage"][group]]
    text = texts[str(doc_id)]
    number = meta["groupNumber"][group] if version is None else record.get("old", {}).get(str(doc_id),
                                                                                        meta["groupNumber"][group])
    return Hit(game, lang, number, shown[0], shown[1], record["rule"],
               snippet(index, text, terms), [(label, url) for label, url, _ in record["versions"] if label != shown[0]],
               score, [(old, until) for old, until in record.get("was", [])])


def marked_terms(index: SearchIndex, terms: list[str]) -> set[str]:
    """The words a snippet highlights: the query's, and the inflections and synonyms that found the
    text (使用 in 507.1a for a question asking 使う: the reader sees why it came first)."""
    return {name for term in terms for name, _ in variants(term, index.forms, index.synonyms)}


def snippet(index: SearchIndex, text: str, terms: set[str]) -> list[tuple[str, bool]]:
    """A window of ``text`` around the first matching word, as (text, highlighted) pieces."""
    chars = list(text)
    marks = [t for t in index.tokens(text) if t.word and t.term in terms and not _trivial(t.surface)]
    start = max(0, marks[0].start - SNIPPET_BEFORE) if marks else 0
    end = min(len(chars), start + SNIPPET_LENGTH)
    pieces: list[tuple[str, bool]] = []
    if start > 0:
        pieces.append(("…", False))
    position = start
    for mark in marks:
        if mark.start < position or mark.end > end:
            continue
        if mark.start > position:
            pieces.append(("".join(chars[position:mark.start]), False))
        pieces.append(("".join(chars[mark.start:mark.end]), True))
        position = mark.end
    if end > position:
        pieces.append(("".join(chars[position:end]), False))
    if end < len(chars):
        pieces.append(("…", False))
    return pieces


def _trivial(surface: str) -> bool:
    """One kana (particles, endings): matched for ranking, not worth a highlight."""
    return len(surface) == 1 and "\u3041" <= surface <= "\u30ff"
