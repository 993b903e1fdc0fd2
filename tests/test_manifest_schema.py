"""The manifest is checked against a schema: typed fields, paths confined to the corpus.

Every case printed a traceback or was silently misread before the schema (``versions =
"1.38"`` became the versions ``1``, ``.``, ``3``, ``8``; ``file = "../x"`` read outside).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from conftest import CORPUS

SEED = CORPUS / "seeds/000_4db7e39e89e37720.txt"
DIGEST = hashlib.sha256(SEED.read_bytes()).hexdigest()
GOOD = {"id": '"seed-000"', "file": '"seed.txt"', "sha256": f'"{DIGEST}"', "game": '"dm"',
        "languages": '["en", "ja"]', "format": '"fandom-text"', "kind": '"rules"', "versions": '["1.38"]'}


def make_corpus(root: Path, **fields: str) -> Path:
    corpus = root / "corpus"
    corpus.mkdir()
    (corpus / "seed.txt").write_bytes(SEED.read_bytes())
    entry = {**GOOD, **fields}
    lines = ["[[document]]"] + [f"{key} = {value}" for key, value in entry.items() if value is not None]
    (corpus / "manifest.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return corpus


def assert_one_error_line(cli, corpus: Path, *words: str) -> None:
    code, out, err = cli("--corpus", str(corpus), "ingest")
    assert code == 1 and out == ""
    assert err.startswith("Error: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err


def test_the_good_entry_ingests(cli, tmp_path):
    code, out, _ = cli("--corpus", str(make_corpus(tmp_path)), "ingest")
    assert code == 0 and out.startswith("seed-000: ")


@pytest.mark.parametrize(("fields", "words"), [
    ({"versions": '"1.38"'}, ["versions must be a list of strings, not '1.38'"]),
    ({"id": "5"}, ["id must be a string", "not 5"]),
    ({"sha256": "12"}, ["sha256 must be a string", "not 12"]),
    ({"languages": '"en"'}, ["languages must be a list of strings"]),
    ({"versions": '["1.38\\"x"]'}, ["versions: '1.38\"x' does not match"]),
    ({"dates": '["next week"]'}, ["dates: 'next week' does not match"]),
    ({"file": '"/etc/hostname"'}, ["file must be a relative path inside the corpus, not '/etc/hostname'"]),
    ({"file": '"../outside.txt"'}, ["file must be a relative path inside the corpus, not '../outside.txt'"]),
    ({"file": '"sub/../../outside.txt"'}, ["relative path inside the corpus"]),
])
def test_mistyped_fields_are_refused(cli, tmp_path, fields, words):
    assert_one_error_line(cli, make_corpus(tmp_path, **fields), "manifest.toml", *words)


def test_an_entry_that_is_not_a_table_is_refused(cli, tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "manifest.toml").write_text("document = [5]\n", encoding="utf-8")
    assert_one_error_line(cli, corpus, "document 0: must be a table")


def test_a_file_on_a_symlink_loop_is_an_error_line(cli, tmp_path):
    corpus = make_corpus(tmp_path, file='"loop.txt"')
    (corpus / "loop.txt").symlink_to(corpus / "loop.txt")
    assert_one_error_line(cli, corpus, "loop.txt: cannot read: Too many levels of symbolic links")


def test_an_entry_whose_file_is_a_directory_is_refused(cli, tmp_path):
    corpus = make_corpus(tmp_path, file='"folder"')
    (corpus / "folder").mkdir()
    assert_one_error_line(cli, corpus, "folder: cannot read: a directory, not a regular file")


@pytest.mark.parametrize(("setup", "words"), [
    ("invalid-utf8", ["manifest.toml:7: invalid UTF-8"]),
    ("directory", ["manifest.toml: cannot read: a directory, not a regular file"]),
    ("fifo", ["manifest.toml: cannot read: a FIFO, not a regular file"]),
])
def test_an_unreadable_manifest_is_an_error_line(cli, tmp_path, setup, words):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    manifest = corpus / "manifest.toml"
    if setup == "invalid-utf8":
        manifest.write_bytes(b"# bad: \xff\xfe\n")
    elif setup == "directory":
        manifest.mkdir()
    else:
        os.mkfifo(manifest)  # no writer: reading it used to block forever
    assert_one_error_line(cli, corpus, *words)


def test_corpus_that_is_a_file_is_an_error_line(cli, tmp_path):
    plain = tmp_path / "passwd"
    plain.write_text("root:x:0:0\n", encoding="utf-8")
    assert_one_error_line(cli, plain, f"{plain}: corpus folder: not a directory")


def test_corpus_on_a_symlink_loop_is_an_error_line(cli, tmp_path):
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    assert_one_error_line(cli, loop, "corpus folder")
