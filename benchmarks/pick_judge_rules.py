"""Which rules the judge query set (benchmarks/queries/judge.toml) asks about, picked by a rule
stated before any query was written, not by what search misses.

Run: .venv/bin/python benchmarks/pick_judge_rules.py

For each game and language, the newest release's rules (headings included; for the English
Duel Masters excerpts, the newest text of every number any excerpt holds) are listed in
number order and split by chapter (the section's first digit: 1xx, 2xx, ...); of each
chapter every ``STEP``-th rule is picked, starting with the chapter's first. Printed: the
rule and the start of its text, to write a question a judge would ask about it.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules_kb.assemble.knowledge import KnowledgeReport, parse_documents  # noqa: E402
from rules_kb.ingest.corpus import MANIFEST, load_manifest, manifest_entry  # noqa: E402
from rules_kb.kb.catalog import build_catalog  # noqa: E402

NEWEST_MAGIC = "mtg-cr-2026-01-16"
STEP = {("mtg", "en"): 30, ("dm", "ja"): 24, ("dm", "en"): 5}
EXCERPTS = {("dm", "en")}  # the English Duel Masters rules exist only as excerpts of several releases


def picked(catalog, game: str, lang: str) -> list:
    """Every STEP-th rule of each chapter; the newest text of each number (excerpt sets, whose
    releases each hold a few pages, contribute every release)."""
    labels = catalog.version_labels(game, lang)
    newest: dict = {}
    for label in labels if (game, lang) in EXCERPTS else labels[-1:]:
        for number, texts in catalog.rules_in(game, lang, label).items():
            newest[number] = (label, texts[0])
    chapters: dict[str, list] = {}
    for number in sorted(newest):
        chapters.setdefault(str(number)[0], []).append((newest[number][0], number, newest[number][1]))
    return [entry for chapter in sorted(chapters) for entry in chapters[chapter][::STEP[(game, lang)]]]


def main() -> None:
    metas = [m for m in load_manifest(ROOT / "corpus") if m.format != "mtg-cr" or m.id == NEWEST_MAGIC]
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        for entry in (ROOT / "corpus").iterdir():
            if entry.name != MANIFEST:
                (folder / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
        (folder / MANIFEST).write_text("\n".join(manifest_entry(m) for m in metas), encoding="utf-8")
        catalog = build_catalog(parse_documents(folder, None, KnowledgeReport()))
    for game, lang in sorted(STEP):
        for label, number, text in picked(catalog, game, lang):
            body = " ".join(f"{text.title or ''} {text.text}".split())
            print(f"{game}/{lang}/{number}\t{label}\t{body[:230]}")


if __name__ == "__main__":
    main()
