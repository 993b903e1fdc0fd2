"""Read and parse the three tournament PDFs (MTR, IPG, 競技イベント運営ルール): seconds per document,
PDF to text and text to sections apart, best of five runs.

Run: .venv/bin/python benchmarks/bench_tournament.py
"""

from __future__ import annotations

import time
from pathlib import Path

from rules_kb.ingest.accounting import account
from rules_kb.ingest.documents import read_pdf
from rules_kb.model import DocumentMeta
from rules_kb.sources.registry import get_parser

ROOT = Path(__file__).resolve().parent.parent
SHARED = next((p for p in (ROOT.parent / "shared", ROOT.parent.parent / "shared") if p.is_dir()),
              ROOT.parent / "shared")
DOCUMENTS = (
    ("mtg/MTG_MTR_2025_Apr_21_EN.pdf", "mtg-mtr", "mtg", "en", "2025-04-21"),
    ("mtg/MTG_IPG_2024Sep23_EN.pdf", "mtg-ipg", "mtg", "en", "2024-09-23"),
    ("dm/dm_competition_rule_20250501.pdf", "dm-competition", "dm", "ja", "2025-05-01"),
)
RUNS = 5


def best(action) -> tuple[float, object]:
    times, result = [], None
    for _ in range(RUNS):
        started = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - started)
    return min(times), result


def main() -> None:
    for file, fmt, game, lang, version in DOCUMENTS:
        path = SHARED / "corpus" / "tournament" / file
        data = path.read_bytes()
        meta = DocumentMeta(id=path.stem, file=str(path), sha256="", game=game, languages=(lang,), format=fmt,
                            kind="tournament", versions=(version,))
        read_seconds, extracted = best(lambda data=data, path=path: read_pdf(data, str(path)))
        parser = get_parser(fmt)
        parse_seconds, parsed = best(lambda parser=parser, text=extracted.text, meta=meta: parser(text, meta))
        accounting = account(parsed)
        print(f"{path.name}: {extracted.pages} pages, {len(extracted.text):,} characters; "
              f"read_pdf {read_seconds:.3f} s, "
              f"parse {parse_seconds * 1000:.1f} ms ({len(parsed.sections)} sections, "
              f"{sum(len(s.parts) for s in parsed.sections)} parts, {accounting.percent:.1f}% accounted)")


if __name__ == "__main__":
    main()
