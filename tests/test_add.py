"""`rules-kb add`: one command adds a release; refusals leave the corpus untouched."""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path

import pytest
from conftest import CORPUS, SUBSET

from rules_kb.ingest.corpus import load_manifest
from rules_kb.ingest.pipeline import ingest_corpus

RELEASES = [m for m in SUBSET if m.format in ("mtg-cr", "dm-rulebook")]


@pytest.fixture
def empty_corpus(tmp_path) -> Path:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "manifest.toml").write_text("# test corpus\n", encoding="utf-8")
    return corpus


def snapshot(corpus: Path) -> dict[str, str]:
    return {str(p.relative_to(corpus)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(corpus.rglob("*")) if p.is_file()}


def records(corpus: Path, doc_id: str) -> list[dict]:
    (item,) = ingest_corpus(corpus, [doc_id])
    return [{k: v for k, v in rule.to_record().items() if k != "document"} for rule in item.parsed.rules]


@pytest.mark.parametrize("meta", RELEASES, ids=lambda m: m.id)
def test_adding_each_release_reproduces_the_checked_in_model(cli, empty_corpus, meta):
    flags = ["--version", meta.versions[0]] if meta.format == "mtg-cr" else []
    code, out, err = cli("--corpus", str(empty_corpus), "add", str(CORPUS / meta.file), *flags)
    assert code == 0, err
    assert out.startswith("added ") and "100.00% accounted" in out
    added = load_manifest(empty_corpus)[0]
    assert (added.format, added.game, added.languages, added.versions, added.sha256) == (
        meta.format, meta.game, meta.languages, meta.versions, meta.sha256)
    assert (empty_corpus / added.file).read_bytes() == (CORPUS / meta.file).read_bytes()
    assert records(empty_corpus, added.id) == records(CORPUS, meta.id)


def test_second_release_is_compared_with_the_previous_one(cli, empty_corpus):
    cli("--corpus", str(empty_corpus), "add", str(CORPUS / "mtg/CR-2022-11-18.txt"), "--version", "2022-11-18")
    code, out, _ = cli("--corpus", str(empty_corpus), "add", str(CORPUS / "mtg/CR-2024-11-08.txt"),
                       "--version", "2024-11-08")
    assert code == 0
    line = out.splitlines()[-1]
    assert line.startswith("  against 2022-11-18: ") and " moved, " in line and " added, " in line
    # One vocabulary: add and diff print the same counts for the same pair of releases.
    code, diff_out, _ = cli("--corpus", str(empty_corpus), "diff", "--game", "mtg", "--lang", "en",
                            "2022-11-18", "2024-11-08")
    assert code == 0
    assert diff_out.splitlines()[0] == "mtg en 2022-11-18 -> 2024-11-08: " + line.removeprefix("  against 2022-11-18: ")
    assert " editorial, " in line and " substantive, " in line and "edited" not in line


@pytest.mark.parametrize(("path", "flags", "message"), [
    ("mtg/CR-2009-07-08.txt", ["--date", "2009-07-08"],
     "--date 2009-07-08 conflicts with the text, which says 2009-07-11"),
    ("seeds/000_4db7e39e89e37720.txt", ["--version", "1.40"],
     "--version 1.40 conflicts with the text, which says 1.38"),
    ("mtg/CR-2024-11-08.txt", ["--game", "dm"], "--game dm conflicts with the text, which says mtg"),
    ("dm/official-rule-text/dm_rule-ja-v1.48.md", ["--lang", "en"], "--lang en conflicts with the text, which says ja"),
])
def test_conflicting_flags_are_refused_naming_both(cli, empty_corpus, path, flags, message):
    before = snapshot(empty_corpus)
    code, out, err = cli("--corpus", str(empty_corpus), "add", str(CORPUS / path), *flags)
    assert code == 1 and out == ""
    assert message in err and err.count("\n") == 1
    assert snapshot(empty_corpus) == before


def test_duplicate_is_refused(cli):
    code, _, err = cli("add", str(CORPUS / "seeds/004_9e840b7733df29ed.txt"))
    assert code == 1
    assert "already in the corpus as seed-004 (seeds/004_9e840b7733df29ed.txt): same sha256" in err


def test_unknown_format_is_refused(cli, empty_corpus, tmp_path):
    path = tmp_path / "minutes.txt"
    path.write_text("Minutes of the meeting\n\nWe agreed to meet again.\n", encoding="utf-8")
    before = snapshot(empty_corpus)
    code, _, err = cli("--corpus", str(empty_corpus), "add", str(path))
    assert code == 1 and "unknown format" in err
    assert snapshot(empty_corpus) == before


def test_truncated_utf16_file_is_refused(cli, empty_corpus, tmp_path):
    data = (CORPUS / "mtg/CR-2022-11-18.txt").read_bytes()
    path = tmp_path / "CR-cut.txt"
    path.write_bytes(data[:400_001])  # UTF-16 BE cut mid-character: odd length
    code, _, err = cli("--corpus", str(empty_corpus), "add", str(path), "--version", "2022-11-18")
    assert code == 1 and "odd number of bytes" in err
    assert snapshot(empty_corpus) == {"manifest.toml": snapshot(empty_corpus)["manifest.toml"]}


def test_truncated_release_is_added_as_an_excerpt_with_its_last_rule_marked(cli, empty_corpus, tmp_path):
    data = (CORPUS / "mtg/CR-2024-11-08.txt").read_bytes()
    path = tmp_path / "CR-2024-cut.txt"
    path.write_bytes(data[:300_000])
    code, _, _ = cli("--corpus", str(empty_corpus), "add", str(path), "--version", "2024-11-08")
    assert code == 0
    (item,) = ingest_corpus(empty_corpus)
    assert [v.kind for v in item.parsed.versions] == ["excerpt"]
    assert item.parsed.rules[-1].truncated
    assert any(a.code == "truncated" for a in item.parsed.anomalies)


def test_manifest_after_add_is_valid_toml(cli, empty_corpus):
    cli("--corpus", str(empty_corpus), "add", str(CORPUS / "seeds/004_9e840b7733df29ed.txt"))
    data = tomllib.loads((empty_corpus / "manifest.toml").read_text(encoding="utf-8"))
    assert data["document"][0]["format"] == "mtg-rulings"


def test_a_second_file_with_an_existing_version_label_is_refused(cli, empty_corpus, tmp_path):
    cli("--corpus", str(empty_corpus), "add", str(CORPUS / "mtg/CR-2024-11-08.txt"), "--version", "2024-11-08")
    copy = tmp_path / "CR-2024-copy.txt"
    copy.write_bytes((CORPUS / "mtg/CR-2024-11-08.txt").read_bytes() + b"\r\n")  # other bytes, same release
    before = snapshot(empty_corpus)
    code, _, err = cli("--corpus", str(empty_corpus), "add", str(copy))
    assert code == 1
    assert "version 2024-11-08 of mtg en is already in the corpus as mtg-cr-2024-11-08" in err
    assert snapshot(empty_corpus) == before


def test_the_same_release_under_another_label_is_refused(cli, empty_corpus, tmp_path):
    """A copy of 2009-07-08 (effective 2009-07-11) with one more newline, added without --version."""
    cli("--corpus", str(empty_corpus), "add", str(CORPUS / "mtg/CR-2009-07-08.txt"), "--version", "2009-07-08")
    copy = tmp_path / "copy.txt"
    copy.write_bytes((CORPUS / "mtg/CR-2009-07-08.txt").read_bytes() + b"\n")
    before = snapshot(empty_corpus)
    code, _, err = cli("--corpus", str(empty_corpus), "add", str(copy))
    assert code == 1 and "the text's date 2009-07-11 is that of version 2009-07-08" in err
    assert snapshot(empty_corpus) == before


def test_add_says_when_a_file_is_only_an_excerpt(cli, empty_corpus, tmp_path):
    path = tmp_path / "cut.txt"
    path.write_bytes((CORPUS / "mtg/CR-2024-11-08.txt").read_bytes()[:30_000])
    code, out, _ = cli("--corpus", str(empty_corpus), "add", str(path), "--version", "2024-11-08")
    assert code == 0 and out.splitlines()[0].endswith("version 2024-11-08 (2024-11-08), excerpt")


def test_a_file_name_the_manifest_would_refuse_is_refused_before_anything_is_written(cli, empty_corpus, tmp_path):
    """A backslash in the name: the entry would make every later command fail, so add refuses it
    with the loader's own reason and the corpus stays as it was (issue 38, item 1)."""
    release = tmp_path / "CR\\x.txt"
    release.write_bytes((CORPUS / "mtg/CR-2022-11-18.txt").read_bytes())
    before = snapshot(empty_corpus)
    code, _, err = cli("--corpus", str(empty_corpus), "add", str(release), "--version", "2022-11-18")
    assert code == 1
    assert err == (f"Error: {release}: cannot be added: its manifest entry would be refused (file must be a "
                   "relative path inside the corpus, not 'mtg/CR\\\\x.txt')\n")
    assert snapshot(empty_corpus) == before
    assert cli("--corpus", str(empty_corpus), "versions")[0] == 0


def test_a_text_that_states_no_version_needs_one(cli, empty_corpus, tmp_path):
    """A fandom module whose title names no version is not "version unknown" (issue 38, item 6)."""
    text = (CORPUS / "dm/fandom-excerpts/Module_Rules__GGR-v1.38.txt").read_text(encoding="utf-8")
    module = tmp_path / "Module_Rules.txt"
    module.write_text(text.replace("General Game Rules Version 1.38", "General Game Rules"), encoding="utf-8")
    code, _, err = cli("--corpus", str(empty_corpus), "add", str(module))
    assert (code, err) == (1, f"Error: {module}: the text states no version: pass --version\n")
    assert load_manifest(empty_corpus) == []
