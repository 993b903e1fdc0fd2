"""The data the compare page reads (``/{game}/compare/``): Python's alignments and token diffs as
JSON, so ``site/assets/compare.js`` shows any two versions as ``rules-kb diff`` does without
aligning, diffing or classing anything itself.

Per game and language, ``/api/{game}/{lang}/compare/index.json`` holds what pairs the rules:

- ``versions``: the labels with rule texts, oldest first, each ``[label, complete]``;
- ``ids``: per version, the text id of each rule (the first version whole, every later one as
  ``[set, dropped]`` against the one before); a text id names one wording as the comparison reads
  it (title and text, examples, cut off or not), so equal ids are unchanged rules;
- ``steps``: the alignment of each two neighbouring complete versions, which the browser follows
  rule by rule from the old version to the new as ``compare.compose`` composes them; a rule kept
  in place with the same words (most of them) is left out and implied, and additions are left out
  (a rule of the new version that no old rule reaches is added);
- ``direct``: the alignment of every pair with a partial version (an excerpt, a change notice),
  which ``diff`` aligns directly, never through a chain;
- ``scope``: the pattern the page's "rules" field is read with (``compare.alignment.SCOPE``);
- ``kinds``: the placements and the row kinds, in ``compare.kinds``' order;
- ``diffs``: each chapter's diff file, by the first text id filed in it.

``/api/{game}/{lang}/compare/{chapter}.json`` holds the token diff of every two texts a comparison
can pair (``old.new`` text ids), filed under the chapter where the old text first appears: its
text class, the ops as lengths (equal, deleted, inserted, … over the comparable texts), the
``changed:`` line ``diff`` prints, the editorial changes, and the examples' diffs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

from rules_kb import links
from rules_kb.assemble.caches import source_hash
from rules_kb.assemble.knowledge import ALIGNING, Knowledge, relevant_forced
from rules_kb.compare.align import align_pair
from rules_kb.compare.alignment import SCOPE, Alignment, Pair, pick_texts
from rules_kb.compare.diff import forget_texts
from rules_kb.compare.kinds import ADDED, IN_PLACE, PLACEMENTS, ROW_KINDS
from rules_kb.compare.memory import AlignmentMemo
from rules_kb.games import GAMES, LANGS
from rules_kb.jsregex import export_pattern
from rules_kb.model import RuleText
from rules_kb.numbers import RuleNumber
from rules_kb.render.compare_diffs import diff_records, read_cache, text_key, write_cache
from rules_kb.visible import people_json


def _write(folder: Path, root_path: str, record: object) -> None:
    path = folder / root_path.lstrip("/")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(people_json(record, separators=(",", ":")) + "\n", encoding="utf-8")


class _Memo(AlignmentMemo):
    """The knowledge's alignments, and the direct alignments of one writer (``word_set`` keeps the
    word sets they share: a partial version is aligned with every other version)."""

    def __init__(self, knowledge: Knowledge) -> None:
        super().__init__()
        self.update(knowledge.alignments)
        self.compositions = knowledge.alignments.compositions


class TextIds:
    """Text ids of one game and language, filed by the chapter where each text first appears."""

    def __init__(self, versions: dict[str, dict[RuleNumber, RuleText]]) -> None:
        first: dict[tuple, tuple[int, int, RuleText]] = {}
        for order, texts in enumerate(versions.values()):
            for number, rule in sorted(texts.items()):
                first.setdefault(text_key(rule), (number.chapter, order * 100_000 + len(first), rule))
        ranked = sorted(first.items(), key=lambda item: item[1][:2])
        self.ids = {key: i for i, (key, _) in enumerate(ranked)}
        self.rules = [rule for _, (_, _, rule) in ranked]
        self.chapters = [chapter for _, (chapter, _, _) in ranked]

    def of(self, rule: RuleText) -> int:
        return self.ids[text_key(rule)]

    def starts(self) -> dict[str, int]:
        """The first id of each chapter's diff file (ids are numbered chapter by chapter)."""
        out: dict[str, int] = {}
        for i, chapter in enumerate(self.chapters):
            out.setdefault(str(chapter), i)
        return out


def _pair_record(pair: Pair) -> list:
    return [pair.kind, str(pair.old_number) if pair.old else None, str(pair.new_number) if pair.new else None,
            round(pair.similarity, 3), int(pair.forced), [str(n) for n in pair.targets]]


def _implied(pair: Pair) -> bool:
    """An addition, or a rule kept in place wholly alike (similarity 1, not forced): the browser
    infers both, the first as a rule no old rule reaches, the second as a number no pair names."""
    return pair.kind == ADDED or (pair.kind == IN_PLACE and pair.similarity == 1.0 and not pair.forced)


def _ids_record(labels: list[str], texts: dict[str, dict[RuleNumber, RuleText]], ids: TextIds) -> list:
    out: list = []
    before: dict[str, int] = {}
    for label in labels:
        now = {str(n): ids.of(rule) for n, rule in sorted(texts[label].items())}
        if not out:
            out.append(now)
        else:
            out.append([{n: i for n, i in now.items() if before.get(n) != i}, [n for n in before if n not in now]])
        before = now
    return out


def _threads(steps: list[Alignment], texts: list[dict[RuleNumber, RuleText]], ids: TextIds) -> Iterator[list[int]]:
    """Each rule's text ids followed step by step from the version it appears in, as long as it
    continues (as ``compose`` follows it); the diffs needed are those of any two texts of one thread."""
    if not texts:
        return
    continued = {number: [ids.of(rule)] for number, rule in texts[0].items()}
    for step, after in zip(steps, texts[1:], strict=True):
        ahead: dict[RuleNumber, list[int]] = {}
        for pair in step.pairs:
            if pair.old is None:
                continue
            thread = continued.pop(pair.old_number)
            if pair.new is None:
                yield thread
            else:
                ahead[pair.new_number] = thread
        yield from continued.values()  # no pair: cannot happen between complete versions
        for number, rule in after.items():
            ahead.setdefault(number, []).append(ids.of(rule))
        continued = ahead
    yield from continued.values()


def _wanted(thread: list[int]) -> Iterator[tuple[int, int]]:
    runs = [i for k, i in enumerate(thread) if k == 0 or thread[k - 1] != i]
    for k, a in enumerate(runs):
        for b in runs[k + 1:]:
            if a != b:
                yield a, b


def write_compare_data(knowledge: Knowledge, folder: Path) -> None:
    """Every game and language's compare data (module docstring), into the built site."""
    memo = _Memo(knowledge)
    for game in GAMES:
        for lang in LANGS:
            labels = [label for label in knowledge.catalog.version_labels(game, lang)
                      if knowledge.catalog.rules_in(game, lang, label)]
            if labels:
                _write_language(knowledge, memo, folder, game, lang, labels)
    forget_texts()


def _aligned(knowledge: Knowledge, memo: AlignmentMemo, game: str, lang: str, old: str, new: str) -> Alignment:
    """Two versions aligned directly, as ``diff`` aligns neighbours and any pair with a partial version."""
    return align_pair(knowledge.catalog, memo, game, lang, old, new,
                      relevant_forced(knowledge.forced, game, lang, old, new))


def _direct(knowledge: Knowledge, memo: AlignmentMemo, game: str, lang: str,
            texts: dict[str, dict[RuleNumber, RuleText]], complete: list[str]) -> dict[str, dict]:
    """``old..new`` → the pairs (``_pair_record``) and notes of every pair with a partial version,
    aligned directly; kept in a cache keyed by both versions' texts and the aligner's code (Magic's
    two partial releases are 233 alignments, ~0.15 s of CPU each)."""
    path, cached = read_cache(f"align-{game}-{lang}", source_hash(ALIGNING), "the compare alignments' cache")
    digests = {label: hashlib.sha256(json.dumps([label in complete, [[str(n), text_key(r)] for n, r in sorted(
        rules.items())]], ensure_ascii=False).encode()).hexdigest() for label, rules in texts.items()}
    labels, out, made = list(texts), {}, False
    for i, old in enumerate(labels):
        for new in labels[i + 1:]:
            if old in complete and new in complete:
                continue
            key, forced = f"{old}..{new}", relevant_forced(knowledge.forced, game, lang, old, new)
            digest = hashlib.sha256(f"{digests[old]} {digests[new]} {forced!r}".encode()).hexdigest()
            found = cached.get(key)
            if not isinstance(found, dict) or found.get("digest") != digest:
                alignment, made = _aligned(knowledge, memo, game, lang, old, new), True
                found = {"digest": digest, "notes": alignment.notes,
                         "pairs": [_pair_record(p) for p in alignment.pairs]}
            out[key] = found
    if made:  # kept with the rest: another corpus (the tests' subset) has other pairs
        write_cache(path, {**cached, **out})
    return out


def _write_language(knowledge: Knowledge, memo: AlignmentMemo, folder: Path, game: str, lang: str,
                    labels: list[str]) -> None:
    catalog = knowledge.catalog
    texts = {label: pick_texts(catalog, game, lang, label) for label in labels}
    ids = TextIds(texts)
    complete = [label for label in labels if catalog.versions[(game, lang, label)].complete]
    steps = [_aligned(knowledge, memo, game, lang, old, new) for old, new in pairwise(complete)]
    direct = _direct(knowledge, memo, game, lang, texts, complete)
    wanted: set[tuple[int, int]] = set()
    for thread in _threads(steps, [texts[label] for label in complete], ids):
        wanted.update(_wanted(thread))
    named = {label: {str(n): rule for n, rule in rules.items()} for label, rules in texts.items()}
    for key, record in direct.items():
        old, new = key.split("..")
        wanted.update((ids.of(named[old][p[1]]), ids.of(named[new][p[2]])) for p in record["pairs"] if p[1] and p[2])
    wanted = sorted((a, b) for a, b in wanted if a != b or ids.rules[a].truncated)
    records = diff_records([(ids.rules[a], ids.rules[b]) for a, b in wanted], game, lang)
    shards: dict[str, dict[str, dict]] = {}
    for (a, b), record in zip(wanted, records, strict=True):
        shards.setdefault(str(ids.chapters[a]), {})[f"{a}.{b}"] = record
    index = {
        "game": game, "lang": lang,
        "versions": [[label, label in complete] for label in labels],
        "ids": _ids_record(labels, texts, ids),
        "steps": [{"old": s.old_version, "new": s.new_version, "notes": s.notes,
                   "pairs": [_pair_record(p) for p in s.pairs if not _implied(p)]} for s in steps],
        "direct": {key: {"notes": record["notes"], "pairs": record["pairs"]} for key, record in direct.items()},
        "scope": export_pattern(SCOPE.pattern, SCOPE.flags, whole=True),
        "kinds": {"placements": PLACEMENTS, "rows": ROW_KINDS},
        "diffs": {str(first): links.api_compare(game, lang, chapter) for chapter, first in ids.starts().items()},
    }
    _write(folder, links.api_compare(game, lang), index)
    for chapter, records in shards.items():
        _write(folder, links.api_compare(game, lang, chapter), records)
