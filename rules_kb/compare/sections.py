"""Two versions of a tournament document compared section by section.

Sections pair by number when their titles agree (folded: width, case, dashes); a section whose
title now stands under another number is a move (the IPG renumbered infractions when it added or
merged them); what is left is added or removed. A pair is unchanged, ``retitled``, a ``penalty``
change, or ``changed`` (its words, parts included), each with its token diff: the same classes a
judge asks of the rules, without the rules' aligner (sections are few and titled).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_kb.compare.diff import TokenDiff, diff_tokens
from rules_kb.model import Section
from rules_kb.numbers import SectionNumber
from rules_kb.refs import name_key


@dataclass(frozen=True)
class SectionRow:
    kind: str  # unchanged, changed, retitled, penalty, moved, added, removed
    old: Section | None
    new: Section | None
    diff: TokenDiff | None = None

    @property
    def number(self) -> str:
        return (self.new or self.old).number  # type: ignore[union-attr]

    def to_record(self) -> dict:
        return {"kind": self.kind, "old": self.old.number if self.old else None,
                "new": self.new.number if self.new else None,
                "old_title": self.old.title if self.old else None, "new_title": self.new.title if self.new else None,
                "old_penalty": self.old.penalty if self.old else None,
                "new_penalty": self.new.penalty if self.new else None,
                "changes": [{"old": c.old, "new": c.new, "kind": c.reason} for c in self.diff.changes]
                if self.diff else []}


def whole_text(section: Section) -> str:
    """A section's words as one text: body, then each part under its printed heading."""
    pieces = [section.text] + [f"{part.heading}\n{part.text}" for part in section.parts if part.label != "penalty"]
    return "\n".join(piece for piece in pieces if piece)


def compare_sections(old: dict[str, Section], new: dict[str, Section]) -> list[SectionRow]:
    """Every section of either version, paired and classed, in the new version's order."""
    rows: list[SectionRow] = []
    paired_old: set[str] = set()
    by_title = {name_key(s.title): s for s in old.values()}
    for number, section in new.items():
        before = old.get(number)
        if before is not None and name_key(before.title) == name_key(section.title):
            rows.append(_pair(before, section))
            paired_old.add(number)
            continue
        moved = by_title.get(name_key(section.title))
        if moved is not None and moved.number not in new:
            rows.append(SectionRow("moved", moved, section, diff_tokens(whole_text(moved), whole_text(section),
                                                                          section.lang)))
            paired_old.add(moved.number)
        elif before is not None:
            rows.append(SectionRow("retitled", before, section,
                                   diff_tokens(f"{before.title}\n{whole_text(before)}",
                                               f"{section.title}\n{whole_text(section)}", section.lang)))
            paired_old.add(number)
        else:
            rows.append(SectionRow("added", None, section))
    for number, section in old.items():
        if number not in paired_old:
            rows.append(SectionRow("removed", section, None))
    return sorted(rows, key=lambda row: SectionNumber.parse(row.number))


def _pair(old: Section, new: Section) -> SectionRow:
    diff = diff_tokens(whole_text(old), whole_text(new), new.lang)
    if old.penalty != new.penalty:
        return SectionRow("penalty", old, new, diff)
    if whole_text(old) != whole_text(new):
        return SectionRow("changed", old, new, diff)
    return SectionRow("unchanged", old, new, diff)
