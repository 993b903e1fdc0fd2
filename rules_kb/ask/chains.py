"""Whole chains: where a rule's text went after every renumbering, and the analogues that follow it.

The graph holds one ``renumbered`` edge per move between adjacent complete releases
(``compare.lineage``); a judge asking about 509.4f wants every step to today's number
(509.4f → 509.5f in 2016-09-30 → 509.3f in 2024-11-08), not the first. An era is the run of
versions in which one rule holds a number (``query.era_starts``); a chain joins eras by moves.
A curated analogue (``corpus/analogues.toml``) names a Magic number in the releases it was read
in; its chain says where that rule stood before and after, and an analogue asked of any number on
the chain is found.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules_kb.ask.query import (
    KindEdges,
    Renumbering,
    history_with_eras,
    kind_edges,
    renumbering_of,
    require_rule,
)
from rules_kb.errors import RuleNotFound
from rules_kb.games import LANGS_FIRST
from rules_kb.kb.ids import rule_id
from rules_kb.model import Record, RuleText
from rules_kb.numbers import RuleNumber

if TYPE_CHECKING:
    from rules_kb.assemble.knowledge import Knowledge


@dataclass(frozen=True)
class Era(Record):
    """One rule under one number: the first and last version holding it, in one game and language."""

    number: str
    first: str
    last: str


@dataclass(frozen=True)
class Chain(Record):
    """A rule's whole lineage in one game and language, oldest era first; ``gone`` is the complete
    release from which its last number no longer holds it ("" while it is in today's rules)."""

    game: str
    lang: str
    eras: tuple[Era, ...]
    gone: str = ""

    def to_record(self) -> dict:
        return {"game": self.game, "lang": self.lang, "eras": [e.to_record() for e in self.eras], "gone": self.gone}


class Lineages:
    """Eras and chains of one game and language, each number's eras read once per question."""

    def __init__(self, knowledge: Knowledge, game: str, lang: str) -> None:
        self.knowledge, self.game, self.lang = knowledge, game, lang
        self.labels = knowledge.catalog.version_labels(game, lang)
        self.order = {label: i for i, label in enumerate(self.labels)}
        self._eras: dict[str, list[Era]] = {}
        self._chains: dict[Era, Chain] = {}  # a site build asks each page's chain again for its gone notes
        self._moves: dict[str, list[Renumbering]] = {}

    def eras(self, number: str) -> list[Era]:
        """The eras of ``number``, oldest first (none when it never held a text in this language)."""
        if number not in self._eras:
            self._eras[number] = self._read_eras(RuleNumber.parse(number))
        return self._eras[number]

    def _read_eras(self, number: RuleNumber) -> list[Era]:
        try:
            texts, eras = history_with_eras(self.knowledge, number, self.game)
        except RuleNotFound:
            return []
        runs: list[list[str]] = []
        for text, starts in zip(texts, eras, strict=True):  # both languages': a text's era starts alike in either
            if text.lang != self.lang:
                continue
            if not runs or starts:
                runs.append([text.version])
            elif runs[-1][-1] != text.version:
                runs[-1].append(text.version)
        return [Era(str(number), labels[0], labels[-1]) for labels in runs]

    def era_holding(self, number: str, label: str) -> Era | None:
        """The era of ``number`` whose versions include ``label`` (by version order), if any."""
        at = self.order.get(label)
        if at is None:
            return None
        return next((era for era in self.eras(number)
                     if self.order.get(era.first, -1) <= at <= self.order.get(era.last, -1)), None)

    def chain(self, number: str, label: str) -> Chain | None:
        """The lineage of the rule numbered ``number`` in version ``label``: back to where its text
        came from, forward to where it is now (or the release that removed it)."""
        era = self.era_holding(number, label)
        if era is None:
            return None
        if era not in self._chains:
            self._chains[era] = self._follow(era)
        return self._chains[era]

    def _follow(self, era: Era) -> Chain:
        """The chain through ``era``: every move into its first version and out of its last, followed."""
        eras = [era]
        while (came := self._move(eras[0], "moved from")) is not None:
            earlier = self.era_holding(came.old, came.from_version)
            if earlier is None or earlier in eras:
                break
            eras.insert(0, earlier)
        while (went := self._move(eras[-1], "moved to")) is not None:
            later = self.era_holding(went.new, went.to_version)
            if later is None or later in eras:
                break
            eras.append(later)
        return Chain(self.game, self.lang, tuple(eras), self.gone_after(eras[-1]))

    def _move(self, era: Era, direction: str) -> Renumbering | None:
        """The move out of an era's last version (``moved to``) or into its first (``moved from``)."""
        if era.number not in self._moves:  # every version of both languages read: once per number
            self._moves[era.number] = [m for m in renumbering_of(self.knowledge, RuleNumber.parse(era.number),
                                                                 self.game) if m.lang == self.lang]
        moves = [m for m in self._moves[era.number] if m.direction == direction
                 and (m.from_version == era.last if direction == "moved to" else m.to_version == era.first)]
        return max(moves, key=lambda m: m.similarity, default=None)

    def gone_after(self, era: Era) -> str:
        """The first complete release after an era's last version: "" when none is newer (today's rule)."""
        catalog = self.knowledge.catalog
        later = self.labels[self.order[era.last] + 1:] if era.last in self.order else []
        return next((label for label in later if catalog.versions[(self.game, self.lang, label)].complete
                     and catalog.rules_in(self.game, self.lang, label)), "")


def lineages_of(knowledge: Knowledge, game: str, lang: str) -> Lineages:
    """The one ``Lineages`` of a knowledge base's game and language, kept on it: a site build asks
    for the chains of six thousand rules, most of them through the same Magic chains (every analogue
    of a Duel Masters rule), and a knowledge base is never changed once built."""
    kept = vars(knowledge).setdefault("_lineages", {})
    if (game, lang) not in kept:
        kept[(game, lang)] = Lineages(knowledge, game, lang)
    return kept[(game, lang)]


def chain_steps(chain: Chain, start: str) -> str:
    """``509.4f → 509.5f (2016-09-30) → 509.3f (2024-11-08)``: the chain from the era of ``start``,
    each later number with the release it took effect in."""
    at = next((i for i, era in enumerate(chain.eras) if era.number == start), 0)
    eras = chain.eras[at:]
    return " → ".join([eras[0].number, *(f"{era.number} ({era.first})" for era in eras[1:])])


def gone_notes(knowledge: Knowledge, texts: list[RuleText]) -> list[str]:
    """For each newest text ``show`` gives, whether its number has left the rules since, and where
    its text is after every renumbering: a judge must not take a 2009 text for today's rule."""
    notes = []
    for text in texts:
        lineages = lineages_of(knowledge, text.game, text.lang)
        number = str(text.number)
        era = next((e for e in lineages.eras(number) if e.last == text.version), None)
        gone = lineages.gone_after(era) if era is not None else ""
        if not gone:  # in today's rules (or a newer text of the number holds it)
            continue
        chain = lineages.chain(number, text.version)
        last = chain.eras[-1]
        if last.number == number:
            where = "its text was removed, not moved"
        elif chain.gone:
            where = f"its text moved, {chain_steps(chain, number)}, and left the rules in {chain.gone}"
        else:
            where = f"its text is now {last.number}: {chain_steps(chain, number)}"
        notes.append(f"{text.number} ({text.game} {text.lang}) is not in the rules since {gone}; {where}; "
                     f"its last text is {text.version}'s")
    return notes


# --- analogues -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Counterpart(Record):
    """A rule's counterpart in the other game: the curated pairing (the Magic releases it was read
    in, the evidence, which Duel Masters texts it holds for) and the Magic rule's whole chain."""

    game: str
    number: str
    analogue_game: str
    analogue: str  # the number of the other game's rule the pairing names
    mtg_versions: tuple[str, ...]  # the Magic releases the pairing was read in (corpus/analogues.toml)
    evidence: str
    dm_scope: str = ""  # which Duel Masters texts carry the pairing (language, versions)
    chain: Chain | None = None  # the Magic rule's lineage; None when the corpus lacks those releases

    def to_record(self) -> dict:
        return {"game": self.game, "number": self.number, "analogue_game": self.analogue_game,
                "analogue": self.analogue, "mtg_versions": list(self.mtg_versions), "evidence": self.evidence,
                "dm_scope": self.dm_scope, "chain": self.chain.to_record() if self.chain else None}


def analogues_of(knowledge: Knowledge, number: RuleNumber, game: str | None = None) -> list[Counterpart]:
    """Analogue rules in the other game. A Duel Masters rule gets each Magic rule it was paired with,
    followed through every renumbering; a Magic rule gets the pairings made with any number of its
    chain (509.3f finds Duel Masters 507.2a, paired with 509.4f before the renumberings)."""
    out: list[Counterpart] = []
    lineages = lineages_of(knowledge, "mtg", LANGS_FIRST["mtg"][0])
    for found_game in require_rule(knowledge, number, game):
        if found_game == "dm":
            out += [_counterpart(knowledge, lineages, "dm", str(number), data, data["_mtg"])
                    for data in _analogue_edges(knowledge, "dm", str(number))]
            continue
        if not _may_have_analogues(knowledge, str(number)):
            continue
        chains = [c for era in lineages.eras(str(number)) if (c := lineages.chain(era.number, era.first))]
        numbers = dict.fromkeys(e.number for c in chains for e in c.eras) or {str(number): None}
        for held in numbers:
            for data in _analogue_edges(knowledge, "mtg", held):
                row = _counterpart(knowledge, lineages, "mtg", str(number), data, data["_dm"])
                if (row.chain is None and held == str(number)) or row.chain in chains:
                    out.append(row)
    return sorted(_merged(out), key=lambda r: (r.analogue_game, RuleNumber.parse(r.analogue).sort_key(),
                                               r.mtg_versions))


def _may_have_analogues(knowledge: Knowledge, number: str) -> bool:
    """Whether a Magic number is joined by moves, in any number of steps, to a number a curated
    pairing names: only then can a chain through it find one. A site build asks every Magic rule
    (5,559) for its analogues, and following each one's chains to find the 54 pairings was 2 of
    its 26 s; the numbers reached are found once, walking the moves both ways. True when the
    graph is the store's (its edges are asked node by node, not walked whole)."""
    kept = vars(knowledge)
    if "_analogue_reach" not in kept:
        pairings, moves = kind_edges(knowledge, "analogue"), kind_edges(knowledge, "renumbered")
        if pairings.numbers is None or not isinstance(moves, KindEdges):
            kept["_analogue_reach"] = None
        else:
            joined: dict[str, set[str]] = {}
            for edges in moves.outgoing.values():
                for _, _, data in edges:  # both games' moves: a wider reach is still a sound one
                    joined.setdefault(data["old"], set()).add(data["new"])
                    joined.setdefault(data["new"], set()).add(data["old"])
            reach = {held for game, held in pairings.numbers if game == "mtg"}
            waiting = list(reach)
            while waiting:
                for other in joined.get(waiting.pop(), ()):
                    if other not in reach:
                        reach.add(other)
                        waiting.append(other)
            kept["_analogue_reach"] = reach
    reach = kept["_analogue_reach"]
    return reach is None or number in reach


def _merged(rows: list[Counterpart]) -> list[Counterpart]:
    """One row per pairing: two curated entries of one Duel Masters rule whose Magic rules are one chain
    (506.1a with 308.2a before 2009 and with 508.1a after) are one counterpart, their evidence joined."""
    groups: dict[tuple, list[Counterpart]] = {}
    for row in rows:
        dm = row.number if row.game == "dm" else row.analogue
        key = (row.game, dm, row.dm_scope, row.chain) if row.chain else (row, )
        if row not in groups.get(key, []):
            groups.setdefault(key, []).append(row)
    out = []
    for group in groups.values():
        first = min(group, key=lambda row: row.mtg_versions)  # Magic labels are dates: the oldest pairing
        versions = tuple(dict.fromkeys(v for row in group for v in row.mtg_versions))
        evidence = " / ".join(dict.fromkeys(row.evidence for row in group))
        out.append(Counterpart(first.game, first.number, first.analogue_game, first.analogue, versions, evidence,
                               first.dm_scope, first.chain))
    return out


def _analogue_edges(knowledge: Knowledge, game: str, number: str) -> list[dict]:
    """The curated pairings touching one rule, each with both ends' numbers (``_dm``, ``_mtg``)."""
    graph = knowledge.graph
    node = rule_id(game, RuleNumber.parse(number))
    pairings = kind_edges(knowledge, "analogue")
    edges = pairings.out_edges(node) + pairings.in_edges(node)
    found = []
    for source, target, data in edges:
        if data.get("kind") == "analogue":
            found.append({**data, "_dm": graph.nodes[source]["number"], "_mtg": graph.nodes[target]["number"]})
    return found


def _counterpart(knowledge: Knowledge, lineages: Lineages, game: str, number: str, data: dict,
                 other: str) -> Counterpart:
    magic = data["_mtg"]
    anchor = next((label for label in data["mtg_versions"] if lineages.era_holding(magic, label)), None)
    chain = lineages.chain(magic, anchor) if anchor is not None else None
    return Counterpart(game, number, "mtg" if game == "dm" else "dm", other, tuple(data["mtg_versions"]),
                       data["evidence"], data.get("dm_scope", ""), chain)


__all__ = ["Chain", "Counterpart", "Era", "Lineages", "analogues_of", "chain_steps", "gone_notes", "lineages_of"]
