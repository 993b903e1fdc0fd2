"""Forgiving arguments: what a judge types, read the way they meant it, or an error that says what to type.

* a rule: ``509.1a``, ``５０７．２ａ``, ``CR 509.1a``, ``rule 509.1a``, ``総合ルール507.3c`` (the one
  reference grammar, ``refs.py``, reads everything but a bare number); ``5072a`` is not a
  number but gets "did you mean 507.2a?";
* a game: ``dm``, ``DM``, ``duel-masters``, ``mtg``, ``magic``; a language: ``ja``, ``jp``, ``en``;
* which game: when the number exists in one game only, that one; when in both, a command
  that answers for one game says which it chose; a number that exists only in the other
  game than the one asked for says so;
* a version: an unknown label says that the version does not exist and lists the nearest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules_kb.ask.query import nearest_numbers
from rules_kb.ask.versions import nearest_labels
from rules_kb.errors import MalformedRuleNumber, RuleNotFound, UsageError
from rules_kb.games import GAME_SHORT_NAMES, GAMES, LANGS, game_of_alias
from rules_kb.numbers import RuleNumber, fold_width
from rules_kb.refs import find_references

if TYPE_CHECKING:
    from rules_kb.assemble.knowledge import Knowledge

_LANGUAGE_ALIASES = {
    "ja": "ja", "jp": "ja", "jpn": "ja", "japanese": "ja", "日本語": "ja",
    "en": "en", "eng": "en", "english": "en", "英語": "en",
}
_RUN_TOGETHER = re.compile(r"(\d{3})(\d{1,3})([a-z]?)\.?")


def game_code(raw: str) -> str:
    """``dm`` or ``mtg`` for any usual spelling, case-insensitive."""
    code = game_of_alias(fold_width(raw))
    if code is None:
        choices = ", ".join(f"{game} for {name}" for game, name in GAME_SHORT_NAMES.items())
        raise UsageError(f"unknown game {raw!r} ({choices})")
    return code


def language_code(raw: str) -> str:
    """``ja`` or ``en`` for any usual spelling (``jp`` is the country, but everyone types it)."""
    code = _LANGUAGE_ALIASES.get(fold_width(raw).strip().lower())
    if code is None:
        raise UsageError(f"unknown language {raw!r} (ja for Japanese, en for English)")
    return code


def rule_argument(raw: str) -> RuleNumber:
    """The rule a command-line argument names, through the one reference grammar.

    A bare number is read by ``RuleNumber``; anything else must be exactly one reference to
    one rule (``CR 509.1a``, ``総合ルール507.3c``). Digits run together get a suggestion.
    """
    text = raw.strip()
    try:
        return RuleNumber.parse(text)
    except MalformedRuleNumber:
        pass
    references = find_references(text)
    if len(references) == 1 and len(references[0].numbers) == 1:
        reference = references[0]
        before, after = text[: reference.start].strip(), text[reference.end :].strip(" .。")
        if not after and (not before or before.lower() in ("see", "cr", "rule")):
            return reference.numbers[0]
    if len(references) == 1 and len(references[0].numbers) > 1:
        listed = ", ".join(map(str, references[0].numbers))
        raise UsageError(f"{raw!r} names several rules ({listed}): give one")
    suggestion = suggest_number(text)
    if suggestion is not None:
        raise UsageError(f"{raw!r} is not a rule number; did you mean {suggestion}?")
    raise RuleNotFound(raw, [])


def suggest_number(raw: str) -> str | None:
    """``5072a`` -> ``507.2a``: the likeliest number when the dot was left out."""
    match = _RUN_TOGETHER.fullmatch(fold_width(raw).strip().lower())
    if match is None:
        return None
    return f"{match[1]}.{match[2]}{match[3]}"


@dataclass(frozen=True)
class GameChoice:
    """The games to answer for, and a note for the reader when the choice was not obvious."""

    games: tuple[str, ...]
    note: str | None = None


def games_with(knowledge: Knowledge, number: RuleNumber) -> list[str]:
    """Games in which some version in some language has ``number``."""
    catalog = knowledge.catalog
    return [g for g in GAMES if any(number in rules for (gg, _, _), rules in catalog.texts.items() if gg == g)]


def choose_games(knowledge: Knowledge, number: RuleNumber, game: str | None, *, single: bool = False) -> GameChoice:
    """Which game(s) a question about ``number`` is about.

    With ``game`` given, that game, or an error saying the number exists only in the other
    one. Without, every game that has the number; with ``single`` (a command that answers
    for one game), Duel Masters when both have it, and a note saying so.
    """
    present = games_with(knowledge, number)
    if game is not None:
        if game in present:
            return GameChoice((game,))
        if present:
            other = present[0]
            names = GAME_SHORT_NAMES
            raise UsageError(f"no rule {number} in {names[game]}; it exists only in {names[other]} (--game {other})")
        raise RuleNotFound(str(number), nearest_numbers(knowledge.catalog, game, number))
    if not present:
        raise RuleNotFound(str(number), nearest_numbers(knowledge.catalog, None, number))
    if len(present) == 1:
        return GameChoice(tuple(present))
    if single:
        chosen, other = present
        return GameChoice((chosen,), f"{number} exists in both games: this is {GAME_SHORT_NAMES[chosen]} "
                                     f"(--game {other} for {GAME_SHORT_NAMES[other]})")
    return GameChoice(tuple(present))


def check_version(knowledge: Knowledge, version: str, games: tuple[str, ...], lang: str | None = None) -> None:
    """Refuse a version label that no game and language asked about has, naming the nearest labels."""
    catalog = knowledge.catalog
    langs = (lang,) if lang else LANGS
    labels = [label for g in games for lg in langs for label in catalog.version_labels(g, lg)]
    if version in labels:
        return
    dates = {label: catalog.versions[(g, lg, label)].date for g in games for lg in langs
             for label in catalog.version_labels(g, lg)}
    nearest = nearest_labels(version, labels, dates)
    where = " ".join([*(games if len(games) == 1 else ()), *(langs if lang else ())]).strip()
    raise UsageError(f"no version {version}{' of ' + where if where else ''} (nearest: {', '.join(nearest)})")


def require_language(knowledge: Knowledge, number: RuleNumber, games: tuple[str, ...], lang: str | None) -> None:
    """Refuse a language in which none of ``games`` has ``number``, naming the languages that do."""
    if lang is None:
        return
    catalog = knowledge.catalog
    held = sorted({(g, lg) for (g, lg, _), rules in catalog.texts.items() if g in games and number in rules})
    if held and not any(lg == lang for _, lg in held):
        where = ", ".join(f"{GAME_SHORT_NAMES[g]} {lg}" for g, lg in held)
        raise UsageError(f"no {lang} text of {number} in the corpus; it exists in {where}")
