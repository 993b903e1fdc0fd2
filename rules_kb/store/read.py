"""Open the store and read rows, checking each one against its digest.

A file that is not SQLite, is shorter or longer than its header says, was written by another
format, or holds a row whose digest does not match raises ``StoreDamaged``; the caller
rebuilds. Nothing here raises ``sqlite3`` errors to the user.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from rules_kb.store.schema import FORMAT, row_digest

HEADER = b"SQLite format 3\x00"


class StoreDamaged(Exception):
    """The store cannot be trusted: rebuild it (not a user error, so not a ``RulesKbError``)."""


class StoreOutdated(StoreDamaged):
    """The store was written in another format (an older rules-kb): rebuild it, nothing is wrong."""


class Store:
    """A read-only connection to one store file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        _check_file(path)
        try:
            self.db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreDamaged(f"cannot open: {exc}") from None
        self.meta = {key: value for key, value in self.rows("SELECT * FROM meta")}
        if self.meta.get("format") != FORMAT:
            raise StoreOutdated(f"format {self.meta.get('format')!r}, expected {FORMAT!r}")

    def rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Rows of a query whose last column is ``digest``, each checked and returned without it."""
        try:
            fetched = self.db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise StoreDamaged(str(exc)) from None
        out = []
        for row in fetched:
            *values, digest = row
            if row_digest(tuple(values)) != digest:
                raise StoreDamaged(f"a row fails its check: {sql.split('FROM')[-1].split()[0]}")
            out.append(tuple(values))
        return out

    def raw(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Unchecked rows (distinct keys, never text that is printed as read)."""
        try:
            return self.db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise StoreDamaged(str(exc)) from None

    def values(self, sql: str, params: tuple = ()) -> list:
        """A single unchecked column."""
        return [row[0] for row in self.raw(sql, params)]

    def meta_json(self, key: str):
        try:
            return json.loads(self.meta[key])
        except (KeyError, ValueError) as exc:
            raise StoreDamaged(f"meta {key}: {exc}") from None

    def close(self) -> None:
        self.db.close()


def _check_file(path: Path) -> None:
    """Header and length agree (a truncated or extended file is damaged); cheap, no full read."""
    try:
        with path.open("rb") as handle:
            header = handle.read(100)
            size = handle.seek(0, 2)
    except OSError as exc:
        raise StoreDamaged(f"cannot read: {exc.strerror}") from None
    if len(header) < 100 or not header.startswith(HEADER):
        raise StoreDamaged("not an SQLite file")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    if pages == 0 or size != page_size * pages:
        raise StoreDamaged(f"{size} bytes where the header promises {pages} pages of {page_size}")
