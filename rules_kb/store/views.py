"""The store seen as the in-memory knowledge base: a catalog and a graph that read on demand.

``StoreCatalog`` is a ``Catalog`` whose texts and documents are fetched from the
store when asked for; ``StoreGraph`` answers the networkx calls the questions use (``in``,
``nodes[...]``, ``in_edges``, ``out_edges``, ``has_edge``, ``get_edge_data``). So ``ask.query``
and ``ask.story`` give the same answers on either, and a lookup reads only its rule's rows.
A text node's ``text``, ``title`` and ``examples`` are not repeated in ``nodes`` (they are the
rule_texts row).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from rules_kb.compare.memory import AlignmentMemo
from rules_kb.kb.catalog import Catalog, VersionInfo
from rules_kb.model import DocumentMeta, Example, Residue, RuleText
from rules_kb.numbers import RuleNumber
from rules_kb.store.read import Store, StoreDamaged

if TYPE_CHECKING:
    from rules_kb.ingest.curated import ForcedMatch

RULE_COLUMNS = "*"


def _rule(row: tuple) -> tuple[tuple, RuleNumber, int, int, RuleText]:
    (_, game, lang, version, number, number_position, position, text, title, date, truncated, written_as, document,
     spans, examples, _) = row
    parsed = RuleNumber.parse(number)
    rule = RuleText(game, lang, version, parsed, text, document, [tuple(s) for s in json.loads(spans)],
                    [Example(t, [tuple(s) for s in sp]) for t, sp in json.loads(examples)], title, date,
                    bool(truncated), written_as)
    return (game, lang, version), parsed, number_position, position, rule


class VersionRules(Mapping):
    """What one version says, number -> texts, in the catalog's order; read when needed."""

    def __init__(self, texts: StoreTexts, key: tuple[str, str, str]) -> None:
        self.texts, self.key = texts, key

    @cached_property
    def _all(self) -> dict[RuleNumber, list[RuleText]]:
        found: dict[RuleNumber, list[RuleText]] = {}
        for row in self.texts.store.rows(f"SELECT {RULE_COLUMNS} FROM rule_texts WHERE game=? AND lang=? AND "
                                         "version=? ORDER BY number_position, position", self.key):
            _, number, _, _, rule = _rule(row)
            found.setdefault(number, []).append(rule)
        return found

    def get(self, number, default=None):
        if "_all" in self.__dict__:
            return self._all.get(number, default)
        return self.texts.by_number(number).get(self.key, default)

    def __getitem__(self, number):
        found = self.get(number)
        if found is None:
            raise KeyError(number)
        return found

    def __contains__(self, number) -> bool:
        return self.get(number) is not None

    @cached_property
    def _numbers(self) -> list[RuleNumber]:
        """The numbers alone, in order: which versions hold a rule is asked of every version, and
        reading only the number column is ~10 times faster than reading and checking the texts."""
        if "_all" in self.__dict__:
            return list(self._all)
        numbers = self.texts.store.values("SELECT number FROM rule_texts WHERE game=? AND lang=? AND version=? "
                                          "ORDER BY number_position, position", self.key)
        return [RuleNumber.parse(n) for n in dict.fromkeys(numbers)]

    def __iter__(self) -> Iterator[RuleNumber]:
        return iter(self._numbers)

    def items(self):  # every text wanted: one query for the version, not one per number
        return self._all.items()

    def values(self):
        return self._all.values()

    def __len__(self) -> int:
        return len(self._numbers)

    def __bool__(self) -> bool:
        return self.key in self.texts._holding


class StoreTexts(Mapping):
    """(game, lang, version) -> ``VersionRules``; one query per rule number asked about."""

    def __init__(self, store: Store, nonempty: list[tuple[str, str, str]]) -> None:
        self.store = store
        self.nonempty = nonempty  # versions holding rules, in catalog order
        self._holding = set(nonempty)
        self._versions: dict[tuple, VersionRules] = {}
        self._numbers: dict[RuleNumber, dict[tuple, list[RuleText]]] = {}

    def by_number(self, number: RuleNumber) -> dict[tuple, list[RuleText]]:
        if number not in self._numbers:
            found: dict[tuple, list[tuple]] = {}
            for row in self.store.rows(f"SELECT {RULE_COLUMNS} FROM rule_texts WHERE number=? ORDER BY id",
                                       (str(number),)):
                key, _, _, position, rule = _rule(row)
                found.setdefault(key, []).append((position, rule))
            self._numbers[number] = {k: [r for _, r in sorted(v, key=lambda p: p[0])] for k, v in found.items()}
        return self._numbers[number]

    def get(self, key, default=None):
        if tuple(key) not in self._holding:
            return default
        return self[key]

    def __getitem__(self, key) -> VersionRules:
        key = tuple(key)
        if key not in self._versions:
            self._versions[key] = VersionRules(self, key)
        return self._versions[key]

    def __iter__(self):
        return iter(self.nonempty)

    def __len__(self) -> int:
        return len(self.nonempty)


@dataclass
class StoredDocument:
    """What explain reads of a document: its manifest entry and its residue."""

    meta: DocumentMeta
    residue: list[Residue]


class StoreDocuments(Mapping):
    def __init__(self, store: Store) -> None:
        self.store = store

    @cached_property
    def _metas(self) -> dict[str, DocumentMeta]:
        out = {}
        for (doc, _, file, sha256, game, languages, format_, kind, versions, dates, source, note) in self.store.rows(
                "SELECT * FROM documents ORDER BY position"):
            out[doc] = DocumentMeta(doc, file, sha256, game, tuple(json.loads(languages)), format_, kind,
                                    tuple(json.loads(versions)), tuple(json.loads(dates)), source, note)
        return out

    def __getitem__(self, doc: str) -> StoredDocument:
        meta = self._metas[doc]
        residue = [Residue(text, [tuple(s) for s in json.loads(spans)], kind, tuple(json.loads(cites)),
                           tuple(json.loads(marks)), level)
                   for _, _, kind, text, level, marks, cites, spans in self.store.rows(
                       "SELECT * FROM residue WHERE document=? ORDER BY position", (doc,))]
        return StoredDocument(meta, residue)

    def __iter__(self):
        return iter(self._metas)

    def __len__(self) -> int:
        return len(self._metas)


class StoreAlignments(AlignmentMemo):
    """The aligner's memory over the store: adjacent alignments rebuilt on first use, new ones kept
    in memory, and the word sets of comparable texts."""

    def __init__(self, store: Store, catalog: StoreCatalog) -> None:
        super().__init__()
        self.store, self.catalog = store, catalog
        self._word_sets: dict[str, Mapping[str, frozenset[str]]] = {}

    def word_sets(self, lang: str) -> Mapping[str, frozenset[str]]:
        """The store's word sets of one language (Japanese: 886 texts, read once, checked)."""
        if lang not in self._word_sets:
            self._word_sets[lang] = {text: frozenset(json.loads(words)) for _, text, words in self.store.rows(
                "SELECT * FROM word_sets WHERE lang=?", (lang,))}
        return self._word_sets[lang]

    def get(self, key, default=None):
        if key in self:
            return self[key]
        from rules_kb.store.records import alignment_from_record, forced_record  # diff and explain only

        game, lang, old, new, relevant = key
        rows = self.store.rows("SELECT * FROM alignments WHERE game=? AND lang=? AND "
                               "old_version=? AND new_version=?", (game, lang, old, new))
        if not rows or json.loads(rows[0][4]) != json.loads(json.dumps(forced_record(relevant))):
            return default
        rules = self.catalog.texts
        self[key] = alignment_from_record(json.loads(rows[0][5]), _lazy(rules, (game, lang, old)),
                                          _lazy(rules, (game, lang, new)))
        return self[key]


    def within(self, key, bounds: tuple[str, str], part: str | None = None):
        """The pairs of a stored adjacent alignment whose old or new number lies between ``bounds``
        (``Scope.bounds``), or only those filed under ``part`` (``Scope.part``), texts read for
        those numbers only; None if not stored.

        A question about one rule (``explain 509.1`` reads 113 Magic steps) needs a few pairs of
        each step, not the thousands of texts a whole alignment names.
        """
        from rules_kb.store.records import alignment_from_parts, forced_record

        game, lang, old, new, relevant = key
        where, wanted = ("part = ?", (part,)) if part is not None else ("part >= ? AND part < ?", bounds)
        rows = self.store.rows("SELECT * FROM alignment_parts WHERE game=? AND lang=? AND old_version=? AND "
                               f"new_version=? AND {where} ORDER BY part", (game, lang, old, new, *wanted))
        forced = json.loads(json.dumps(forced_record(relevant)))
        if not rows or any(json.loads(row[5]) != forced for row in rows):
            return None
        texts = self.catalog.texts

        def text_of(label: str):
            return lambda number: texts.by_number(number)[(game, lang, label)][0]
        return alignment_from_parts([json.loads(row[6]) for row in rows], text_of(old), text_of(new))


    def pairs_under(self, key, bounds: tuple[str, str] | None, numbers=()):
        """Pairs of a stored adjacent alignment under ``bounds`` (``Scope.bounds``) or under the rules
        of ``numbers``, keyed by their place in the whole alignment (texts are ``LazyText``), and the
        alignment's notes; None if not stored."""
        from rules_kb.store.records import forced_record, part_of, positioned_pairs

        game, lang, old, new, relevant = key
        where, params = [], []
        if bounds is not None:
            where.append("(part >= ? AND part < ?)")
            params.extend(bounds)
        wanted = sorted({part_of(n) for n in numbers})
        if bounds is not None:
            wanted = [p for p in wanted if not bounds[0] <= p < bounds[1]]
        if wanted:
            where.append(f"part IN ({', '.join('?' * len(wanted))})")
            params.extend(wanted)
        if not where:
            return {}, []
        rows = self.store.rows(f"SELECT * FROM alignment_parts WHERE game=? AND lang=? AND old_version=? AND "
                               f"new_version=? AND ({' OR '.join(where)})", (game, lang, old, new, *params))
        if not rows:  # nothing there, or no such alignment: the whole row says which (and its notes)
            whole = self.get(key)
            return None if whole is None else ({}, list(whole.notes))
        forced = json.loads(json.dumps(forced_record(relevant)))
        if any(json.loads(row[5]) != forced for row in rows):
            return None
        parts = [json.loads(row[6]) for row in rows]
        texts = self.catalog.texts
        return (positioned_pairs(parts, _lazy(texts, (game, lang, old)), _lazy(texts, (game, lang, new))),
                list(parts[0]["notes"]))


class LazyText:
    """A version's text for a number, read when first used. Composing a long chain of releases
    (``diff 2019-05-03 2024-11-08``, 31 steps) follows numbers through every release between but
    reads the texts of the two ends only; the first use of a text reads its whole version once."""

    __slots__ = ("_rules", "_text", "number")

    def __init__(self, number: RuleNumber, rules: VersionRules) -> None:
        self.number, self._rules, self._text = number, rules, None

    def __getattr__(self, name: str):
        if self._text is None:
            self._text = self._rules._all[self.number][0]
        return getattr(self._text, name)


def _lazy(texts: StoreTexts, key: tuple[str, str, str]) -> Callable[[RuleNumber], LazyText]:
    rules = texts[key]
    return lambda number: LazyText(number, rules)


class StoreCatalog(Catalog):
    """A ``Catalog`` over the store: versions loaded whole (they are few), the rest on demand."""

    def __init__(self, store: Store) -> None:
        versions = {}
        holding = []
        for game, lang, label, date, kinds, documents, rule_count, first_rule in store.rows("SELECT * FROM versions"):
            versions[(game, lang, label)] = VersionInfo(game, lang, label, date, set(json.loads(kinds)),
                                                        json.loads(documents))
            if rule_count:
                holding.append((first_rule, (game, lang, label)))
        super().__init__(StoreDocuments(store), versions, StoreTexts(store, [key for _, key in sorted(holding)]))
        self.store = store

    def numbers_of(self, game: str) -> list[RuleNumber]:
        return sorted({RuleNumber.parse(n) for n in self.store.values(
            "SELECT DISTINCT number FROM rule_texts WHERE game=?", (game,))})

    def labels_with_numbers(self, game: str, lang: str, low: str, high: str) -> dict[str, set[RuleNumber]]:
        """As ``Catalog``'s, from one stretch of the store's number index."""
        # "+game" keeps SQLite on the number index: by (game, lang) it would scan a whole game (30x slower).
        rows = self.store.raw("SELECT version, number FROM rule_texts WHERE number >= ? AND number < ? AND +game=? "
                              "AND +lang=?", (low, high, game, lang))
        found: dict[str, set[RuleNumber]] = {}
        for label, number in rows:
            found.setdefault(label, set()).add(RuleNumber.parse(number))
        return {label: found[label] for label in self.version_labels(game, lang) if label in found}


class StoreNodes:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._cache: dict[str, dict | None] = {}

    def get(self, node: str) -> dict | None:
        if node not in self._cache:
            rows = self.store.rows("SELECT * FROM nodes WHERE id=?", (node,))
            self._cache[node] = json.loads(rows[0][2]) if rows else None
        return self._cache[node]

    def __getitem__(self, node: str) -> dict:
        found = self.get(node)
        if found is None:
            raise KeyError(node)
        return found


class StoreGraph:
    """The graph calls the questions make, answered by indexed queries."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.nodes = StoreNodes(store)

    def __contains__(self, node: str) -> bool:
        return self.nodes.get(node) is not None

    def out_edges(self, node: str, data: bool = False) -> list[tuple]:
        rows = self.store.rows("SELECT * FROM edges "
                               "WHERE source=? ORDER BY id", (node,))
        return [(s, t, json.loads(a)) if data else (s, t) for _, s, t, _, _, _, a in rows]

    def in_edges(self, node: str, data: bool = False) -> list[tuple]:
        rows = self.store.rows("SELECT * FROM edges "
                               "WHERE target=? ORDER BY in_position", (node,))
        return [(s, t, json.loads(a)) if data else (s, t) for _, s, t, _, _, _, a in rows]

    def get_edge_data(self, source: str, target: str, default=None) -> dict | None:
        rows = self.store.rows("SELECT * FROM edges "
                               "WHERE source=? AND target=? ORDER BY id", (source, target))
        return {key: json.loads(a) for _, _, _, key, _, _, a in rows} if rows else default

    def has_edge(self, source: str, target: str) -> bool:
        return self.get_edge_data(source, target) is not None


class StoreKnowledge:
    """What ``Knowledge`` offers the questions (catalog, graph, forced matches, the aligner's memory),
    read from the store."""

    def __init__(self, store: Store, load_forced: Callable[[], list[ForcedMatch]]) -> None:
        self.store = store
        self.catalog = StoreCatalog(store)
        self.graph = StoreGraph(store)
        self.alignments = StoreAlignments(store, self.catalog)
        self._load_forced = load_forced

    @cached_property
    def forced(self) -> list[ForcedMatch]:
        """Curated forced matches (only diff and explain align): read from the corpus when asked."""
        return self._load_forced()


__all__ = ["StoreDamaged", "StoreKnowledge"]
