"""Checksums of what a build writes, to show a change left the output byte-identical.

    python benchmarks/checksums.py [--site DIR] [--store FILE] [--graph FILE] [--model FILE] [--files]

Prints one line per output: the site (every file's path and bytes, in path order: one digest and
a count; ``--files`` lists each file's digest), each table of the store (its rows in key order,
as SQLite returns them) and ``graph.json`` / ``model.jsonl`` as files. Two builds of the same
corpus print the same lines; ``diff`` of two runs names what moved. The store's ``meta`` rows
``input_key`` and ``files`` are left out: they hold the package's source hash and the corpus
files' mtimes, which a code change or a fresh clone moves without changing anything stored; the
site's units manifest is digested without its salt, the package's source hash, for the same reason.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sqlite3
from pathlib import Path

UNSTABLE_META = ("input_key", "files")
UNITS = ".rules-kb-units.json"


def file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def site_digests(site: Path) -> dict[str, str]:
    """relative path -> sha256 of every file under ``site``. The units manifest is digested without
    its ``salt`` (the package's source hash: any code change moves it, by design) and without its
    units' keys (how the code names a unit's inputs: session 33 named versions by their documents'
    parse keys instead of every text, same inputs, other digests); its files and units' data stay."""
    out = {}
    for folder, _, names in os.walk(site):
        for name in names:
            path = Path(folder) / name
            if name == UNITS:
                record = json.loads(path.read_text(encoding="utf-8"))
                record.pop("salt", None)
                for unit in record.get("units", {}).values():
                    unit.pop("key", None)
                out[path.relative_to(site).as_posix()] = hashlib.sha256(
                    json.dumps(record, sort_keys=True).encode()).hexdigest()
                continue
            out[path.relative_to(site).as_posix()] = file_digest(path)
    return dict(sorted(out.items()))


def site_line(site: Path, listing: bool = False) -> list[str]:
    digests = site_digests(site)
    whole = hashlib.sha256("".join(f"{k}\0{v}\n" for k, v in digests.items()).encode()).hexdigest()
    lines = [f"site {len(digests)} files {whole}"]
    if listing:
        lines.extend(f"  {digest} {path}" for path, digest in digests.items())
    return lines


def store_lines(store: Path) -> list[str]:
    """One line per table: row count and sha256 of its rows, ordered by every column."""
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        lines = []
        for table in tables:
            where = f" WHERE key NOT IN {UNSTABLE_META}" if table == "meta" else ""
            digest = hashlib.sha256()
            count = 0
            width = len(db.execute(f"SELECT * FROM {table} LIMIT 0").description)
            order = ", ".join(str(i) for i in range(1, width + 1))  # every column: ties cannot reorder
            for row in db.execute(f"SELECT * FROM {table}{where} ORDER BY {order}"):
                digest.update(repr(row).encode("utf-8"))
                count += 1
            lines.append(f"store.{table} {count} rows {digest.hexdigest()}")
        return lines
    finally:
        db.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path)
    parser.add_argument("--store", type=Path)
    parser.add_argument("--graph", type=Path)
    parser.add_argument("--model", type=Path)
    parser.add_argument("--files", action="store_true", help="list every site file's digest")
    args = parser.parse_args()
    lines = []
    for name, path in (("graph.json", args.graph), ("model.jsonl", args.model)):
        if path is not None:
            lines.append(f"{name} {path.stat().st_size} bytes {file_digest(path)}")
    if args.store is not None:
        lines.extend(store_lines(args.store))
    if args.site is not None:
        lines.extend(site_line(args.site, args.files))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
