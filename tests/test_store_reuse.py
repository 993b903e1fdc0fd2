"""After ``add``, the store is written from the one it replaces: the rows of unchanged versions and
pairs are copied, and every table holds what a store written from nothing holds, in the same order."""

from __future__ import annotations

import shutil
import sqlite3

from conftest import CORPUS
from test_store import small_corpus

from rules_kb.assemble.knowledge import KnowledgeReport, build_knowledge
from rules_kb.assemble.stored import build_store, store_current, store_path
from rules_kb.releases.add import add_release
from rules_kb.store.schema import DDL, row_digest

TABLES = [line.split()[2] for line in DDL.splitlines() if line.startswith("CREATE TABLE")]


def tables_of(path) -> dict[str, list[tuple]]:
    """Every row of every table in rowid order (the order a reader walks without an index)."""
    db = sqlite3.connect(path)
    try:
        return {table: db.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall() for table in TABLES}
    finally:
        db.close()


def whole_store(corpus, cache, tmp_path):
    """The store written from nothing (no store to copy from), in a cache of its own that starts with
    ``cache``'s parses and alignments (content-addressed: they only save time)."""
    fresh = tmp_path / "whole"
    for part in ("parsed", "aligned"):
        shutil.copytree(cache / part, fresh / part)
    return build_store(corpus, fresh)


def stored_then_added(tmp_path, ids: list[str], file: str, version: str):
    """The store of a corpus of ``ids``, then ``add`` of corpus/mtg/``file``: the corpus, the cache
    and the first store's tables."""
    cache = tmp_path / "cache"
    corpus = small_corpus(tmp_path / "corpus", ids)
    before = tables_of(build_store(corpus, cache))
    release = tmp_path / file
    release.write_bytes((CORPUS / "mtg" / file).read_bytes())
    add_release(corpus, release, cache, game="mtg", lang="en", format_name="mtg-cr", version=version)
    return corpus, cache, before


def refreshed(corpus, cache) -> KnowledgeReport:
    """What ``add`` does after it committed (``refresh_store``): the store, no longer current, written
    again from the new knowledge base and the store it replaces."""
    assert not store_current(corpus, cache)
    report = KnowledgeReport()
    build_store(corpus, cache, report, knowledge=build_knowledge(corpus, cache), reuse=True)
    return report


def test_an_added_release_copies_the_older_versions_rows_and_gives_the_whole_stores_tables(tmp_path):
    corpus, cache, before = stored_then_added(tmp_path, ["mtg-cr-2008-10-01", "mtg-cr-2009-05-01"],
                                              "CR-2009-07-08.txt", "2009-07-08")
    report = refreshed(corpus, cache)
    old_texts = len(before["rule_texts"])
    # both older releases' texts and their one pair are copied; the new release's texts and pair are made
    assert report.store_rows_copied == {"rule_texts": old_texts, "alignments": 1,
                                        "alignment_parts": len(before["alignment_parts"])}
    after, whole = tables_of(store_path(corpus, cache)), tables_of(whole_store(corpus, cache, tmp_path))
    assert [t for t in TABLES if after[t] != whole[t]] == []
    assert len(after["rule_texts"]) > old_texts and after["rule_texts"][:old_texts] == before["rule_texts"]


def test_a_release_added_before_the_others_moves_their_ids_and_they_are_made_again(tmp_path):
    """2008-10-01 comes first in the catalog: every later text's id moves, so no text row is copied
    (the id is in the row and its digest); the pair of the two later releases still is."""
    corpus, cache, _ = stored_then_added(tmp_path, ["mtg-cr-2009-05-01", "mtg-cr-2009-07-08"],
                                         "CR-2008-10-01.txt", "2008-10-01")
    report = refreshed(corpus, cache)
    assert report.store_rows_copied["rule_texts"] == 0 and report.store_rows_copied["alignments"] == 1
    after, whole = tables_of(store_path(corpus, cache)), tables_of(whole_store(corpus, cache, tmp_path))
    assert [t for t in TABLES if after[t] != whole[t]] == []


def test_a_store_of_other_code_is_not_copied_from(tmp_path):
    cache = tmp_path / "cache"
    corpus = small_corpus(tmp_path / "corpus", ["mtg-cr-2008-10-01", "mtg-cr-2009-05-01"])
    path = build_store(corpus, cache)
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = ?, digest = ? WHERE key = 'reuse'",
               ('"another"', row_digest(("reuse", '"another"'))))
    db.commit()
    db.close()
    report = KnowledgeReport()
    build_store(corpus, cache, report, reuse=True)
    assert report.store_rows_copied == {"rule_texts": 0, "alignments": 0, "alignment_parts": 0}
