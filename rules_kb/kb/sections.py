"""The sections of the tournament documents (MTR, IPG, 競技イベント運営ルール), every version kept.

A tournament document is versioned by its effective date, like a Magic release; a section is
named by its document and number (``mtr`` 3.10), and the same number in the next version is the
same section unless its title changed (then both are shown, as a rule page shows two eras).
Cross-references are resolved here once, for the graph, the questions and the pages alike: a
Comprehensive Rules citation to the rule as it stood on the document's date, a section citation
to the section of the same version, an infraction named in brackets to its section.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from rules_kb.games import CR, DOCUMENTS, document_kind
from rules_kb.model import ParsedDocument, Section
from rules_kb.numbers import SectionNumber
from rules_kb.refs import find_infraction, name_key

SectionKey = tuple[str, str, str, str]
"""(game, document, language, version)."""


@dataclass(frozen=True)
class SectionCite:
    """One cross-reference of a section, resolved: where it points (``kind`` is ``rule``,
    ``section`` or ``document``) or None when nothing in the corpus answers it."""

    source: Section
    kind: str
    raw: str
    game: str | None = None
    document: str | None = None
    number: str | None = None
    version: str | None = None


@dataclass
class SectionCatalog:
    """Every section of every version of every tournament document, in document order."""

    texts: dict[SectionKey, dict[str, Section]] = field(default_factory=dict)
    repeats: dict[SectionKey, dict[str, list[Section]]] = field(default_factory=dict)
    """A number a version prints again for another section (競技イベント運営ルール 2025-05-01 prints
    9.1 twice): the later ones, kept and shown beside the first, never dropped."""

    def documents(self) -> list[tuple[str, str, str]]:
        """(game, document, language) held, in registry order."""
        held = {(g, d, lang) for g, d, lang, _ in self.texts}
        order = list(DOCUMENTS)
        return sorted(held, key=lambda k: (order.index((k[0], k[1])), k[2]))

    def labels(self, game: str, document: str, lang: str) -> list[str]:
        """Versions of one document and language, oldest first (labels are effective dates)."""
        return sorted(v for g, d, lg, v in self.texts if (g, d, lg) == (game, document, lang))

    def sections_in(self, game: str, document: str, lang: str, version: str) -> dict[str, Section]:
        return self.texts.get((game, document, lang, version), {})

    def all_in(self, game: str, document: str, lang: str, version: str) -> list[Section]:
        """Every section of a version, repeated numbers included, in the order the document prints them."""
        key = (game, document, lang, version)
        found = [*self.texts.get(key, {}).values(), *(s for ss in self.repeats.get(key, {}).values() for s in ss)]
        return sorted(found, key=lambda s: s.spans[0][0] if s.spans else 0)

    def repeats_of(self, section: Section) -> list[Section]:
        """The other sections its version prints under the same number."""
        key = (section.game, section.document, section.lang, section.version)
        return self.repeats.get(key, {}).get(section.number, [])

    def newest(self, game: str, document: str, lang: str | None = None) -> list[Section]:
        """The newest version's sections of a document, in document order."""
        langs = [lang] if lang else document_kind(game, document).langs
        for lg in langs:
            labels = self.labels(game, document, lg)
            if labels:
                return list(self.sections_in(game, document, lg, labels[-1]).values())
        return []

    def section(self, game: str, document: str, number: str, version: str | None = None,
                lang: str | None = None) -> Section | None:
        """One section: of ``version``, else of the newest version that has the number."""
        langs = [lang] if lang else document_kind(game, document).langs
        for lg in langs:
            labels = [version] if version else list(reversed(self.labels(game, document, lg)))
            for label in labels:
                found = self.sections_in(game, document, lg, label).get(number)
                if found is not None:
                    return found
        return None

    def history(self, game: str, document: str, number: str) -> list[Section]:
        """Every version of one section, oldest first, each language."""
        return [s for (g, d, _, label), sections in sorted(self.texts.items(), key=lambda kv: kv[0][3])
                if (g, d) == (game, document) and (s := sections.get(number)) is not None]

    def children(self, section: Section) -> list[Section]:
        """The subsections directly under a section, in document order."""
        sections = self.sections_in(section.game, section.document, section.lang, section.version)
        return [s for s in sections.values() if _parent(s.number) == section.number]

    def by_name(self, name: str) -> list[Section]:
        """Newest sections whose title, infraction name or number-and-title is ``name`` (any width,
        case, spacing or dash): ``Hidden Card Error``, ``誘発忘れ``, ``ゲーム上の誤り ─ 誘発忘れ``."""
        key = name_key(name)
        found = []
        for game, document, lang in self.documents():
            newest = self.newest(game, document, lang)
            section = find_infraction(newest, key) or next(
                (s for s in newest if name_key(s.title) == key), None)
            if section is not None:
                found.append(section)
        return found

    def names(self) -> list[str]:
        """Every title and infraction name of the newest versions (for suggestions)."""
        out = []
        for game, document, lang in self.documents():
            for section in self.newest(game, document, lang):
                out.append(section.title)
                if section.name:
                    out.append(section.name)
        return list(dict.fromkeys(out))

    def in_force(self, game: str, document: str, lang: str, date: str) -> str | None:
        """The version of a document in force on ``date`` (the newest effective on or before it)."""
        labels = [label for label in self.labels(game, document, lang) if label <= date]
        return labels[-1] if labels else None

    def all_sections(self) -> Iterator[Section]:
        """Every section of every version, repeats included, in document order per version."""
        for key in sorted(self.texts):
            yield from self.all_in(*key)


def _parent(number: str) -> str | None:
    parent = SectionNumber.parse(number).parent
    return None if parent is None else str(parent)


def build_section_catalog(documents: list[ParsedDocument]) -> SectionCatalog:
    """Gather the sections of every tournament document, keyed by document and version."""
    catalog = SectionCatalog()
    for parsed in documents:
        if parsed.meta.document == CR:
            continue
        for section in parsed.sections:
            key = (section.game, section.document, section.lang, section.version)
            held = catalog.texts.setdefault(key, {})
            if section.number in held:
                catalog.repeats.setdefault(key, {}).setdefault(section.number, []).append(section)
            else:
                held[section.number] = section
    for key, sections in catalog.texts.items():
        catalog.texts[key] = dict(sorted(sections.items(), key=lambda kv: SectionNumber.parse(kv[0])))
    return catalog


def resolve_cites(catalog: SectionCatalog, section: Section, cr_version: str | None) -> list[SectionCite]:
    """A section's cross-references, each resolved against the corpus (see the module's docstring).

    ``cr_version`` is the game's Comprehensive Rules release in force on the document's date
    (the caller knows the rules' catalog); a rule citation is pinned to it.
    """
    out = []
    for kind, target in section.cites:
        if kind == "cr":
            out.append(SectionCite(section, "rule" if target else "document", target, section.game, CR,
                                   target or None, cr_version))
        elif kind == "section":
            found = catalog.section(section.game, section.document, target, section.version, section.lang)
            out.append(SectionCite(section, "section", target, section.game, section.document,
                                   found.number if found else None, section.version))
        elif kind == "infraction":
            sections = catalog.sections_in(section.game, section.document, section.lang, section.version).values()
            found = find_infraction(sections, target)
            out.append(SectionCite(section, "section", target, section.game, section.document,
                                   found.number if found else None, section.version))
        elif (section.game, kind) in DOCUMENTS and not target:  # the other document named without a section
            out.append(SectionCite(section, "document", kind, section.game, kind, None, None))
        elif (section.game, kind) in DOCUMENTS:  # another document of the game: ("mtr", "4.3") from the IPG
            lang = document_kind(section.game, kind).langs[0]
            version = catalog.in_force(section.game, kind, lang, section.version) or (
                (catalog.labels(section.game, kind, lang) or [None])[0])
            found = catalog.section(section.game, kind, target, version, lang) if version else None
            out.append(SectionCite(section, "section", target, section.game, kind,
                                   found.number if found else None, version))
    return out
