"""What search finds: one *document* per distinct text of a rule, grouped by rule.

A rule (game, language, number) is a *group*; each distinct wording it had is a document,
holding the versions that printed it. Consecutive identical releases therefore cost one
document, which is what keeps the full Magic history small (DESIGN §9: pages and indexes
scale with distinct texts, not releases). Every URL comes from ``rules_kb.links``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules_kb.ask.knowledge import Knowledge
from rules_kb.links import pinned_rule, rule_page
from rules_kb.model import RuleText
from rules_kb.numbers import RuleNumber
from rules_kb.refs import find_references


@dataclass
class Document:
    """One wording of one rule; ``versions`` are its labels, oldest first."""

    group: int
    text: str
    title: str = ""
    versions: list[str] = field(default_factory=list)
    cites: list[str] = field(default_factory=list)
    newest: int = 0  # ordinal of its newest version in the game and language


@dataclass
class Group:
    """One rule number in one game and language, across every version that prints it."""

    game: str
    lang: str
    number: RuleNumber
    rule_url: str
    versions: list[tuple[str, str, int]] = field(default_factory=list)  # (label, pinned url, doc), newest first
    current: bool = False  # printed in the newest version of its game and language


def searchable_text(rule: RuleText) -> str:
    """Title, text and examples: everything a reader may remember of a rule."""
    parts = [rule.title or "", rule.text, *(example.text for example in rule.examples)]
    return "\n".join(part for part in parts if part)


def collect(knowledge: Knowledge) -> tuple[list[Group], list[Document], dict[tuple[str, str], list[str]]]:
    """Groups and documents in a fixed order (game, language, number), and each language's versions."""
    catalog = knowledge.catalog
    groups: list[Group] = []
    documents: list[Document] = []
    version_lists: dict[tuple[str, str], list[str]] = {}
    for game, lang in sorted({(g, lg) for g, lg, _ in catalog.versions}):
        labels = [label for label in catalog.version_labels(game, lang) if catalog.rules_in(game, lang, label)]
        if not labels:
            continue
        version_lists[(game, lang)] = labels
        numbers = sorted({n for label in labels for n in catalog.rules_in(game, lang, label)})
        for number in numbers:
            group = Group(game, lang, number, rule_page(game, number))
            gid = len(groups)
            by_text: dict[str, int] = {}
            for ordinal, label in enumerate(labels):
                rule = _best_text(catalog.rules_in(game, lang, label).get(number, []))
                if rule is None:
                    continue
                text = searchable_text(rule)
                if text not in by_text:
                    by_text[text] = len(documents)
                    documents.append(Document(gid, text, rule.title or "", cites=_cited(rule)))
                doc_id = by_text[text]
                documents[doc_id].versions.append(label)
                documents[doc_id].newest = ordinal
                group.versions.insert(0, (label, pinned_rule(game, lang, label, number), doc_id))
            group.current = bool(group.versions) and group.versions[0][0] == labels[-1]
            groups.append(group)
    return groups, documents, version_lists


def _best_text(candidates: list[RuleText]) -> RuleText | None:
    """One text per version: a whole copy before a cut-off excerpt, then document order."""
    whole = [rule for rule in candidates if not rule.truncated]
    return (whole or candidates or [None])[0]


def _cited(rule: RuleText) -> list[str]:
    """Rule numbers the text cites (its own number excluded), as canonical strings."""
    found: list[str] = []
    for body in [rule.text, *(example.text for example in rule.examples)]:
        for reference in find_references(body, game=rule.game):
            for number in reference.numbers:
                name = str(number)
                if number != rule.number and name not in found:
                    found.append(name)
    return found
