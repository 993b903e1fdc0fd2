"""Node ids of the graph: readable strings (``rule:dm:507.2a``), shared by the graph and the store.

Kept apart from ``graph`` so that a lookup can name nodes without importing the graph builder.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules_kb.model import RuleText
    from rules_kb.numbers import RuleNumber


def rule_id(game: str, number: RuleNumber | str) -> str:
    return f"rule:{game}:{number}"


def text_id(rule: RuleText) -> str:
    return f"text:{rule.game}:{rule.lang}:{rule.version}:{rule.number}@{rule.document}"


def version_id(game: str, lang: str, label: str) -> str:
    return f"version:{game}:{lang}:{label}"


def doc_id(document: str) -> str:
    return f"doc:{document}"


def term_id(game: str, lang: str, term: str) -> str:
    return f"term:{game}:{lang}:{term}"


def section_id(game: str, document: str, number: str) -> str:
    """A tournament document's section, whatever version: ``section:mtg:ipg:2.1``."""
    return f"section:{game}:{document}:{number}"


def section_text_id(game: str, document: str, lang: str, version: str, number: str) -> str:
    """What one version of a tournament document says in one section: ``sectiontext:mtg:ipg:en:2024-09-23:2.1``."""
    return f"sectiontext:{game}:{document}:{lang}:{version}:{number}"
def term_prefix(game: str | None = None, lang: str | None = None) -> str:
    """What every term id of a game and language (or every term id) starts with: a range scan's start."""
    return f"term:{game}:{lang}:" if game is not None else "term:"


def term_of(node: str) -> tuple[str, str, str]:
    """(game, lang, term) of a ``term_id``."""
    _, game, lang, term = node.split(":", 3)
    return game, lang, term


def number_of(node: str) -> str:
    """The rule number a ``rule_id`` names."""
    return node.rsplit(":", 1)[1]
