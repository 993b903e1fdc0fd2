"""The static JSON API (``docs/url-scheme.md``): files beside the pages, with the CLI's records.

``/api/{game}/versions.json`` indexes the versions. ``/api/{game}/{lang}/{version}.json``
holds one version's rules (``number`` → title, text, examples) for comparisons in the browser
and for programs; to keep the whole history small, every ``KEYFRAME``-th version of a language
is whole and the others hold only what differs from that one (``base``, ``rules``,
``removed``). ``/api/{game}/history/{section}.json`` holds, per number of the section, what
``history --game --json`` prints with consecutive identical texts folded into one record that
lists their versions (as the rule page shows them): one text of the 2001 rules repeated
in a hundred releases was most of the old API's 821 MB.
"""

from __future__ import annotations

from itertools import groupby
from pathlib import Path

from rules_kb import links
from rules_kb.ask.query import history_record
from rules_kb.assemble.knowledge import Knowledge
from rules_kb.games import GAMES, LANGS
from rules_kb.numbers import RuleNumber
from rules_kb.visible import people_json


def _write(docs_dir: Path, root_path: str, record: object) -> None:
    path = docs_dir / root_path.lstrip("/")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(people_json(record, separators=(",", ":")) + "\n", encoding="utf-8")


def versions_record(knowledge: Knowledge, game: str) -> dict:
    catalog = knowledge.catalog
    out = []
    for lang in LANGS:
        for label in catalog.version_labels(game, lang):
            info = catalog.versions[(game, lang, label)]
            count = len(catalog.rules_in(game, lang, label))
            out.append({"lang": lang, "label": label, "date": info.date, "kinds": sorted(info.kinds),
                        "complete": info.complete, "documents": list(info.documents), "rules": count,
                        "page": links.version_page(game, lang, label) if count else None,
                        "api": links.api_version(game, lang, label) if count else None})
    return {"game": game, "versions": out}


KEYFRAME = 8  # every 8th version of a language is written whole; a reader needs at most two files


def version_rules(knowledge: Knowledge, game: str, lang: str, label: str) -> dict[str, dict]:
    """One version's rules, first text per number, in number order."""
    rules = knowledge.catalog.rules_in(game, lang, label)
    return {str(n): {"title": texts[0].title, "text": texts[0].text, "examples": [e.text for e in texts[0].examples]}
            for n, texts in sorted(rules.items())}


def version_record(knowledge: Knowledge, game: str, lang: str, label: str, base: str | None = None) -> dict:
    """One version's rules; with ``base``, only the rules that differ from the base version's
    and the numbers it lacks (``removed``): the base's rules overlaid with these are the version's."""
    rules = version_rules(knowledge, game, lang, label)
    record = {"game": game, "lang": lang, "version": label}
    if base is None:
        return {**record, "rules": rules}
    under = version_rules(knowledge, game, lang, base)
    return {**record, "base": base, "base_api": links.api_version(game, lang, base),
            "rules": {n: r for n, r in rules.items() if under.get(n) != r},
            "removed": [n for n in under if n not in rules]}


def whole_version(record: dict, base: dict | None) -> dict[str, dict]:
    """The rules of a version file, overlaid on its base's (what ``compare.js`` does)."""
    if base is None:
        return record["rules"]
    rules = {n: r for n, r in base["rules"].items() if n not in set(record["removed"])}
    return {**rules, **record["rules"]}


def folded_history(record: dict) -> dict:
    """``history_record`` with each run of identical consecutive texts of a language as one
    record: ``versions`` and ``dates`` list the run, ``documents`` where each text was read.

    A run's lists are gathered as ordered sets and written once it is whole: a Magic rule's run
    is a hundred releases long, and copying its lists at each one was 1.5 of the API's 9 CPU s."""
    folded: list[dict] = []
    keys: list[tuple] = []
    runs: list[tuple[dict, dict, dict]] = []  # each folded record's versions, dates and documents
    for text in record["texts"]:
        key = (text["lang"], text["title"], text["text"], text["examples"], text["truncated"])
        if folded and not text["new_era"] and keys[-1] == key:
            versions, dates, documents = runs[-1]
            versions[text["version"]] = None
            if text["date"]:
                dates[text["date"]] = None
            documents[text["document"]] = None
            continue
        keys.append(key)
        runs.append(({text["version"]: None}, {text["date"]: None} if text["date"] else {}, {text["document"]: None}))
        folded.append({"game": text["game"], "lang": text["lang"], "number": text["number"],
                       "versions": None, "dates": None,  # filled below, in their place among the keys
                       "title": text["title"], "text": text["text"], "examples": text["examples"],
                       "truncated": text["truncated"], "new_era": text["new_era"], "documents": None})
    for entry, (versions, dates, documents) in zip(folded, runs, strict=True):
        entry["versions"], entry["dates"], entry["documents"] = list(versions), list(dates), list(documents)
    return {**record, "texts": folded}


def write_api(knowledge: Knowledge, docs_dir: Path) -> None:
    """Every JSON file of the API, into the generated docs folder."""
    catalog = knowledge.catalog
    for game in GAMES:
        _write(docs_dir, links.api_versions(game), versions_record(knowledge, game))
        numbers: set[RuleNumber] = set()
        for lang in LANGS:
            labels = [label for label in catalog.version_labels(game, lang) if catalog.rules_in(game, lang, label)]
            for i, label in enumerate(labels):
                base = None if i % KEYFRAME == 0 else labels[i - i % KEYFRAME]
                record = version_record(knowledge, game, lang, label, base)
                _write(docs_dir, links.api_version(game, lang, label), record)
                numbers.update(catalog.rules_in(game, lang, label))
        for path, group in groupby(sorted(numbers), key=lambda number: links.api_history(game, number)):
            _write(docs_dir, path, {str(n): folded_history(history_record(knowledge, n, game)) for n in group})
