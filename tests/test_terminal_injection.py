"""Issue 15 item 6: escape sequences in a source reach no terminal, through every command that prints rule text."""

from __future__ import annotations

import re

import pytest
from conftest import CORPUS

INJECTED = b"\x1b]0;pwned\x07\x1b[2J\x1b]8;;http://evil.example/\x1b\\"


@pytest.fixture(scope="module")
def hostile_corpus(tmp_path_factory):
    """Two real Magic releases; 509.1a of the newer one carries a title change, a screen clear and an OSC 8 link."""
    root = tmp_path_factory.mktemp("hostile")
    corpus = root / "corpus"
    corpus.mkdir()
    (corpus / "manifest.toml").write_text("# hostile test corpus\n", encoding="utf-8")
    source = (CORPUS / "mtg/CR-2009-07-08.txt").read_bytes()
    anchor = b"509.1a The defending player chooses"
    assert anchor in source
    hostile = root / "CR-2009-07-08.txt"
    hostile.write_bytes(source.replace(anchor, b"509.1a The defending player " + INJECTED + b"chooses", 1))
    return corpus, hostile


def test_rule_text_escapes_are_printed_visible_by_every_command(cli, hostile_corpus):
    corpus, hostile = hostile_corpus
    assert cli("--corpus", str(corpus), "add", str(CORPUS / "mtg/CR-2009-05-01.txt"), "--version", "2009-05-01")[0] == 0
    assert cli("--corpus", str(corpus), "add", str(hostile), "--version", "2009-07-08")[0] == 0
    commands = [
        ("show", "509.1a"),
        ("history", "509.1a"),
        ("explain", "509.1a", "--color"),
        ("diff", "--game", "mtg", "--lang", "en", "2009-05-01", "2009-07-08", "--rule", "509.1a", "--color"),
    ]
    for argv in commands:
        code, out, err = cli("--corpus", str(corpus), *argv)
        assert code == 0, (argv, err)
        assert "\\x1b]0;pwned\\x07\\x1b[2J\\x1b]8;;http://evil.example/\\x1b\\" in out, argv
        assert "\x07" not in out and "\x1b]" not in out and "\x1b[2J" not in out, argv
        escapes = set(re.findall(r"\x1b\[[0-9;]*m", out))
        assert escapes <= {"\x1b[31m", "\x1b[32m", "\x1b[0m"}, argv  # colours, ours only
