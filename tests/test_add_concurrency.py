"""`rules-kb add` under concurrency and interruption: the corpus lock, recovery, file modes."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CORPUS, ROOT

from rules_kb.ingest.corpus import load_manifest
from rules_kb.ingest.pipeline import ingest_corpus

SEED = CORPUS / "seeds/004_9e840b7733df29ed.txt"  # small Magic rulings page: quick to add
RELEASE = CORPUS / "mtg/CR-2024-11-08.txt"
PROCESSES = 4


@pytest.fixture
def empty_corpus(tmp_path) -> Path:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "manifest.toml").write_text("# test corpus\n", encoding="utf-8")
    return corpus


def start_add(corpus: Path, path: Path, *flags: str) -> subprocess.Popen:
    code = "import sys; from rules_kb.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.Popen([sys.executable, "-c", code, "--corpus", str(corpus), "add", str(path), *flags],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def run_all(processes: list[subprocess.Popen]) -> list[tuple[int, str, str]]:
    return [(p.wait(timeout=300), *p.communicate()) for p in processes]


def corpus_files(corpus: Path) -> set[str]:
    return {str(p.relative_to(corpus)) for p in corpus.rglob("*") if p.is_file()}


def assert_consistent(corpus: Path, outcomes: list[tuple[int, str, str]], refusal: str) -> None:
    """One add won, every other one was refused with one line, and the corpus loads and ingests."""
    winners = [o for o in outcomes if o[0] == 0]
    losers = [o for o in outcomes if o[0] != 0]
    assert len(winners) == 1, outcomes
    for code, out, err in losers:
        assert code == 1 and out == "" and err.count("\n") == 1 and refusal in err, err
    (entry,) = load_manifest(corpus)
    assert corpus_files(corpus) == {"manifest.toml", entry.file}  # no orphan, no temporary
    (item,) = ingest_corpus(corpus)
    assert item.accounting.complete


def test_concurrent_adds_of_the_same_release_leave_one_entry(empty_corpus):
    """Failed before the lock: every process passed the duplicate check and appended its entry."""
    outcomes = run_all([start_add(empty_corpus, SEED) for _ in range(PROCESSES)])
    assert_consistent(empty_corpus, outcomes, "already in the corpus as ")


def test_concurrent_adds_of_two_files_with_one_version_leave_one_entry(empty_corpus, tmp_path):
    first, second = tmp_path / "a" / "CR-2024-11-08.txt", tmp_path / "b" / "CR-2024-11-08.txt"
    for path, tail in ((first, b""), (second, b"\r\n")):
        path.parent.mkdir()
        path.write_bytes(RELEASE.read_bytes()[:200_000] + tail)  # same name and version, other bytes
    outcomes = run_all([start_add(empty_corpus, path, "--version", "2024-11-08")
                        for path in (first, second, first, second)])
    assert_consistent(empty_corpus, outcomes, "2024-11-08")


def test_add_completes_an_addition_killed_between_its_two_renames(cli, empty_corpus):
    """Before: refused as 'already exists in the corpus with other content', though identical."""
    (empty_corpus / "mtg").mkdir()
    (empty_corpus / "mtg" / SEED.name).write_bytes(SEED.read_bytes())  # the copy, renamed into place
    (empty_corpus / "mtg" / ".add-x1y2z3.tmp").write_bytes(b"")  # what kill -9 leaves besides
    (empty_corpus / ".manifest-a1b2c3.tmp").write_text("# half\n", encoding="utf-8")
    code, out, err = cli("--corpus", str(empty_corpus), "add", str(SEED))
    assert code == 0 and out.startswith("added "), err
    (entry,) = load_manifest(empty_corpus)
    assert entry.file == f"mtg/{SEED.name}"
    assert corpus_files(empty_corpus) == {"manifest.toml", entry.file}


def test_add_still_refuses_an_unlisted_file_with_other_content(cli, empty_corpus):
    (empty_corpus / "mtg").mkdir()
    (empty_corpus / "mtg" / SEED.name).write_bytes(SEED.read_bytes() + b"\n")
    code, _, err = cli("--corpus", str(empty_corpus), "add", str(SEED))
    assert code == 1
    assert f"mtg/{SEED.name} already exists in the corpus with other content (not listed in the manifest" in err


def test_added_files_are_readable_by_everyone(cli, empty_corpus):
    """Before: mkstemp's 0600 stayed on the copied release and the new manifest."""
    previous = os.umask(0o022)
    try:
        code, _, err = cli("--corpus", str(empty_corpus), "add", str(SEED))
    finally:
        os.umask(previous)
    assert code == 0, err
    for name in ("manifest.toml", f"mtg/{SEED.name}"):
        assert stat.S_IMODE((empty_corpus / name).stat().st_mode) == 0o644, name


def test_a_folder_that_cannot_be_created_is_an_error_line(cli, empty_corpus):
    """Before: a traceback (FileExistsError from mkdir), like an add into a read-only corpus."""
    (empty_corpus / "mtg").write_text("a file where the folder should be\n", encoding="utf-8")
    code, out, err = cli("--corpus", str(empty_corpus), "add", str(SEED))
    assert code == 1 and out == ""
    assert err.startswith("Error: ") and err.count("\n") == 1 and "cannot write" in err
    assert corpus_files(empty_corpus) == {"manifest.toml", "mtg"}


@pytest.mark.parametrize(("flag", "value"), [("--version", 'a"b'), ("--version", "1.38\nx"), ("--date", "soon")])
def test_malformed_version_and_date_flags_are_refused(cli, empty_corpus, flag, value):
    code, _, err = cli("--corpus", str(empty_corpus), "add", str(SEED), flag, value)
    assert code == 1 and err.startswith(f"Error: {SEED}: {flag} ") and ".manifest-" not in err
    assert corpus_files(empty_corpus) == {"manifest.toml"}


def hollowed_release(tmp_path: Path) -> Path:
    """CR 2024-11-08 with chapters 2 to 8 cut out: still complete (glossary, credits), 1/8 of the rules."""
    text = RELEASE.read_bytes().decode("utf-8-sig").replace("\r\n", "\n")
    start = text.index("\n200. General\n\n200.1.")
    end = text.index("\n900. General\n\n900.1.")
    path = tmp_path / "CR-2024-11-08.txt"
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    return path


def test_a_release_with_far_fewer_rules_than_its_neighbour_needs_force(cli, empty_corpus, tmp_path):
    """Before: added with exit 0, though it had lost seven of its nine chapters."""
    code, _, err = cli("--corpus", str(empty_corpus), "add", str(CORPUS / "mtg/CR-2022-11-18.txt"),
                       "--version", "2022-11-18")
    assert code == 0, err
    path = hollowed_release(tmp_path)
    before = {p: p.read_bytes() for p in empty_corpus.rglob("*") if p.is_file()}
    code, _, err = cli("--corpus", str(empty_corpus), "add", str(path), "--version", "2024-11-08")
    assert code == 1 and "implausible structure: " in err and " rules where 2022-11-18 has 2,9" in err
    assert {p: p.read_bytes() for p in empty_corpus.rglob("*") if p.is_file()} == before
    code, out, err = cli("--corpus", str(empty_corpus), "add", str(path), "--version", "2024-11-08", "--force")
    assert code == 0 and out.startswith("added mtg-cr-2024-11-08 "), err


def test_a_rule_longer_than_any_real_one_needs_force(cli, empty_corpus, tmp_path):
    text = RELEASE.read_bytes().decode("utf-8-sig").replace("\r\n", "\n")
    at = text.index("\n\n100.1b ")
    path = tmp_path / "CR-2024-11-08.txt"
    path.write_text(text[:at] + "\nmore words of the same rule" * 2000 + text[at:], encoding="utf-8")
    code, _, err = cli("--corpus", str(empty_corpus), "add", str(path), "--version", "2024-11-08")
    assert code == 1 and "implausible structure: rule 100.1a runs to 56," in err
    code, _, err = cli("--corpus", str(empty_corpus), "add", str(path), "--version", "2024-11-08", "--force")
    assert code == 0, err
