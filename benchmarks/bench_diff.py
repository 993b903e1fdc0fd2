"""Time tokenizing and token-diffing 3,000 Japanese and 3,000 English rule-text pairs.

Pairs come from the real rulebooks: every line over 20 characters of the Duel Masters
Ver.1.48 text and of Magic's 2024-11-08 Comprehensive Rules, paired with a mutated copy of
itself (a word deleted or inserted: a small edit, the common case between versions) and
with the next such line (an unrelated text: the worst case for the matcher). Tokenizing and
diffing are timed apart, then together through ``diff_tokens``; each figure is the best of
three runs.

Run: ``.venv/bin/python benchmarks/bench_diff.py``
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from rules_kb.compare.diff import diff_token_lists, diff_tokens
from rules_kb.ingest.decode import decode_document
from rules_kb.tokens import tokenize

CORPUS = Path(__file__).parent.parent / "corpus"
PAIRS = 3_000
REPEATS = 3
SOURCES = {
    "ja": ("dm/official-rule-text/dm_rule-ja-v1.48.md", ("必ず", "この", "カード")),
    "en": ("mtg/CR-2024-11-08.txt", ("not", "each", "creature")),
}


def build_pairs(lang: str) -> list[tuple[str, str]]:
    """PAIRS (text, mutated text) and (text, next text) pairs, the same on every run."""
    name, words = SOURCES[lang]
    text = decode_document((CORPUS / name).read_bytes(), name).text
    lines = [line.strip() for line in text.split("\n") if len(line.strip()) > 20]
    rng = random.Random(20240101)
    pairs: list[tuple[str, str]] = []
    for line, following in zip(lines, lines[1:] + lines[:1], strict=True):
        pairs.append((line, mutate(line, lang, words, rng)))
        pairs.append((line, following))
    while len(pairs) < PAIRS:  # a short source: go round again
        pairs += pairs[: PAIRS - len(pairs)]
    return pairs[:PAIRS]


def mutate(line: str, lang: str, words: tuple[str, ...], rng: random.Random) -> str:
    """Delete a word or insert one (Japanese: a 2-4 character stretch, having no spaces)."""
    if lang == "en":
        parts = line.split(" ")
        at = rng.randrange(len(parts))
        if rng.random() < 0.5 and len(parts) > 1:
            del parts[at]
        else:
            parts.insert(at, rng.choice(words))
        return " ".join(parts)
    at = rng.randrange(len(line) - 4)
    if rng.random() < 0.5:
        return line[:at] + line[at + rng.randint(2, 4) :]
    return line[:at] + rng.choice(words) + line[at:]


def timed(work: Callable[[], object]) -> tuple[float, object]:
    """Best of REPEATS runs: the machine is shared, and the minimum is the least disturbed."""
    best, result = float("inf"), None
    for _ in range(REPEATS):
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
    return best, result


def report(label: str, seconds: float, pairs: int, chars: int) -> None:
    print(f"  {label:<22} {seconds:7.3f} s  {pairs / seconds:9,.0f} pairs/s  {chars / seconds:11,.0f} chars/s")


def bench(lang: str) -> None:
    pairs = build_pairs(lang)
    chars = sum(len(old) + len(new) for old, new in pairs)
    print(f"{lang}: {len(pairs):,} pairs, {chars:,} characters (both sides)")
    tokenize("準備", lang)  # load the dictionary outside the timings
    seconds, tokens = timed(lambda: [(tokenize(old, lang), tokenize(new, lang)) for old, new in pairs])
    report("tokenize", seconds, len(pairs), chars)
    seconds, diffs = timed(
        lambda: [diff_token_lists(old, new, a, b, lang) for (old, new), (a, b) in zip(pairs, tokens, strict=True)]
    )
    report("diff (tokens given)", seconds, len(pairs), chars)
    seconds, _ = timed(lambda: [diff_tokens(old, new, lang) for old, new in pairs])
    report("diff_tokens (both)", seconds, len(pairs), chars)
    verdicts = Counter(diff.classification for diff in diffs)
    print(f"  verdicts: {dict(sorted(verdicts.items()))}")


def main() -> None:
    start = time.perf_counter()
    tokenize("辞書", "ja")
    print(f"Sudachi dictionary load: {time.perf_counter() - start:.3f} s")
    for lang in SOURCES:
        bench(lang)


if __name__ == "__main__":
    main()
