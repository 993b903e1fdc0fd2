"""A glossary term or keyword ability asked for by name: ``show deathtouch``, ``show ブロッククリーチャー``.

Three sources answer, in this order: the glossaries the parsers read (Magic's, each release's),
the curated Duel Masters terms of ``corpus/terms.toml`` (the rule that defines each), and rules
whose heading is the name (Magic's keyword abilities, ``702.2. Deathtouch``; a section's title). Names match in any
case and width. Each answer carries its newest wording and the rules it points to, so a judge
reads the definition and the rules in one command.
"""

from __future__ import annotations

import difflib
import json
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rules_kb.games import GAMES, LANGS
from rules_kb.kb.ids import number_of, rule_id, term_id, term_of, term_prefix
from rules_kb.numbers import RuleNumber
from rules_kb.refs import find_references

if TYPE_CHECKING:
    from rules_kb.assemble.knowledge import Knowledge
    from rules_kb.model import RuleText


@dataclass(frozen=True)
class TermAnswer:
    """One name's entry in one game and language: its newest wording and the rules it points to."""

    source: str  # "glossary", "curated" or "keyword"
    game: str
    lang: str
    term: str
    definition: str
    version: str  # the newest version holding this wording ("" for a curated term: every version since `since`)
    document: str
    versions: tuple[str, ...] = ()  # every version whose glossary has the term, oldest first
    rules: tuple[str, ...] = ()  # rule numbers the definition points to, in order
    note: str = ""  # a curated term's evidence or translation
    texts: list[RuleText] = field(default_factory=list, compare=False)  # newest text of each rule pointed to

    def to_record(self) -> dict:
        return {"source": self.source, "game": self.game, "lang": self.lang, "term": self.term,
                "definition": self.definition, "version": self.version, "document": self.document,
                "versions": list(self.versions), "rules": list(self.rules), "note": self.note,
                "texts": [t.to_record() for t in self.texts]}


def fold_name(raw: str) -> str:
    """What two spellings of a name share: NFKC width, case folded, spaces collapsed, quotes dropped."""
    text = unicodedata.normalize("NFKC", raw).casefold().strip().strip("\"'「」『』")
    return " ".join(text.split())


def looks_like_name(raw: str) -> bool:
    """A name has a letter or a kana/kanji in it and is not a rule reference (``CR 509.1a`` is read earlier)."""
    return any(ch.isalpha() for ch in raw)


def find_terms(knowledge: Knowledge, raw: str, game: str | None = None, lang: str | None = None) -> list[TermAnswer]:
    """Every entry for the name ``raw``: glossary, curated, then keyword ability; newest wording each."""
    name = fold_name(raw)
    if not name:
        return []
    found = [*_glossary_entries(knowledge, name), *_curated_entries(knowledge, name)]
    # A glossary entry that points to its rule already shows it (older numbers too); one that cites no
    # rule (Sneak, 2026-02-27) leaves the keyword ability's rule to be shown.
    covered = {(a.game, a.lang) for a in found if a.rules}
    found += [a for a in _keyword_entries(knowledge, name) if (a.game, a.lang) not in covered]
    found = [a for a in found if (game is None or a.game == game) and (lang is None or a.lang == lang)]
    return [_with_texts(knowledge, a) for a in found]


def nearest_names(knowledge: Knowledge, raw: str, game: str | None = None, count: int = 5) -> list[str]:
    """Glossary, curated and rule-title names spelt most like ``raw``, for an error that says what to type.

    Spelling similarity alone misses Japanese names: ``ブロッカー`` shares only ``ブロッ`` with
    ``ブロッククリーチャー`` (a ratio of 0.53), so a name also scores by the longest run of
    characters it shares with ``raw``, as a share of ``raw``.
    """
    names = sorted({term for g, term in (*_all_names(knowledge), *_titles(knowledge)) if game is None or g == game})
    folded = {fold_name(n): n for n in names}
    wanted = fold_name(raw)
    scored = []
    for key, name in folded.items():
        matcher = difflib.SequenceMatcher(None, wanted, key)
        shared = matcher.find_longest_match(0, len(wanted), 0, len(key)).size
        score = max(matcher.ratio(), shared / len(wanted) if wanted and shared >= 2 else 0.0)
        if score >= 0.6:
            scored.append((-score, len(key), key, name))
    return [name for *_, name in sorted(scored)[:count]]


@dataclass(frozen=True)
class Wording:
    """One definition of a glossary term, with the consecutive versions that print it."""

    definition: str
    versions: tuple[str, ...]
    documents: tuple[str, ...]


@dataclass(frozen=True)
class TermHistory:
    """Every wording of a glossary term in one game and language, oldest first."""

    game: str
    lang: str
    term: str
    wordings: tuple[Wording, ...]

    def to_record(self) -> dict:
        return {"game": self.game, "lang": self.lang, "term": self.term,
                "wordings": [{"definition": w.definition, "versions": list(w.versions),
                              "documents": list(w.documents)} for w in self.wordings]}


def term_histories(knowledge: Knowledge, raw: str, game: str | None = None,
                   lang: str | None = None) -> list[TermHistory]:
    """``history deathtouch``: each wording of the glossary entry named ``raw``, consecutive versions
    with the same definition grouped (as a rule's history groups unchanged versions)."""
    name = fold_name(raw)
    grouped: dict[tuple[str, str, str], list[tuple]] = {}
    for row in _matching_term_rows(knowledge, name) if name else []:
        if (game is None or row[0] == game) and (lang is None or row[1] == lang):
            grouped.setdefault((row[0], row[1]), []).append(row)  # any case: one term (Deathtouch, deathtouch)
    out = []
    for (g, lg), rows in sorted(grouped.items()):
        order = {label: i for i, label in enumerate(knowledge.catalog.version_labels(g, lg))}
        rows.sort(key=lambda r: order.get(r[2], -1))
        runs: list[list[tuple]] = []
        for row in rows:
            if runs and " ".join(runs[-1][-1][4].split()) == " ".join(row[4].split()):
                runs[-1].append(row)
            else:
                runs.append([row])
        out.append(TermHistory(g, lg, rows[-1][3], tuple(
            Wording(run[-1][4], tuple(dict.fromkeys(r[2] for r in run)), tuple(dict.fromkeys(r[5] for r in run)))
            for run in runs)))
    return out


def glossary_entries(knowledge: Knowledge, game: str, lang: str, version: str) -> list[tuple[str, str]]:
    """(term, definition) of one version's glossary, in printed order (empty when it has none)."""
    store = getattr(knowledge, "store", None)
    if store is not None:
        return [(r[0], r[1]) for r in store.raw("SELECT term, definition FROM terms WHERE game=? AND lang=? AND "
                                                "version=? ORDER BY id", (game, lang, version))]
    return [(t.term, t.definition) for doc in knowledge.catalog.documents.values() for t in doc.terms
            if (t.game, t.lang, t.version) == (game, lang, version)]


# --- sources -------------------------------------------------------------------------------------


def _term_rows(knowledge: Knowledge) -> list[tuple[str, str, str, str, str, str]]:
    """(game, lang, version, term, definition, document) of every glossary entry."""
    store = getattr(knowledge, "store", None)
    if store is not None:
        return [row[1:7] for row in store.rows("SELECT * FROM terms ORDER BY id")]  # digests cover every column
    return [(t.game, t.lang, t.version, t.term, t.definition, doc.meta.id)
            for doc in knowledge.catalog.documents.values() for t in doc.terms]


def _matching_term_rows(knowledge: Knowledge, name: str) -> list[tuple]:
    store = getattr(knowledge, "store", None)
    if store is not None:  # the index on term COLLATE NOCASE answers ASCII case (the glossary's); never a scan
        candidates = [row[1:7] for row in store.rows("SELECT * FROM terms WHERE term = ? COLLATE NOCASE ORDER BY id",
                                                     (name,))]
        return [r for r in candidates if fold_name(r[3]) == name]
    return [r for r in _term_rows(knowledge) if fold_name(r[3]) == name]


def _glossary_entries(knowledge: Knowledge, name: str) -> list[TermAnswer]:
    catalog = knowledge.catalog
    grouped: dict[tuple[str, str, str], list[tuple]] = {}
    for row in _matching_term_rows(knowledge, name):
        grouped.setdefault((row[0], row[1], row[3]), []).append(row)
    out = []
    for (game, lang, term), rows in sorted(grouped.items()):
        order = {label: i for i, label in enumerate(catalog.version_labels(game, lang))}
        rows.sort(key=lambda r: order.get(r[2], -1))
        _, _, version, _, definition, document = rows[-1]
        out.append(TermAnswer("glossary", game, lang, term, definition, version, document,
                              tuple(dict.fromkeys(r[2] for r in rows)), _pointed_to(knowledge, game, lang, version,
                                                                                       definition)))
    return out


def _curated_entries(knowledge: Knowledge, name: str) -> list[TermAnswer]:
    out = []
    for game in GAMES:
        for lang in LANGS:
            for candidate in _curated_names(knowledge, game, lang, name):
                for source, _, data in knowledge.graph.in_edges(term_id(game, lang, candidate), data=True):
                    if data.get("kind") != "defines" or "evidence" not in data:
                        continue
                    number = number_of(source)
                    note = f"{data.get('translation', '')}; since {data.get('since', '?')}; {data['evidence']}"
                    out.append(TermAnswer("curated", game, lang, candidate, "", "", "corpus/terms.toml",
                                          rules=(number,), note=note.strip("; ")))
    return out


def _curated_names(knowledge: Knowledge, game: str, lang: str, name: str) -> list[str]:
    """Curated names of one game and language that fold to ``name`` (few: read from the term nodes)."""
    return [term for g, term in _all_names(knowledge, curated_only=True, key=(game, lang)) if fold_name(term) == name
            and g == game]


def _all_names(knowledge: Knowledge, curated_only: bool = False, key: tuple[str, str] | None = None
               ) -> list[tuple[str, str]]:
    """(game, name) of glossary terms and curated term nodes."""
    store = getattr(knowledge, "store", None)
    out: list[tuple[str, str]] = []
    if store is not None:
        prefix = term_prefix(*key) if key else term_prefix()
        ids = store.values("SELECT id FROM nodes WHERE id >= ? AND id < ?", (prefix, prefix + "\U0010ffff"))
        out.extend((term_of(i)[0], term_of(i)[2]) for i in ids)
        if not curated_only:
            out.extend(store.raw("SELECT DISTINCT game, term FROM terms"))
        return out
    graph = knowledge.graph
    for _, data in graph.nodes(data=True):
        if data.get("kind") == "term" and (key is None or (data["game"], data["lang"]) == key):
            out.append((data["game"], data["term"]))
    return out


def _titles(knowledge: Knowledge) -> list[tuple[str, str]]:
    """(game, title) of every rule heading (``Deathtouch``, ``ブロッククリーチャー指定ステップ``)."""
    store = getattr(knowledge, "store", None)
    if store is not None:
        return store.raw("SELECT DISTINCT game, title FROM rule_texts WHERE title IS NOT NULL AND title != ''")
    return sorted({(t.game, t.title) for t in knowledge.catalog.all_texts() if t.title})


def _keyword_entries(knowledge: Knowledge, name: str) -> list[TermAnswer]:
    """Rules whose title is the name (``702.2. Deathtouch``): the newest text, and the rules under it."""
    store = getattr(knowledge, "store", None)
    if store is not None:
        rows = store.raw("SELECT DISTINCT game, lang, number, title FROM rule_texts WHERE title = ? COLLATE NOCASE",
                         (name,))
        rows += store.raw("SELECT DISTINCT game, lang, number, text FROM rule_texts "
                          "WHERE length(text) < 60 AND text = ? COLLATE NOCASE", (name,))  # the partial index
        hits = sorted({(g, lg, n) for g, lg, n, heading in rows if fold_name(heading or "") == name})
    else:
        hits = sorted({(t.game, t.lang, str(t.number)) for t in knowledge.catalog.all_texts()
                       if fold_name(t.title or "") == name or (len(t.text) < 60 and fold_name(t.text) == name)})
    out = []
    for game, lang, number in hits:
        parsed = RuleNumber.parse(number)
        newest = _newest_text(knowledge, game, lang, parsed)
        if newest is None:
            continue
        heading = newest.title or newest.text
        out.append(TermAnswer("keyword", game, lang, heading, "", newest.version,
                              newest.document, rules=(number,)))
    return out


def _children(knowledge: Knowledge, text: RuleText) -> list[RuleText]:
    """The subrules of a rule in the same version (``702.2a``-``f`` under the heading ``702.2. Deathtouch``)."""
    edges = knowledge.graph.out_edges(rule_id(text.game, text.number), data=True)
    numbers = sorted(RuleNumber.parse(target.rsplit(":", 1)[1]) for _, target, data in edges
                     if data.get("kind") == "contains")
    found = (knowledge.catalog.text_of(text.game, text.lang, text.version, n) for n in numbers)
    return [t for t in found if t is not None]


# --- the rules an entry points to ----------------------------------------------------------------


def _pointed_to(knowledge: Knowledge, game: str, lang: str, version: str, definition: str) -> tuple[str, ...]:
    numbers = [str(n) for ref in find_references(definition, game=game) for n in ref.numbers]
    return tuple(dict.fromkeys(numbers))


def _newest_text(knowledge: Knowledge, game: str, lang: str, number: RuleNumber) -> RuleText | None:
    catalog = knowledge.catalog
    for label in reversed(catalog.version_labels(game, lang)):
        text = catalog.text_of(game, lang, label, number)
        if text is not None:
            return text
    return None


def _with_texts(knowledge: Knowledge, answer: TermAnswer) -> TermAnswer:
    texts = []
    for number in answer.rules:
        try:
            parsed = RuleNumber.parse(number)
        except ValueError:
            continue
        text = _newest_text(knowledge, answer.game, answer.lang, parsed)
        if text is None and answer.source == "curated":  # a Japanese term defined by a rule read in either language
            text = _newest_text(knowledge, answer.game, "ja" if answer.lang == "en" else "en", parsed)
        if text is not None:
            texts.append(text)
            if text.is_heading:  # what it says is in its subrules
                texts.extend(_children(knowledge, text))
    answer.texts.extend(texts)
    return answer


def answers_json(answers: list[TermAnswer]) -> str:
    return json.dumps([a.to_record() for a in answers], ensure_ascii=False, indent=2)


__all__ = ["TermAnswer", "TermHistory", "Wording", "answers_json", "find_terms", "fold_name", "glossary_entries",
           "looks_like_name",
           "nearest_names", "term_histories"]
