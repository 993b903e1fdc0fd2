"""Which permalink a reference gets: its game, then a version (pinned, as of a date, or none).

The site's link page (``site/assets/link.js``) follows the same steps over the same data;
a browser test checks that both give the same output for every fixture note.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_kb.games import GAME_SHORT_NAMES, LANGS_FIRST
from rules_kb.links import fill
from rules_kb.notes.index import NoteIndex, NoteVersion
from rules_kb.notes.sections import resolve_section
from rules_kb.numbers import RuleNumber
from rules_kb.refs import NoteReference, SectionReference


@dataclass(frozen=True)
class LinkOptions:
    """How to link: ``base_url`` goes in front of every path; ``pin`` and ``as_of`` exclude each other."""

    base_url: str = ""
    game: str | None = None
    pin: str | None = None
    as_of: str | None = None


@dataclass(frozen=True)
class ItemLink:
    """One item of a reference (a number or a range, ``rules`` and tags included): URL or problem."""

    start: int
    end: int
    url: str | None
    problem: str | None = None


def resolve(reference: NoteReference | SectionReference, options: LinkOptions, index: NoteIndex) -> list[ItemLink]:
    """Decide the game for the whole reference, then a URL or a problem for each item.

    A range is linked only when every number in it exists; items of a list stand alone. A
    tournament section is one item (``notes.sections``); a bracket that names nothing is no item.
    """
    if isinstance(reference, SectionReference):
        url, problem = resolve_section(reference, options.base_url, options.pin, options.as_of,
                                       index.data.get("sections", []))
        return [] if url is None and problem is None else [ItemLink(reference.start, reference.end, url, problem)]
    game = reference.game or options.game
    wanted = [str(number) for number in reference.numbers]
    if game is None:
        game, problem = guess_game(reference, wanted, index)
        if problem is not None:
            return [ItemLink(reference.start, reference.end, None, problem)]
    if game not in index.numbers:
        return [ItemLink(reference.start, reference.end, None, f"no {GAME_SHORT_NAMES[game]} rules in the corpus")]
    return [_resolve_item(start, end, numbers, game, reference.version, options, index)
            for start, end, numbers in reference.items]


def _resolve_item(start: int, end: int, numbers: tuple[RuleNumber, ...], game: str, version: str | None,
                  options: LinkOptions, index: NoteIndex) -> ItemLink:
    """A URL for the item's first number once every number of it exists (in the version, if any)."""
    missing = [str(number) for number in numbers if str(number) not in index.numbers[game]]
    if missing:
        return ItemLink(start, end, None, f"no rule {', '.join(missing)} in {GAME_SHORT_NAMES[game]}")
    version = version or options.pin
    chosen: NoteVersion | None = None
    for number in numbers:
        if version is not None:
            found, problem = pinned(index, game, version, number)
        elif options.as_of is not None:
            found, problem = in_force(index, game, options.as_of, number)
        else:
            found, problem = None, None
        if problem is not None:
            return ItemLink(start, end, None, problem)
        chosen = chosen or found
    template = chosen.pinned if chosen is not None else index.data["games"][game]["rule_page"]
    return ItemLink(start, end, options.base_url.rstrip("/") + fill(template, numbers[0]))


def guess_game(reference: NoteReference, wanted: list[str], index: NoteIndex) -> tuple[str | None, str | None]:
    """Without a tag or ``--game``: the one game with the version, else the one with the numbers."""
    games = index.games()
    if reference.version is not None:
        with_version = [g for g in games if any(v.label == reference.version for v in index.of_game(g))]
        if len(with_version) == 1:
            return with_version[0], None
    holding = [g for g in games if all(number in index.numbers[g] for number in wanted)]
    if len(holding) == 1:
        return holding[0], None
    if not holding:
        return None, f"no rule {' '.join(wanted)} in any game"
    names = " and ".join(GAME_SHORT_NAMES[g] for g in holding)
    return None, f"ambiguous: {wanted[0]} exists in {names}; write DM or MTG before it, or pass --game"


def pinned(index: NoteIndex, game: str, label: str, number: RuleNumber) -> tuple[NoteVersion | None, str | None]:
    """The version called ``label`` that holds the number, in the game's own language first."""
    versions = [v for v in index.of_game(game) if v.label == label]
    if not versions:
        return None, f"{GAME_SHORT_NAMES[game]} has no version {label} with rule texts in the corpus"
    for lang in LANGS_FIRST[game]:
        for version in versions:
            if version.lang == lang and str(number) in version.numbers:
                return version, None
    return None, f"no rule {number} in {GAME_SHORT_NAMES[game]} {label}"


def in_force(index: NoteIndex, game: str, date: str, number: RuleNumber) -> tuple[NoteVersion | None, str | None]:
    """The newest text of the number dated on or before ``date``.

    Change notices and excerpts hold only some rules, so the newest version *holding the number*
    is the text in force. Failing a dated one, a notice's ``before-X`` text counts for dates
    before X. A complete rulebook dated after the chosen text and without the number means the
    rule was gone by then.
    """
    key = str(number)
    rank = LANGS_FIRST[game]
    holding = [v for v in index.of_game(game) if key in v.numbers]
    dated = [v for v in holding if v.date is not None and v.date <= date]
    if dated:
        chosen = max(dated, key=lambda v: (v.date, -rank.index(v.lang)))
        gone = [v for v in index.of_game(game) if v.complete and v.lang == chosen.lang and v.date is not None
                and chosen.date < v.date <= date and key not in v.numbers]
        if gone:
            return None, f"rule {key} is not in {GAME_SHORT_NAMES[game]} {gone[0].label}, in force on {date}"
        return chosen, None
    before = [v for v in holding if v.until is not None and v.until > date]
    if before:
        return min(before, key=lambda v: (v.until, rank.index(v.lang))), None
    return None, f"no text of {GAME_SHORT_NAMES[game]} rule {key} dated on or before {date} in the corpus"


def check_options(options: LinkOptions, index: NoteIndex) -> None:
    """Refuse options no reference could satisfy, before any output is written."""
    from rules_kb.errors import UsageError

    if options.pin is not None and options.as_of is not None:
        raise UsageError("--pin and --as-of exclude each other")
    if options.as_of is not None and not _is_date(options.as_of):
        raise UsageError(f"--as-of {options.as_of!r}: expected a date YYYY-MM-DD")
    if options.pin is not None and not any(v.label == options.pin for v in index.versions):
        from rules_kb.ask.versions import nearest_labels

        held = [v for v in index.versions if not v.label.startswith("before-")]
        nearest = nearest_labels(options.pin, [v.label for v in held], {v.label: v.date for v in held})
        raise UsageError(f"--pin {options.pin!r}: no version with rule texts has that label "
                         f"(nearest: {', '.join(nearest)}; rules-kb versions lists them all)")


def _is_date(text: str) -> bool:
    from datetime import date

    try:
        return len(text) == 10 and date.fromisoformat(text).isoformat() == text
    except ValueError:
        return False
