"""Audit a note: does each rule it cites still say, today, what it said when the note was written?

Every citation the linker finds (the one reference grammar, outside the format's protected parts)
gets the date it stood at: a version written after it (``507.2a (1.38)``, ``(2021-09-07)``), else
the date tag of its entry (``[CompRules 2008/02/01]``, ``[CR 2019-05-03]``: the tag after the
citation in its paragraph or list item, else the last one before it), else ``--as-of``. The
linker's resolution picks the text in force then; ``ask.since`` follows it to today's rules.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules_kb.ask.since import Follower, verdict_of
from rules_kb.games import GAME_SHORT_NAMES
from rules_kb.model import Record
from rules_kb.notes.index import NoteIndex, NoteVersion
from rules_kb.notes.link import Lines, find_in
from rules_kb.notes.resolve import LinkOptions, guess_game, in_force, pinned
from rules_kb.numbers import RuleNumber
from rules_kb.refs import NoteReference, SectionReference

if TYPE_CHECKING:
    from rules_kb.assemble.knowledge import Knowledge

# A date tag closing a ruling or a quoted rule: [CompRules 2008/02/01], [CR 2019-05-03], [DM 2021-09-07].
DATE_TAG = re.compile(r"\[(?P<word>CompRules|CR|DM|総合ルール)?[ \t]*"
                      r"(?P<y>[0-9]{4})[/.-](?P<m>[0-9]{2})[/.-](?P<d>[0-9]{2})\]")
TAG_GAMES = {"CompRules": "mtg", "CR": "mtg", "DM": "dm", "総合ルール": "dm"}
# Entries: paragraphs (a blank line between) and list items (a line starting "- ", "* " or "1. ").
ENTRY_START = re.compile(r"\n[ \t]*\n|\n(?=[ \t]*(?:[-*+]|[0-9]+[.)])[ \t])")
UNDATED, UNRESOLVED = "undated", "unresolved"


@dataclass(frozen=True)
class Finding(Record):
    """One citation of the note and what became of it."""

    line: int
    column: int
    cited: str  # as written
    number: str
    game: str | None
    dated: str | None  # the date or version it stood at, and where that came from
    dated_by: str  # "version", "tag", "as-of" or "" (undated)
    lang: str | None = None
    version: str | None = None  # the version whose text it stood for
    verdict: str = UNDATED  # ask.since.VERDICTS, or undated / unresolved
    now: str | None = None  # today's number
    today: str | None = None  # today's version
    changed_on: tuple[str, ...] = ()
    text_class: str | None = None  # then against today, as diff classes a rule kept in place
    changes: tuple[tuple[str, str], ...] = ()  # substantive (old words, new words)
    editorial: tuple[tuple[str, str, str], ...] = ()  # (old, new, why it is editorial)
    targets: tuple[str, ...] = ()  # where a split's sentences went, numbered as they are today
    then_text: str = ""
    now_text: str = ""
    problem: str = ""


def date_tags(text: str) -> list[tuple[int, int, str, str | None]]:
    """(start, end, ISO date, game or None) of every date tag."""
    return [(m.start(), m.end(), f"{m['y']}-{m['m']}-{m['d']}", TAG_GAMES.get(m["word"] or ""))
            for m in DATE_TAG.finditer(text)]


class Entries:
    """The note's entries and date tags, found once; each citation then finds its own by bisection
    (found again for each citation, they made ``audit`` quadratic: 297 s for a 3.9 MB note)."""

    def __init__(self, text: str, tags: list[tuple[int, int, str, str | None]]) -> None:
        self.size = len(text)
        self.starts = [0, *(match.end() for match in ENTRY_START.finditer(text))]
        self.tags = tags
        self.tag_starts = [tag[0] for tag in tags]

    def bounds(self, at: int) -> tuple[int, int]:
        """Where the entry holding ``at`` starts and ends."""
        k = bisect.bisect_right(self.starts, at)
        return self.starts[k - 1], self.starts[k] if k < len(self.starts) else self.size

    def in_tag(self, at: int) -> bool:
        """Whether ``at`` is inside a date tag (tags never overlap: only the last starting before counts)."""
        k = bisect.bisect_right(self.tag_starts, at)
        return k > 0 and at < self.tags[k - 1][1]

    def tag_for(self, at: int) -> tuple[str, str | None] | None:
        """The entry's tag after the citation, else the last before it."""
        start, end = self.bounds(at)
        first, after, stop = (bisect.bisect_left(self.tag_starts, position) for position in (start, at, end))
        chosen = self.tags[after] if after < stop else self.tags[after - 1] if after > first else None
        return None if chosen is None else (chosen[2], chosen[3])


def audit_note(knowledge: Knowledge, index: NoteIndex, text: str, fmt: str, options: LinkOptions) -> list[Finding]:
    """A finding for every number of every citation, in the note's order."""
    tags = date_tags(text)
    tag_games = {game for *_, game in tags if game}
    if options.game is None and len(tag_games) == 1:  # a note tagged [CompRules ...] throughout is Magic's
        options = LinkOptions(options.base_url, *tag_games, options.pin, options.as_of)
    followers: dict = {}
    out = []
    entries, lines = Entries(text, tags), Lines(text)
    for reference in find_in(text, fmt, options):
        if isinstance(reference, SectionReference):
            continue  # a tournament section: one version of each document so far, nothing to audit against
        if entries.in_tag(reference.start):
            continue  # a number inside a date tag
        tag = entries.tag_for(reference.start)
        for number in reference.numbers:
            out.append(_finding(knowledge, index, lines, reference, number, tag, options, followers))
    return out


def _finding(knowledge: Knowledge, index: NoteIndex, lines: Lines, reference: NoteReference, number: RuleNumber,
             tag: tuple[str, str | None] | None, options: LinkOptions, followers: dict) -> Finding:
    line, column = lines.line_and_column(reference.start)
    dated, dated_by = ((reference.version, "version") if reference.version else (tag[0], "tag") if tag
                       else (options.as_of, "as-of") if options.as_of else (None, ""))
    base = Finding(line, column, reference.raw, str(number), None, dated, dated_by)
    game = reference.game or options.game or (tag[1] if tag and not reference.version else None)
    if game is None:
        game, problem = guess_game(reference, [str(number)], index)
        if problem is not None:
            return _with(base, verdict=UNRESOLVED, problem=problem)
    base = _with(base, game=game)
    if dated is None:
        return _with(base, problem="no date: give --as-of, or tag the entry [CR YYYY-MM-DD]")
    version, problem = _version_at(index, game, dated, dated_by, number)
    if problem is not None:
        return _with(base, verdict=UNRESOLVED, problem=problem)
    if (game, version.lang) not in followers:
        followers[(game, version.lang)] = Follower(knowledge, game, version.lang)
    return judged(_with(base, lang=version.lang, version=version.label), followers[(game, version.lang)], number)


def judged(base: Finding, follower: Follower, number: RuleNumber) -> Finding:
    """``base`` (a citation of ``number`` in ``base.version``) with what became of its text."""
    trail = follower.trail(base.version, number)
    outcome = verdict_of(trail, follower.game)
    diffs = [d for d in ([outcome.row.diff, *outcome.row.example_diffs] if outcome.row else []) if d is not None]
    return _with(base, verdict=outcome.verdict, now=outcome.now, today=trail.newest, changed_on=outcome.changed_on,
                 text_class=outcome.text_class,
                 changes=tuple(c for d in diffs for c in d.substantive_changes),
                 editorial=tuple(c for d in diffs for c in d.editorial_changes),
                 targets=_targets_today(follower, trail), then_text=trail.first.text,
                 now_text=trail.last.text if trail.last else "")


def _targets_today(follower: Follower, trail) -> tuple[str, ...]:
    """Where a split text's sentences are today: each rule that took them, followed to today."""
    if trail.end is None or not trail.end.targets:
        return ()
    out = []
    for target in trail.end.targets:
        onward = follower.trail(trail.end.version, RuleNumber.parse(target))
        out.append(str(onward.last.number) if onward.last is not None else f"{target} (since {onward.end.kind})")
    return tuple(dict.fromkeys(out))


def _version_at(index: NoteIndex, game: str, dated: str, dated_by: str,
                number: RuleNumber) -> tuple[NoteVersion | None, str | None]:
    """The version a citation stood for: the one named after it, else the text in force on the date."""
    if dated_by == "version" and any(v.label == dated for v in index.of_game(game)):
        return pinned(index, game, dated, number)
    if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", dated):
        return in_force(index, game, dated, number)
    return None, f"{GAME_SHORT_NAMES[game]} has no version {dated} with rule texts in the corpus"


def _with(finding: Finding, **changes) -> Finding:
    from dataclasses import replace

    return replace(finding, **changes)
