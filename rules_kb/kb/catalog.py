"""The catalog: one fold over all parsed documents that every later stage reads.

It answers "which versions exist for a game and language, in what order, which are
complete, and what does version V say for rule N", so the graph, the aligner and the site
never re-derive those facts differently.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from rules_kb.games import CR
from rules_kb.kb.sections import SectionCatalog, build_section_catalog
from rules_kb.model import BEFORE, ParsedDocument, RuleText
from rules_kb.numbers import RuleNumber


@dataclass
class VersionInfo:
    game: str
    lang: str
    label: str
    date: str | None
    kinds: set[str] = field(default_factory=set)
    documents: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Only a whole rulebook says anything about absence."""
        return "full" in self.kinds

    def sort_key(self) -> tuple:
        if self.label.startswith(BEFORE):
            return (self.label[len(BEFORE):], 0, self.label)
        return (self.date or "9999-99-99", 1, _natural(self.label))


_VERSION_NUMBER = re.compile(r"\d+(?:\.\d+)+")


def _natural(label: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", label))


@dataclass
class Catalog:
    documents: dict[str, ParsedDocument]
    versions: dict[tuple[str, str, str], VersionInfo]
    texts: dict[tuple[str, str, str], dict[RuleNumber, list[RuleText]]]
    sections: SectionCatalog = field(default_factory=SectionCatalog, repr=False, compare=False)
    """The tournament documents' sections, every version (``kb.sections``)."""
    _label_order: dict[tuple[str, str, int], list[str]] = field(default_factory=dict, init=False, repr=False,
                                                                compare=False)

    def version_labels(self, game: str, lang: str) -> list[str]:
        """Labels of one game and language, oldest first.

        Asked for every rule of every page by the site, so the order is kept, keyed by the
        number of versions (a catalog only ever gains versions).
        """
        memo = self._label_order
        key = (game, lang, len(self.versions))
        if key not in memo:
            infos = [v for (g, lg, _), v in self.versions.items() if g == game and lg == lang]
            if infos and all(_VERSION_NUMBER.fullmatch(v.label) for v in infos):
                # A translation numbered release by release orders by its numbers: the dates printed in
                # it can be wrong (1.13 says March 16th, 2018, three months before 1.8) or missing (1.2.2).
                memo[key] = [v.label for v in sorted(infos, key=lambda v: _natural(v.label))]
            else:
                memo[key] = [v.label for v in sorted(infos, key=VersionInfo.sort_key)]
        return list(memo[key])

    def rules_in(self, game: str, lang: str, label: str) -> dict[RuleNumber, list[RuleText]]:
        return self.texts.get((game, lang, label), {})

    def text_of(self, game: str, lang: str, label: str, number: RuleNumber) -> RuleText | None:
        found = self.rules_in(game, lang, label).get(number)
        return found[0] if found else None

    def all_texts(self) -> list[RuleText]:
        """Every rule text, in a fixed order: game, language, version order, number, document."""
        out = []
        for game, lang in sorted({(g, lg) for g, lg, _ in self.versions}):
            for label in self.version_labels(game, lang):
                for number in sorted(self.rules_in(game, lang, label)):
                    out.extend(self.rules_in(game, lang, label)[number])
        return out

    def numbers_of(self, game: str) -> list[RuleNumber]:
        return sorted({n for (g, _, _), rules in self.texts.items() if g == game for n in rules})

    def labels_with_numbers(self, game: str, lang: str, low: str, high: str) -> dict[str, set[RuleNumber]]:
        """label -> the numbers it holds written between ``low`` and ``high`` (``low <= number < high``
        as strings: ``Scope.bounds``), for the labels holding some."""
        out: dict[str, set[RuleNumber]] = {}
        for label in self.version_labels(game, lang):
            found = {n for n in self.rules_in(game, lang, label) if low <= str(n) < high}
            if found:
                out[label] = found
        return out


def build_catalog(documents: list[ParsedDocument]) -> Catalog:
    versions: dict[tuple[str, str, str], VersionInfo] = {}
    texts: dict[tuple[str, str, str], dict[RuleNumber, list[RuleText]]] = defaultdict(lambda: defaultdict(list))
    for parsed in documents:
        if parsed.meta.document != CR:  # a tournament document: its sections are the section catalog's
            continue
        for version in parsed.versions:
            info = versions.setdefault((version.game, version.lang, version.label),
                                       VersionInfo(version.game, version.lang, version.label, version.date))
            info.date = info.date or version.date
            # A contents page or an index naming a release says nothing about its rules.
            info.kinds.add("contents" if parsed.meta.kind == "contents" else version.kind)
            if parsed.meta.id not in info.documents:
                info.documents.append(parsed.meta.id)
        for rule in parsed.rules:
            key = (rule.game, rule.lang, rule.version)
            info = versions.setdefault(key, VersionInfo(rule.game, rule.lang, rule.version, rule.date))
            info.date = info.date or rule.date
            if not info.kinds:
                info.kinds.add("excerpt")
            if parsed.meta.id not in info.documents:
                info.documents.append(parsed.meta.id)
            texts[key][rule.number].append(rule)
    return Catalog({d.meta.id: d for d in documents}, versions,
                   {k: dict(v) for k, v in texts.items()}, sections=build_section_catalog(documents))
