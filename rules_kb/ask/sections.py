"""Questions about the tournament documents: which section a judge means, and what it says.

A judge names a section by its document and number (``MTR 3.10``, ``IPG 2.1``, ``運営ルール10.2``:
the one grammar, ``refs.find_section_references``) or by an infraction's name (``Hidden Card
Error``, ``誘発忘れ``, ``〔非紳士的行為 ― 故意の違反〕``). The answers are typed, for the terminal,
the JSON output and the pages alike.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules_kb import links
from rules_kb.errors import RulesKbError
from rules_kb.games import CR, DOCUMENTS, GAME_SHORT_NAMES, document_kind
from rules_kb.kb.ids import rule_id, section_id, section_text_id
from rules_kb.model import Record, Section
from rules_kb.numbers import RuleNumber, fold_width
from rules_kb.refs import find_section_references, name_key

if TYPE_CHECKING:
    from rules_kb.assemble.knowledge import Knowledge
    from rules_kb.compare.sections import SectionRow


class SectionNotFound(RulesKbError):
    """A section asked for by number or name that no tournament document in the corpus has."""

    def __init__(self, asked: str, nearest: list[str]) -> None:
        self.asked, self.nearest = asked, nearest
        hint = f" (nearest: {', '.join(nearest)})" if nearest else ""
        super().__init__(f"no section {asked}{hint}")


@dataclass(frozen=True)
class SectionLink(Record):
    """Another section or a rule, as a section's cross-reference or analogue names it."""

    game: str
    document: str
    number: str
    title: str
    version: str
    path: str
    raw: str = ""
    relation: str = ""
    evidence: str = ""
    differs: str = ""


@dataclass(frozen=True)
class SectionAnswer(Record):
    """One section of one version, with what it cites, what cites it and its analogues."""

    game: str
    document: str
    document_name: str
    lang: str
    version: str
    number: str
    title: str
    penalty: str | None
    text: str
    parts: tuple[tuple[str, str, str], ...]
    children: tuple[tuple[str, str], ...]
    versions: tuple[str, ...]
    path: str
    pinned: str
    cites: tuple[SectionLink, ...]
    cited_by: tuple[SectionLink, ...]
    analogues: tuple[SectionLink, ...]

    def to_record(self) -> dict:
        record = super().to_record()
        for key in ("cites", "cited_by", "analogues"):
            record[key] = [link.to_record() for link in getattr(self, key)]
        record["parts"] = [{"label": label, "heading": heading, "text": text} for label, heading, text in self.parts]
        record["children"] = [{"number": number, "title": title} for number, title in self.children]
        return record


def is_section_question(raw: str) -> bool:
    """Whether an argument names a section by document and number (the whole argument)."""
    found = find_section_references(raw.strip())
    return len(found) == 1 and found[0].document is not None and found[0].raw == raw.strip()


def find_sections(knowledge: Knowledge, raw: str, version: str | None = None) -> list[Section]:
    """The sections an argument names: by document and number, else by infraction or section name."""
    sections = knowledge.catalog.sections
    text = raw.strip()
    found = find_section_references(text)
    if len(found) == 1 and found[0].raw == text and found[0].document is not None:
        reference = found[0]
        hit = sections.section(reference.game, reference.document, reference.number, version)
        if hit is None:
            kind = document_kind(reference.game, reference.document)
            held = [s.number for s in sections.newest(reference.game, reference.document)]
            raise SectionNotFound(f"{kind.short} {reference.number}" + (f" in {version}" if version else ""),
                                  _nearest_numbers(reference.number, held))
        return [hit]
    if not text:
        return []
    named = sections.by_name(fold_width(text))
    if version is not None:
        named = [s for s in (sections.section(n.game, n.document, n.number, version) for n in named) if s]
    return named


def nearest_section_names(knowledge: Knowledge, raw: str, count: int = 5) -> list[str]:
    """Section titles and infraction names closest to ``raw`` (width, case and dashes folded)."""
    names = knowledge.catalog.sections.names()
    keys = {name_key(name): name for name in names}
    close = difflib.get_close_matches(name_key(raw), list(keys), n=count, cutoff=0.5)
    return [keys[key] for key in close]


def _nearest_numbers(number: str, held: list[str]) -> list[str]:
    return difflib.get_close_matches(number, held, n=5, cutoff=0.3)


def answer_section(knowledge: Knowledge, section: Section) -> SectionAnswer:
    """Everything a page or a terminal shows of one section of one version."""
    catalog = knowledge.catalog.sections
    kind = document_kind(section.game, section.document)
    versions = tuple(s.version for s in catalog.history(section.game, section.document, section.number)
                     if s.lang == section.lang)
    return SectionAnswer(
        section.game, section.document, kind.name(section.lang), section.lang, section.version, section.number,
        section.title, section.penalty, section.text,
        tuple((p.label, p.heading, p.text) for p in section.parts),
        tuple((c.number, c.title) for c in catalog.children(section)),
        versions, links.section_page(section.game, section.document, section.number),
        links.pinned_section(section.game, section.document, section.version, section.number),
        _cites(knowledge, section), _cited_by(knowledge, section), section_analogues(knowledge, section))


def _cites(knowledge: Knowledge, section: Section) -> tuple[SectionLink, ...]:
    graph = knowledge.graph
    node = section_text_id(section.game, section.document, section.lang, section.version, section.number)
    out = []
    if node not in graph:
        return ()
    for _, target, data in graph.out_edges(node, data=True):
        found = graph.nodes[target]
        if data.get("kind") == "cites":
            version = data.get("version") or ""
            lang = document_kind(section.game, CR).langs[0]
            number = RuleNumber.parse(found["number"])
            path = (links.pinned_rule(section.game, lang, version, number) if data.get("resolution") == "as-of"
                    else links.rule_page(section.game, number))
            out.append(SectionLink(section.game, CR, found["number"], "", version, path, data.get("raw", ""),
                                   data.get("resolution", "")))
        elif data.get("kind") == "cites_section":
            out.append(_section_link(knowledge, found["game"], found["document"], found["number"],
                                     data.get("version") or None, raw=data.get("raw", "")))
    return tuple(out)


def _cited_by(knowledge: Knowledge, section: Section) -> tuple[SectionLink, ...]:
    """Sections whose newest text cites this one (by number or by an infraction's name)."""
    graph = knowledge.graph
    node = section_id(section.game, section.document, section.number)
    if node not in graph:
        return ()
    out = {}
    for source, _, data in graph.in_edges(node, data=True):
        if data.get("kind") != "cites_section":
            continue
        found = graph.nodes[source]
        key = (found["game"], found["document"], found["number"])
        out.setdefault(key, _section_link(knowledge, *key, None, raw=data.get("raw", "")))
    return tuple(out.values())


def section_analogues(knowledge: Knowledge, section: Section) -> tuple[SectionLink, ...]:
    """The other game's section this one was modelled on (or that was modelled on it), with the evidence."""
    graph = knowledge.graph
    node = section_id(section.game, section.document, section.number)
    if node not in graph:
        return ()
    edges = [(target, data) for _, target, data in graph.out_edges(node, data=True)]
    edges += [(source, data) for source, _, data in graph.in_edges(node, data=True)]
    out = []
    for other, data in edges:
        if data.get("kind") != "analogue":
            continue
        found = graph.nodes[other]
        out.append(_section_link(knowledge, found["game"], found["document"], found["number"], None,
                                 relation=data.get("relation", ""), evidence=data.get("evidence", ""),
                                 differs=data.get("differs", "")))
    return tuple(out)


def _section_link(knowledge: Knowledge, game: str, document: str, number: str, version: str | None,
                  **extra: str) -> SectionLink:
    found = knowledge.catalog.sections.section(game, document, number, version)
    title = found.title if found else ""
    label = found.version if found else (version or "")
    return SectionLink(game, document, number, title, label, links.section_page(game, document, number), **extra)


def sections_citing_rule(knowledge: Knowledge, game: str, number: str) -> list[SectionLink]:
    """The tournament sections whose text cites a rule (any version), newest document version first."""
    graph = knowledge.graph
    node = rule_id(game, number)
    if node not in graph:
        return []
    out = []
    for source, _, data in graph.in_edges(node, data=True):
        found = graph.nodes[source]
        if data.get("kind") != "cites" or found.get("kind") != "section-text":
            continue
        out.append(SectionLink(found["game"], found["document"], found["number"], found.get("title") or "",
                               found["version"], links.section_page(found["game"], found["document"],
                                                                    found["number"]), data.get("raw", ""),
                               data.get("resolution", "")))
    return sorted(set(out), key=lambda s: (s.document, s.version, s.number))


def describe_document(game: str, document: str, lang: str) -> str:
    """``Magic IPG`` / ``Duel Masters 競技イベント運営ルール``: a section's document in a CLI line."""
    return f"{GAME_SHORT_NAMES[game]} {document_kind(game, document).short}"


def diff_sections(knowledge: Knowledge, game: str, document: str, lang: str | None, old: str,
                  new: str) -> list[SectionRow]:
    """Two versions of a tournament document compared section by section (``compare.sections``)."""
    from rules_kb.ask.versions import nearest_labels
    from rules_kb.compare.sections import compare_sections
    from rules_kb.errors import UsageError

    if (game, document) not in DOCUMENTS:
        held = ", ".join(d for g, d in DOCUMENTS if g == game)
        raise UsageError(f"{GAME_SHORT_NAMES[game]} publishes no document {document!r} (its documents: {held})")
    catalog = knowledge.catalog.sections
    lang = lang or document_kind(game, document).langs[0]
    labels = catalog.labels(game, document, lang)
    if not labels:
        raise UsageError(f"no {document_kind(game, document).short} ({game} {lang}) in the corpus")
    for label in (old, new):
        if label not in labels:
            raise UsageError(f"no version {label} of {document_kind(game, document).short} "
                             f"(nearest: {', '.join(nearest_labels(label, labels))})")
    if old == new:
        raise UsageError(f"{old} is compared with itself: name two versions")
    return compare_sections(catalog.sections_in(game, document, lang, old),
                            catalog.sections_in(game, document, lang, new))
