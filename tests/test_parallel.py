"""Work spread over two processes gives the bytes one process gives (``assemble/parallel.py``)."""

from __future__ import annotations

import hashlib

import pytest

from rules_kb.assemble.parallel import map_in_order, worker_count
from rules_kb.errors import SourceError


def _square_or_fail(number: int) -> int:
    if number == 7:
        raise SourceError("corpus/seven.txt", "seven is refused")
    return number * number


def test_results_come_in_the_order_asked_and_a_typed_error_crosses_whole():
    assert list(map_in_order(_square_or_fail, [(n,) for n in range(7)], workers=2)) == [n * n for n in range(7)]
    with pytest.raises(SourceError) as raised:
        list(map_in_order(_square_or_fail, [(n,) for n in range(10)], workers=2))
    assert str(raised.value) == str(SourceError("corpus/seven.txt", "seven is refused"))


def test_the_worker_count_is_read_from_the_environment():
    assert worker_count({"RULES_KB_WORKERS": "1"}) == 1
    assert worker_count({"RULES_KB_WORKERS": "3"}) == 3
    assert worker_count({"RULES_KB_WORKERS": "none"}) in (1, 2)


def test_ingest_writes_the_same_model_from_one_process_and_two(cli, tmp_path, monkeypatch):
    outputs = {}
    for workers in ("1", "2"):
        monkeypatch.setenv("RULES_KB_WORKERS", workers)
        path = tmp_path / f"model-{workers}.jsonl"
        code, out, err = cli("ingest", "--anomalies", "--json", str(path))
        assert (code, err) == (0, "")
        outputs[workers] = (out, hashlib.sha256(path.read_bytes()).hexdigest())
    assert outputs["1"] == outputs["2"]
    summary = outputs["1"][0]
    assert "mtg-cr-2024-11-08: " in summary and "dm-rulebook-ja-1.48: " in summary
