"""Issue 38, item 4: the one rule for reading a cache or corpus file (``ingest/reading.py``,
``assemble/caches.read_cache_file``). A FIFO, a file nested 100,000 levels deep or one that is not
what was written, wherever a cache file belongs, is rebuilt with one warning line; in the corpus
it is one error line. Real processes with a deadline, real FIFOs."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES

RULES_KB = str(Path(sys.executable).parent / "rules-kb")
HOSTILE = FIXTURES / "hostile"
DEEP = b"[" * 100_000


def run(cache: Path, *argv: str, stdin: str | None = None, corpus: Path = HOSTILE) -> subprocess.CompletedProcess:
    return subprocess.run([RULES_KB, "--corpus", str(corpus), *argv], capture_output=True, text=True, timeout=60,
                          input=stdin, env={**os.environ, "RULES_KB_CACHE": str(cache), "NO_COLOR": "1"})


def sealed(body: bytes) -> bytes:
    """A cache file whose recorded digest is right, so only its nesting is wrong."""
    return b"rules-kb cache sha256=" + hashlib.sha256(body).hexdigest().encode() + b"\n" + body


def fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def deep(path: Path) -> None:
    path.write_bytes(DEEP)


def deep_sealed(path: Path) -> None:
    path.write_bytes(sealed(DEEP))


@pytest.fixture
def warm(tmp_path) -> tuple[Path, str]:
    """A cache holding the hostile corpus's parsed document and store, and `show`'s answer from it."""
    cache = tmp_path / "cache"
    done = run(cache, "show", "100.1a")
    assert done.returncode == 0, done.stderr
    return cache, done.stdout


@pytest.mark.parametrize(("damage", "problem"), [
    (fifo, "cannot read: a FIFO, not a regular file"),
    (deep, "not a rules-kb cache file (no digest on its first line)"),
    (deep_sealed, "nested too deeply to read"),
])
def test_a_damaged_parsed_document_is_rebuilt_with_one_warning(warm, damage, problem):
    """Before: a FIFO hung `show` and `build`; '[' * 100000 was a RecursionError traceback on every run."""
    cache, answer = warm
    (entry,) = (cache / "parsed").iterdir()
    damage(entry)
    for store in cache.glob("store-*.sqlite"):
        store.unlink()  # the store is rebuilt from the parsed documents
    done = run(cache, "show", "100.1a")
    assert (done.returncode, done.stdout) == (0, answer)
    assert done.stderr == f"warning: the parsed-document cache: {entry}: {problem}; rebuilt\n"
    assert entry.is_file() and run(cache, "show", "100.1a").stderr == ""  # rebuilt: the next run is quiet


@pytest.mark.parametrize("damage", [fifo, deep_sealed])
def test_a_damaged_note_index_is_rebuilt_with_one_warning(tmp_path, damage):
    cache = tmp_path / "cache"
    first = run(cache, "link", "-", stdin="see rule 100.1a\n")
    assert first.returncode == 0, first.stderr
    (index,) = cache.glob("note-index-*.json")
    damage(index)
    done = run(cache, "link", "-", stdin="see rule 100.1a\n")
    assert (done.returncode, done.stdout) == (0, first.stdout)
    assert done.stderr.startswith(f"warning: the note index: {index}: ") and done.stderr.count("\n") == 1


def test_a_deeply_nested_search_digest_table_is_rebuilt_with_one_warning(tmp_path):
    cache = tmp_path / "cache"
    first = run(cache, "search", "literal")
    assert first.returncode == 0, first.stderr
    (digests,) = (cache / "search").glob("*/digests.json")
    deep_sealed(digests)
    done = run(cache, "search", "literal")
    assert (done.returncode, done.stdout) == (0, first.stdout)
    assert done.stderr == (f"warning: the search index is damaged ({digests}: nested too deeply to read); "
                           "rebuilding it\n")


def test_a_deeply_nested_corpus_file_is_one_error_line(tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(HOSTILE, corpus)
    (corpus / "terms.toml").write_text("a = " + "[" * 100_000, encoding="utf-8")
    done = run(tmp_path / "cache", "versions", corpus=corpus)
    assert done.returncode == 1
    assert done.stderr == f"Error: {corpus / 'terms.toml'}: nested too deeply to read\n"
