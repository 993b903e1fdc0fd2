"""Issue 22: one cache root (RULES_KB_CACHE honoured by every cache), checked before use, and a
store that notices a same-size edit whose mtime was put back."""

from __future__ import annotations

import os

import pytest
from test_store import DM_SEEDS, small_corpus

from rules_kb.assemble.caches import cache_root, search_root


def test_rules_kb_cache_moves_every_cache_search_included(tmp_path):
    """Before: ``search`` wrote ``build/search`` inside the repository even with RULES_KB_CACHE set,
    so a read-only checkout failed."""
    environ = {"RULES_KB_CACHE": str(tmp_path / "c")}
    assert cache_root(environ) == tmp_path / "c"
    assert search_root(environ) == tmp_path / "c" / "search"
    assert search_root({}).parent == cache_root({}).parent  # unset: build/search beside build/cache


@pytest.mark.parametrize("kind", ["file", "fifo"])
def test_a_cache_root_that_is_not_a_folder_is_one_error_line(cli, tmp_path, monkeypatch, kind):
    """Before: a traceback (FileExistsError / NotADirectoryError)."""
    from rules_kb.cli import common

    root = tmp_path / "cache"
    if kind == "file":
        root.write_text("mine\n", encoding="utf-8")
    else:
        os.mkfifo(root)
    monkeypatch.setattr(common, "DEFAULT_CACHE", root)
    code, out, err = cli("show", "507.2a", "--game", "dm")
    described = {"file": "a regular file", "fifo": "a FIFO"}[kind]
    assert (code, out) == (1, "")
    assert err == f"Error: {root}: the cache folder (RULES_KB_CACHE) is {described}, not a folder\n"


def test_a_missing_cache_root_is_made(tmp_path, monkeypatch, capsys):
    from rules_kb import cli
    from rules_kb.cli import common

    corpus = small_corpus(tmp_path / "corpus", DM_SEEDS)
    monkeypatch.setattr(common, "DEFAULT_CACHE", tmp_path / "not" / "yet")
    assert cli.main(["--corpus", str(corpus), "show", "507.2a", "--game", "dm", "--lang", "ja"]) == 0
    assert "ブロッカー" in capsys.readouterr().out
    assert any(p.name.startswith("store-") for p in (tmp_path / "not" / "yet").iterdir())


def test_a_same_size_edit_with_its_mtime_put_back_is_noticed(tmp_path, monkeypatch, capsys):
    """Before: the store answered from the old text while ``ingest`` reported the checksum mismatch."""
    from rules_kb import cli
    from rules_kb.cli import common

    corpus = small_corpus(tmp_path / "corpus", DM_SEEDS)
    monkeypatch.setattr(common, "DEFAULT_CACHE", tmp_path / "cache")
    argv = ["--corpus", str(corpus), "show", "507.2a", "--game", "dm", "--lang", "ja"]
    assert cli.main(argv) == 0
    capsys.readouterr()
    edited = next(p for p in (corpus / "seeds").iterdir() if p.name.startswith("000_"))
    before = edited.stat()
    data = edited.read_bytes()
    at = data.index("ブロッカー".encode())
    edited.write_bytes(data[:at] + "ブロッガー".encode() + data[at + len("ブロッカー".encode()):])
    os.utime(edited, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (edited.stat().st_size, edited.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert cli.main(argv) == 1
    assert capsys.readouterr().err.startswith(f"Error: seeds/{edited.name}: sha256 mismatch")


@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_a_store_path_holding_no_store_never_hangs_or_crashes(tmp_path, monkeypatch, capsys, kind):
    """Before: a FIFO in place of the store hung the lookup; a directory gave a traceback."""
    from rules_kb import cli
    from rules_kb.assemble.stored import store_path
    from rules_kb.cli import common

    corpus = small_corpus(tmp_path / "corpus", DM_SEEDS)
    cache = tmp_path / "cache"
    cache.mkdir()
    monkeypatch.setattr(common, "DEFAULT_CACHE", cache)
    path = store_path(corpus, cache)
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()
    code = cli.main(["--corpus", str(corpus), "show", "507.2a", "--game", "dm", "--lang", "ja"])
    out, err = capsys.readouterr()
    if kind == "fifo":
        assert code == 0 and "ブロッカー" in out
        assert err == f"warning: {path} is a FIFO, not a store; rebuilding it\n"
        assert path.is_file()
    else:
        assert (code, out) == (1, "")
        assert err == f"Error: {path}: a directory where the store belongs: refused rather than removed\n"
        assert path.is_dir()


def test_a_cache_file_is_readable_by_others_and_clears_what_a_killed_writer_left(tmp_path):
    """Before: cache JSON files were 0600 (mkstemp's mode), and the ``.tmp`` files of a killed or
    size-limited run stayed in ``build/cache/parsed`` for good."""
    from rules_kb.assemble.caches import write_cache_file

    left = tmp_path / ".entry.json.k2j4.tmp"
    left.write_text('{"half', encoding="utf-8")
    previous = os.umask(0o022)
    try:
        assert write_cache_file(tmp_path / "entry.json", '{"whole": true}')
    finally:
        os.umask(previous)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["entry.json"]
    assert (tmp_path / "entry.json").stat().st_mode & 0o777 == 0o644


def test_a_damaged_store_in_a_read_only_cache_is_one_line_naming_the_store(tmp_path, monkeypatch, capsys):
    """Before: the rebuild's error named a temporary file that never existed. A read-only folder is
    simulated (the suite runs as root, for whom permissions do not hold) by the folder refusing new files."""
    import errno
    import tempfile

    from rules_kb import cli
    from rules_kb.assemble.stored import store_path
    from rules_kb.cli import common

    corpus = small_corpus(tmp_path / "corpus", DM_SEEDS)
    cache = tmp_path / "cache"
    monkeypatch.setattr(common, "DEFAULT_CACHE", cache)
    argv = ["--corpus", str(corpus), "show", "507.2a", "--game", "dm", "--lang", "ja"]
    assert cli.main(argv) == 0
    capsys.readouterr()
    path = store_path(corpus, cache)
    path.write_bytes(b"Z" * 100 + path.read_bytes()[100:])  # the SQLite header overwritten

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    assert cli.main(argv) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        f"warning: {path} is damaged (not an SQLite file); rebuilding it",
        f"Error: {path}: cannot write: Read-only file system in {cache} (RULES_KB_CACHE can name a writable folder)"]
