"""The static JSON API (DESIGN §4): files beside the pages, with the CLI's ``--json`` records.

``/api/{game}/{lang}/{version}/{rule}.json`` is what ``show --version --json`` prints,
``/api/{game}/rule/{rule}.json`` what ``history --game --json`` prints (both built by the
same functions), ``/api/{game}/versions.json`` indexes the versions, and
``/api/{game}/{lang}/{version}.json`` holds one version's rules for comparisons in the browser.
"""

from __future__ import annotations

import json
from pathlib import Path

from rules_kb import links
from rules_kb.ask.knowledge import Knowledge
from rules_kb.numbers import RuleNumber
from rules_kb.render.textformat import history_record

GAMES = ("dm", "mtg")
LANGS = ("ja", "en")


def _write(docs_dir: Path, root_path: str, record: object) -> None:
    path = docs_dir / root_path.lstrip("/")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


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


def version_record(knowledge: Knowledge, game: str, lang: str, label: str) -> dict:
    """One version's rules, first text per number, for the browser's any-pair comparison."""
    rules = knowledge.catalog.rules_in(game, lang, label)
    return {"game": game, "lang": lang, "version": label,
            "rules": {str(n): {"title": texts[0].title, "text": texts[0].text,
                               "examples": [e.text for e in texts[0].examples]}
                      for n, texts in sorted(rules.items())}}


def write_api(knowledge: Knowledge, docs_dir: Path) -> None:
    """Every JSON file of the API, into the generated docs folder."""
    catalog = knowledge.catalog
    for game in GAMES:
        _write(docs_dir, links.api_versions(game), versions_record(knowledge, game))
        numbers: set[RuleNumber] = set()
        for lang in LANGS:
            for label in catalog.version_labels(game, lang):
                rules = catalog.rules_in(game, lang, label)
                if not rules:
                    continue
                _write(docs_dir, links.api_version(game, lang, label), version_record(knowledge, game, lang, label))
                for number, texts in rules.items():
                    _write(docs_dir, links.api_pinned_rule(game, lang, label, number), [t.to_record() for t in texts])
                numbers.update(rules)
        for number in sorted(numbers):
            _write(docs_dir, links.api_rule(game, number), history_record(knowledge, number, game))
