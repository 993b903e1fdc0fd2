"""The tournament documents in the graph: sections, their versions and what they cite.

Nodes: ``section:mtg:ipg:2.1`` (a section whatever version; ``contains`` its subsections) and
``sectiontext:mtg:ipg:en:2024-09-23:2.1`` (one version's text, ``text_of`` its section,
``from_document`` its file). Edges from a section text: ``cites`` to a rule (``version`` is the
Comprehensive Rules release in force on the document's date, ``resolution`` ``as-of``,
``other-version`` or ``unresolved``), ``cites_section`` to another section (the MTR from the
IPG, an infraction named in brackets), ``cites_document`` to the rules release in force when a
section names the rules without a number. ``analogue`` links a Duel Masters section to the IPG
section it was modelled on (``corpus/tournament-analogues.toml``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_kb.games import CR, document_kind
from rules_kb.ingest.curated import SectionAnalogue
from rules_kb.kb.catalog import Catalog
from rules_kb.kb.ids import doc_id, section_id, section_text_id, version_id
from rules_kb.kb.nodes import Unresolved, ensure_rule
from rules_kb.kb.sections import SectionCite, resolve_cites
from rules_kb.model import Section, span_extent
from rules_kb.numbers import RuleNumber, SectionNumber

if TYPE_CHECKING:
    import networkx as nx


def rules_in_force(catalog: Catalog, game: str, date: str | None) -> str | None:
    """The game's newest complete Comprehensive Rules release effective on or before ``date``."""
    lang = document_kind(game, CR).langs[0]
    complete = [label for label in catalog.version_labels(game, lang)
                if catalog.versions[(game, lang, label)].complete]
    dated = [label for label in complete if (catalog.versions[(game, lang, label)].date or "") <= (date or "")]
    return dated[-1] if dated else None


def section_citations(catalog: Catalog, section: Section) -> list[SectionCite]:
    """A section's cross-references resolved, rules pinned to the release in force on its date."""
    return resolve_cites(catalog.sections, section, rules_in_force(catalog, section.game, section.version))


def add_sections(graph: nx.MultiDiGraph, catalog: Catalog, analogues: list[SectionAnalogue]) -> list[Unresolved]:
    """Draw every section, its citations and the curated analogues; return what resolves nowhere."""
    unresolved = []
    for section in catalog.sections.all_sections():
        node = _add_section_text(graph, section)
        for cite in section_citations(catalog, section):
            if cite.kind == "rule":
                number = RuleNumber.parse(cite.number)
                lang = document_kind(section.game, CR).langs[0]
                held = cite.version and number in catalog.rules_in(section.game, lang, cite.version)
                known = held or any(number in catalog.rules_in(g, lg, v) for g, lg, v in catalog.texts
                                    if g == section.game)
                resolution = "as-of" if held else "other-version" if known else "unresolved"
                if not known:
                    unresolved.append(Unresolved(node, cite.number, cite.raw))
                graph.add_edge(node, ensure_rule(graph, section.game, number), kind="cites", raw=cite.raw,
                               resolution=resolution, version=cite.version or "")
            elif cite.kind == "document" and cite.version:
                lang = document_kind(section.game, CR).langs[0]
                graph.add_edge(node, version_id(section.game, lang, cite.version), kind="cites_document")
            elif cite.kind == "section" and cite.number:
                graph.add_edge(node, _ensure_section(graph, section.game, cite.document, cite.number),
                               kind="cites_section", raw=cite.raw, version=cite.version or "")
            elif cite.kind == "section":
                unresolved.append(Unresolved(node, cite.raw, cite.raw))
    for entry in analogues:
        if entry.dm and entry.mtg:
            graph.add_edge(_ensure_section(graph, "dm", "competition", entry.dm),
                           _ensure_section(graph, "mtg", entry.mtg_document, entry.mtg), kind="analogue",
                           relation=entry.relation, evidence=entry.evidence, differs=entry.differs)
    return unresolved


def _add_section_text(graph: nx.MultiDiGraph, section: Section) -> str:
    node = section_text_id(section.game, section.document, section.lang, section.version, section.number)
    if node in graph:  # a number the version prints twice: one node, the first section's attributes, both cites
        return node
    graph.add_node(node, kind="section-text", game=section.game, document=section.document, lang=section.lang,
                   version=section.version, number=section.number, title=section.title, penalty=section.penalty,
                   source=section.document_id, span=span_extent(section.spans))
    graph.add_edge(node, _ensure_section(graph, section.game, section.document, section.number), kind="text_of")
    graph.add_edge(node, doc_id(section.document_id), kind="from_document")
    return node


def _ensure_section(graph: nx.MultiDiGraph, game: str, document: str, number: str) -> str:
    node = section_id(game, document, number)
    if node in graph:
        return node
    graph.add_node(node, kind="section", game=game, document=document, number=number)
    parent = SectionNumber.parse(number).parent
    if parent is not None:
        graph.add_edge(_ensure_section(graph, game, document, str(parent)), node, kind="contains")
    return node


__all__ = ["add_sections", "rules_in_force", "section_citations"]
