"""A tournament document's section as terminal text (``show "IPG 2.1"``, ``show 誘発忘れ``).

Formatting only: the answer (``ask.sections.SectionAnswer``) holds every fact; this decides the
order a judge reads them in: what the section is and its penalty, its text and parts, then where
it points and what points to it, then its counterpart in the other game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_kb.ask.sections import SectionAnswer, SectionLink, describe_document
from rules_kb.games import GAME_SHORT_NAMES, document_kind

if TYPE_CHECKING:  # a lookup (show) prints sections without loading the comparison stage
    from rules_kb.compare.sections import SectionRow


def section_text(answer: SectionAnswer) -> str:
    """One section: heading line, body, labelled parts, links out and in, analogues, versions."""
    penalty = f"  [{answer.penalty}{_printed(answer)}]" if answer.penalty else ""
    lines = [f"{describe_document(answer.game, answer.document, answer.lang)} {answer.number} "
             f"({answer.version}): {answer.title}{penalty}"]
    if answer.text:
        lines += ["", answer.text]
    for label, heading, text in answer.parts:
        if label == "penalty":
            continue
        lines += ["", heading.rstrip("：:") if heading else label.replace("-", " ").capitalize()]
        lines += [f"  {line}" for line in text.splitlines()]
    if answer.children:
        lines += ["", "Subsections:"] + [f"  {number}  {title}" for number, title in answer.children]
    if answer.cites:
        lines += ["", "Cites:"] + [f"  {_link_line(link)}" for link in answer.cites]
    if answer.cited_by:
        lines += ["", "Cited by:"] + [f"  {_link_line(link)}" for link in answer.cited_by]
    for link in answer.analogues:
        lines += ["", f"Analogue ({link.relation}): {_link_line(link)}"]
        if link.evidence:
            lines.append(f"  evidence: {link.evidence}")
        if link.differs:
            lines.append(f"  differs: {link.differs}")
    versions = ", ".join(answer.versions)
    lines += ["", f"Versions: {versions}", f"Permalink: {answer.path}  (this version: {answer.pinned})"]
    return "\n".join(lines)


def _printed(answer: SectionAnswer) -> str:
    """The penalty as the document prints it, when it says more than its name (【警告】*: an asterisk)."""
    printed = next((text.strip() for label, _, text in answer.parts if label == "penalty"), "")
    bare = printed.strip("【】 ").replace("】", "").replace("【", "")
    return f"; printed {printed}" if printed and bare != answer.penalty else ""


def _link_line(link: SectionLink) -> str:
    if link.document == "cr":
        where = {"as-of": f"as of {link.version}", "other-version": "not in the release in force then",
                 "unresolved": "in no release of the corpus"}.get(link.relation, link.version)
        return f"{GAME_SHORT_NAMES[link.game]} CR {link.number} ({where}) - cited as \"{link.raw}\""
    kind = document_kind(link.game, link.document)
    title = f" {link.title}" if link.title else ""
    return f"{GAME_SHORT_NAMES[link.game]} {kind.short} {link.number}{title}"


def sections_list_text(answers: list[SectionAnswer]) -> str:
    return "\n\n".join(section_text(a) for a in answers)


def section_diff_text(rows: list[SectionRow], show_all: bool, color: bool = False) -> str:
    """``diff --document``'s view: a count line, then each changed section with its token diff."""
    from rules_kb.render.diffmarkup import render_terminal

    counts: dict[str, int] = {}
    for row in rows:
        counts[row.kind] = counts.get(row.kind, 0) + 1
    lines = [", ".join(f"{count} {kind}" for kind, count in sorted(counts.items())) or "nothing to compare"]
    for row in rows:
        if row.kind == "unchanged" and not show_all:
            continue
        numbers = row.number if row.kind != "moved" else f"{row.old.number} -> {row.new.number}"
        section = row.new or row.old
        penalty = (f"  [{row.old.penalty} -> {row.new.penalty}]" if row.kind == "penalty"
                   else f"  [{section.penalty}]" if section.penalty else "")
        lines += ["", f"{row.kind.upper()} {numbers} {section.title}{penalty}"]
        if row.diff is not None and row.kind != "unchanged":
            lines.append(render_terminal(row.diff, color))
    return "\n".join(lines)
