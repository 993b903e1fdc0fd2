"""What every page generator reads: the knowledge base plus a few indexes computed once.

Generators run over thousands of rule numbers; asking the catalog "does this number exist
anywhere" each time would rescan every version, so the answer is kept here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

from rules_kb import links
from rules_kb.ask.knowledge import Knowledge
from rules_kb.ask.story import Correspondence, load_correspondences
from rules_kb.kb.catalog import Catalog
from rules_kb.numbers import RuleNumber

GAMES = ("dm", "mtg")
LANGS = ("ja", "en")
# Versions that are releases of the rules (compared with the newest); change notices and
# dated paragraphs are compared with their neighbours only.
RELEASE_KINDS = {"full", "excerpt"}


@dataclass
class SiteData:
    knowledge: Knowledge
    corpus: Path
    numbers: dict[str, set[RuleNumber]] = field(default_factory=dict)
    correspondences: list[Correspondence] = field(default_factory=list)
    children: dict[tuple[str, RuleNumber | None], list[RuleNumber]] = field(default_factory=dict)
    diff_rows: dict[tuple[str, str, str, str], dict[str, str]] = field(default_factory=dict)
    """Filled by the diff pages (generated before rule pages): per version pair, each changed
    number (old or new side) → the section page of the diff that shows it."""

    @property
    def catalog(self) -> Catalog:
        return self.knowledge.catalog

    def number_known(self, game: str, number: RuleNumber) -> bool:
        return number in self.numbers.get(game, set())

    def children_of(self, game: str, parent: RuleNumber | None) -> list[RuleNumber]:
        """Numbers directly below ``parent`` (``None``: the sections), in order."""
        return self.children.get((game, parent), [])

    def labels_with_texts(self, game: str, lang: str) -> list[str]:
        """Versions (oldest first) that hold at least one rule text: those get pages."""
        return [label for label in self.catalog.version_labels(game, lang) if self.catalog.rules_in(game, lang, label)]

    def diff_pairs(self, game: str, lang: str) -> list[tuple[str, str]]:
        """Pairs that get diff pages: adjacent versions (with texts), then each older release against the newest."""
        labels = self.labels_with_texts(game, lang)
        releases = [label for label in labels[:-2] if self.catalog.versions[(game, lang, label)].kinds & RELEASE_KINDS]
        pairs = list(pairwise(labels)) + [(label, labels[-1]) for label in releases]
        return list(dict.fromkeys(pairs))

    def diff_link(self, game: str, lang: str, old: str, new: str, number: RuleNumber) -> str | None:
        """The diff page row showing ``number`` changed between two versions, if one was generated."""
        section = self.diff_rows.get((game, lang, old, new), {}).get(str(number))
        return None if section is None else f"{links.diff_page(game, lang, old, new, section)}#{number}"

    def languages(self, game: str) -> list[str]:
        return [lang for lang in LANGS if self.labels_with_texts(game, lang)]


def load_site_data(knowledge: Knowledge, corpus: Path) -> SiteData:
    numbers = {game: set(knowledge.catalog.numbers_of(game)) for game in GAMES}
    children: dict[tuple[str, RuleNumber | None], list[RuleNumber]] = {}
    for game, known in numbers.items():
        for number in sorted(known):
            children.setdefault((game, number.parent), []).append(number)
    return SiteData(knowledge, corpus, numbers, load_correspondences(corpus), children)
