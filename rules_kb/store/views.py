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
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from rules_kb.kb.catalog import Catalog, VersionInfo
from rules_kb.kb.sections import SectionCatalog
from rules_kb.model import DocumentMeta, Example, Residue, RuleText, Section
from rules_kb.numbers import RuleNumber, SectionNumber
from rules_kb.store.read import Store, StoreDamaged
from rules_kb.store.records import section_from_record

if TYPE_CHECKING:
    from rules_kb.compare.memory import AlignmentMemo
    from rules_kb.ingest.curated import Correspondence, ForcedMatch

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
        self._loaded: dict[RuleNumber, list[RuleText]] | None = None  # every text, once one read needs them

    def all(self) -> dict[RuleNumber, list[RuleText]]:
        """Every text of the version, read in one query the first time."""
        if self._loaded is None:
            found: dict[RuleNumber, list[RuleText]] = {}
            for row in self.texts.store.rows(f"SELECT {RULE_COLUMNS} FROM rule_texts WHERE game=? AND lang=? AND "
                                             "version=? ORDER BY number_position, position", self.key):
                _, number, _, _, rule = _rule(row)
                found.setdefault(number, []).append(rule)
            self._loaded = found
        return self._loaded

    def get(self, number, default=None):
        if self._loaded is not None:
            return self._loaded.get(number, default)
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
        if self._loaded is not None:
            return list(self._loaded)
        numbers = self.texts.store.values("SELECT number FROM rule_texts WHERE game=? AND lang=? AND version=? "
                                          "ORDER BY number_position, position", self.key)
        return [RuleNumber.parse(n) for n in dict.fromkeys(numbers)]

    def __iter__(self) -> Iterator[RuleNumber]:
        return iter(self._numbers)

    def items(self):  # every text wanted: one query for the version, not one per number
        return self.all().items()

    def values(self):
        return self.all().values()

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


class StoreSections(SectionCatalog):
    """The section catalog over the store, read whole on first use (a few hundred rows)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @cached_property
    def _read(self) -> tuple[dict, dict]:
        texts: dict[tuple[str, str, str, str], dict[str, Section]] = {}
        repeats: dict[tuple[str, str, str, str], dict[str, list[Section]]] = {}
        for game, document, lang, version, number, _, record in self.store.rows(
                "SELECT * FROM sections ORDER BY game, document, lang, version, position"):
            key, section = (game, document, lang, version), section_from_record(json.loads(record))
            held = texts.setdefault(key, {})
            if number in held:
                repeats.setdefault(key, {}).setdefault(number, []).append(section)
            else:
                held[number] = section
        for key, sections in texts.items():
            texts[key] = dict(sorted(sections.items(), key=lambda kv: SectionNumber.parse(kv[0])))
        return texts, repeats

    @property
    def texts(self) -> dict[tuple[str, str, str, str], dict[str, Section]]:  # type: ignore[override]
        return self._read[0]

    @property
    def repeats(self) -> dict[tuple[str, str, str, str], dict[str, list[Section]]]:  # type: ignore[override]
        return self._read[1]


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
        self.sections = StoreSections(store)
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

    def __init__(self, store: Store, corpus: Path) -> None:
        self.store = store
        self.catalog = StoreCatalog(store)
        self.graph = StoreGraph(store)
        self.corpus = corpus

    @cached_property
    def alignments(self) -> AlignmentMemo:
        """The aligner's memory over the store (only diff and explain align): made when asked."""
        from rules_kb.store.alignments import StoreAlignments

        return StoreAlignments(self.store, self.catalog)

    @cached_property
    def forced(self) -> list[ForcedMatch]:
        """Curated forced matches (only diff and explain align): read from the corpus when asked."""
        from rules_kb.ingest.curated import load_forced_matches

        return load_forced_matches(self.corpus)

    @cached_property
    def correspondences(self) -> list[Correspondence]:
        """Curated correspondences (explain, show): read from the corpus when asked."""
        from rules_kb.ingest.curated import load_correspondences

        return load_correspondences(self.corpus)


__all__ = ["StoreDamaged", "StoreKnowledge"]
