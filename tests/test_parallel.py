"""Work spread over two processes gives the bytes one process gives (``assemble/parallel.py``)."""

from __future__ import annotations

import gc
import hashlib
import os
import signal
import time
from pathlib import Path

import pytest

from rules_kb.assemble.parallel import Beside, map_in_order, worker_count
from rules_kb.errors import OutputError, SourceError


def _square_or_fail(number: int) -> int:
    if number == 7:
        raise SourceError("corpus/seven.txt", "seven is refused")
    return number * number


def test_results_come_in_the_order_asked_and_a_typed_error_crosses_whole():
    assert list(map_in_order(_square_or_fail, [(n,) for n in range(7)], workers=2)) == [n * n for n in range(7)]
    with pytest.raises(SourceError) as raised:
        list(map_in_order(_square_or_fail, [(n,) for n in range(10)], workers=2))
    assert str(raised.value) == str(SourceError("corpus/seven.txt", "seven is refused"))


class _Unpicklable:
    """A stand-in for the aligner's catalog: refuses to be pickled, so only a forked worker can have it."""

    def __init__(self, base: int) -> None:
        self.base = base

    def __reduce__(self):
        raise TypeError("sent through a pipe")


def _offset(shared: _Unpicklable, number: int) -> tuple[int, int]:
    return os.getpid(), shared.base + number


def test_what_every_job_shares_reaches_the_workers_once_not_with_each_job():
    """``shared`` is each call's first argument; a worker inherits it as it forks (an object that
    cannot be pickled gets there), and one process gives the same results."""
    shared = _Unpicklable(100)
    jobs = [(n,) for n in range(12)]
    two = list(map_in_order(_offset, jobs, workers=2, shared=shared))
    assert [value for _, value in two] == [100 + n for n in range(12)]
    assert os.getpid() not in {pid for pid, _ in two}
    one = list(map_in_order(_offset, jobs, workers=1, shared=shared))
    assert [value for _, value in one] == [value for _, value in two] and {pid for pid, _ in one} == {os.getpid()}


def _pid_and(value):
    return os.getpid(), value


def _interrupted():
    raise KeyboardInterrupt


def _killed():
    os.kill(os.getpid(), signal.SIGKILL)


def test_work_beside_returns_from_another_process_or_raises_what_it_raised():
    """``Beside`` (the site's second page group, the index written while the store is): the child's
    result, its typed error with its own arguments, a Ctrl-C, and a child the kernel killed."""
    pid, value = Beside("site", _pid_and, {"pages": 3}).result()
    assert pid != os.getpid() and value == {"pages": 3}
    with pytest.raises(SourceError) as raised:
        Beside("site", _square_or_fail, 7).result()
    assert str(raised.value) == str(SourceError("corpus/seven.txt", "seven is refused"))
    with pytest.raises(KeyboardInterrupt):
        Beside("site", _interrupted).result()
    with pytest.raises(OutputError, match=r"^build/site: cannot write: the second process ended without a word"):
        Beside("build/site", _killed).result()


def test_a_freeze_made_before_the_second_process_outlives_it():
    """``Beside`` freezes what is alive at the fork and thaws it when the child ends, but only when it
    made the first freeze: a caller's own (the test workers keep their session's heap frozen) stays.
    Before, every child's end thawed everything, and each site build undid the tests' freeze."""
    gc.collect()
    gc.freeze()
    frozen = gc.get_freeze_count()
    try:
        assert Beside("site", len, "four").result() == 4
        assert gc.get_freeze_count() >= frozen
        gc.unfreeze()
        assert Beside("site", len, "three").result() == 5
        assert gc.get_freeze_count() == 0
    finally:
        gc.freeze()  # the session's heap, as conftest keeps it


def _cleans_up(ready: str, cleaned: str) -> None:
    import time

    Path(ready).touch()
    try:
        time.sleep(60)
    finally:
        Path(cleaned).touch()


def test_a_cancelled_child_runs_its_clean_up_and_ends(tmp_path):
    """Also where SIGINT is ignored (pytest-xdist's workers, a job started with ``&``): this failed in
    CI when ``cancel`` sent SIGINT, and the child slept until it was killed."""
    ready, cleaned = tmp_path / "ready", tmp_path / "cleaned"
    side = Beside("site", _cleans_up, str(ready), str(cleaned))
    for _ in range(200):
        if ready.exists():
            break
        time.sleep(0.05)
    side.cancel()
    assert cleaned.exists()  # its finally ran: stopped, not killed (as it would be after CANCEL_SECONDS)


def test_the_worker_count_is_read_from_the_environment():
    assert worker_count({"RULES_KB_WORKERS": "1"}) == 1
    assert worker_count({"RULES_KB_WORKERS": "3"}) == 3
    assert worker_count({"RULES_KB_WORKERS": "none"}) in (1, 2)


def test_ingest_writes_the_same_model_from_one_process_and_two(cli, tmp_path, monkeypatch):
    from rules_kb.cli import common

    outputs = {}
    for workers in ("1", "2"):
        monkeypatch.setenv("RULES_KB_WORKERS", workers)
        monkeypatch.setattr(common, "DEFAULT_CACHE", tmp_path / f"cache-{workers}")  # each run parses every document
        path = tmp_path / f"model-{workers}.jsonl"
        code, out, err = cli("ingest", "--anomalies", "--json", str(path))
        assert (code, err) == (0, "")
        outputs[workers] = (out, hashlib.sha256(path.read_bytes()).hexdigest())
    assert outputs["1"] == outputs["2"]
    summary = outputs["1"][0]
    assert "mtg-cr-2024-11-08: " in summary and "dm-rulebook-ja-1.48: " in summary


def _tables(path) -> dict[str, list[tuple]]:
    import sqlite3

    db = sqlite3.connect(path)
    try:
        names = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        return {name: db.execute(f"SELECT * FROM {name}").fetchall() for name in names}
    finally:
        db.close()


def test_store_and_graph_are_the_same_from_one_process_and_two(tmp_path, monkeypatch):
    """Three Magic releases (two adjacent pairs aligned) and a Duel Masters page, parsed and aligned
    in one process and in two: every table of the store holds the same rows in the same order."""
    from conftest import CORPUS

    from rules_kb.assemble.knowledge import build_knowledge
    from rules_kb.assemble.stored import build_store
    from rules_kb.ingest.corpus import MANIFEST, load_manifest, manifest_entry
    from rules_kb.render.export import graph_to_json

    chosen = ("seed-000", "mtg-cr-2001-07-23", "mtg-cr-2001-09-24", "mtg-cr-2002-02-20")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for entry in CORPUS.iterdir():
        if entry.name != MANIFEST:
            (corpus / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    metas = [meta for meta in load_manifest(CORPUS) if meta.id in chosen]
    (corpus / MANIFEST).write_text("\n".join(manifest_entry(meta) for meta in metas), encoding="utf-8")
    tables, graphs = {}, {}
    for workers in ("1", "2"):
        monkeypatch.setenv("RULES_KB_WORKERS", workers)
        tables[workers] = _tables(build_store(corpus, tmp_path / f"cache-{workers}"))
        graphs[workers] = graph_to_json(build_knowledge(corpus).graph)
    assert len(tables["1"]["alignments"]) == 2 and len(tables["1"]["rule_texts"]) > 1500
    assert tables["1"] == tables["2"]
    assert graphs["1"] == graphs["2"]


def test_build_writes_the_graph_and_store_the_separate_commands_write(cli, tmp_path):
    """``make build`` builds the knowledge base once: ``build --graph --store`` writes the bytes
    ``graph export`` writes and the rows ``store --rebuild`` writes."""
    from conftest import FIXTURES

    from rules_kb.assemble.stored import store_path
    from rules_kb.cli import common

    hostile = str(FIXTURES / "hostile")
    code, out, err = cli("--corpus", hostile, "build", "--out", str(tmp_path / "site"), "--graph",
                         str(tmp_path / "together.json"), "--store")
    assert code == 0, err
    assert "wrote " + str(tmp_path / "together.json") in out and (tmp_path / "site" / "index.html").is_file()
    stored = _tables(store_path(FIXTURES / "hostile", common.DEFAULT_CACHE))
    assert cli("--corpus", hostile, "graph", "export", str(tmp_path / "alone.json"))[0] == 0
    assert cli("--corpus", hostile, "store", "--rebuild")[0] == 0
    assert (tmp_path / "together.json").read_bytes() == (tmp_path / "alone.json").read_bytes()
    assert stored == _tables(store_path(FIXTURES / "hostile", common.DEFAULT_CACHE))
    code, out, _ = cli("--corpus", hostile, "build", "--out", str(tmp_path / "site"), "--store")
    assert code == 0 and "wrote " not in out.split("built ")[0]  # a current store is left alone
