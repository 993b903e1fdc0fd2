"""Inputs are regular files under a size cap: no unbounded read, no blocking open."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import CORPUS

from rules_kb.errors import SourceError
from rules_kb.ingest.reading import MAX_SOURCE_BYTES, read_source

SEED = CORPUS / "seeds/004_9e840b7733df29ed.txt"


@pytest.mark.parametrize("command", ["parse", "add"])
@pytest.mark.parametrize(("path", "kind"), [("/dev/zero", "a character device"), ("/dev/null", "a character device")])
def test_devices_are_refused_before_reading(cli, tmp_path, command, path, kind):
    """Before: /dev/zero grew memory until the process was killed."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "manifest.toml").write_text("", encoding="utf-8")
    code, out, err = cli("--corpus", str(corpus), command, path)
    assert code == 1 and out == ""
    assert err == f"Error: {path}: cannot read: {kind}, not a regular file\n"


@pytest.mark.parametrize("command", ["parse", "add"])
def test_a_fifo_without_a_writer_is_refused_not_waited_for(cli, tmp_path, command):
    fifo = tmp_path / "rules.fifo"
    os.mkfifo(fifo)
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "manifest.toml").write_text("", encoding="utf-8")
    code, _, err = cli("--corpus", str(corpus), command, str(fifo))
    assert code == 1 and err == f"Error: {fifo}: cannot read: a FIFO, not a regular file\n"


def test_a_directory_is_refused(cli, tmp_path):
    code, _, err = cli("parse", str(tmp_path))
    assert code == 1 and err == f"Error: {tmp_path}: cannot read: a directory, not a regular file\n"


def test_files_over_the_cap_are_refused_before_reading(tmp_path):
    big = tmp_path / "big.txt"
    with big.open("wb") as out:
        out.truncate(MAX_SOURCE_BYTES + 1)  # sparse: no disk used
    with pytest.raises(SourceError, match=r"too large: 67,108,865 bytes \(the limit is 67,108,864\)"):
        read_source(big)


def test_a_regular_file_under_the_cap_is_read_whole(tmp_path):
    assert read_source(SEED) == SEED.read_bytes()
    small = tmp_path / "small.txt"
    small.write_bytes(b"x" * 100)
    with pytest.raises(SourceError, match="too large: 100 bytes"):
        read_source(small, limit=99)


def test_missing_file_names_the_problem(tmp_path):
    with pytest.raises(SourceError, match="cannot read: No such file or directory"):
        read_source(Path(tmp_path / "nothing.txt"))
