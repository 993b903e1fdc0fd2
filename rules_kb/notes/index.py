"""What the note linker knows about the rules: which numbers exist in which version, and when.

This is the one place the linker reads the knowledge base. It flattens the catalog into plain
JSON-able data, so that the command and the site's link page decide with the very same facts
(the page receives this dict as a generated asset), and so that a SQLite store can replace
the in-memory catalog later by changing ``note_index`` alone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from rules_kb.assemble.caches import CacheDamaged, Step, quietly, read_cache_file, warn_rebuilt, write_cache_file
from rules_kb.assemble.knowledge import Knowledge, cache_key
from rules_kb.assemble.stored import open_store
from rules_kb.games import GAME_SHORT_NAMES, LANGS_FIRST
from rules_kb.ingest.corpus import load_manifest, read_document_bytes
from rules_kb.kb.catalog import BEFORE, VersionInfo
from rules_kb.links import PROBE, pinned_rule, rule_page, url_template
from rules_kb.notes.sections import section_index

# The language a game's rules are published in comes first: a pinned link prefers it.
# A number that no label or section can contain; replaced by placeholders in URL templates.


def note_index(knowledge: Knowledge) -> dict:
    """Every game's numbers and every version holding rule texts, with URL templates."""
    catalog = knowledge.catalog
    games: dict[str, dict] = {}
    for game in sorted({key[0] for key in catalog.texts}):
        numbers = [str(number) for number in catalog.numbers_of(game)]
        games[game] = {"numbers": numbers, "rule_page": url_template(rule_page(game, PROBE))}
    positions = {game: {number: i for i, number in enumerate(row["numbers"])} for game, row in games.items()}
    versions = []
    infos = sorted(catalog.versions.values(), key=lambda v: (v.game, LANGS_FIRST[v.game].index(v.lang), v.sort_key()))
    for info in infos:
        rules = _numbers_in(catalog, info)
        if not rules:
            continue
        position = positions[info.game]
        versions.append({
            "game": info.game,
            "lang": info.lang,
            "label": info.label,
            "date": info.date,
            "until": _until(info),
            "complete": info.complete,
            "pinned": url_template(pinned_rule(info.game, info.lang, info.label, PROBE)),
            "numbers": sorted(position[str(number)] for number in rules),
        })
    return {"games": games, "versions": versions, "languages": LANGS_FIRST, "names": GAME_SHORT_NAMES,
            "sections": section_index(catalog.sections)}


def _numbers_in(catalog, info: VersionInfo) -> list[str] | dict:
    """The numbers of one version; from the store's index when the catalog is the store's (no text is read)."""
    store = getattr(catalog, "store", None)
    if store is None:
        return catalog.rules_in(info.game, info.lang, info.label)
    if not catalog.rules_in(info.game, info.lang, info.label):
        return []
    return store.values("SELECT DISTINCT number FROM rule_texts WHERE game=? AND lang=? AND version=?",
                        (info.game, info.lang, info.label))


def cached_note_index(corpus: Path, cache_dir: Path, step: Step = quietly) -> dict:
    """``note_index`` of the corpus, kept as JSON beside the knowledge cache.

    Loading the whole knowledge base costs seconds (42 s and 1.27 GB at full history); the linker
    needs only this small index, read from the knowledge store's indexes (built when absent).
    JSON (never a pickle) under the same key as the knowledge cache, read by the cache rule
    (``caches.read_cache_file``), and the documents' sha256 are checked as for that cache.
    """
    path = cache_dir / f"note-index-{cache_key(corpus)}.json"
    try:
        cached = read_cache_file(path)
    except CacheDamaged as exc:
        warn_rebuilt([str(exc)], "the note index")
        cached = None
    if isinstance(cached, dict) and _is_note_index(cached):
        for meta in load_manifest(corpus):
            read_document_bytes(corpus, meta)
        return cached
    if cached is not None:
        warn_rebuilt([f"{path}: not a note index"], "the note index")
    data = note_index(open_store(corpus, cache_dir, step=step))  # the store `make build` made: no parse, no graph held
    if write_cache_file(path, json.dumps(data, ensure_ascii=False)):
        for stale in cache_dir.glob("note-index-*.json"):
            if stale != path:
                stale.unlink(missing_ok=True)
    return data


def _is_note_index(data: dict) -> bool:
    """The shape ``NoteIndex`` reads (a sealed file has the bytes written; this guards the code that
    wrote them being another version's)."""
    return (isinstance(data.get("games"), dict) and isinstance(data.get("versions"), list)
            and all(isinstance(row, dict) for row in data["versions"]))


def _until(info: VersionInfo) -> str | None:
    """A change notice's ``before-DATE`` text was in force until DATE; when it began is unknown."""
    return info.label[len(BEFORE):] if info.label.startswith(BEFORE) else None


@dataclass(frozen=True)
class NoteVersion:
    game: str
    lang: str
    label: str
    date: str | None
    until: str | None
    complete: bool
    pinned: str
    numbers: frozenset[str]


class NoteIndex:
    """Lookups over the data of ``note_index``."""

    def __init__(self, data: dict) -> None:
        self.data = data
        self.versions = []
        for row in data["versions"]:
            names = data["games"][row["game"]]["numbers"]
            numbers = frozenset(names[index] for index in row["numbers"])
            self.versions.append(NoteVersion(row["game"], row["lang"], row["label"], row["date"], row["until"],
                                             row["complete"], row["pinned"], numbers))

    @cached_property
    def numbers(self) -> dict[str, frozenset[str]]:
        return {game: frozenset(row["numbers"]) for game, row in self.data["games"].items()}

    def games(self) -> list[str]:
        return list(self.data["games"])

    def of_game(self, game: str) -> list[NoteVersion]:
        return [version for version in self.versions if version.game == game]
