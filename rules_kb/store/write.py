"""Write the store from a built knowledge base, all or nothing (temporary file + rename)."""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
from pathlib import Path

from rules_kb.compare.alignment import Alignment
from rules_kb.compare.similarity import japanese_word_sets
from rules_kb.errors import OutputError
from rules_kb.kb.catalog import Catalog
from rules_kb.kb.ids import text_id
from rules_kb.store.records import alignment_parts, alignment_record, forced_record, section_record
from rules_kb.store.schema import DDL, FORMAT, INDEXES, row_digest

HEAVY_TEXT_ATTRS = ("text", "title", "examples")  # a text node's words live in rule_texts, once


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))  # one encoder: dumps() builds one per call


def _json(value) -> str:
    return _ENCODER.encode(value)


class _AttrsJson:
    """JSON of attribute dicts, each distinct flat dict encoded once.

    Most edges carry the same few attributes (``{"kind": "text_of"}`` on every text), so the
    encoding of a dict whose values are all hashable is kept by its items; any other dict
    (lists inside) is encoded each time. Same text either way.
    """

    def __init__(self) -> None:
        self.memo: dict[tuple, str] = {}

    def __call__(self, data: dict) -> str:
        try:
            key = tuple((k, type(v), v) for k, v in data.items())  # True == 1, but encodes otherwise
            found = self.memo.get(key)
        except TypeError:  # an unhashable value
            return _ENCODER.encode(data)
        if found is None:
            found = self.memo[key] = _ENCODER.encode(data)
        return found


def _insert(db: sqlite3.Connection, table: str, rows, chunk: int = 50_000) -> int:
    """Insert rows, each with its digest appended, in chunks (never a list of every row); returns how many."""
    digest = row_digest
    count = 0
    batch: list[tuple] = []
    sql = None
    for row in rows:
        row = tuple(row)
        batch.append((*row, digest(row)))
        if len(batch) == chunk:
            sql = sql or f"INSERT INTO {table} VALUES ({', '.join('?' * len(batch[0]))})"
            db.executemany(sql, batch)
            count += len(batch)
            batch = []
    if batch:
        db.executemany(sql or f"INSERT INTO {table} VALUES ({', '.join('?' * len(batch[0]))})", batch)
        count += len(batch)
    return count


def write_store(path: Path, catalog: Catalog, graph, alignments: list[Alignment], meta: dict[str, object]) -> None:
    """Write every table to a temporary file beside ``path``, then rename it into place."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".store-", suffix=".tmp")
    except OSError as exc:  # a read-only cache folder: name the store and the way out, not a temporary name
        raise OutputError(str(path), f"{exc.strerror or exc} in {path.parent} (RULES_KB_CACHE can name a writable "
                          "folder)") from None
    os.close(handle)
    try:
        db = sqlite3.connect(temporary, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=OFF")
            db.execute("PRAGMA synchronous=OFF")
            db.executescript(DDL)
            db.execute("BEGIN")
            counts = _fill(db, catalog, graph, alignments)
            _insert(db, "meta", sorted({"format": FORMAT, **{k: _json(v) for k, v in meta.items()},
                                        "counts": _json(counts)}.items()))
            db.execute("COMMIT")
            db.executescript(INDEXES)
        finally:
            db.close()
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except sqlite3.Error as exc:  # a full disk or a file-size limit: SQLite says "disk I/O error"
        raise OutputError(str(path), f"the store cannot be written ({exc})") from None
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def _fill(db: sqlite3.Connection, catalog: Catalog, graph, alignments: list[Alignment]) -> dict[str, int]:
    counts = {}
    documents = list(catalog.documents.values())
    counts["documents"] = _insert(db, "documents", (
        (d.meta.id, i, d.meta.file, d.meta.sha256, d.meta.game, _json(list(d.meta.languages)), d.meta.format,
         d.meta.kind, _json(list(d.meta.versions)), _json(list(d.meta.dates)), d.meta.source, d.meta.note)
        for i, d in enumerate(documents)))
    first = _first_rows(catalog)
    counts["versions"] = _insert(db, "versions", (
        (v.game, v.lang, v.label, v.date, _json(sorted(v.kinds)), _json(v.documents),
         first.get(key, [None, 0])[1], first.get(key, [None, 0])[0])
        for key, v in sorted(catalog.versions.items())))
    counts["rule_texts"] = _insert(db, "rule_texts", _rule_rows(catalog))  # streamed, never a list of all
    counts["terms"] = _insert(db, "terms", (  # the id is written, not left to SQLite, so the digest can check it
        (i, t.game, t.lang, t.version, t.term, t.definition, doc, _json(t.spans))
        for i, (doc, t) in enumerate((d.meta.id, t) for d in documents for t in d.terms)))
    counts["residue"] = _insert(db, "residue", (
        (d.meta.id, i, r.kind, r.text, r.level, _json(list(r.marks)), _json(list(r.cites)), _json(r.spans))
        for d in documents for i, r in enumerate(d.residue)))
    counts["sections"] = _insert(db, "sections", (
        (*key, section.number, position, _json(section_record(section)))
        for key in sorted(catalog.sections.texts)
        for position, section in enumerate(catalog.sections.all_in(*key))))
    counts["anomalies"] = _insert(db, "anomalies", (
        (a.document, a.position, a.code, a.message, a.decision) for d in documents for a in d.anomalies))
    attrs_json = _AttrsJson()
    counts["nodes"] = _insert(db, "nodes", (  # a text's attributes are read one by one (kb.graph.TextNode)
        (node, data.get("kind"), _json({k: data[k] for k in data if k not in HEAVY_TEXT_ATTRS})
         if data.get("kind") == "text" else attrs_json(data))
        for node, data in graph._node.items()))
    counts["edges"] = _insert(db, "edges", (
        (i, source, target, key, data.get("kind"), position, attrs_json(data))
        for i, (source, target, key, position, data) in enumerate(_edges_with_in_position(graph))))
    counts["word_sets"] = _insert(db, "word_sets", _word_set_rows(catalog))
    counts["alignments"] = _insert(db, "alignments", (
        (a.game, a.lang, a.old_version, a.new_version, _json(forced_record(forced)), _json(alignment_record(a)))
        for forced, a in alignments))
    counts["alignment_parts"] = _insert(db, "alignment_parts", (
        (a.game, a.lang, a.old_version, a.new_version, key, _json(forced_record(forced)), _json(part))
        for forced, a in alignments for key, part in sorted(alignment_parts(a).items())))
    return counts


def _word_set_rows(catalog: Catalog):
    """Japanese only: English words come from a regular expression faster than a lookup."""
    for text, words in japanese_word_sets(catalog.all_texts()).items():
        yield ("ja", text, _json(sorted(words)))


def _edges_with_in_position(graph):
    """Every edge in networkx out-edge order, with its position among its target's in-edges."""
    in_position = {}
    # networkx's own adjacency dicts, in the order its views give them: walking 1.2 million edges
    # through the views' Python-level mappings took a third of the store's time.
    for node, predecessors in graph._pred.items():
        i = 0
        for source, keyed in predecessors.items():
            for key in keyed:
                in_position[(source, node, key)] = i
                i += 1
    for source, successors in graph._succ.items():
        for target, keyed in successors.items():
            for key, data in keyed.items():
                yield source, target, key, in_position[(source, target, key)], data


def _first_rows(catalog: Catalog) -> dict[tuple, list[int]]:
    """(game, lang, version) -> [id of its first rule_texts row, its row count], for the versions
    holding texts: the ids ``_rule_rows`` gives, counted without making a row."""
    first: dict[tuple, list[int]] = {}
    row_id = 0
    for game, lang in sorted({(g, lg) for g, lg, _ in catalog.versions}):
        for label in catalog.version_labels(game, lang):
            count = sum(len(texts) for texts in catalog.rules_in(game, lang, label).values())
            if count:
                first[(game, lang, label)] = [row_id, count]
                row_id += count
    return first


def _rule_rows(catalog: Catalog):
    row_id = 0
    for game, lang in sorted({(g, lg) for g, lg, _ in catalog.versions}):
        for label in catalog.version_labels(game, lang):
            rules = catalog.rules_in(game, lang, label)
            for number_position, (number, texts) in enumerate(rules.items()):
                for position, rule in enumerate(texts):
                    yield (row_id, rule.game, rule.lang, rule.version, str(number), number_position, position,
                           rule.text, rule.title, rule.date, int(rule.truncated), rule.written_as, rule.document,
                           _json(rule.spans), _json([[e.text, e.spans] for e in rule.examples]), text_id(rule))
                    row_id += 1


__all__ = ["write_store"]
