"""What every page generator reads: the knowledge base plus a few indexes computed once.

Generators run over thousands of rule numbers; asking the catalog "does this number exist
anywhere" each time would rescan every version, so the answer is kept here.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise
from typing import Protocol

from rules_kb import links
from rules_kb.assemble.caches import source_hash
from rules_kb.assemble.knowledge import PARSING, Knowledge, version_digest
from rules_kb.games import GAMES, LANGS
from rules_kb.ingest.curated import Correspondence
from rules_kb.kb.catalog import Catalog
from rules_kb.numbers import RuleNumber

# Versions that are releases of the rules: adjacent ones get a diff page even with change
# notices between them.
RELEASE_KINDS = {"full", "excerpt"}


class Units(Protocol):
    """Parts of the site a previous build already wrote (``site/reuse.py``): a generator asks
    before computing a unit whose pages depend only on what its key digests."""

    def reuse(self, folder: str, key: str) -> dict | None:
        """The unit's saved data when the previous build wrote ``folder`` for the same key (its
        pages are then already in the new site), else None."""

    def record(self, folder: str, key: str, data: dict) -> None:
        """The unit at ``folder`` was generated for ``key``; ``data`` is what a reuse restores."""



def rows_shown(comparison) -> dict[str, str]:
    """Each number a comparison's changed rows name (new side first) → the chapter of the diff page
    whose row carries its anchor: the first row that names it."""
    shown: dict[str, str] = {}
    for row in comparison.rows:
        if row.kind == "unchanged":
            continue
        number = row.pair.new_number or row.pair.old_number
        for named in (row.pair.new_number, row.pair.old_number):
            if named is not None:
                shown.setdefault(str(named), links.chapter_of(number))
    return shown

@dataclass
class SiteData:
    knowledge: Knowledge
    numbers: dict[str, set[RuleNumber]] = field(default_factory=dict)
    children: dict[tuple[str, RuleNumber | None], list[RuleNumber]] = field(default_factory=dict)
    diff_rows: dict[tuple[str, str, str, str], dict[str, str]] = field(default_factory=dict)
    """Per diff-page pair, the chapter page whose row carries each changed number (``rows_shown``):
    noted by the diff pages as they are written (or reused), computed here when asked first."""
    units: Units | None = None
    digests: dict[tuple[str, str, str], str] = field(default_factory=dict)
    _current: dict[tuple[str, str], dict[RuleNumber, str]] = field(default_factory=dict)
    _with_texts: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    base_url: str = links.DEFAULT_BASE_URL
    """Where the site is published (``links.base_url``): only the feeds and the sitemap, read away
    from the site, name it; pages link relatively."""

    @property
    def correspondences(self) -> list[Correspondence]:
        return self.knowledge.correspondences

    @property
    def catalog(self) -> Catalog:
        return self.knowledge.catalog

    def number_known(self, game: str, number: RuleNumber) -> bool:
        return number in self.numbers.get(game, set())

    def children_of(self, game: str, parent: RuleNumber | None) -> list[RuleNumber]:
        """Numbers directly below ``parent`` (``None``: the sections), in order."""
        return self.children.get((game, parent), [])

    def has_glossary(self, game: str, lang: str, label: str) -> bool:
        """Whether the version's documents print a glossary (each such version has a glossary page)."""
        return (game, lang, label) in self._glossaries

    @cached_property
    def _glossaries(self) -> set[tuple[str, str, str]]:
        return set(self._glossary_entries)

    def glossary_entries(self, game: str, lang: str, label: str) -> list[tuple[str, str]]:
        """A version's glossary as (term, definition), in document then glossary order."""
        return self._glossary_entries.get((game, lang, label), [])

    @cached_property
    def _glossary_entries(self) -> dict[tuple[str, str, str], list[tuple[str, str]]]:
        """Every version's glossary, gathered once: what's new asks for two per release."""
        entries: dict[tuple[str, str, str], list[tuple[str, str]]] = {}
        for doc in self.catalog.documents.values():
            for t in doc.terms:
                entries.setdefault((t.game, t.lang, t.version), []).append((t.term, t.definition))
        return entries

    def current_version(self, game: str, lang: str, number: RuleNumber) -> str | None:
        """The version whose text of ``number`` is today's in a language: the newest that holds it,
        unless a complete version after that lacks it (the number has left the rules): then None."""
        if (game, lang) not in self._current:
            self._current[(game, lang)] = self._current_versions(game, lang)
        return self._current[(game, lang)].get(number)

    def _current_versions(self, game: str, lang: str) -> dict[RuleNumber, str]:
        labels = self.catalog.version_labels(game, lang)
        complete = [i for i, label in enumerate(labels) if self.catalog.versions[(game, lang, label)].complete]
        newest: dict[RuleNumber, int] = {}
        for i, label in enumerate(labels):
            newest.update(dict.fromkeys(self.catalog.rules_in(game, lang, label), i))
        last_complete = complete[-1] if complete else 0
        return {number: labels[i] for number, i in newest.items() if i >= last_complete}

    def newest_glossary(self, game: str, lang: str) -> str | None:
        """The newest version of a language that prints a glossary (today's glossary), if any."""
        return self._newest_glossaries.get((game, lang))

    @cached_property
    def _newest_glossaries(self) -> dict[tuple[str, str], str]:
        return {(game, lang): label for game, lang in sorted({(g, lg) for g, lg, _ in self._glossaries})
                for label in self.catalog.version_labels(game, lang) if self.has_glossary(game, lang, label)}

    def labels_with_texts(self, game: str, lang: str) -> list[str]:
        """Versions (oldest first) that hold at least one rule text: those get pages. Asked several
        times by each rule page: read once (the catalog does not change while a site is built)."""
        if (game, lang) not in self._with_texts:
            self._with_texts[(game, lang)] = [label for label in self.catalog.version_labels(game, lang)
                                              if self.catalog.rules_in(game, lang, label)]
        return list(self._with_texts[(game, lang)])

    def diff_pairs(self, game: str, lang: str) -> list[tuple[str, str]]:
        """Pairs that get diff pages: adjacent versions (with texts), then adjacent releases (rulebooks
        and their excerpts) where change notices lie between them (Duel Masters 1.38 → 1.48). Every other
        pair is compared in the browser: pre-building each release against the newest cost a page
        per changed section per release, all rebuilt on every release (``docs/url-scheme.md``)."""
        labels = self.labels_with_texts(game, lang)
        releases = [label for label in labels if self.catalog.versions[(game, lang, label)].kinds & RELEASE_KINDS]
        return list(dict.fromkeys([*pairwise(labels), *pairwise(releases)]))

    def diff_link(self, game: str, lang: str, old: str, new: str, number: RuleNumber) -> str | None:
        """The diff page row showing ``number`` changed between two versions, if the pair has diff pages.

        Any page generator may ask, in any order: a pair whose diff pages have not been written yet is
        compared here (the same comparison they will make), so no generator depends on another's run."""
        key = (game, lang, old, new)
        if key not in self.diff_rows:
            if (old, new) not in self.diff_pairs(game, lang):
                return None
            from rules_kb.compare.changes import compare_versions

            comparison = compare_versions(self.catalog, self.knowledge.alignments, game, lang, old, new,
                                          self.knowledge.forced)
            self.diff_rows[key] = rows_shown(comparison)
        section = self.diff_rows[key].get(str(number))
        return None if section is None else f"{links.diff_page(game, lang, old, new, section)}#{number}"

    def version_digest(self, game: str, lang: str, label: str) -> str:
        """What one version says, named by the parse keys of the documents that make it (as the
        aligner's cache names it: ``assemble.knowledge.version_digest``). Hashing every text of
        every version instead took 4.3 CPU s of each build, asked by the diff pages in one process
        and by what's new in the other."""
        key = (game, lang, label)
        if key not in self.digests:
            self.digests[key] = version_digest(self.catalog, key, self._parser)
        return self.digests[key]

    @cached_property
    def _parser(self) -> str:
        return source_hash(PARSING)  # reads the parser's source files: once

    def pair_digest(self, game: str, lang: str, old: str, new: str) -> str:
        """What a comparison of two versions depends on: both versions and the forced matches between them."""
        forced = [repr(match) for match in self.knowledge.forced
                  if (match.game, match.lang, match.old_version, match.new_version) == (game, lang, old, new)]
        parts = [self.version_digest(game, lang, old), self.version_digest(game, lang, new), *forced]
        return hashlib.sha256("\n".join(parts).encode()).hexdigest()

    def languages(self, game: str) -> list[str]:
        return [lang for lang in LANGS if self.labels_with_texts(game, lang)]


def load_site_data(knowledge: Knowledge, units: Units | None = None,
                   base_url: str = links.DEFAULT_BASE_URL) -> SiteData:
    """Everything the page generators read, made before any page is: with ``units``, the previous
    build's pages they may reuse (``site/reuse.py``)."""
    numbers = {game: set(knowledge.catalog.numbers_of(game)) for game in GAMES}
    children: dict[tuple[str, RuleNumber | None], list[RuleNumber]] = {}
    for game, known in numbers.items():
        for number in sorted(known):
            children.setdefault((game, number.parent), []).append(number)
    return SiteData(knowledge, numbers, children, units=units, base_url=base_url)
