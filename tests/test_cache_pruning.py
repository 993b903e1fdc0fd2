"""Caches are pruned: a command that writes them ends by removing, least recently used first, what
it did not use, down to ``RULES_KB_CACHE_MAX_MB`` (``assemble.caches.prune_caches``)."""

from __future__ import annotations

import os
import time

from conftest import SUBSET

from rules_kb.assemble.caches import Pruned, prune_caches, read_cache_file, write_cache_file


def _entry(path, size: int, age: float):
    """A file of ``size`` bytes last used ``age`` seconds ago."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x" * size)
    then = time.time() - age
    os.utime(path, (then, then))
    return path


def test_the_least_recently_used_go_first_and_what_this_run_used_stays(tmp_path):
    root, search = tmp_path / "cache", tmp_path / "search"
    oldest_index = _entry(search / "0123456789abcdef" / "search-index" / "meta.json", 300, 5000)
    _entry(search / "0123456789abcdef" / "digests.json", 100, 4000)  # the folder's newest file: 4,000 s ago
    old_parse = _entry(root / "parsed" / "a.json", 1000, 3000)
    old_report = _entry(root / "ingested" / "b.json", 1000, 2000)
    used = [_entry(root / "aligned" / "c.json", 5000, 1), _entry(root / "compare" / "d.json", 5000, 0),
            _entry(search / "fedcba9876543210" / "digests.json", 5000, 0)]
    store = _entry(root / "store-0123.sqlite", 9000, 9000)  # one per corpus folder: never pruned
    since = time.time() - 60

    # Over the limit by 1,400 bytes: the index folder (400 bytes, used 4,000 s ago) and the parse go.
    pruned = prune_caches(root, search, since, limit=16_000)
    assert pruned == Pruned(removed=2, removed_bytes=1400, kept_bytes=16_000)
    assert not oldest_index.parent.parent.exists() and not old_parse.exists() and old_report.exists()

    # A limit of nothing removes everything not used since the run began, and nothing it used.
    assert prune_caches(root, search, since, limit=0) == Pruned(1, 1000, 15_000)
    assert not old_report.exists() and all(path.exists() for path in used) and store.exists()


def test_reading_an_entry_marks_it_used(tmp_path):
    path = tmp_path / "parsed" / "e.json"
    path.parent.mkdir()
    assert write_cache_file(path, '{"a": 1}')
    os.utime(path, (1_000_000, 1_000_000))
    before = time.time() - 1
    assert read_cache_file(path) == {"a": 1}
    assert path.stat().st_mtime >= before
    assert prune_caches(tmp_path, tmp_path / "search", before, limit=0).removed == 0


def test_ingest_prunes_what_older_code_left_and_keeps_its_own(cli, tmp_path, monkeypatch):
    """Entries of another code (old mtimes, names this code never asks) go after `ingest`, with one
    note; the reports and parses the run read back stay, so the next run still parses nothing."""
    from rules_kb.cli import common

    cache = tmp_path / "cache"
    monkeypatch.setattr(common, "DEFAULT_CACHE", cache)
    monkeypatch.setattr(common, "DEFAULT_SEARCH", tmp_path / "search")
    assert cli("ingest")[0] == 0
    own = sorted(p.relative_to(cache) for p in cache.rglob("*.json"))
    assert own and {p.parts[0] for p in own} == {"parsed", "ingested"}
    for path in cache.rglob("*.json"):  # written by an earlier run, long ago
        os.utime(path, (time.time() - 86_400, time.time() - 86_400))
    stale = [_entry(cache / "parsed" / ("0" * 32 + ".json"), 2 * 1024 * 1024, 7 * 86_400),
             _entry(cache / "ingested" / ("1" * 32 + ".json"), 1024 * 1024, 7 * 86_400),
             _entry(tmp_path / "search" / ("2" * 16) / "digests.json", 1024 * 1024, 3 * 86_400)]

    monkeypatch.setenv("RULES_KB_CACHE_MAX_MB", "0")
    code, out, err = cli("ingest")
    assert code == 0 and out.count("100.00% accounted") == len(SUBSET)
    assert err.startswith("note: removed 3 cache entries this run did not use (4 MB, least recently used first); ")
    assert err.endswith("MB kept (RULES_KB_CACHE_MAX_MB=0)\n") and err.count("\n") == 1
    assert not any(path.exists() for path in stale)
    assert sorted(p.relative_to(cache) for p in cache.rglob("*.json")) == own


def test_a_limit_that_is_not_a_number_stops_the_command_before_any_work(cli, tmp_path, monkeypatch):
    from rules_kb.cli import common

    monkeypatch.setattr(common, "DEFAULT_CACHE", tmp_path / "cache")
    monkeypatch.setenv("RULES_KB_CACHE_MAX_MB", "lots")
    code, out, err = cli("ingest", "--json", str(tmp_path / "model.jsonl"))
    assert (code, out) == (1, "")
    assert err == "Error: RULES_KB_CACHE_MAX_MB='lots': not a whole number of megabytes\n"
    assert not (tmp_path / "model.jsonl").exists() and not (tmp_path / "cache").exists()
