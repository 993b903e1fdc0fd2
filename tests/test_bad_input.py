"""Bad input: one line naming the file, position and problem; non-zero exit; nothing written."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
from conftest import CORPUS, FIXTURES

from rules_kb.cli import main
from rules_kb.errors import SourceError
from rules_kb.ingest.decode import decode_document

SEED_000 = CORPUS / "seeds" / "000_4db7e39e89e37720.txt"

BAD_FILES = {
    # name: (bytes, words the one-line error must contain)
    "invalid-utf8.txt": (b"507.1. The non-active player \xc3\x28 chooses.\n", ["invalid UTF-8", ":29"]),
    "empty.txt": (b"", ["empty file"]),
    "blank.txt": (b"  \n\n \n", ["empty file"]),
    "binary.bin": (bytes(range(256)) * 4, ["binary content"]),
    "odd-utf16.txt": (b"\xff\xfe5\x000\x007\x00.", ["odd number of bytes"]),
}


def write_corpus(root: Path, name: str, data: bytes, fmt: str = "fandom-text", sha: str | None = None) -> Path:
    corpus = root / "corpus"
    corpus.mkdir()
    (corpus / name).write_bytes(data)
    digest = sha or hashlib.sha256(data).hexdigest()
    (corpus / "manifest.toml").write_text(
        f'[[document]]\nid = "bad"\nfile = "{name}"\nsha256 = "{digest}"\ngame = "dm"\n'
        f'languages = ["en"]\nformat = "{fmt}"\nkind = "rules"\n',
        encoding="utf-8",
    )
    return corpus


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_ingest_refuses_bad_bytes_with_one_line(tmp_path, capsys, name):
    data, words = BAD_FILES[name]
    corpus = write_corpus(tmp_path, name, data)
    out = tmp_path / "out" / "model.jsonl"
    code, _, err = run_cli(capsys, "--corpus", str(corpus), "ingest", "--json", str(out))
    assert code == 1
    assert err.count("\n") == 1 and err.startswith("Error: ") and name in err
    for word in words:
        assert word in err
    assert not out.exists()
    assert not list(tmp_path.glob("out/*"))


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_parse_refuses_bad_bytes_with_one_line(tmp_path, capsys, name):
    data, words = BAD_FILES[name]
    path = tmp_path / name
    path.write_bytes(data)
    code, out, err = run_cli(capsys, "parse", str(path))
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and name in err
    for word in words:
        assert word in err


def test_unknown_format_in_manifest(tmp_path, capsys):
    corpus = write_corpus(tmp_path, "page.txt", SEED_000.read_bytes(), fmt="word-doc")
    code, _, err = run_cli(capsys, "--corpus", str(corpus), "ingest")
    assert code == 1
    assert "unknown format 'word-doc'" in err and "page.txt" in err and err.count("\n") == 1


def test_text_of_no_known_format_is_refused(tmp_path, capsys):
    path = tmp_path / "recipe.txt"
    path.write_text("Boil the water.\nAdd two eggs.\nServe warm.\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "parse", str(path))
    assert code == 1 and out == ""
    assert "unknown format" in err and "recipe.txt" in err


def test_sha256_mismatch_is_refused_before_parsing(tmp_path, capsys):
    corpus = write_corpus(tmp_path, "seed.txt", SEED_000.read_bytes(), sha="0" * 64)
    out = tmp_path / "model.jsonl"
    code, _, err = run_cli(capsys, "--corpus", str(corpus), "ingest", "--json", str(out))
    assert code == 1
    assert "sha256 mismatch" in err and "seed.txt" in err
    assert not out.exists()


def test_missing_manifest(tmp_path, capsys):
    code, _, err = run_cli(capsys, "--corpus", str(tmp_path), "ingest")
    assert code == 1 and "manifest not found" in err


def test_corrupt_utf16_release_is_refused_at_offset_zero():
    """CR-2016-08-26: BOM replaced by two U+FFFD, odd length; the damage starts at byte 0."""
    data = (FIXTURES / "bad" / "CR-2016-08-26.txt").read_bytes()
    assert len(data) % 2 == 1
    with pytest.raises(SourceError) as caught:
        decode_document(data, "CR-2016-08-26.txt")
    assert caught.value.position == 0
    assert "corrupt UTF-16 LE" in str(caught.value)


def test_corrupt_release_through_the_cli(tmp_path, capsys):
    shutil.copy(FIXTURES / "bad" / "CR-2016-08-26.txt", tmp_path / "CR-2016-08-26.txt")
    code, out, err = run_cli(capsys, "parse", str(tmp_path / "CR-2016-08-26.txt"))
    assert code == 1 and out == ""
    assert err == f"Error: {tmp_path / 'CR-2016-08-26.txt'}:0: corrupt UTF-16 LE: the byte-order mark is " \
        "missing or replaced (file starts ef bf bd ef); refused rather than guessed\n"
