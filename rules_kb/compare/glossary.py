"""What changed in a glossary between two versions: terms added, removed and reworded.

One comparison for every reader: ``diff`` prints it and the site's what's-new page lists it.
Terms are matched by name in any case (a glossary that capitalises an entry anew has not
added a term); a definition that differs only in spacing is not reworded.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules_kb.compare.diff import TokenDiff, diff_tokens
from rules_kb.model import Record


@dataclass(frozen=True)
class Rewording(Record):
    """A term whose definition changed between the two versions."""

    term: str
    old: str
    new: str


@dataclass(frozen=True)
class GlossaryChanges(Record):
    """The glossary of ``new`` against that of ``old`` (one game and language)."""

    old_version: str
    new_version: str
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    reworded: tuple[Rewording, ...] = ()
    compared: bool = True  # False when a version has no glossary: nothing can be said

    @property
    def changed(self) -> bool:
        return bool(self.added or self.removed or self.reworded)

    def to_record(self) -> dict:
        return {"old": self.old_version, "new": self.new_version, "compared": self.compared,
                "added": list(self.added), "removed": list(self.removed),
                "reworded": [{"term": r.term, "old": r.old, "new": r.new} for r in self.reworded]}


def compare_glossaries(old_version: str, old: Iterable[tuple[str, str]], new_version: str,
                       new: Iterable[tuple[str, str]]) -> GlossaryChanges:
    """``old`` and ``new`` are (term, definition) pairs in printed order; the changes in ``new``'s order.

    A version without a glossary (a Duel Masters rulebook, a change notice) is not compared:
    the change is unknown, not "every term removed".
    """
    before, after = _by_name(old), _by_name(new)
    if not before or not after:
        return GlossaryChanges(old_version, new_version, compared=False)
    added = tuple(term for key, (term, _) in after.items() if key not in before)
    removed = tuple(term for key, (term, _) in before.items() if key not in after)
    reworded = tuple(Rewording(term, before[key][1], definition) for key, (term, definition) in after.items()
                     if key in before and _words(before[key][1]) != _words(definition))
    return GlossaryChanges(old_version, new_version, added, removed, reworded)


def rewording_diff(rewording: Rewording, lang: str) -> TokenDiff:
    """The word diff of a reworded definition (the same token diff as a rule's)."""
    return diff_tokens(rewording.old, rewording.new, lang)


def _by_name(entries: Iterable[tuple[str, str]]) -> dict[str, tuple[str, str]]:
    """Entries keyed by the name folded to lower case; a name printed twice keeps its first entry."""
    found: dict[str, tuple[str, str]] = {}
    for term, definition in entries:
        found.setdefault(term.casefold(), (term, definition))
    return found


def _words(text: str) -> str:
    return " ".join(text.split())


__all__ = ["GlossaryChanges", "Rewording", "compare_glossaries", "rewording_diff"]
