"""Issue 22: inputs that used to hang, exhaust memory or reach the terminal or a page raw."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat

import pytest
from conftest import FIXTURES

from rules_kb.assemble.knowledge import build_knowledge
from rules_kb.cli.link_commands import MAX_NOTE_BYTES
from rules_kb.site.build import build_site

RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
PLANTED = "100.3. Text with a screen clear \x1b[2J, a title \x1b]0;pwned\x07 and a \u202eflip."


def test_link_refuses_a_device_without_reading_it(cli):
    """Before: ``link /dev/zero`` grew until the kernel killed it."""
    code, out, err = cli("link", "/dev/zero")
    assert (code, out) == (1, "")
    assert err == "Error: /dev/zero: cannot read: a character device, not a regular file\n"


def test_link_refuses_a_fifo_without_blocking(cli, tmp_path):
    """Before: ``link`` on a FIFO with no writer hung forever."""
    fifo = tmp_path / "note.md"
    os.mkfifo(fifo)
    code, _, err = cli("link", str(fifo))
    assert code == 1 and err == f"Error: {fifo}: cannot read: a FIFO, not a regular file\n"
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_link_refuses_a_note_over_the_cap(cli, tmp_path):
    note = tmp_path / "huge.md"
    with note.open("wb") as handle:
        handle.truncate(MAX_NOTE_BYTES + 1)
    code, _, err = cli("link", str(note))
    assert code == 1
    assert err == f"Error: {note}: too large: {MAX_NOTE_BYTES + 1:,} bytes (the limit is {MAX_NOTE_BYTES:,})\n"


def test_a_problem_line_shows_control_characters_visible(cli, tmp_path):
    """Before: the note's name went to the terminal raw, so its escape sequence cleared the screen."""
    note = tmp_path / "n\x1b[2J.md"
    note.write_text("See CR 999.9z.\n", encoding="utf-8")
    code, _, err = cli("link", str(note), "--game", "mtg")
    assert code == 1 and "\x1b" not in err
    assert err.startswith(f"{tmp_path}/n\\x1b[2J.md:1:5: CR 999.9z: ")


@pytest.fixture(scope="module")
def planted_site(tmp_path_factory):
    """The hostile fixture with a rule 100.3 holding ESC, BEL and U+202E, built into a site."""
    corpus = tmp_path_factory.mktemp("planted") / "corpus"
    shutil.copytree(FIXTURES / "hostile", corpus)
    source = corpus / "mtg" / "CR-2099-01-01.txt"
    text = source.read_text(encoding="utf-8")
    anchor = "\n\nGlossary\n\nHostile"
    assert anchor in text
    source.write_text(text.replace(anchor, f"\n\n{PLANTED}{anchor}", 1), encoding="utf-8")
    manifest = corpus / "manifest.toml"
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    manifest.write_text(re.sub(r'sha256 = "[0-9a-f]+"', f'sha256 = "{digest}"', manifest.read_text(encoding="utf-8")),
                        encoding="utf-8")
    out = corpus.parent / "site"
    build_site(corpus, out, knowledge=build_knowledge(corpus))
    return out


def test_no_page_carries_a_raw_control_character(planted_site):
    """Before: the pages escaped markup but carried the ESC, BEL and U+202E bytes as they were."""
    raw = [str(p.relative_to(planted_site)) for p in sorted(planted_site.rglob("*.html"))
           if RAW_CONTROL.search(p.read_text(encoding="utf-8"))]
    assert raw == []
    page = (planted_site / "mtg/rule/100.3/index.html").read_text(encoding="utf-8")
    assert "a screen clear \\x1b[2J, a title \\x1b]0;pwned\\x07 and a \\u202eflip" in page


def test_add_keeps_a_source_with_a_newline_and_an_escape(cli, tmp_path):
    """Before: refused with an error naming a temporary manifest that no longer existed."""
    from rules_kb.ingest.corpus import load_manifest

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "manifest.toml").write_text("# a new corpus\n", encoding="utf-8")
    release = FIXTURES / "hostile" / "mtg" / "CR-2099-01-01.txt"
    source = "from a judge\nby mail \x1b[2J"
    code, out, err = cli("--corpus", str(corpus), "add", str(release), "--version", "2099-01-01", "--source", source)
    assert code == 0, err
    assert out.startswith("added mtg-cr-2099-01-01 as mtg/CR-2099-01-01.txt")
    assert [meta.source for meta in load_manifest(corpus)] == [source]
    assert 'source = "from a judge\\nby mail \\u001b[2J"' in (corpus / "manifest.toml").read_text(encoding="utf-8")


def test_a_document_that_is_a_symlink_out_of_the_corpus_is_refused(cli, tmp_path):
    """Before: followed, though the README promised no symlink out of the corpus (the same bytes,
    so the sha256 matched). A folder linked in as a whole is still followed (the tests' subset)."""
    corpus = tmp_path / "corpus"
    shutil.copytree(FIXTURES / "hostile", corpus)
    outside = tmp_path / "elsewhere.txt"
    document = corpus / "mtg" / "CR-2099-01-01.txt"
    outside.write_bytes(document.read_bytes())
    document.unlink()
    document.symlink_to(outside)
    code, out, err = cli("--corpus", str(corpus), "ingest")
    assert (code, out) == (1, "")
    assert err == "Error: mtg/CR-2099-01-01.txt: a symlink out of the corpus: refused\n"
