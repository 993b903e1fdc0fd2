"""Checksums of what the test subset builds: the ingest JSON, the graph export, the store's
tables and the site's files, each as the first 8 hex digits of a SHA-256.

A refactor that claims "behaviour unchanged" runs this before and after and compares the four
lines. The subset is the test suite's (tests/conftest.py: every document but the Magic
releases from the history), built with a cache of its own in a temporary folder, so nothing
under build/ is read or written.

    python benchmarks/subset_checksums.py            # the four checksums
    python benchmarks/subset_checksums.py --keep DIR # also keep what was built in DIR
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules_kb.ingest.corpus import MANIFEST, manifest_entry  # noqa: E402
from tests.conftest import CORPUS, SUBSET  # noqa: E402  (the suite's subset, not a copy of it)


def subset_corpus(folder: Path) -> Path:
    """The subset as a corpus folder: the corpus's files linked, the manifest filtered."""
    folder.mkdir(parents=True)
    for entry in CORPUS.iterdir():
        if entry.name != MANIFEST:
            (folder / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    (folder / MANIFEST).write_text("\n".join(manifest_entry(meta) for meta in SUBSET), encoding="utf-8")
    return folder


def digest_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:8]


def site_bytes(path: Path) -> bytes:
    """A site file's bytes; the reuse manifest's without its salt, which hashes the package's source."""
    if path.name != ".rules-kb-units.json":
        return path.read_bytes()
    units = json.loads(path.read_text(encoding="utf-8"))
    units.pop("salt", None)
    return json.dumps(units, sort_keys=True).encode()


def digest_tree(folder: Path) -> tuple[str, int]:
    """Every file's path and bytes, in path order."""
    total = hashlib.sha256()
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    for path in files:
        total.update(path.relative_to(folder).as_posix().encode() + b"\0")
        total.update(hashlib.sha256(site_bytes(path)).digest())
    return total.hexdigest()[:8], len(files)


def digest_store(path: Path) -> str:
    """Every table's name, columns and rows (sorted), not the file's bytes (page layout may vary),
    and not the meta rows ``input_key`` (it hashes the package's source, which a refactor changes) and
    ``files`` (the corpus files' times: another checkout of the same corpus has other times)."""
    total = hashlib.sha256()
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
    for table in tables:
        cursor = db.execute(f'SELECT * FROM "{table}"')
        total.update(table.encode() + repr([c[0] for c in cursor.description]).encode())
        for row in sorted(repr(row) for row in cursor if not (table == "meta" and row[0] in ("input_key", "files"))):
            total.update(row.encode())
    db.close()
    return total.hexdigest()[:8]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", type=Path, help="build in this (new) folder and keep it")
    parser.add_argument("--built", type=Path, help="only digest what --keep built there before")
    args = parser.parse_args()
    if args.built:
        return report(args.built)
    work = args.keep or Path(tempfile.mkdtemp(prefix="subset-checksums-"))
    corpus = subset_corpus(work / "corpus")
    env = {**os.environ, "RULES_KB_CACHE": str(work / "cache"), "PYTHONPATH": str(ROOT)}
    run_cli = "import sys; from rules_kb.cli import main; sys.exit(main())"
    command = [sys.executable, "-c", run_cli, "--corpus", str(corpus)]
    steps = [["ingest", "--json", str(work / "model.jsonl")],
             ["graph", "export", "--format", "json", str(work / "graph.json")],
             ["store"],
             ["build", "--out", str(work / "site")]]
    for step in steps:
        subprocess.run(command + step, env=env, check=True, stdout=subprocess.DEVNULL)
    return report(work)


def report(work: Path) -> int:
    store = next((work / "cache").glob("store-*.sqlite"))
    site, files = digest_tree(work / "site")
    print(f"ingest {digest_file(work / 'model.jsonl')}")
    print(f"graph  {digest_file(work / 'graph.json')}")
    print(f"store  {digest_store(store)}")
    print(f"site   {site} ({files:,} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
