"""The rulebook's front matter: title block, stated version and date, table of contents.

The contents (``もくじ``) lists every chapter and section heading, then the body repeats
them. Where the contents end is told by the numbering, not by a line count: the body
starts at the first heading that does not come after the previous contents entry
(``0. はじめに`` after ``819. WD フィールド``), or at the first line that is not a
heading at all.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from rules_kb.model import ParsedDocument, Residue, Version
from rules_kb.sources.common import Line
from rules_kb.sources.dm_rulebook.numbers import read_chapter, read_number_tokens

CONTENTS_LABELS = ("もくじ", "目次")
_VERSION = re.compile(r"Ver\s*[.．]?\s*(?P<label>[0-9０-９]+(?:[.．][0-9０-９]+)+)")
_DATE = re.compile(r"最終更新日\s*(?P<y>\d{4})\s*年\s*(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*日")
# A contents entry anywhere in a line: ``1.ゲームの基本``, ``100. ゲームに必要なもの``.
_ENTRY = re.compile(r"(?:^|\s)[0-9０-９]{1,3}[.．]\s*[^\s0-9０-９.．]")


@dataclass
class Entry:
    """One contents entry: its lines (``818.`` / ``超魂X`` is one entry), level and number."""

    lines: list[Line]
    level: int
    number: str


@dataclass
class Layout:
    """Where the title block, the contents and the body are (line indices)."""

    header_end: int
    body_start: int
    label: int | None = None
    entries: list[Entry] = field(default_factory=list)


@dataclass(frozen=True)
class StatedVersion:
    label: str | None
    date: str | None
    label_at: int
    date_at: int


def read_stated_version(text: str, offset: int = 0) -> StatedVersion:
    """The version label (``Ver.1.48``) and last-update date the text states, if any."""
    version = _VERSION.search(text)
    date = _DATE.search(text)
    label = version["label"].translate(_FOLD) if version else None
    iso = f"{date['y']}-{int(date['m']):02d}-{int(date['d']):02d}" if date else None
    return StatedVersion(
        label, iso, offset + (version.start() if version else 0), offset + (date.start() if date else 0)
    )


_FOLD = str.maketrans("０１２３４５６７８９．", "0123456789.")


def locate_contents(lines: Sequence[Line]) -> Layout:
    """Find the title block, the contents entries and the first line of the body."""
    label = next((i for i, line in enumerate(lines) if line.stripped in CONTENTS_LABELS), None)
    begin = label + 1 if label is not None else _first_heading(lines)
    entries, stop, repeated = _scan_entries(lines, begin)
    if label is None and not repeated:
        # Headings followed straight by rules: they are the body's own, there are no contents.
        return Layout(begin, begin)
    return Layout(label if label is not None else begin, stop, label, entries)


def _first_heading(lines: Sequence[Line]) -> int:
    return next((i for i, line in enumerate(lines) if _entry_key(line.stripped) is not None), len(lines))


def _scan_entries(lines: Sequence[Line], begin: int) -> tuple[list[Entry], int, bool]:
    """Collect entries from ``begin``; stop at a repeated heading (True) or at other text."""
    entries: list[Entry] = []
    top = float("-inf")
    bare = False
    for i in range(begin, len(lines)):
        text = lines[i].stripped
        if not text:
            continue
        key = _entry_key(text)
        if key is None:
            if bare and not read_number_tokens(text, 0):
                entries[-1].lines.append(lines[i])
                bare = False
                continue
            return entries, i, False
        if key[0] <= top:
            return entries, i, True
        top = key[0]
        entries.append(Entry([lines[i]], key[1], key[2]))
        bare = key[3]
    return entries, len(lines), False


def _entry_key(text: str) -> tuple[float, int, str, bool] | None:
    """(order, level, number, title missing) of a heading-shaped line, or None."""
    chapter = read_chapter(text)
    if chapter is not None:
        return chapter.number * 100 - 0.5, 1, str(chapter.number), False
    tokens = read_number_tokens(text, 0)
    if tokens and tokens[0].number.depth == 0 and not tokens[0].rest[:1].isdigit():
        return float(tokens[0].number.section), 2, str(tokens[0].number), not tokens[0].rest.strip()
    return None


def file_front(parsed: ParsedDocument, lines: Sequence[Line], layout: Layout) -> None:
    """Residue for the title block (``title``) and the contents (``contents``)."""
    for line in lines[: layout.header_end]:
        if line.stripped:
            parsed.residue.append(Residue(line.stripped, [line.span()], "title"))
    if layout.label is not None:
        line = lines[layout.label]
        parsed.residue.append(Residue(line.stripped, [line.span()], "contents"))
    for entry in layout.entries:
        text = "".join(line.stripped for line in entry.lines)
        cites = (entry.number,) if entry.level == 2 else ()
        parsed.residue.append(
            Residue(text, [line.span() for line in entry.lines], "contents", cites=cites, level=entry.level)
        )


def file_contents_only(parsed: ParsedDocument, lines: Sequence[Line]) -> None:
    """A text without rules (a mirror's first page): contents, title lines, page chrome."""
    for line in lines:
        text = line.stripped
        if not text:
            continue
        if _ENTRY.search(text) or text in CONTENTS_LABELS:
            kind = "contents"
        elif _VERSION.search(text) or _DATE.search(text):
            kind = "title"
        else:
            kind = "chrome"
        parsed.residue.append(Residue(text, [line.span()], kind))


def stated_version(parsed: ParsedDocument, text: str, kind: str) -> StatedVersion:
    """Read the stated version, record it, and report what the text does not state."""
    stated = read_stated_version(text)
    label = stated.label or (parsed.meta.versions[0] if parsed.meta.versions else None)
    if stated.label is None:
        parsed.anomaly(0, "version-not-stated", "no 'Ver.' label in the title block",
                       f"used the manifest's label {label!r}")
    if stated.date is None:
        parsed.anomaly(0, "date-not-stated", "no 最終更新日 date in the title block", "version has no date")
    if label is not None:
        parsed.versions.append(Version(parsed.meta.game, _language(parsed), label, stated.date, kind))
    return StatedVersion(label, stated.date, stated.label_at, stated.date_at)


def _language(parsed: ParsedDocument) -> str:
    return parsed.meta.languages[0] if parsed.meta.languages else "ja"
