"""Terminal output: control characters made visible, display-width wrapping, colour when asked or on a tty, pager."""

from __future__ import annotations

import io

from rules_kb.render.terminal import (
    LEGEND,
    Terminal,
    colorize,
    display_width,
    emit,
    make_visible,
    present,
    terminal_for,
    wrap,
)

HOSTILE = "Rule text\x1b]0;pwned\x07 and \x1b]8;;http://evil.example/\x1b\\link\x1b]8;;\x1b\\ then \x1b[2J\u202e."


def test_control_characters_become_visible_escapes():
    shown = make_visible(HOSTILE)
    assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown
    assert shown == ("Rule text\\x1b]0;pwned\\x07 and \\x1b]8;;http://evil.example/\\x1b\\link\\x1b]8;;\\x1b\\ then "
                     "\\x1b[2J\\u202e.")
    assert make_visible("line one\nline two\u3000全角") == "line one\nline two\u3000全角"  # newline and text kept


def test_presented_text_holds_no_escape_but_our_colours():
    coloured = present(f"{HOSTILE} [-old-]{{+new+}}", Terminal(width=None, color=True))
    assert coloured.count("\x1b") == 4  # red on, reset, green on, reset: ours only
    assert "\x1b[31m[-old-]\x1b[0m\x1b[32m{+new+}\x1b[0m" in coloured


def test_japanese_counts_two_columns():
    assert display_width("ブロック") == 8
    assert display_width("block") == 5
    assert display_width("５０７．２ａ") == 12
    assert display_width("e\u0301") == 1  # a combining accent takes no column


def test_wrapping_keeps_every_line_within_the_width_and_indents_continuations():
    english = "  " + " ".join(["creature"] * 40)
    japanese = "  " + "ブロッカー能力によってその能力を使用したクリーチャーに攻撃先が変更された場合、" * 4
    for text in (english, japanese):
        lines = wrap(text, 50).split("\n")
        assert len(lines) > 1
        assert all(display_width(line) <= 50 for line in lines)
        assert all(line.startswith("    ") for line in lines[1:])  # two deeper than the line continued


def test_wrapping_loses_no_character():
    text = "  See rule 116, “Timing and Priority.” " * 10 + "x" * 130
    wrapped = wrap(text, 60)
    assert wrapped.replace("\n", "").replace(" ", "") == text.replace(" ", "")


def test_japanese_line_never_starts_with_closing_punctuation():
    text = "あ" * 23 + "、" + "い" * 40
    lines = wrap(text, 48).split("\n")
    assert not any(line.strip().startswith(("、", "。", "」")) for line in lines)


def test_colour_is_carried_across_a_wrapped_line():
    text = colorize("a [-one\ntwo-] b")
    first, second = text.split("\n")
    assert first.endswith("\x1b[0m") and second.startswith("\x1b[31m")


class _Pipe(io.StringIO):
    def isatty(self) -> bool:
        return False


def test_a_pipe_gets_no_colour_unless_asked_and_no_wrapping_without_columns():
    assert terminal_for(_Pipe(), {}) == Terminal(width=None, color=False, page=False)
    assert terminal_for(_Pipe(), {}, "always").color
    assert terminal_for(_Pipe(), {"COLUMNS": "100"}).width == 100


def test_a_terminal_gets_colour_unless_no_color(tmp_path):
    import os
    import pty

    leader, follower = pty.openpty()
    try:
        with os.fdopen(follower, "w", closefd=False) as tty:
            assert terminal_for(tty, {"TERM": "xterm"}).color
            assert terminal_for(tty, {"TERM": "xterm"}).page
            assert not terminal_for(tty, {"TERM": "xterm", "NO_COLOR": "1"}).color
            assert not terminal_for(tty, {"TERM": "xterm"}, "never").color
    finally:
        os.close(leader)
        os.close(follower)


def test_long_output_on_a_terminal_goes_through_the_pager(tmp_path):
    captured = tmp_path / "paged.txt"
    text = "\n".join(f"line {i}" for i in range(100))
    stream = _Pipe()
    emit(text, stream, Terminal(page=True, height=40), {"PAGER": f"cat > {captured}"})
    assert captured.read_text() == text + "\n" and stream.getvalue() == ""
    emit("short", stream, Terminal(page=True, height=40), {"PAGER": f"cat > {captured}"})
    assert stream.getvalue() == "short\n"  # fits the screen: printed, not paged
    emit(text, stream, Terminal(page=True, height=40), {"PAGER": "no-such-pager-here"})
    assert stream.getvalue().endswith("line 99\n")  # a missing pager loses nothing


def test_legend_is_coloured_like_the_marks_it_explains():
    assert colorize(LEGEND) == "legend: \x1b[31m[-deleted-]\x1b[0m \x1b[32m{+inserted+}\x1b[0m"


def test_japanese_wrapping_never_splits_a_diff_mark_or_ends_on_an_opening_bracket():
    text = "    example (editorial): " + "あ" * 50 + "{+《+}小結 座美の花{+》+}" + "い" * 60
    for width in range(40, 100):
        lines = wrap(text, width).split("\n")
        assert all(display_width(line) <= width for line in lines)
        assert not any(line.rstrip().endswith(("{", "[", "《")) for line in lines), width
        assert not any(line.lstrip().startswith(("+}", "-]", "}", "》")) for line in lines), width
