"""Write the store from a built knowledge base, all or nothing (temporary file + rename).

Given the store it replaces (``previous``), rows that only one version's documents decide are
copied from it by SQL instead of made again: a version's ``rule_texts`` rows when its row in
``versions`` (date, kinds, documents, rule count, first row id) and each of its documents' rows are
the same, and an adjacent pair's ``alignments`` and ``alignment_parts`` rows when both versions are
copied and its forced matches are the same. Only when ``meta.reuse`` (the code and the curated
files other than the manifest) is the same too: after ``add`` of a release, the usual case. The
graph's tables are written whole: a release's edges come between older ones in networkx's order,
so every later edge id and in-position moves. The copy gives the rows a whole write gives, in
the same order (``tests/test_store_reuse.py`` compares every table)."""

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


def write_store(path: Path, catalog: Catalog, graph, alignments: list[Alignment], meta: dict[str, object],
                previous: Path | None = None) -> dict[str, int]:
    """Write every table to a temporary file beside ``path``, then rename it into place; rows of
    unchanged versions are copied from ``previous`` when it can be trusted (module docstring).
    Returns how many rows were copied, by table."""
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
            reused = _attach_previous(db, previous, meta.get("reuse"))
            db.execute("BEGIN")
            counts, copied = _fill(db, catalog, graph, alignments, reused)
            _insert(db, "meta", sorted({"format": FORMAT, **{k: _json(v) for k, v in meta.items()},
                                        "counts": _json(counts)}.items()))
            db.execute("COMMIT")
            if reused is not None:
                db.execute("DETACH DATABASE old")
            db.executescript(INDEXES)
        finally:
            db.close()
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
        return copied
    except sqlite3.Error as exc:  # a full disk or a file-size limit: SQLite says "disk I/O error"
        raise OutputError(str(path), f"the store cannot be written ({exc})") from None
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def _attach_previous(db: sqlite3.Connection, previous: Path | None, reuse: object) -> set | None:
    """Attach the previous store as ``old`` when its rows may be copied: it opens and checks
    (format, header, meta digests) and was written by the same code and curated files. Returns its
    ``versions`` and ``documents`` rows (checked, each tagged with its table), or None."""
    from rules_kb.store.read import Store, StoreDamaged

    if previous is None or reuse is None or not previous.is_file():
        return None
    try:
        store = Store(previous)
        try:
            if store.meta.get("reuse") != _json(reuse):
                return None
            rows = set(store.rows("SELECT * FROM versions"))
            documents = set(store.rows("SELECT * FROM documents"))
        finally:
            store.close()
    except StoreDamaged:
        return None
    db.execute("ATTACH DATABASE ? AS old", (str(previous),))
    return {("version", *row) for row in rows} | {("document", *row) for row in documents}


def _document_row(d, position: int) -> tuple:
    return (d.meta.id, position, d.meta.file, d.meta.sha256, d.meta.game, _json(list(d.meta.languages)),
            d.meta.format, d.meta.kind, _json(list(d.meta.versions)), _json(list(d.meta.dates)), d.meta.source,
            d.meta.note)


def _fill(db: sqlite3.Connection, catalog: Catalog, graph, alignments: list[Alignment],
          reused: set | None) -> tuple[dict[str, int], dict[str, int]]:
    counts, copied = {}, {"rule_texts": 0, "alignments": 0, "alignment_parts": 0}
    documents = list(catalog.documents.values())
    document_rows = [_document_row(d, i) for i, d in enumerate(documents)]
    counts["documents"] = _insert(db, "documents", document_rows)
    first = _first_rows(catalog)
    version_rows = [(v.game, v.lang, v.label, v.date, _json(sorted(v.kinds)), _json(v.documents),
                     first.get(key, [None, 0])[1], first.get(key, [None, 0])[0])
                    for key, v in sorted(catalog.versions.items())]
    counts["versions"] = _insert(db, "versions", version_rows)
    same, same_place = _unchanged_versions(version_rows, document_rows, reused)
    counts["rule_texts"] = 0
    for game, lang, label in _text_versions(catalog):
        if (game, lang, label) in same_place:
            found = db.execute("INSERT INTO rule_texts SELECT * FROM old.rule_texts WHERE game = ? AND lang = ? "
                               "AND version = ? ORDER BY id", (game, lang, label)).rowcount
            copied["rule_texts"] += found
        else:  # streamed, never a list of all
            found = _insert(db, "rule_texts", _rule_rows(catalog, game, lang, label, first[(game, lang, label)][0]))
        counts["rule_texts"] += found
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
    counts["alignments"] = counts["alignment_parts"] = 0
    for forced, a in alignments:  # one pair at a time, in the pairs' order, copied or made
        pair, forced_json = (a.game, a.lang, a.old_version, a.new_version), _json(forced_record(forced))
        if {(a.game, a.lang, a.old_version), (a.game, a.lang, a.new_version)} <= same:
            where = "WHERE game = ? AND lang = ? AND old_version = ? AND new_version = ? AND forced = ?"
            found = db.execute(f"INSERT INTO alignments SELECT * FROM old.alignments {where}", (*pair, forced_json))
            if found.rowcount == 1:
                parts = db.execute(f"INSERT INTO alignment_parts SELECT * FROM old.alignment_parts {where} "
                                   "ORDER BY rowid", (*pair, forced_json)).rowcount
                counts["alignments"] += 1
                counts["alignment_parts"] += parts
                copied["alignments"] += 1
                copied["alignment_parts"] += parts
                continue
        counts["alignments"] += _insert(db, "alignments", [(*pair, forced_json, _json(alignment_record(a)))])
        counts["alignment_parts"] += _insert(db, "alignment_parts", (
            (*pair, key, forced_json, _json(part)) for key, part in sorted(alignment_parts(a).items())))
    return counts, copied


def _unchanged_versions(version_rows: list[tuple], document_rows: list[tuple], reused: set | None
                        ) -> tuple[set, set]:
    """The (game, lang, version) keys the previous store holds as this write makes them: the
    versions whose row (its first text's id aside) and documents' rows (their place in the manifest
    aside) are the same; and of those, the ones whose texts keep their ids (their rows are the same)."""
    if reused is None:
        return set(), set()
    documents = {row[0]: row for row in document_rows}
    old_documents = {row[1]: row[1:] for row in reused if row[0] == "document"}
    old_versions = {row[1:4]: row[1:] for row in reused if row[0] == "version"}
    same, same_place = set(), set()
    for row in version_rows:
        old = old_versions.get(row[:3])
        if old is None or old[:-1] != row[:-1]:
            continue
        if all(_without_position(old_documents.get(doc)) == _without_position(documents.get(doc))
               for doc in json.loads(row[5])):
            same.add(row[:3])
            if old == row:
                same_place.add(row[:3])
    return same, same_place


def _word_set_rows(catalog: Catalog):
    """Japanese only: English words come from a regular expression faster than a lookup."""
    for text, words in japanese_word_sets(catalog.all_texts()).items():
        yield ("ja", text, _json(sorted(words)))


def _edges_with_in_position(graph):
    """Every edge in networkx out-edge order, with its position among its target's in-edges."""
    # networkx's own adjacency dicts, in the order its views give them: walking 1.2 million edges
    # through the views' Python-level mappings took a third of the store's time. A pair's key dict
    # is one object on both sides (``succ[u][v] is pred[v][u]``), so its keys come in one order and
    # a pair's edges are numbered from where its source starts among the target's predecessors
    # (a dict per target: 3.7 -> 2.6 s at the whole corpus against one dict keyed by edge).
    starts: dict[str, dict[str, int]] = {}
    for node, predecessors in graph._pred.items():
        i, mine = 0, {}
        for source, keyed in predecessors.items():
            mine[source] = i
            i += len(keyed)
        starts[node] = mine
    for source, successors in graph._succ.items():
        for target, keyed in successors.items():
            start = starts[target][source]
            for offset, (key, data) in enumerate(keyed.items()):
                yield source, target, key, start + offset, data


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


def _without_position(row: tuple | None) -> tuple | None:
    """A ``documents`` row without its place in the manifest (an added document may come first)."""
    return None if row is None else (row[0], *row[2:])


def _text_versions(catalog: Catalog):
    """(game, lang, version) of every version holding texts, in the rows' order (catalog order)."""
    for game, lang in sorted({(g, lg) for g, lg, _ in catalog.versions}):
        for label in catalog.version_labels(game, lang):
            if any(catalog.rules_in(game, lang, label).values()):
                yield game, lang, label


def _rule_rows(catalog: Catalog, game: str, lang: str, label: str, row_id: int):
    """One version's ``rule_texts`` rows, the first with id ``row_id``."""
    for number_position, (number, texts) in enumerate(catalog.rules_in(game, lang, label).items()):
        for position, rule in enumerate(texts):
            yield (row_id, rule.game, rule.lang, rule.version, str(number), number_position, position,
                   rule.text, rule.title, rule.date, int(rule.truncated), rule.written_as, rule.document,
                   _json(rule.spans), _json([[e.text, e.spans] for e in rule.examples]), text_id(rule))
            row_id += 1


__all__ = ["write_store"]
