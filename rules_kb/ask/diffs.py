"""The diff question: two versions named by a judge, checked against what the corpus holds, compared.

Every mistake is a ``UsageError`` or ``RuleNotFound`` naming what was asked (a version the game
does not have, the same version twice, versions in the wrong order, a chapter out of range, a
rule in neither version) before any alignment is read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules_kb.ask.arguments import check_version, rule_argument
from rules_kb.ask.glossary import glossary_entries
from rules_kb.ask.query import nearest_numbers
from rules_kb.compare.alignment import Scope
from rules_kb.compare.changes import Comparison, compare_versions
from rules_kb.compare.glossary import GlossaryChanges, compare_glossaries
from rules_kb.errors import RuleNotFound, UsageError

if TYPE_CHECKING:
    from rules_kb.assemble.knowledge import Knowledge


def diff_asked(knowledge: Knowledge, game: str, lang: str, old: str, new: str, *, section: int | None = None,
               rule: str | None = None) -> DiffAnswer:
    """``old`` against ``new`` (older first) in one game and language, within a chapter or a rule."""
    catalog = knowledge.catalog
    labels = catalog.version_labels(game, lang)
    if not labels:
        raise UsageError(f"the corpus has no {game} rules in {lang}")
    for label in (old, new):
        check_version(knowledge, label, (game,), lang)
    if old == new:
        raise UsageError(f"compare two different versions (both are {old})")
    if labels.index(old) > labels.index(new):
        raise UsageError(f"{old} is newer than {new}: give the older version first")
    if section is not None and not 0 <= section <= 9:
        raise UsageError(f"--section takes a chapter from 0 to 9, not {section}")
    number = rule_argument(rule) if rule else None
    if number is not None and not any(number in catalog.rules_in(game, lang, v) for v in (old, new)):
        raise RuleNotFound(f"{number} in {game} {lang} {old} or {new}", nearest_numbers(catalog, game, number))
    comparison = compare_versions(catalog, knowledge.alignments, game, lang, old, new, knowledge.forced,
                                  Scope(rule=number, chapter=section))
    whole = number is None and section is None  # a glossary belongs to the whole version, not a chapter
    glossary = compare_glossaries(old, glossary_entries(knowledge, game, lang, old), new,
                                  glossary_entries(knowledge, game, lang, new)) if whole else None
    return DiffAnswer(comparison, glossary, partial_versions(knowledge, game, lang, (old, new)))


@dataclass(frozen=True)
class DiffAnswer:
    """Two versions compared: the rules row by row, the glossaries (for whole versions), and what each
    partial version is, so a reader knows why most rules are unknown rather than added or removed."""

    comparison: Comparison
    glossary: GlossaryChanges | None
    partial: dict[str, str]  # label -> "a change notice holding 13 rules"


def partial_versions(knowledge: Knowledge, game: str, lang: str, labels: tuple[str, ...]) -> dict[str, str]:
    """Each partial version among ``labels``, said as a reader would: what kind of document, how many rules."""
    catalog = knowledge.catalog
    out = {}
    for label in labels:
        info = catalog.versions[(game, lang, label)]
        if not info.complete:
            kinds = " and ".join(KIND_NAMES.get(kind, kind) for kind in sorted(info.kinds))
            count = len(catalog.rules_in(game, lang, label))
            out[label] = f"{kinds} holding {count} rule{'s' if count != 1 else ''}"
    return out


KIND_NAMES = {"excerpt": "an excerpt", "change-notice": "a change notice", "contents": "a table of contents",
              "mentioned": "a mention"}
