"""Explain what happened to a rule: every language's version chain, drift between the
translations, cross-era correspondences, change notices and the commentary that explains
them, and what the corpus does *not* hold.

Everything here is derived from the catalog, the graph and curated files in ``corpus/``;
nothing about any particular rule is written in code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING

from rules_kb.compare.alignment import Scope
from rules_kb.compare.changes import Comparison, compare_versions
from rules_kb.games import LANGS
from rules_kb.ingest.curated import Correspondence
from rules_kb.kb.ids import doc_id, rule_id, text_id
from rules_kb.model import BEFORE, Record, before_label, span_extent
from rules_kb.numbers import RuleNumber

if TYPE_CHECKING:  # either the in-memory Knowledge or the store's view of it (store.views)
    from rules_kb.assemble.knowledge import Knowledge

CHANGE_WORDS = ("変更前", "変更後")


@dataclass(frozen=True)
class Drift(Record):
    """An English text whose Japanese counterpart says something else (the graph's drift flags)."""

    version: str
    number: str
    japanese: str  # the documents of the two texts
    english: str
    drift: tuple[str, ...]


@dataclass(frozen=True)
class Notice(Record):
    """A change notice that changed rules of the scope: its document, date and those rules."""

    document: str
    date: str | None
    rules: tuple[str, ...]


@dataclass(frozen=True)
class Passage(Record):
    """A commentary passage about a change of the rule, where it stands in its document."""

    document: str
    text: str
    level: int
    marks: tuple[str, ...]
    span: tuple[int, int]


@dataclass
class Story:
    game: str
    number: RuleNumber
    chains: dict[str, list[Comparison]] = field(default_factory=dict)
    drift: list[Drift] = field(default_factory=list)
    correspondences: list[Correspondence] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    commentary: list[Passage] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)
    lags: list[str] = field(default_factory=list)


def versions_holding(knowledge: Knowledge, game: str, lang: str, scope: Scope) -> list[str]:
    """Version labels (oldest first) that hold at least one rule in the scope."""
    held = knowledge.catalog.labels_with_numbers(game, lang, *scope.bounds())
    return [label for label, numbers in held.items()
            if not label.startswith(BEFORE) and any(scope.contains(n) for n in numbers)]


def explain_rule(knowledge: Knowledge, game: str, number: RuleNumber) -> Story:
    scope = Scope(rule=number)
    story = Story(game, number)
    story.chains = version_chains(knowledge, game, scope)
    story.drift = _drift(knowledge, game, scope)
    story.correspondences = [c for c in knowledge.correspondences
                             if c.game == game and (scope.contains(c.old[2]) or scope.contains(c.new[2]))]
    story.notices = _notices(knowledge, game, scope)
    story.commentary = _commentary(knowledge, game, scope, story.notices)
    story.gaps = _gaps(knowledge, game, scope, story.notices)
    story.lags = [lag.describe() for lag in translation_lags(knowledge, game, story.chains, story.notices)]
    return story


@dataclass(frozen=True)
class Lag:
    """A translation release that crossed a change date with editorial edits only: it still states the old rules."""

    lang: str
    old_version: str
    new_version: str
    old_date: str | None
    new_date: str | None
    crossed: tuple[str, ...]
    counts: dict

    def describe(self) -> str:
        return (f"{self.lang} {self.new_version} ({self.new_date}) only retouched {self.lang} {self.old_version} "
                f"({self.old_date}) across the {', '.join(self.crossed)} change ({self.counts['editorial']} "
                f"editorial, {self.counts['unchanged']} unchanged, nothing of substance): it still states the rules "
                f"as they were before {self.crossed[-1]}.")


def rule_lags(knowledge: Knowledge, game: str, number: RuleNumber) -> list[Lag]:
    """``explain``'s lags of one rule, and only them: what a rule page says of its two languages
    (the rest of the story, drift, commentary, curated correspondences, is not computed)."""
    scope = Scope(rule=number)
    return translation_lags(knowledge, game, version_chains(knowledge, game, scope), _notices(knowledge, game, scope))


def translation_lags(knowledge: Knowledge, game: str, chains: dict[str, list[Comparison]],
                     notices: list[Notice]) -> list[Lag]:
    """Every release of a version chain that crossed a change notice's date without a change of substance."""
    out = []
    change_dates = sorted({n.date for n in notices if n.date})
    for lang, chain in chains.items():
        for comparison in chain:
            a = comparison.alignment
            old_date = knowledge.catalog.versions[(game, lang, a.old_version)].date
            new_date = knowledge.catalog.versions[(game, lang, a.new_version)].date
            counts = comparison.counts()
            crossed = [d for d in change_dates if old_date and new_date and old_date < d <= new_date]
            if not crossed or any(counts[k] for k in ("substantive", "moved", "added", "removed")):
                continue
            out.append(Lag(lang, a.old_version, a.new_version, old_date, new_date, tuple(crossed), counts))
    return out


def version_chains(knowledge: Knowledge, game: str, scope: Scope, langs: tuple[str, ...] = ("en", "ja")
                   ) -> dict[str, list[Comparison]]:
    """Each language's successive versions holding the scope, compared pair by pair."""
    chains = {}
    for lang in langs:
        labels = versions_holding(knowledge, game, lang, scope)
        chains[lang] = [compare_versions(knowledge.catalog, knowledge.alignments, game, lang, old, new,
                                         knowledge.forced, scope)
                        for old, new in pairwise(labels)]
    return chains


def notices_about(knowledge: Knowledge, game: str, scope: Scope) -> list[Notice]:
    """Change notices that changed a rule of the scope, oldest first."""
    return _notices(knowledge, game, scope)


def _subtree_rules(knowledge: Knowledge, game: str, scope: Scope) -> list[str]:
    catalog = knowledge.catalog
    numbers = {n for lang in sorted({lg for g, lg, _ in catalog.versions if g == game})
               for held in catalog.labels_with_numbers(game, lang, *scope.bounds()).values() for n in held}
    return [rule_id(game, n) for n in sorted(numbers) if scope.contains(n)]


def _drift(knowledge: Knowledge, game: str, scope: Scope) -> list[Drift]:
    graph = knowledge.graph
    out = []
    held = knowledge.catalog.labels_with_numbers(game, "en", *scope.bounds())
    for label in sorted(held):  # the numbers of the scope first, then their texts only
        rules = knowledge.catalog.rules_in(game, "en", label)
        for number in sorted(n for n in held[label] if scope.contains(n)):
            texts = rules[number]
            for _, target, data in graph.out_edges(text_id(texts[0]), data=True):
                if data.get("kind") == "translation" and data.get("drifted"):
                    out.append(Drift(label, str(number), graph.nodes[target]["document"], texts[0].document,
                                     tuple(data["drift"])))
    unique = {(d.version, d.number): d for d in out}
    return [unique[k] for k in sorted(unique, key=lambda k: (k[0], RuleNumber.parse(k[1]).sort_key()))]


def _notices(knowledge: Knowledge, game: str, scope: Scope) -> list[Notice]:
    graph = knowledge.graph
    found: dict[str, tuple[str | None, list[str]]] = {}
    for node in _subtree_rules(knowledge, game, scope):
        for _, target, data in graph.out_edges(node, data=True):
            if data.get("kind") == "changed_by":
                _, rules = found.setdefault(graph.nodes[target]["document"], (data.get("date"), []))
                rules.append(graph.nodes[node]["number"])
    notices = [Notice(document, date, tuple(sorted(set(rules), key=lambda n: RuleNumber.parse(n).sort_key())))
               for document, (date, rules) in found.items()]
    return sorted(notices, key=lambda e: (e.date or "", e.document))


def _japanese_date(iso: str) -> str:
    year, month, day = (int(p) for p in iso.split("-"))
    return f"{year}年{month}月{day}日"


def _commentary(knowledge: Knowledge, game: str, scope: Scope, notices: list[Notice]) -> list[Passage]:
    """Passages of documents discussing the rule that talk about one of its changes.

    A passage qualifies if it says 変更前/変更後, names a notice's date, or was marked by its
    parser as part of a change; the items nested under it (deeper list levels) come along,
    since dmwiki explains a change in a parent item and its children.
    """
    graph = knowledge.graph
    dates = {n.date for n in notices if n.date}
    documents = sorted({graph.nodes[t]["document"] for node in _subtree_rules(knowledge, game, scope) if node in graph
                        for _, t, d in graph.out_edges(node, data=True) if d.get("kind") == "discussed_by"})
    out = []
    for document in documents:
        parsed = knowledge.catalog.documents[document]
        items = [r for r in parsed.residue if r.kind == "commentary"]
        keep_level: int | None = None
        for item in items:
            if keep_level is not None and item.level > keep_level:
                out.append(_passage(document, item))
                continue
            keep_level = None
            said = any(w in item.text for w in CHANGE_WORDS) or any(_japanese_date(d) in item.text for d in dates)
            marked = [m for m in item.marks if m.startswith("changed:")]
            if said or marked:
                out.append(_passage(document, item))
                keep_level = item.level
    return out


def _passage(document: str, item) -> Passage:
    start, end = span_extent(item.spans)
    return Passage(document, item.text, item.level, tuple(item.marks), (start, end))


def _gaps(knowledge: Knowledge, game: str, scope: Scope, notices: list[Notice]) -> list[str]:
    """Say what the corpus lacks, instead of letting a reader assume it."""
    catalog = knowledge.catalog
    gaps = []
    for date in sorted({n.date for n in notices if n.date}):
        documents = ", ".join(n.document for n in notices if n.date == date)
        langs = [lang for lang in LANGS if any(
            scope.contains(n) for label in catalog.version_labels(game, lang)
            for n in catalog.rules_in(game, lang, label)
            if (catalog.versions[(game, lang, label)].date or "9999") < date or label == before_label(date))]
        if "ja" not in langs:
            older_en = [label for label in versions_holding(knowledge, game, "en", scope)]
            where = f"; the older structure survives only in the English translation ({', '.join(older_en)})" \
                if older_en else ""
            gaps.append(f"No Japanese text of {scope.describe()} from before the {date} change "
                        f"({documents}) is in the corpus{where}.")
    return gaps


__all__ = ["Story", "doc_id", "explain_rule"]
