"""What search finds: one *document* per distinct text of a rule, grouped by rule lineage.

A rule (game, language, lineage) is a *group*: the texts that continue one another from
release to release, under the same number (``next_version``) or a new one (``renumbered``),
as ``compare.lineage`` decided and the graph draws. So Magic's Declare Blockers Step is one
group, 509 today, "was 309 until 2009-07-08". Each distinct wording a group had (under a
given number) is a document holding the versions that printed it; consecutive identical
releases cost one document, which is what keeps the full Magic history small (pages and
indexes scale with distinct texts, not releases). Every URL comes from ``rules_kb.links``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise

from rules_kb.assemble.knowledge import Knowledge
from rules_kb.games import document_kind
from rules_kb.kb.ids import term_id, text_id
from rules_kb.links import pinned_rule, pinned_section, rule_page, section_page
from rules_kb.model import RuleText, Section
from rules_kb.numbers import RuleNumber
from rules_kb.refs import find_references

LINEAGE_EDGES = ("next_version", "renumbered")
# A text naming what it defines: 「召喚酔い」と呼ばれます, 「カードを引く」とは, is called “mulligan”.
DEFINED = re.compile(r"「([^「」]{1,24})」(?:と呼|とは|といい|と言い)|(?:called|known as) [“\"]([^”\"]{1,40})[”\"]")
# A text opening by saying what its subject is: 「ゾーンは、…場所です。」, 「能力とは、…」, "A multiplayer game
# is a game that…". The subject is then a name of the rule, as a heading would be.
SUBJECT_JA = re.compile(r"^([^、。「」（）()\s]{1,20}?)(とは|は)、?([^。]*)。")
SUBJECT_EN = re.compile(r"^(?:An? |The )?([A-Za-z][A-Za-z’'-]*(?: [A-Za-z][A-Za-z’'-]*){0,4}) (?:is|are) "
                        r"(?:an? |the |one |any )")
# A text naming what everything of a kind is: "Anything that happens in a game is an event.",
# 「ゲーム内で起こるあらゆることはイベントです。」, "Any land with the supertype “basic” is a basic land.":
# the subject is everything, the predicate is the name.
PREDICATE_EN = re.compile(r"^(?:Anything|Everything|Any)\b[^.]*? (?:is|are) (?:an?|the) "
                          r"([a-z][a-z’'-]*(?: [a-z][a-z’'-]*){0,2})\.")
PREDICATE_JA = re.compile(r"^[^。、]*?(?:あらゆる|すべての|全ての)[^。、]*?ことは、?([^、。「」（）\s]{1,12}?)です。")
# A sentence "X は…" defines X only when it ends by saying what X is (…です, …をいいます), not what X does
# (プレイヤーは…できます); "X とは" always defines.
DEFINING_ENDS = ("です", "をいいます", "を指します", "と言います")
NOT_SUBJECTS = frozenset({"it", "this", "that", "each", "if", "when", "there"})


@dataclass
class Document:
    """One wording of one rule under one number; ``versions`` are its labels, oldest first."""

    group: int
    text: str
    number: str
    title: str = ""
    versions: list[str] = field(default_factory=list)
    cites: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)  # terms the text defines: このルールは「召喚酔い」と呼ばれます
    newest: int = 0  # ordinal of its newest version in the game and language


@dataclass
class Group:
    """One rule lineage in one game and language, under its newest number; or one section of a
    tournament document, under its document and number (``IPG 2.3``)."""

    game: str
    lang: str
    number: RuleNumber | str
    rule_url: str
    versions: list[tuple[str, str, int]] = field(default_factory=list)  # (label, pinned url, doc), newest first
    current: bool = False  # printed in the newest version of its game and language
    former: list[tuple[str, str]] = field(default_factory=list)  # (old number, first label of the next number)
    terms: list[str] = field(default_factory=list)  # glossary terms that point at it


def searchable_text(rule: RuleText) -> str:
    """Title, text and examples: everything a reader may remember of a rule."""
    parts = [rule.title or "", rule.text, *(example.text for example in rule.examples)]
    return "\n".join(part for part in parts if part)


Slot = tuple[int, RuleNumber]  # (version ordinal, number) within one game and language


def collect(knowledge: Knowledge) -> tuple[list[Group], list[Document], dict[tuple[str, str], list[str]]]:
    """Groups and documents in a fixed order (game, language, number), and each language's versions."""
    catalog = knowledge.catalog
    groups: list[Group] = []
    documents: list[Document] = []
    version_lists: dict[tuple[str, str], list[str]] = {}
    where: dict[tuple[str, str, str, str], int] = {}  # (game, lang, label, number) → group
    for game, lang in sorted({(g, lg) for g, lg, _ in catalog.versions}):
        labels = [label for label in catalog.version_labels(game, lang) if catalog.rules_in(game, lang, label)]
        if not labels:
            continue
        version_lists[(game, lang)] = labels
        texts: dict[Slot, RuleText] = {}
        for ordinal, label in enumerate(labels):
            for number, candidates in catalog.rules_in(game, lang, label).items():
                rule = _best_text(candidates)
                if rule is not None:
                    texts[(ordinal, number)] = rule
        for slots in _lineages(knowledge, game, lang, labels, texts):
            for ordinal, number in slots:
                where[(game, lang, labels[ordinal], str(number))] = len(groups)
            _add_group(groups, documents, game, lang, labels, [(slot, texts[slot]) for slot in slots])
    _attach_terms(knowledge, groups, where)
    _add_sections(knowledge, groups, documents)
    return groups, documents, version_lists


def section_search_text(section: Section) -> str:
    """A tournament section as a reader remembers it: its title, its text and every part."""
    parts = [section.title, section.text, *(part.text for part in section.parts if part.label != "penalty")]
    return "\n".join(part for part in parts if part)


def _add_sections(knowledge: Knowledge, groups: list[Group], documents: list[Document]) -> None:
    """Each tournament section is a result of its own (``IPG 2.3``), each wording a version had a
    document, ranked in its game and language beside the rules: one ranking for both."""
    sections = knowledge.catalog.sections
    for game, document, lang in sections.documents():
        kind = document_kind(game, document)
        labels = sections.labels(game, document, lang)
        numbers = dict.fromkeys(n for label in labels for n in sections.sections_in(game, document, lang, label))
        for number in numbers:
            group = Group(game, lang, f"{kind.short} {number}", section_page(game, document, number))
            by_text: dict[str, int] = {}
            for ordinal, label in enumerate(labels):
                section = sections.sections_in(game, document, lang, label).get(number)
                if section is None:
                    continue
                text = section_search_text(section)
                if text not in by_text:
                    by_text[text] = len(documents)
                    documents.append(Document(len(groups), text, group.number, section.title,
                                              names=[section.name] if section.name else []))
                doc_id = by_text[text]
                documents[doc_id].versions.append(label)
                documents[doc_id].newest = ordinal
                group.versions.insert(0, (label, pinned_section(game, document, label, number), doc_id))
            group.current = group.versions[0][0] == labels[-1]
            groups.append(group)


def _lineages(knowledge: Knowledge, game: str, lang: str, labels: list[str],
              texts: dict[Slot, RuleText]) -> list[list[Slot]]:
    """The slots of each lineage, oldest first, lineages ordered by newest number then first version.

    A lineage is a chain: each slot continues at most one older slot and is continued by at
    most one newer, along the graph's ``next_version`` and ``renumbered`` edges (the aligner's
    own moves). Where the edges branch (a rule split in two, two excerpts of one release), the
    link kept is the nearest release, then the same number, then the most similar text; the
    other branch starts a lineage of its own. So a number reused for another rule (the 2008
    309.1 Declare Blockers, 509.1 from 2009; today's 309.1 Dungeon) is never one result.
    """
    # Slots are handled as their rank in (version, number) order, the order comparing them gives:
    # a full history sorts about a quarter of a million links per language, and ints compare
    # without a Python call.
    ordered = sorted(texts, key=lambda slot: (slot[0], slot[1].sort_key()))
    links = sorted(_links(knowledge, game, lang, labels, {slot: index for index, slot in enumerate(ordered)}))
    successor: dict[int, int] = {}
    predecessor: dict[int, int] = {}
    for _, older, newer in links:
        if older not in successor and newer not in predecessor:
            successor[older] = newer
            predecessor[newer] = older
    chains: list[list[int]] = []
    for index in range(len(ordered)):
        if index in predecessor:
            continue
        chain = [index]
        while chain[-1] in successor:
            chain.append(successor[chain[-1]])
        chains.append(chain)
    chains.sort(key=lambda chain: (ordered[chain[-1]][1].sort_key(), ordered[chain[-1]][0], chain[0]))
    return [[ordered[index] for index in chain] for chain in chains]


def _links(knowledge: Knowledge, game: str, lang: str, labels: list[str],
           rank: dict[Slot, int]) -> set[tuple[tuple, int, int]]:
    """(preference, older slot's rank, newer slot's rank) for every lineage edge between two slots;
    the smaller preference wins: fewer releases between, same number, higher similarity.

    The edges are read from the graph's own adjacency (``_succ``), as ``ask.query.kind_edges`` does:
    a quarter of a million nodes asked through ``out_edges`` cost seconds of view objects."""
    node_slot: dict[str, tuple[int, int, RuleNumber]] = {}  # text id -> (rank, ordinal, number)
    for ordinal, label in enumerate(labels):
        for number, candidates in knowledge.catalog.rules_in(game, lang, label).items():
            index = rank.get((ordinal, number))
            if index is not None:
                for rule in candidates:
                    node_slot[text_id(rule)] = (index, ordinal, number)
    adjacency = knowledge.graph._succ
    links: set[tuple[tuple, int, int]] = set()
    for node, (older, ordinal, number) in node_slot.items():
        for target, keyed in adjacency.get(node, {}).items():
            newer = node_slot.get(target)
            if newer is None or newer[1] <= ordinal:
                continue
            for data in keyed.values():
                kind = data.get("kind")
                if kind in LINEAGE_EDGES:
                    similarity = 1.0 if kind == "next_version" else data.get("similarity", 0.0)
                    links.add(((newer[1] - ordinal, newer[2] != number, -similarity), older, newer[0]))
    return links


def _add_group(groups: list[Group], documents: list[Document], game: str, lang: str, labels: list[str],
               slots: list[tuple[Slot, RuleText]]) -> None:
    newest = slots[-1][0][1]
    group = Group(game, lang, newest, rule_page(game, newest))
    gid = len(groups)
    by_text: dict[tuple[RuleNumber, str], int] = {}
    for (ordinal, number), rule in slots:
        text = searchable_text(rule)
        if (number, text) not in by_text:
            by_text[(number, text)] = len(documents)
            documents.append(Document(gid, text, str(number), rule.title or "", cites=_cited(rule),
                                      names=defined_names(rule.text, lang)))
        doc_id = by_text[(number, text)]
        documents[doc_id].versions.append(labels[ordinal])
        documents[doc_id].newest = ordinal
        group.versions.insert(0, (labels[ordinal], pinned_rule(game, lang, labels[ordinal], number), doc_id))
    for ((_, number), _), ((ordinal, following), _) in pairwise(slots):
        if following != number:
            group.former.append((str(number), labels[ordinal]))
    group.current = group.versions[0][0] == labels[-1]
    groups.append(group)


def _attach_terms(knowledge: Knowledge, groups: list[Group], where: dict[tuple[str, str, str, str], int]) -> None:
    """Glossary terms on the rules they point to: a Magic glossary entry names the rules it
    cites in its own release (so an old "See rule 103.4" reaches today's 103.5), a curated
    Duel Masters term the rule defining it today. An entry citing no rule but another entry
    ("In Play (Obsolete): An obsolete term for the battlefield. … See Battlefield.") names the
    rules that entry points to: the glossary's own way of keeping an old word findable."""
    graph = knowledge.graph
    newest = {(g.game, g.lang): g.versions[0][0] for g in groups if g.current}
    places: dict[str, list[tuple[str, str]]] = {}
    for node in sorted(graph.nodes):
        data = graph.nodes[node]
        if data.get("kind") != "term":
            continue
        game, lang = data.get("game"), data.get("lang")
        places[node] = [(e.get("version"), graph.nodes[t].get("number"))
                        for _, t, e in graph.out_edges(node, data=True) if e.get("kind") == "cites"]
        places[node] += [(newest.get((game, lang)), graph.nodes[s].get("number"))
                         for s, _, e in graph.in_edges(node, data=True) if e.get("kind") == "defines"
                         and graph.nodes[s].get("kind") == "rule"]
    for node, found in places.items():
        data = graph.nodes[node]
        game, lang = data["game"], data["lang"]
        if not found:  # "See Battlefield": the places of the entry it sends the reader to, in the same release
            found = [place for label, definition in _definitions(graph, node) for other in SEE_ENTRY.findall(definition)
                     for place in places.get(term_id(game, lang, other.strip()), []) if place[0] == label]
        for label, number in found:
            gid = where.get((game, lang, label, number))
            if gid is not None and data["term"] not in groups[gid].terms:
                groups[gid].terms.append(data["term"])


SEE_ENTRY = re.compile(r"\bSee ([A-Z][\w’' -]*?)\.")  # a glossary definition sending the reader to another entry


def _definitions(graph, node: str) -> list[tuple[str, str]]:
    """(release label, definition) of a glossary entry in each release printing it."""
    return sorted((graph.nodes[source].get("label", ""), data["definition"])
                  for source, _, data in graph.in_edges(node, data=True)
                  if data.get("kind") == "defines" and "definition" in data)


def defined_names(text: str, lang: str) -> list[str]:
    """The names a rule text gives what it defines, in order, once each: the subject its first
    sentence defines, or what it says everything of a kind is (an event, a basic land), then each
    name it quotes as what something is called."""
    subject = defining_subject(text, lang)
    names = [subject] if subject else []
    predicate = (PREDICATE_JA if lang == "ja" else PREDICATE_EN).match(text)
    names += [predicate.group(1)] if predicate else []
    names += (a or b for a, b in DEFINED.findall(text))
    return list(dict.fromkeys(names))


def defining_subject(text: str, lang: str) -> str | None:
    """What a text's first sentence says is something: ゾーン in 「ゾーンは、…場所です。」, 能力 in
    「能力とは、…」, *multiplayer game* in "A multiplayer game is a game that…"; None for a sentence
    about what something does (「プレイヤーは、…できます。」, "Each player is …")."""
    if lang == "ja":
        match = SUBJECT_JA.match(text)
        if match is None:
            return None
        subject, marker, rest = match.groups()
        if marker == "とは" and subject.endswith("こ"):  # あらゆることは: こと + は, not こ + とは
            subject, marker = subject + "と", "は"
        if subject.endswith("こと") or (marker == "は" and not rest.endswith(DEFINING_ENDS)):
            return None
        return subject
    match = SUBJECT_EN.match(text)
    if match is None or match.group(1).split()[0].lower() in NOT_SUBJECTS:
        return None
    return match.group(1)


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
