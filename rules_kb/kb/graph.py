"""The cross-referenced rule graph (networkx ``MultiDiGraph``), built from the catalog.

Node ids are readable strings so exports and error messages need no lookup table:

* ``rule:dm:507.2a`` — a rule number of a game, whatever version (hierarchy lives here);
* ``text:dm:ja:1.48:507.2a@dm-rulebook-ja-1.48`` — what one document says for one version;
* ``version:dm:ja:1.48``, ``doc:seed-003``, ``term:mtg:en:blocking creature``.

Edge kinds (attribute ``kind``): ``contains`` (rule → subrule), ``text_of`` (text → rule),
``in_version`` (text → version), ``from_document`` (text → document), ``next_version``
(text → the text continuing its rule in the next version with that number), ``translation``
(English text → Japanese text of the same version, ``drifted`` flag), ``cites`` (text or term → rule, ``resolution``
``same-version`` / ``other-version`` / ``unversioned``), ``changed_by`` (rule → change-notice
document), ``discussed_by`` (rule → commentary document), ``analogue`` (Duel Masters rule →
Magic rule), ``defines`` (version or rule → term), ``renumbered`` (old text → new text).

``next_version`` and ``renumbered`` draw a lineage: which text continues which is decided by
``compare.lineage`` (it needs the alignment) before the graph is built, and handed here as its
successions and moves, drawn once.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from operator import attrgetter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx

from rules_kb.ingest.curated import Analogue, CuratedTerm, SectionAnalogue
from rules_kb.kb.catalog import Catalog
from rules_kb.kb.ids import doc_id, rule_id, term_id, text_id, version_id
from rules_kb.kb.nodes import Unresolved, ensure_rule, link_plain
from rules_kb.kb.section_graph import add_sections
from rules_kb.model import RuleText, span_extent
from rules_kb.numbers import RuleNumber
from rules_kb.refs import find_references

# Residue kinds whose citations count as discussion of a rule (contents lists do not).
DISCUSSION_KINDS = ("commentary", "footnote", "table")


def _text_node(rule: RuleText) -> str:
    """A text's node id, one string object however often it is asked (a million edges name them)."""
    return sys.intern(text_id(rule))


def build_graph(catalog: Catalog, analogues: list[Analogue] = (), terms: list[CuratedTerm] = (),
                successions: Iterable[tuple[RuleText, RuleText]] = (), moves: Iterable = (),
                section_analogues: list[SectionAnalogue] = ()) -> tuple[nx.MultiDiGraph, list[Unresolved]]:
    """Build every node and edge kind; return the graph and the citations that resolve nowhere.

    ``successions`` and ``moves`` are a lineage's (``compare.lineage.trace_lineage``; a move has
    ``old``, ``new``, ``similarity`` and ``forced``); without them texts are not linked across versions.
    """
    import networkx as nx  # only building needs it; lookups read the store

    graph = nx.MultiDiGraph()
    texts = catalog.all_texts()
    _add_documents_and_versions(graph, catalog)
    for rule in texts:
        _add_text(graph, rule)
    for older, newer in successions:
        link_plain(graph, _text_node(older), _text_node(newer), "next_version")
    _add_translations(graph, catalog)
    unresolved = _add_citations(graph, catalog, texts)
    unresolved += _add_glossary(graph, catalog)
    _add_document_links(graph, catalog)
    _add_analogues(graph, catalog, analogues)
    _add_curated_terms(graph, terms)
    for move in moves:
        graph.add_edge(_text_node(move.old), _text_node(move.new), kind="renumbered", from_version=move.old.version,
                       to_version=move.new.version, old=str(move.old.number), new=str(move.new.number),
                       similarity=round(move.similarity, 3), forced=move.forced)
    unresolved += add_sections(graph, catalog, section_analogues)
    return graph, unresolved


def _add_documents_and_versions(graph: nx.MultiDiGraph, catalog: Catalog) -> None:
    for doc in sorted(catalog.documents):
        meta = catalog.documents[doc].meta
        graph.add_node(sys.intern(doc_id(doc)), kind="document", document=doc, file=meta.file, game=meta.game,
                       doc_kind=meta.kind, format=meta.format, source=meta.source)
    for key in sorted(catalog.versions):
        info = catalog.versions[key]
        graph.add_node(sys.intern(version_id(*key)), kind="version", game=info.game, lang=info.lang, label=info.label,
                       date=info.date, complete=info.complete, documents=list(info.documents))


def _number_of(rule: RuleText) -> str:
    return sys.intern(str(rule.number))


def _examples_of(rule: RuleText) -> list[str]:
    return [e.text for e in rule.examples]


def _span_of(rule: RuleText) -> list[int]:
    return span_extent(rule.spans)


# A text node's attributes, in the order ``add_node`` gave them, each read from the text itself.
_TEXT_ATTRIBUTES = {
    "kind": lambda rule: "text", "game": attrgetter("game"), "lang": attrgetter("lang"),
    "version": attrgetter("version"), "date": attrgetter("date"), "number": _number_of, "title": attrgetter("title"),
    "text": attrgetter("text"), "examples": _examples_of, "document": attrgetter("document"), "span": _span_of,
    "truncated": attrgetter("truncated"), "written_as": attrgetter("written_as"),
}


class TextNode(Mapping):
    """A text node's attribute mapping, read from its ``RuleText`` rather than copied out of it.

    Memory, not meaning: a dict of thirteen attributes, an examples list and a span list per text
    came to ~190 MB at full history (244,550 texts) for values the catalog's ``RuleText`` already
    holds; this object is one reference. Readers see the same keys, order and values as the dict
    ``add_node(**attributes)`` made (``tests/test_graph.py``); like every built graph it is never
    edited, and a list it returns is a new one each time.
    """

    __slots__ = ("rule",)

    def __init__(self, rule: RuleText) -> None:
        self.rule = rule

    def __getitem__(self, key: str):
        return _TEXT_ATTRIBUTES[key](self.rule)

    def __contains__(self, key: object) -> bool:
        return key in _TEXT_ATTRIBUTES

    def __iter__(self) -> Iterator[str]:
        return iter(_TEXT_ATTRIBUTES)

    def __len__(self) -> int:
        return len(_TEXT_ATTRIBUTES)

    def __repr__(self) -> str:
        return repr(dict(self))

    def __reduce__(self) -> tuple:
        return TextNode, (self.rule,)


def _add_text(graph: nx.MultiDiGraph, rule: RuleText) -> None:
    node = _text_node(rule)
    if node not in graph:
        graph.add_node(node)
    # networkx's own node dict for this node, replaced whole; a second text with the same id (a number
    # printed twice in one document) takes its place, as add_node's update of every attribute did.
    graph._node[node] = TextNode(rule)
    link_plain(graph, node, ensure_rule(graph, rule.game, rule.number), "text_of")
    link_plain(graph, node, sys.intern(version_id(rule.game, rule.lang, rule.version)), "in_version")
    link_plain(graph, node, sys.intern(doc_id(rule.document)), "from_document")


def _structure(catalog: Catalog, game: str, lang: str, label: str, number: RuleNumber) -> tuple:
    """Children and cited numbers of a rule in one version: what a faithful translation keeps."""
    rules = catalog.rules_in(game, lang, label)
    children = tuple(sorted(str(n) for n in rules if n.parent == number))
    rule = rules[number][0]
    cited = tuple(sorted({str(n) for ref in find_references(rule.text, game=game) for n in ref.numbers}))
    return children, cited


def _add_translations(graph: nx.MultiDiGraph, catalog: Catalog) -> None:
    for (game, lang, label) in sorted(catalog.texts):
        if lang != "en" or (game, "ja", label) not in catalog.texts:
            continue
        english = catalog.rules_in(game, "en", label)
        japanese = catalog.rules_in(game, "ja", label)
        for number in sorted(set(english) & set(japanese)):
            en_shape = _structure(catalog, game, "en", label, number)
            ja_shape = _structure(catalog, game, "ja", label, number)
            drift = [] if en_shape == ja_shape else _describe_drift(en_shape, ja_shape)
            for en_rule in english[number]:
                for ja_rule in japanese[number]:
                    graph.add_edge(_text_node(en_rule), _text_node(ja_rule), kind="translation",
                                   drifted=bool(drift), drift=drift)


def _describe_drift(en_shape: tuple, ja_shape: tuple) -> list[str]:
    notes = []
    (en_children, en_cited), (ja_children, ja_cited) = en_shape, ja_shape
    if en_children != ja_children:
        only_en = sorted(set(en_children) - set(ja_children), key=RuleNumber.parse)
        only_ja = sorted(set(ja_children) - set(en_children), key=RuleNumber.parse)
        notes.append(f"children differ: only in English {_listed(only_en)}; only in Japanese {_listed(only_ja)}")
    if en_cited != ja_cited:
        notes.append(f"citations differ: English cites {_listed(en_cited)}; Japanese cites {_listed(ja_cited)}")
    return notes


def _listed(numbers: Iterable[object]) -> str:
    """Rule numbers for a reader: ``507.1c, 507.1d``, or ``none``."""
    return ", ".join(str(n) for n in numbers) or "none"


def _holders(catalog: Catalog) -> dict[tuple[str, RuleNumber], list[str]]:
    """For each (game, number), the ``lang:version`` labels holding it, oldest first per language."""
    holders: dict[tuple[str, RuleNumber], list[str]] = defaultdict(list)
    for game, lang in sorted({(g, lg) for g, lg, _ in catalog.versions}):
        for label in catalog.version_labels(game, lang):
            for number in catalog.rules_in(game, lang, label):
                holders[(game, number)].append(f"{lang}:{label}")
    return holders


def _add_citations(graph: nx.MultiDiGraph, catalog: Catalog, texts: list[RuleText]) -> list[Unresolved]:
    """Link each citation to the cited rule; one resolving only elsewhere says where (``resolved_in``)."""
    holders = _holders(catalog)
    unresolved = []
    found: dict[tuple[str, str], list] = {}  # a wording is read once: most recur in release after release
    for rule in texts:
        source = _text_node(rule)
        for where, body in [("text", rule.text)] + [("example", e.text) for e in rule.examples]:
            refs = found.get((body, rule.game))
            if refs is None:
                refs = found[(body, rule.game)] = find_references(body, game=rule.game)
            for ref in refs:
                for number in ref.numbers:
                    if number == rule.number:
                        continue
                    where_held = holders.get((rule.game, number), [])
                    if number in catalog.rules_in(rule.game, rule.lang, rule.version):
                        resolution, resolved_in = "same-version", [f"{rule.lang}:{rule.version}"]
                    elif where_held:
                        resolution, resolved_in = "other-version", where_held
                    else:
                        unresolved.append(Unresolved(source, str(number), ref.raw))
                        resolution, resolved_in = "unresolved", []
                    graph.add_edge(source, ensure_rule(graph, rule.game, number), kind="cites",
                                   resolution=resolution, resolved_in=resolved_in, raw=ref.raw, where=where)
    return unresolved


def _add_glossary(graph: nx.MultiDiGraph, catalog: Catalog) -> list[Unresolved]:
    unresolved = []
    for doc in sorted(catalog.documents):
        parsed = catalog.documents[doc]
        numbers_by_version: dict[str, set[RuleNumber]] = {}
        for term in parsed.terms:
            node = term_id(term.game, term.lang, term.term)
            if node not in graph:
                graph.add_node(node, kind="term", game=term.game, lang=term.lang, term=term.term)
            graph.add_edge(version_id(term.game, term.lang, term.version), node, kind="defines",
                           definition=term.definition, document=doc)
            for ref in find_references(term.definition, game=term.game):
                if term.version not in numbers_by_version:
                    numbers_by_version[term.version] = set(catalog.rules_in(term.game, term.lang, term.version))
                for number in ref.numbers:
                    if number not in numbers_by_version[term.version]:
                        unresolved.append(Unresolved(node, str(number), ref.raw))
                        continue
                    graph.add_edge(node, ensure_rule(graph, term.game, number), kind="cites",
                                   resolution="same-version", raw=ref.raw, version=term.version)
    return unresolved


def _add_document_links(graph: nx.MultiDiGraph, catalog: Catalog) -> None:
    """Change notices change the rules they print; commentary discusses the rules it cites."""
    for doc in sorted(catalog.documents):
        parsed = catalog.documents[doc]
        meta = parsed.meta
        if meta.kind == "change-notice":
            for rule in parsed.rules:
                graph.add_edge(ensure_rule(graph, rule.game, rule.number), doc_id(doc), kind="changed_by",
                               version=rule.version, date=rule.date)
        if meta.kind == "contents":
            continue
        for item in parsed.residue:
            if item.kind not in DISCUSSION_KINDS:
                continue
            for cited in item.cites:
                number = RuleNumber.parse(cited)
                graph.add_edge(ensure_rule(graph, meta.game, number), doc_id(doc), kind="discussed_by",
                               passage=item.text[:200], marks=list(item.marks))


def _add_analogues(graph: nx.MultiDiGraph, catalog: Catalog, analogues: list[Analogue]) -> None:
    for entry in analogues:
        graph.add_edge(ensure_rule(graph, "dm", entry.dm), ensure_rule(graph, "mtg", entry.mtg), kind="analogue",
                       mtg_versions=list(entry.mtg_versions), evidence=entry.evidence, dm_scope=entry.dm_scope)


def _add_curated_terms(graph: nx.MultiDiGraph, terms: list[CuratedTerm]) -> None:
    for term in terms:
        node = term_id(term.game, term.lang, term.term)
        if node not in graph:
            graph.add_node(node, kind="term", game=term.game, lang=term.lang, term=term.term)
        graph.add_edge(ensure_rule(graph, term.game, term.defined_by), node, kind="defines",
                       since=term.since, translation=term.translation, evidence=term.evidence)


__all__ = ["Unresolved", "build_graph", "doc_id", "ensure_rule", "rule_id", "term_id", "text_id", "version_id"]
