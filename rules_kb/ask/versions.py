"""Which versions exist, and which labels a judge most likely meant when the one typed does not.

``version_rows`` is what ``rules-kb versions`` prints. ``nearest_labels`` orders suggestions by
what the label means rather than how it is spelt: a date by the days between (``2030-01-01``
suggests the newest releases, not ``2020-06-01``), a version number by its numeric distance
(``1.47`` suggests ``1.48, 1.45``, not ``1.7, 1.4``). String similarity is the last resort, for
labels that are neither.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from rules_kb.model import BEFORE, Record

if TYPE_CHECKING:
    from rules_kb.assemble.knowledge import Knowledge

_DATE = re.compile(r"(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?")
_NUMBER = re.compile(r"\d+(?:\.\d+)+|\d+")


def _as_day(text: str) -> int | None:
    """Days since year 1 of ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD`` (missing parts: the first), else None."""
    match = _DATE.fullmatch(text.strip())
    if match is None:
        return None
    year, month, day = int(match[1]), int(match[2] or 1), int(match[3] or 1)
    try:
        return date(year, month, day).toordinal()
    except ValueError:
        return None


def _as_number(text: str) -> float | None:
    """``1.47`` -> 1.047 (each part a thousandth of the one before), so 1.48 is nearer than 1.7."""
    text = text.strip()
    if _NUMBER.fullmatch(text) is None or (_DATE.fullmatch(text) and len(text) == 4):
        return None
    return sum(int(part) / 1000 ** i for i, part in enumerate(text.split(".")))


def nearest_labels(wanted: str, labels: Sequence[str], dates: Mapping[str, str | None] | None = None,
                   count: int = 5) -> list[str]:
    """The ``count`` labels nearest to ``wanted``, nearest first (ties: the newer label first).

    A date is compared with each label's date (``dates``, else the label itself when it is a
    date; a ``before-X`` label with X); a version number with the labels that are numbers.
    """
    known = list(dict.fromkeys(labels))
    dates = dates or {}
    day = _as_day(wanted)
    if day is not None:
        scored = []
        for position, label in enumerate(known):
            own = label[len(BEFORE):] if label.startswith(BEFORE) else label
            other = _as_day(dates.get(label) or own) or _as_day(own)
            if other is not None:
                scored.append((abs(other - day), -other, -position, label))
        if scored:
            return [label for *_, label in sorted(scored)[:count]]
    value = _as_number(wanted)
    if value is not None:
        scored = [(abs(v - value), -v, label) for label in known if (v := _as_number(label)) is not None]
        if scored:
            return [label for *_, label in sorted(scored)[:count]]
    return difflib.get_close_matches(wanted, known, n=count, cutoff=0.0)


@dataclass(frozen=True)
class VersionRow(Record):
    """One version as ``rules-kb versions`` lists it."""

    game: str
    lang: str
    label: str
    date: str | None
    complete: bool
    kinds: tuple[str, ...]
    documents: tuple[str, ...]
    rules: int
    document: str = "cr"
    """Which of the game's documents (``games.DOCUMENTS``); a tournament document counts sections in ``rules``."""


def version_rows(knowledge: Knowledge, game: str | None = None, lang: str | None = None) -> list[VersionRow]:
    """Every version of each game and language, oldest first: label, date, kinds, documents, rule count."""
    catalog = knowledge.catalog
    counts = _rule_counts(knowledge)
    rows = []
    for g, lg in sorted({(g, lg) for g, lg, _ in catalog.versions}):
        if (game and g != game) or (lang and lg != lang):
            continue
        for label in catalog.version_labels(g, lg):
            info = catalog.versions[(g, lg, label)]
            rows.append(VersionRow(g, lg, label, info.date, info.complete, tuple(sorted(info.kinds)),
                                   tuple(info.documents), counts(g, lg, label)))
    return rows + _section_rows(knowledge, game, lang)


def _section_rows(knowledge: Knowledge, game: str | None, lang: str | None) -> list[VersionRow]:
    """The tournament documents' versions (each a whole document: complete), after the rules'."""
    sections = knowledge.catalog.sections
    rows = []
    for g, document, lg in sections.documents():
        if (game and g != game) or (lang and lg != lang):
            continue
        for label in sections.labels(g, document, lg):
            held = sections.sections_in(g, document, lg, label)
            sources = tuple(dict.fromkeys(s.document_id for s in held.values()))
            rows.append(VersionRow(g, lg, label, label, True, ("full",), sources, len(held), document))
    return rows


def _rule_counts(knowledge: Knowledge):
    """How many rule numbers a version holds: from the store's index when there is one (no text is read)."""
    store = getattr(knowledge, "store", None)
    if store is None:
        return lambda g, lg, label: len(knowledge.catalog.rules_in(g, lg, label))

    def count(g: str, lg: str, label: str) -> int:
        last = store.values("SELECT MAX(number_position) FROM rule_texts WHERE game=? AND lang=? AND version=?",
                            (g, lg, label))
        return 0 if not last or last[0] is None else last[0] + 1
    return count


__all__ = ["VersionRow", "nearest_labels", "version_rows"]
