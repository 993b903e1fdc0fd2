"""Text views of glossary terms: an entry by name (``show deathtouch``), every wording of one
(``history deathtouch``), and what changed in a glossary between two versions (``diff``).

Formatting only, as ``textformat``: the answers come from ``ask.glossary`` and ``compare.glossary``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rules_kb.render.textformat import format_text, indented, span_text

if TYPE_CHECKING:
    from rules_kb.ask.glossary import TermAnswer, TermHistory
    from rules_kb.compare.glossary import GlossaryChanges


def term_text(answer: TermAnswer) -> str:
    """A glossary term, curated term or keyword ability: its definition, then each rule it points to."""
    if answer.source == "glossary":
        where = f"glossary of {answer.version}; {answer.document}"
    elif answer.source == "curated":
        where = "curated term, corpus/terms.toml"
    else:  # a keyword answer always names the rule whose heading it is
        where = f"keyword ability {', '.join(answer.rules)}, {answer.version}; {answer.document}"
    lines = [f"{answer.term}  [{answer.game} {answer.lang}; {where}]"]
    if answer.definition:
        lines.append(indented(answer.definition))
    if answer.note:
        lines.append(indented(answer.note))
    if len(answer.versions) > 1:
        lines.append(f"  in the glossary of {len(answer.versions)} versions, {answer.versions[0]} to "
                     f"{answer.versions[-1]}")
    if answer.texts:
        lines.append("  rules:")
        lines.extend(indented(format_text(text), "    ") for text in answer.texts)
    return "\n".join(lines)


def term_history_text(histories: Sequence[TermHistory], others: Sequence[TermAnswer] = ()) -> str:
    """``history TERM``'s view: each wording once with the versions that print it; a curated term or
    keyword ability has no glossary wording, so it names its rule's history."""
    out = []
    for found in histories:
        out.append(f"{found.term}  [{found.game} {found.lang} glossary; {len(found.wordings)} wording"
                   f"{'s' if len(found.wordings) != 1 else ''}]")
        for wording in found.wordings:
            versions = wording.versions
            out.append(f"  {span_text(versions)} ({len(versions)} version{'s' if len(versions) != 1 else ''}; "
                       f"{wording.documents[-1]})")
            out.append(indented(wording.definition, "    "))
    for answer in others:
        kind = "curated term" if answer.source == "curated" else "keyword ability"
        rules = ", ".join(answer.rules)
        out.append(f"{answer.term}  [{answer.game} {answer.lang}; {kind}, in no glossary]: its rule's history is "
                   f"rules-kb history {rules} --game {answer.game}")
    return "\n".join(out)


def glossary_changes_text(changes: GlossaryChanges, lang: str) -> str:
    """The glossary lines of ``diff``: terms added, removed and reworded (with the word diff)."""
    from rules_kb.compare.glossary import rewording_diff
    from rules_kb.render.diffmarkup import render_terminal

    head = f"glossary {changes.old_version} -> {changes.new_version}: "
    if not changes.compared:
        return head + "not compared (a version without a glossary)"
    lines = [head + f"{len(changes.added)} added, {len(changes.removed)} removed, {len(changes.reworded)} reworded"]
    lines.extend(f"  {term} (added)" for term in changes.added)
    lines.extend(f"  {term} (removed)" for term in changes.removed)
    for rewording in changes.reworded:
        lines.append(f"  {rewording.term} (reworded)")
        lines.append(f"    {render_terminal(rewording_diff(rewording, lang), False)}")
    return "\n".join(lines)
