"""The store's schema: what each table holds and the questions its indexes serve.

The file is plain SQLite (open it with ``sqlite3 build/cache/store-*.sqlite`` or Datasette).
JSON columns hold lists exactly as the JSON output prints them. Every row carries ``digest``,
a 16-hex-digit BLAKE2b of its other columns (``row_digest``): a lookup checks
the rows it reads, so an edited or damaged row is noticed instead of printed. ``meta`` holds
the format version, the key of the input the store was built from (manifest, curated files,
package source) and the stat of every corpus file, so a stale store is rebuilt.
"""

from __future__ import annotations

import hashlib

FORMAT = "rules-kb-store 5"

DDL = """
CREATE TABLE meta (            -- format, input key, counts, corpus file stats
    key TEXT PRIMARY KEY, value TEXT NOT NULL, digest TEXT NOT NULL);
CREATE TABLE documents (       -- manifest entries, in manifest order
    id TEXT PRIMARY KEY, position INTEGER NOT NULL, file TEXT, sha256 TEXT, game TEXT, languages TEXT,
    format TEXT, kind TEXT, versions TEXT, dates TEXT, source TEXT, note TEXT, digest TEXT NOT NULL);
CREATE TABLE versions (        -- every version of a game and language; kinds: full, excerpt, change-notice, ...
    game TEXT, lang TEXT, label TEXT, date TEXT, kinds TEXT, documents TEXT,
    rule_count INTEGER, first_rule INTEGER,  -- how many rule texts, and the id of the first (catalog order)
    digest TEXT NOT NULL,
    PRIMARY KEY (game, lang, label));
CREATE TABLE rule_texts (      -- what one version of one rule says, in one document
    id INTEGER PRIMARY KEY,    -- catalog order: game, language, version order, number, document
    game TEXT, lang TEXT, version TEXT, number TEXT, number_position INTEGER, position INTEGER,
    text TEXT, title TEXT, date TEXT, truncated INTEGER, written_as TEXT, document TEXT,
    spans TEXT, examples TEXT, node TEXT, digest TEXT NOT NULL);
CREATE TABLE terms (           -- glossary entries
    id INTEGER PRIMARY KEY, game TEXT, lang TEXT, version TEXT, term TEXT, definition TEXT, document TEXT,
    spans TEXT, digest TEXT NOT NULL);
CREATE TABLE residue (         -- what is not rules (commentary passages explain reads), per document
    document TEXT, position INTEGER, kind TEXT, text TEXT, level INTEGER, marks TEXT, cites TEXT,
    spans TEXT, digest TEXT NOT NULL, PRIMARY KEY (document, position));
CREATE TABLE sections (        -- the tournament documents' sections (MTR, IPG, 競技イベント運営ルール), every version
    game TEXT, document TEXT, lang TEXT, version TEXT, number TEXT, position INTEGER,  -- document order (a
                               -- number printed twice has two rows: 9.1 of 競技イベント運営ルール 2025-05-01)
    record TEXT,               -- the whole section as JSON (store.records.section_record)
    digest TEXT NOT NULL, PRIMARY KEY (game, document, lang, version, position));
CREATE TABLE anomalies (
    document TEXT, position INTEGER, code TEXT, message TEXT, decision TEXT, digest TEXT NOT NULL);
CREATE TABLE nodes (           -- graph nodes other than rule texts (rule:, version:, doc:, term:)
    id TEXT PRIMARY KEY, kind TEXT, attrs TEXT, digest TEXT NOT NULL);
CREATE TABLE edges (           -- graph edges: contains, text_of, next_version, cites, renumbered, analogue, ...
    id INTEGER PRIMARY KEY,    -- networkx out-edge order
    source TEXT, target TEXT, key INTEGER, kind TEXT, in_position INTEGER, attrs TEXT, digest TEXT NOT NULL);
CREATE TABLE alignments (      -- adjacent complete releases aligned, one row per pair
    game TEXT, lang TEXT, old_version TEXT, new_version TEXT, forced TEXT, alignment TEXT, digest TEXT NOT NULL,
    PRIMARY KEY (game, lang, old_version, new_version));
CREATE TABLE word_sets (      -- the words similarity compares, per Japanese comparable text (title and text):
    lang TEXT, text TEXT, words TEXT, digest TEXT NOT NULL,  -- aligning partial versions at question time
    PRIMARY KEY (lang, text));                               -- then needs no Sudachi
CREATE TABLE alignment_parts (  -- the same, cut by rule (702.2; a section's own row: 702): what a
    game TEXT, lang TEXT, old_version TEXT, new_version TEXT,  -- question about one rule reads
    part TEXT, forced TEXT, pairs TEXT, digest TEXT NOT NULL,
    PRIMARY KEY (game, lang, old_version, new_version, part));
"""

# Created after the rows are in (faster than maintaining them row by row).
INDEXES = """
CREATE INDEX rule_texts_by_number ON rule_texts (number, game);
CREATE INDEX rule_texts_by_version ON rule_texts (game, lang, version, number_position, position);
CREATE INDEX rule_texts_by_node ON rule_texts (node);
CREATE INDEX terms_by_term ON terms (term, game);
CREATE INDEX terms_by_name ON terms (term COLLATE NOCASE);
CREATE INDEX rule_texts_by_title ON rule_texts (title COLLATE NOCASE);
CREATE INDEX rule_texts_by_heading ON rule_texts (text COLLATE NOCASE) WHERE length(text) < 60;  -- 702.2. Deathtouch
CREATE INDEX edges_out ON edges (source, id);
CREATE INDEX edges_in ON edges (target, in_position);
"""


def row_digest(values: tuple) -> str:
    """The check value of a row: BLAKE2b of the ``repr`` of its other columns, 16 hex digits.

    Columns are only ``str``, ``int`` and ``None``, whose ``repr`` is the same on write and read.
    """
    return hashlib.blake2b(repr(values).encode("utf-8"), digest_size=8).hexdigest()
