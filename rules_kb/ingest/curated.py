"""Curated data written by the project (not by the sources): analogues, terms, forced matches,
cross-era correspondences (what ``explain`` tells of a rule rewritten under another number).

Each file lives in ``corpus/`` as TOML, each entry with an ``evidence`` line saying what in
the sources supports it. Loading checks shape; the graph and the aligner check that the
rule numbers named actually exist and report the ones that do not.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from rules_kb.errors import MalformedRuleNumber, ManifestError
from rules_kb.ingest.corpus import read_toml
from rules_kb.numbers import RuleNumber

ANALOGUES = "analogues.toml"
TERMS = "terms.toml"
FORCED_MATCHES = "forced-matches.toml"
CORRESPONDENCES = "correspondences.toml"
SECTION_ANALOGUES = "tournament-analogues.toml"
SECTION_RELATIONS = ("same", "partial", "dm-only", "ipg-only")


@dataclass(frozen=True)
class Analogue:
    """A Duel Masters rule modelled on a Magic rule (in one numbering era of Magic)."""

    dm: RuleNumber
    mtg: RuleNumber
    mtg_versions: tuple[str, ...]
    evidence: str
    dm_scope: str = ""  # which Duel Masters texts carry the pairing (a language, versions)


@dataclass(frozen=True)
class CuratedTerm:
    """A defined term of a game in one language, and the rule that defines it."""

    game: str
    lang: str
    term: str
    defined_by: RuleNumber
    since: str | None
    translation: str | None
    evidence: str


@dataclass(frozen=True)
class ForcedMatch:
    """An alignment pair a person verified, overriding automatic pairing."""

    game: str
    lang: str
    old_version: str
    new_version: str
    old: RuleNumber | None
    new: RuleNumber | None
    evidence: str


@dataclass(frozen=True)
class Correspondence:
    """A rule of one era that a person read as the same rule as another era's, and why."""

    game: str
    change: str
    old: tuple[str, str, RuleNumber]  # lang, version, number
    new: tuple[str, str, RuleNumber]
    meaning: str
    evidence: str


def _number(path: Path, index: int, raw: str | None) -> RuleNumber | None:
    if raw in (None, ""):
        return None
    try:
        return RuleNumber.parse(raw)
    except MalformedRuleNumber as exc:
        raise ManifestError(str(path), f"entry {index}: {exc}") from None


def _entries(path: Path, table: str, keys: tuple[str, ...]) -> Iterator[tuple[int, dict]]:
    """The ``[[table]]`` entries of a curated file, each checked to hold ``keys``."""
    for index, entry in enumerate(read_toml(path).get(table, [])):
        missing = [k for k in keys if k not in entry]
        if missing:
            raise ManifestError(str(path), f"entry {index}: missing {', '.join(missing)}")
        yield index, entry


def load_analogues(corpus: Path) -> list[Analogue]:
    path = corpus / ANALOGUES
    return [Analogue(_number(path, i, entry["dm"]), _number(path, i, entry["mtg"]),
                     tuple(entry["mtg_versions"]), entry["evidence"], entry.get("dm_scope", ""))
            for i, entry in _entries(path, "analogue", ("dm", "mtg", "mtg_versions", "evidence"))]


@dataclass(frozen=True)
class SectionAnalogue:
    """A section of Duel Masters' penalty guideline and the IPG section it was modelled on; one side
    is empty for an infraction only one game has. ``differs`` says what is not the same."""

    dm: str
    mtg_document: str
    mtg: str
    relation: str
    evidence: str
    differs: str


def load_section_analogues(corpus: Path) -> list[SectionAnalogue]:
    """``corpus/tournament-analogues.toml``: ``mtg = "ipg:2.1"`` names the document and the section."""
    path = corpus / SECTION_ANALOGUES
    out = []
    for i, entry in _entries(path, "analogue", ("dm", "mtg", "relation", "evidence")):
        document, _, number = str(entry["mtg"]).rpartition(":")
        relation = entry["relation"]
        if relation not in SECTION_RELATIONS or (not entry["dm"] and not number) or (number and not document):
            raise ManifestError(str(path), f"entry {i}: needs dm or mtg (as document:number) and a relation "
                                           f"among {', '.join(SECTION_RELATIONS)}")
        out.append(SectionAnalogue(str(entry["dm"]), document, number, relation, entry["evidence"],
                                   entry.get("differs", "")))
    return out


def load_terms(corpus: Path) -> list[CuratedTerm]:
    path = corpus / TERMS
    return [CuratedTerm(entry["game"], entry["lang"], entry["term"], _number(path, i, entry["defined_by"]),
                        entry.get("since"), entry.get("translation"), entry["evidence"])
            for i, entry in _entries(path, "term", ("game", "lang", "term", "defined_by", "evidence"))]


def load_forced_matches(corpus: Path) -> list[ForcedMatch]:
    path = corpus / FORCED_MATCHES
    result = []
    for i, entry in _entries(path, "match", ("game", "lang", "old_version", "new_version", "evidence")):
        if entry.get("old") in (None, "") and entry.get("new") in (None, ""):
            raise ManifestError(str(path), f"entry {i}: a match needs old, new or both")
        result.append(ForcedMatch(entry["game"], entry["lang"], entry["old_version"], entry["new_version"],
                                  _number(path, i, entry.get("old")), _number(path, i, entry.get("new")),
                                  entry["evidence"]))
    return result


def load_correspondences(corpus: Path) -> list[Correspondence]:
    entries = read_toml(corpus / CORRESPONDENCES).get("correspondence", [])
    out = []
    for entry in entries:
        old, new = entry["old"], entry["new"]
        out.append(Correspondence(
            entry["game"], entry["change"],
            (old["lang"], old["version"], RuleNumber.parse(old["number"])),
            (new["lang"], new["version"], RuleNumber.parse(new["number"])),
            entry["meaning"], entry["evidence"]))
    return out
