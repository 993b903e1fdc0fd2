"""Questions a judge asks of the graph: show, who cites, history, analogues.

Pure functions from the knowledge base to plain records; the CLI formats them.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules_kb.errors import MalformedRuleNumber, RuleNotFound
from rules_kb.games import GAMES, LANGS
from rules_kb.kb.catalog import Catalog
from rules_kb.kb.ids import doc_id, rule_id, text_id
from rules_kb.model import Record, RuleText
from rules_kb.numbers import RuleNumber

if TYPE_CHECKING:  # either the in-memory Knowledge or the store's view of it (store.views)
    from rules_kb.assemble.knowledge import Knowledge
    from rules_kb.kb.catalog import Catalog


@dataclass(frozen=True)
class Citation:
    source_kind: str  # "text", "term" or "section" (of a tournament document: ``document`` is mtr, ipg, ...)
    game: str
    lang: str
    version: str
    number: str  # the citing rule (or the term)
    document: str
    raw: str
    resolution: str
    resolved_in: tuple[str, ...] = ()


def parse_rule(raw: str) -> RuleNumber:
    try:
        return RuleNumber.parse(raw)
    except MalformedRuleNumber as exc:
        raise RuleNotFound(raw, []) from exc


def nearest_numbers(catalog: Catalog, game: str | None, number: RuleNumber, count: int = 5) -> list[str]:
    """Existing numbers closest to ``number`` in document order: the likeliest intended ones."""
    games = [game] if game else list(GAMES)
    known = sorted({n for g in games for n in catalog.numbers_of(g)})
    if not known:
        return []
    at = bisect.bisect_left(known, number)
    window = known[max(0, at - count // 2): at + (count - count // 2)]
    return [str(n) for n in window]


def require_rule(knowledge: Knowledge, number: RuleNumber, game: str | None) -> list[str]:
    """Games in which ``number`` exists; ``RuleNotFound`` with suggestions when none."""
    index = texts_by_number(knowledge)

    def holds_texts(g: str) -> bool:
        if index is not None:
            return any(index.get((g, lang, number)) for lang in LANGS)
        return any(knowledge.catalog.rules_in(gg, lang, label).get(number)
                   for (gg, lang, label) in knowledge.catalog.texts if gg == g)

    games = [g for g in ([game] if game else GAMES) if rule_id(g, number) in knowledge.graph and holds_texts(g)]
    if not games:
        raise RuleNotFound(str(number), nearest_numbers(knowledge.catalog, game, number))
    return games


def history(knowledge: Knowledge, number: RuleNumber, game: str | None = None,
            lang: str | None = None) -> list[RuleText]:
    """Every text of a number, each game and language, oldest version first."""
    catalog, index = knowledge.catalog, texts_by_number(knowledge)
    out = []
    for found_game in require_rule(knowledge, number, game):
        for language in LANGS:
            if lang and language != lang:
                continue
            if index is not None:
                out.extend(index.get((found_game, language, number), ()))
                continue
            for label in catalog.version_labels(found_game, language):
                out.extend(catalog.rules_in(found_game, language, label).get(number, []))
    return out


def texts_by_number(knowledge: Knowledge) -> dict[tuple[str, str, RuleNumber], list[RuleText]] | None:
    """Every text of an in-memory catalog by game, language and number, oldest version first: one
    walk of the catalog, kept on the knowledge base by its count of versions (a catalog only gains
    versions, as ``Catalog.version_labels`` keeps its order). A site build asks each of six
    thousand numbers for its history, its moves and its eras, and each question walked the dict of
    every version (1.4 million lookups for the rule pages, as many for the API). None for the
    store's catalog, which reads one number's texts with one query."""
    catalog = knowledge.catalog
    if not isinstance(catalog.texts, dict):
        return None
    count = len(catalog.versions)
    kept = vars(knowledge).get("_by_number")
    if kept is None or kept[0] != count:
        index: dict[tuple[str, str, RuleNumber], list[RuleText]] = {}
        for game, lang in dict.fromkeys((g, lg) for g, lg, _ in catalog.versions):
            for label in catalog.version_labels(game, lang):
                for number, texts in catalog.rules_in(game, lang, label).items():
                    index.setdefault((game, lang, number), []).extend(texts)
        kept = vars(knowledge)["_by_number"] = (count, index)
    return kept[1]


def era_starts(knowledge: Knowledge, texts: list[RuleText]) -> list[bool]:
    """For each text of a history, whether it starts a new era of its number.

    Two successive texts of one game and language are one rule when a ``next_version``
    edge links them; otherwise the earlier rule moved or was removed (a complete release
    lacked the number, or the alignment moved its text elsewhere) and the later text is
    another rule that took the number (Magic's 309 before and after 2009, and in 2022).
    """
    graph = knowledge.graph
    ids = [text_id(text) for text in texts]  # each named once: a site build asks this of every rule
    starts = []
    for i, text in enumerate(texts):
        before = texts[i - 1] if i else None
        same_line = before is not None and (before.game, before.lang) == (text.game, text.lang)
        edges = graph.get_edge_data(ids[i - 1], ids[i]) if same_line else None
        linked = edges is not None and any(d["kind"] == "next_version" for d in edges.values())
        starts.append(same_line and not linked and before.version != text.version)
    return starts


def history_with_eras(knowledge: Knowledge, number: RuleNumber, game: str) -> tuple[list[RuleText], list[bool]]:
    """``history`` of a number in one game and its ``era_starts``, read once per knowledge base:
    a site build asks for each rule's page, and again for the chains of its analogues and moves.
    The lists are shared: callers read them and never change them."""
    kept = vars(knowledge).setdefault("_histories", {})
    if (game, number) not in kept:
        texts = history(knowledge, number, game)
        kept[(game, number)] = (texts, era_starts(knowledge, texts))
    return kept[(game, number)]


def show(knowledge: Knowledge, number: RuleNumber, game: str | None = None, lang: str | None = None,
         version: str | None = None) -> list[RuleText]:
    """The text of a rule: in ``version`` if given, else the newest version of each game and language."""
    texts = history(knowledge, number, game, lang)
    if version is not None:
        chosen = [t for t in texts if t.version == version]
        if not chosen:
            have = sorted({t.version for t in texts})
            raise RuleNotFound(f"{number} in version {version}", have)
        return chosen
    newest: dict[tuple[str, str], RuleText] = {}
    for text in texts:  # oldest first: a newer version replaces, a cut-off copy of the same version does not
        held = newest.get((text.game, text.lang))
        if held is None or held.version != text.version or (held.truncated and not text.truncated):
            newest[(text.game, text.lang)] = text
    return [newest[key] for key in sorted(newest)]


def with_subrules(knowledge: Knowledge, texts: list[RuleText]) -> list[RuleText]:
    """Each text followed by every rule under it in the same version and language, in number order:
    ``show 507 --all`` reads a section, not only its heading."""
    from rules_kb.compare.alignment import descends  # a number test; the aligner itself is not loaded

    out = []
    for text in texts:
        held = knowledge.catalog.rules_in(text.game, text.lang, text.version)
        out.append(text)
        for number in sorted(n for n in held if n != text.number and descends(n, text.number)):
            found = held.get(number) or []
            out.extend([next((t for t in found if not t.truncated), found[0])] if found else [])  # a whole copy
    return out


def newest_of(texts: list[RuleText]) -> list[RuleText]:
    """The last text of each game and language of a history (oldest first), in game, language order."""
    newest = {(text.game, text.lang): text for text in texts}
    return [newest[key] for key in sorted(newest)]


def citations_of(knowledge: Knowledge, number: RuleNumber, game: str | None = None,
                 version: str | None = None) -> list[Citation]:
    """Who cites a rule: every citing text or glossary term, newest version first (only ``version`` if given)."""
    graph = knowledge.graph
    out = []
    for found_game in require_rule(knowledge, number, game):
        target = rule_id(found_game, number)
        for source, _, data in kind_edges(knowledge, "cites").in_edges(target):
            node = graph.nodes[source]
            if node["kind"] == "text":
                out.append(Citation("text", node["game"], node["lang"], node["version"], node["number"],
                                    node["document"], data["raw"], data["resolution"],
                                    tuple(data.get("resolved_in", ()))))
            elif node["kind"] == "section-text":  # a tournament document's section (MTR 3.11 cites 103.4c)
                out.append(Citation("section", node["game"], node["lang"], node["version"], node["number"],
                                    node["document"], data["raw"], data["resolution"],
                                    (data["version"],) if data.get("version") else ()))
            else:
                out.append(Citation("term", node["game"], node["lang"], data.get("version", ""), node["term"],
                                    "", data["raw"], data["resolution"]))
    order = _version_order(knowledge)
    if version is not None:
        out = [c for c in out if c.version == version]
    return sorted(set(out), key=lambda c: (c.game, c.lang, -order.get((c.game, c.lang, c.version), 0),
                                           RuleNumber.parse(c.number).sort_key() if c.source_kind == "text" else (),
                                           c.number, c.document, c.raw))


def _version_order(knowledge: Knowledge) -> dict[tuple[str, str, str], int]:
    """Each version's place, game by game and language by language, oldest first: kept on the
    knowledge base, keyed by its count of versions (a catalog only gains versions), since a site
    build sorts the citations of every rule by it."""
    catalog = knowledge.catalog
    count = len(catalog.versions)
    kept = vars(knowledge).get("_version_order")
    if kept is None or kept[0] != count:
        order = {key: i for i, key in enumerate(
            (g, lg, label) for g, lg in sorted({(g, lg) for g, lg, _ in catalog.versions})
            for label in catalog.version_labels(g, lg))}
        kept = vars(knowledge)["_version_order"] = (count, order)
    return kept[1]


@dataclass(frozen=True)
class LinkedDocument(Record):
    """A change notice (``changed_by``) or commentary (``discussed_by``) linked to a rule."""

    kind: str
    document: str
    date: str | None
    marks: tuple[str, ...]


@dataclass(frozen=True)
class Renumbering(Record):
    """A text of a number that moved to another number (``moved to``) or came from one (``moved from``)."""

    direction: str
    lang: str
    old: str
    new: str
    from_version: str
    to_version: str
    similarity: float

    @property
    def other(self) -> str:
        """The number at the other end: where the text went, or where it came from."""
        return self.new if self.direction == "moved to" else self.old


def documents_about(knowledge: Knowledge, number: RuleNumber, game: str) -> list[LinkedDocument]:
    """Change notices and commentary linked to a rule (``changed_by`` / ``discussed_by``)."""
    graph = knowledge.graph
    node = rule_id(game, number)
    if node not in graph:
        return []
    out = []
    for _, target, data in graph.out_edges(node, data=True):
        if data.get("kind") in ("changed_by", "discussed_by"):
            out.append(LinkedDocument(data["kind"], graph.nodes[target]["document"], data.get("date"),
                                      tuple(data.get("marks", []))))
    unique = {(d.kind, d.document): d for d in out}
    return [unique[k] for k in sorted(unique)]


def renumbering_of(knowledge: Knowledge, number: RuleNumber, game: str) -> list[Renumbering]:
    """Where texts of this number moved to, and came from, release by release.

    Read once per knowledge base and number (it walks every version of both languages): a site
    build asks it of each number three times, for its page, its history JSON and its chain. The
    list is shared: callers read it and never change it."""
    kept = vars(knowledge).setdefault("_renumberings", {})
    if (game, number) not in kept:
        kept[(game, number)] = _read_renumbering(knowledge, number, game)
    return kept[(game, number)]


def _read_renumbering(knowledge: Knowledge, number: RuleNumber, game: str) -> list[Renumbering]:
    moves = kind_edges(knowledge, "renumbered")
    if moves.numbers is not None and (game, str(number)) not in moves.numbers:
        return []
    out = []
    index = texts_by_number(knowledge)
    for lang in ("en", "ja"):
        if index is not None:
            texts = index.get((game, lang, number), [])
        else:
            texts = [text for label in knowledge.catalog.version_labels(game, lang)
                     for text in knowledge.catalog.rules_in(game, lang, label).get(number, [])]
        for text in texts:
            node = text_id(text)
            out += [_move("moved to", lang, data) for _, _, data in moves.out_edges(node)]
            out += [_move("moved from", lang, data) for _, _, data in moves.in_edges(node)]
    return out


# The kinds of edge read in one walk of the graph: 6,546, 54, 30 and ~122,000 of the whole corpus's
# 1.19 million (each rule node is the target of its texts' edges too: a hundred for a Magic rule).
INDEXED_KINDS = ("renumbered", "analogue", "translation", "cites")


@dataclass
class KindEdges:
    """The edges of one kind, by source and by target, each list in the order the graph's
    ``out_edges``/``in_edges`` give them, and the (game, number) of every node they touch."""

    outgoing: dict[str, list[tuple[str, str, dict]]]
    incoming: dict[str, list[tuple[str, str, dict]]]
    numbers: set[tuple[str, str]] | None

    def out_edges(self, node: str) -> list[tuple[str, str, dict]]:
        return self.outgoing.get(node, [])

    def in_edges(self, node: str) -> list[tuple[str, str, dict]]:
        return self.incoming.get(node, [])


@dataclass
class EdgesAsked:
    """The same questions put to the store's graph, node by node (its index answers each)."""

    graph: object
    kind: str
    numbers: None = None

    def out_edges(self, node: str) -> list[tuple[str, str, dict]]:
        return [edge for edge in self.graph.out_edges(node, data=True) if edge[2].get("kind") == self.kind]

    def in_edges(self, node: str) -> list[tuple[str, str, dict]]:
        return [edge for edge in self.graph.in_edges(node, data=True) if edge[2].get("kind") == self.kind]


def kind_edges(knowledge: Knowledge, kind: str) -> KindEdges | EdgesAsked:
    """The ``renumbered``, ``analogue``, ``translation`` or ``cites`` edges: of an in-memory graph,
    read in one walk of it and kept on the knowledge base; of the store's graph, asked node by node.

    A Magic rule node has an edge from each of its texts (a hundred), and each text five more: a
    site build asking each of six thousand rules for its moves, analogues, translations and
    citations walked those edges again for every page (its citations alone, 4 of the rule pages'
    23 CPU s), to find a few each."""
    kept = vars(knowledge)
    if "_kind_edges" not in kept:
        kept["_kind_edges"] = _read_kind_edges(knowledge.graph)
    found = kept["_kind_edges"]
    return EdgesAsked(knowledge.graph, kind) if found is None else found[kind]


def _read_kind_edges(graph) -> dict[str, KindEdges] | None:
    """One walk of a networkx graph's own adjacency dicts (its edge views cost a call per node)."""
    successors, predecessors = getattr(graph, "_succ", None), getattr(graph, "_pred", None)
    if successors is None or predecessors is None:  # the store's graph
        return None
    found = {kind: KindEdges({}, {}, set()) for kind in INDEXED_KINDS}
    for source, neighbours in successors.items():
        for target, keyed in neighbours.items():
            for data in keyed.values():
                rare = found.get(data.get("kind"))
                if rare is not None:
                    rare.outgoing.setdefault(source, []).append((source, target, data))
                    rare.incoming.setdefault(target, [])
    nodes = graph.nodes
    for kind, rare in found.items():
        for target in rare.incoming:  # in the order in_edges gives: by the target's predecessors
            rare.incoming[target] = [(source, target, data) for source, keyed in predecessors[target].items()
                                     for data in keyed.values() if data.get("kind") == kind]
        for node in [*rare.outgoing, *rare.incoming]:
            attributes = nodes[node]
            if "number" in attributes:
                rare.numbers.add((attributes.get("game"), attributes["number"]))
    return found


def _move(direction: str, lang: str, data: dict) -> Renumbering:
    return Renumbering(direction, lang, data["old"], data["new"], data["from_version"], data["to_version"],
                data["similarity"])


def history_record(knowledge: Knowledge, number: RuleNumber, game: str | None = None,
                   lang: str | None = None) -> dict:
    """Every text of a number with its era flag, the documents about it and its renumbering trail:
    what ``history --json`` prints (the site folds runs of identical texts: ``render/api.py``)."""
    if game is not None and lang is None:  # the site's history JSON: the rule page read the same lists
        texts, starts = history_with_eras(knowledge, number, game)
    else:
        texts = history(knowledge, number, game, lang)
        starts = era_starts(knowledge, texts)
    games = sorted({t.game for t in texts})
    records = [{**t.to_record(), "new_era": new_era} for t, new_era in zip(texts, starts, strict=True)]
    return {"texts": records,
            "documents": {g: [d.to_record() for d in documents_about(knowledge, number, g)] for g in games},
            "renumbering": {g: [m.to_record() for m in renumbering_of(knowledge, number, g)] for g in games}}


__all__ = [
    "Citation",
    "EdgesAsked",
    "KindEdges",
    "LinkedDocument",
    "Renumbering",
    "citations_of",
    "doc_id",
    "documents_about",
    "history",
    "history_record",
    "history_with_eras",
    "kind_edges",
    "show",
    "with_subrules",
]
