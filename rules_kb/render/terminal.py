"""Text for a terminal: control characters made visible, lines wrapped, diff marks coloured, paged.

Rule texts come from documents anyone can hand us, so a text holding ``ESC ] 0 ; title BEL``
or ``ESC [ 2 J`` must never reach a terminal as an escape sequence: every control character
of the output (C0 but the newline, DEL, C1, bidirectional overrides, line separators) is
printed as its Python escape (``\\x1b``, ``\\u202e``). Colours are added after that, by this
module alone, so the only escape sequences a terminal ever sees are ours.

Wrapping counts display columns (a Japanese character takes two, a combining mark none):
a line longer than the width is cut at the last space that fits (anywhere in Japanese, but
never before closing punctuation), and its continuation lines are indented two columns
deeper than the line they continue.
"""

from __future__ import annotations

import os
import re
import subprocess
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TextIO

from rules_kb.render import visible

CONTINUATION_INDENT = 2
MIN_WIDTH = 40  # narrower terminals still get readable lines, only longer than the screen
LEGEND = "legend: [-deleted-] {+inserted+}"

_RED, _GREEN, _RESET = "\x1b[31m", "\x1b[32m", "\x1b[0m"
_MARKS = re.compile(r"\[-|-\]|\{\+|\+\}")
# Never at the start of a line in Japanese (kinsoku): closing brackets and punctuation.
_NO_LINE_START = set("、。，．,.)）」』】〕〉》］}｝:：;；!！?？ー・ゝゞ々ぁぃぅぇぉっゃゅょァィゥェォッャュョ")

_NO_LINE_END = set("(（「『【〔〈《［{｛")
_MARK_PAIRS = ("[-", "-]", "{+", "+}")


@dataclass(frozen=True)
class Terminal:
    """How to present text: wrap to ``width`` (None: never), ``color`` the diff marks, ``page`` long output."""

    width: int | None = None
    color: bool = False
    page: bool = False
    height: int = 24


def make_visible(text: str) -> str:
    """Replace every control character but the newline with its escape, e.g. ``\\x1b`` (one table for
    every terminal line: ``render.visible``, which error lines use too)."""
    return visible.make_visible(text, keep_newlines=True)


def display_width(text: str) -> int:
    """Columns ``text`` takes on a terminal: wide and full-width characters count two."""
    width = 0
    for char in text:
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def wrap_line(line: str, width: int) -> list[str]:
    """``line`` cut into lines of at most ``width`` columns; continuations indented deeper."""
    if display_width(line) <= width:
        return [line]
    indent = len(line) - len(line.lstrip(" "))
    prefix = " " * min(indent + CONTINUATION_INDENT, width // 2)
    out: list[str] = []
    rest, lead = line, ""
    while True:
        room = width - display_width(lead)
        if display_width(rest) <= room:
            out.append(lead + rest)
            return out
        cut = _cut_at(rest, room)
        out.append(lead + rest[:cut].rstrip(" "))
        rest, lead = rest[cut:].lstrip(" "), prefix
        if not rest:
            return out


def fill_lines(text: str, width: int) -> list[str]:
    """One paragraph (whitespace collapsed) in lines of at most ``width`` columns, none indented:
    ``--help``'s paragraphs, which argparse would cut by characters, not columns."""
    rest, out = " ".join(text.split()), []
    while display_width(rest) > width:
        cut = _cut_at(rest, max(width, 1))
        out.append(rest[:cut].rstrip(" "))
        rest = rest[cut:].lstrip(" ")
    return [*out, rest] if rest else out


def _cut_at(text: str, room: int) -> int:
    """Where to cut ``text`` so that its head fits in ``room`` columns (always at least one character)."""
    used, fits = 0, 0
    for index, char in enumerate(text):
        used += display_width(char)
        if used > room:
            break
        fits = index + 1
    fits = max(fits, 1)
    if fits < len(text) and (_is_wide(text[fits - 1]) or _is_wide(text[fits])):
        # Japanese breaks between any two characters, but never before closing punctuation, after an
        # opening bracket, or inside a diff mark ("{+", "+}").
        while 1 < fits < len(text) and (text[fits] in _NO_LINE_START or text[fits - 1] in _NO_LINE_END
                                        or text[fits - 1:fits + 1] in _MARK_PAIRS
                                        or text[fits:fits + 2] in ("+}", "-]")):
            fits -= 1
        return fits
    space = text.rfind(" ", 0, fits + 1)
    leading = len(text) - len(text.lstrip(" "))
    if space > leading:
        return space
    return fits  # one long word (a URL): cut it where the line ends


def _is_wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in ("W", "F")


def wrap(text: str, width: int) -> str:
    """Every line of ``text`` wrapped to ``width`` columns (at least ``MIN_WIDTH``)."""
    width = max(width, MIN_WIDTH)
    return "\n".join(piece for line in text.split("\n") for piece in wrap_line(line, width))


def colorize(text: str) -> str:
    """``[-deleted-]`` red and ``{+inserted+}`` green; a mark open across a line break stays coloured."""
    out: list[str] = []
    for line in text.split("\n"):
        out.append(_MARKS.sub(_colour_mark, line))
    return _carry_colour("\n".join(out))


def _colour_mark(match: re.Match[str]) -> str:
    return {"[-": _RED + "[-", "{+": _GREEN + "{+", "-]": "-]" + _RESET, "+}": "+}" + _RESET}[match.group()]


def _carry_colour(text: str) -> str:
    """Close colour at each line end and reopen it on the next line (pagers reset colour per line)."""
    out, active = [], ""
    for line in text.split("\n"):
        body = active + line
        last_open = max(line.rfind(_RED), line.rfind(_GREEN))
        last_close = line.rfind(_RESET)
        if last_open > last_close:
            active = _RED if line.rfind(_RED) > line.rfind(_GREEN) else _GREEN
        elif last_close >= 0:
            active = ""
        out.append(body + (_RESET if active else ""))
    return "\n".join(out)


def present(text: str, terminal: Terminal) -> str:
    """``text`` made safe, wrapped and coloured for ``terminal``."""
    text = make_visible(text)
    if terminal.width is not None:
        text = wrap(text, terminal.width)
    if terminal.color:
        text = colorize(text)
    return text


def terminal_for(stream: TextIO, env: Mapping[str, str], color: str = "auto") -> Terminal:
    """Settings for output to ``stream``: a terminal gets wrapping, colour and a pager; a pipe gets none.

    ``color`` is ``always`` (asked for on the command line), ``never`` or ``auto`` (colour on
    a terminal unless ``NO_COLOR`` is set or ``TERM`` is ``dumb``). A pipe is wrapped only
    when ``COLUMNS`` is set, so that ``COLUMNS=100 rules-kb … > file`` shows what a terminal would.
    """
    tty = _isatty(stream)
    size = os.get_terminal_size(stream.fileno()) if tty else None
    width: int | None = None
    if env.get("COLUMNS", "").isdigit():
        width = int(env["COLUMNS"])
    elif size is not None:
        width = size.columns
    if color == "always":
        coloured = True
    elif color == "never":
        coloured = False
    else:
        coloured = tty and "NO_COLOR" not in env and env.get("TERM") != "dumb"
    return Terminal(width=width, color=coloured, page=tty, height=size.lines if size else 24)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty() and stream.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        return False


def emit(text: str, stream: TextIO, terminal: Terminal, env: Mapping[str, str]) -> None:
    """Write ``text`` (already presented) to ``stream``, through ``$PAGER`` when it is longer than the screen.

    The pager is a shell command as for git and man (``PAGER=less``; empty means none); ``less``
    is told ``-FRX`` unless ``LESS`` is set, so a colour survives and a short text does not page.
    """
    pager = env.get("PAGER", "less")
    if terminal.page and pager.strip() and text.count("\n") + 1 >= terminal.height:
        child_env = dict(env)
        child_env.setdefault("LESS", "FRX")
        stream.flush()
        try:
            done = subprocess.run(pager, shell=True, input=text + "\n", text=True, env=child_env, check=False)
        except OSError:
            done = None
        if done is not None and done.returncode != 127:  # 127: the shell found no such pager
            return
    stream.write(text + "\n")
