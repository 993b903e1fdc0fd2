"""Link every judge note of the fixture, per format: notes and kilobytes per second; asset sizes.

Run: .venv/bin/python benchmarks/bench_link.py
"""

from __future__ import annotations

import json
import time
import tomllib
from pathlib import Path

from rules_kb.assemble.knowledge import load_knowledge
from rules_kb.notes.assets import link_grammar
from rules_kb.notes.index import NoteIndex, note_index
from rules_kb.notes.link import link_note
from rules_kb.notes.resolve import LinkOptions

ROOT = Path(__file__).resolve().parent.parent
NOTES = ROOT / "tests" / "fixtures" / "notes"
FORMATS = {".md": "md", ".html": "html", ".txt": "text"}
ROUNDS = 20


def main() -> None:
    knowledge = load_knowledge(ROOT / "corpus", ROOT / "build" / "cache")
    started = time.perf_counter()
    data = note_index(knowledge)
    index = NoteIndex(data)
    print(f"note index: {time.perf_counter() - started:.2f} s, {len(data['versions'])} versions, "
          f"{len(json.dumps(data, ensure_ascii=False, separators=(',', ':')).encode()) / 1024:.0f} KiB as JSON; "
          f"grammar {len(json.dumps(link_grammar(), ensure_ascii=False).encode()) / 1024:.1f} KiB")
    cases = tomllib.loads((NOTES / "cases.toml").read_text(encoding="utf-8"))["case"]
    for fmt in ("md", "html", "text"):
        chosen = [case for case in cases if FORMATS[Path(case["file"]).suffix] == fmt]
        texts = [((NOTES / case["file"]).read_text(encoding="utf-8"), case) for case in chosen]
        size = sum(len(text.encode()) for text, _ in texts)
        started = time.perf_counter()
        links = 0
        for _ in range(ROUNDS):
            for text, case in texts:
                options = LinkOptions("https://rules.example", case.get("game"), case.get("pin"), case.get("as_of"))
                links += link_note(text, fmt, options, index).links
        seconds = time.perf_counter() - started
        print(f"{fmt:5}: {len(texts)} notes x {ROUNDS}: {len(texts) * ROUNDS / seconds:6.0f} notes/s, "
              f"{size * ROUNDS / 1024 / seconds:6.0f} KiB/s, {links // ROUNDS} links per round")


if __name__ == "__main__":
    main()
