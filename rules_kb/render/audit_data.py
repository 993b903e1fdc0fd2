"""The link page's audit data: for every text of every rule, what ``rules-kb audit`` says of it.

A text says the same thing in every version of a run of identical texts of its number, so one
verdict serves the run: ``/api/{game}/audit/{section}.json`` holds ``rules``, each number's runs,
``[lang, first version, last version, verdict, lines]``, the lines ``rules-kb audit`` prints under
a citation (without the word diff), and ``order``, each language's versions oldest first, the
order the runs are read in (the link data lists Duel Masters' English versions by date instead).
The page finds the citation's version with the link page's own resolution and shows those lines:
no verdict is computed in the browser.
"""

from __future__ import annotations

import json
from collections import defaultdict
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING

from rules_kb import links
from rules_kb.ask.since import Follower, same_text
from rules_kb.games import GAMES, LANGS
from rules_kb.notes.audit import Finding, judged
from rules_kb.render.audit_text import verdict_lines

if TYPE_CHECKING:
    from rules_kb.assemble.knowledge import Knowledge


def audit_runs(knowledge: Knowledge, game: str) -> dict:
    """number -> its runs of identical texts, oldest first per language, each with its verdict."""
    catalog = knowledge.catalog
    runs: dict = defaultdict(list)
    for lang in LANGS:
        follower = Follower(knowledge, game, lang, whole=True)
        open_runs: dict = {}
        for label in catalog.version_labels(game, lang):
            for number, texts in catalog.rules_in(game, lang, label).items():
                held = open_runs.get(number)
                if held is not None and same_text(held[1], texts[0]):
                    held[0][2] = label
                    continue
                run = [lang, label, label]
                open_runs[number] = (run, texts[0])
                runs[number].append(run)
        for number, rows in runs.items():
            for run in rows:
                if run[0] == lang and len(run) == 3:
                    finding = judged(Finding(0, 0, str(number), str(number), game, run[1], "version", lang=lang,
                                             version=run[1]), follower, number)
                    run.extend([finding.verdict, verdict_lines(finding, word_diff=False)])
    return runs


def write_audit_data(knowledge: Knowledge, docs_dir: Path) -> None:
    """Every section's audit JSON, under ``docs_dir``."""
    for game in GAMES:
        runs = audit_runs(knowledge, game)
        order = {lang: knowledge.catalog.version_labels(game, lang) for lang in LANGS
                 if knowledge.catalog.version_labels(game, lang)}
        for path, group in groupby(sorted(runs), key=lambda number: links.api_audit(game, number)):
            record = {"order": order, "rules": {str(number): runs[number] for number in group}}
            target = docs_dir / path.lstrip("/")  # the site's staging folder: replaced whole, never half-written
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n",
                              encoding="utf-8")
