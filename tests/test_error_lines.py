"""One convention for every error: one ``Error:`` line on stderr, exit 1, control characters visible."""

from __future__ import annotations

import pytest

from rules_kb.render.visible import make_visible


@pytest.mark.parametrize(("argv", "words"), [
    (["add", "--game", "chess", "x.txt"], "rules-kb add: argument --game: unknown game 'chess'"),
    (["frobnicate"], "rules-kb: argument COMMAND: invalid choice: 'frobnicate'"),
    (["show"], "rules-kb show: the following arguments are required: rule"),
    (["diff", "--game", "mtg"], "rules-kb diff: the following arguments are required"),
])
def test_argument_errors_are_one_line_and_exit_1(cli, argv, words):
    """Before: argparse printed the usage line and the error (two lines) and exited 2."""
    code, out, err = cli(*argv)
    assert code == 1 and out == ""
    assert err.startswith("Error: " + words) and err.count("\n") == 1
    assert err.rstrip("\n").endswith("--help)")


def test_help_still_exits_0(cli):
    with pytest.raises(SystemExit) as exit_info:
        cli("--help")
    assert exit_info.value.code == 0


def test_a_path_with_a_newline_and_escapes_stays_on_one_visible_line(cli, tmp_path):
    """Before: the newline split the error in two and ESC[2J reached the terminal raw."""
    path = tmp_path / "evil\nname\x1b[2J\x1b]0;title\x07.txt"
    code, out, err = cli("parse", str(path))
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "\x1b" not in err and "\x07" not in err
    assert "evil\\nname\\x1b[2J\\x1b]0;title\\x07.txt: cannot read: No such file or directory" in err


@pytest.mark.parametrize(("raw", "shown"), [
    ("plain 507.1 ルール", "plain 507.1 ルール"),
    ("a\tb\r\nc", "a\\tb\\r\\nc"),
    ("\x1b[31mred\x9b", "\\x1b[31mred\\x9b"),
    ("line\u2028sep\u202eevil", "line\\u2028sep\\u202eevil"),
    ("\x00\x7f", "\\x00\\x7f"),
])
def test_make_visible_escapes_controls_only(raw, shown):
    assert make_visible(raw) == shown


def test_make_visible_can_keep_line_breaks():
    assert make_visible("one\x1b\ntwo", keep_newlines=True) == "one\\x1b\ntwo"
