"""Splits: an old rule nobody continues whose sentences live on in other new rules is ``split``
into them (Magic's 309.3 went into 509.4a and 509.4f in 2009), not removed; or, when all of it
went to one new rule of its section, that rule reworded.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from rules_kb.compare.alignment import Alignment, Pair, placement
from rules_kb.compare.kinds import SPLIT
from rules_kb.compare.similarity import Vectors, comparable_text, content_share, japanese_word_sets, word_set
from rules_kb.compare.thresholds import (
    REWORDED_COVERAGE,
    SPLIT_AWAY_COVERAGE,
    SPLIT_CONTAINMENT,
    SPLIT_COVERAGE,
    SPLIT_ELSEWHERE,
)
from rules_kb.model import RuleText
from rules_kb.numbers import RuleNumber, in_order

_SENTENCE_END = re.compile(r"(?<=[.!?。])\s*(?=\S)")


def sentences(text: str) -> list[str]:
    """A comparable text's sentences, each looked up on its own among the new rules."""
    return _SENTENCE_END.split(text)


def aligning_word_sets(texts: Iterable[RuleText]) -> dict[str, frozenset[str]]:
    """Every word set aligning Japanese ``texts`` asks for, by text: each comparable text's
    (``similarity.japanese_word_sets``) and each of its sentences', in text order."""
    words = japanese_word_sets(texts)
    for sentence in {sentence for text in words for sentence in sentences(text)} - words.keys():
        words[sentence] = word_set(sentence, "ja")
    return dict(sorted(words.items()))


def _held_before(tokens: set[str], weight: float, before: RuleNumber | None, vectors: Vectors,
                 needed: float) -> bool:
    """Whether the rule a target continues already held the sentence: then the sentence did not
    go there (2016's 503.2 "Players may cast spells and activate abilities." is also in 514.3a,
    unchanged since 2015)."""
    if before is None:
        return False
    return math.fsum(vectors.idf.get(t, 0.0) for t in tokens & vectors.old[before]) / weight >= needed


def find_splits(alignment: Alignment, old: dict, new: dict, left: set, right: set, vectors: Vectors) -> None:
    """Old rules nobody continues whose sentences live on in other new rules.

    Each sentence of four or more words is looked up among all new rules; it is found
    when IDF-weighted, at least ``SPLIT_CONTAINMENT`` of its tokens are in one new rule of
    the section the old rule's section became, or ``SPLIT_ELSEWHERE`` in any other section
    (boilerplate such as "Then the active player gets priority" recurs across sections).
    """
    sections = {p.old_number.section: p.new_number.section for p in alignment.pairs
                if p.old is not None and p.new is not None and p.old_number.depth == 0}
    predecessor = {p.new_number: p.old_number for p in alignment.pairs if p.old is not None and p.new is not None}
    for number in in_order(left):
        home = sections.get(number.section, number.section)
        targets: list[RuleNumber] = []
        for sentence in sentences(comparable_text(old[number])):
            tokens = vectors.words_of(sentence)
            if len(tokens) < 4:
                continue
            weight = math.fsum(vectors.idf.get(t, 0.0) for t in tokens)
            rare = sorted(tokens, key=lambda t: (-vectors.idf.get(t, 0.0), t))[:12]
            best, best_key = None, (False, 0.0)
            for candidate in vectors.candidates_for(rare, new):
                score = math.fsum(vectors.idf.get(t, 0.0) for t in tokens & vectors.new[candidate]) / weight
                at_home = candidate.section == home
                needed = SPLIT_CONTAINMENT if at_home else SPLIT_ELSEWHERE
                if score >= needed and (at_home, score) > best_key and not _held_before(
                        tokens, weight, predecessor.get(candidate), vectors, needed):
                    best, best_key = candidate, (at_home, score)
            if best is not None and best not in targets:
                targets.append(best)
        if not targets:
            continue
        coverage = content_share(vectors.old[number], [vectors.new[t] for t in targets], vectors.idf)
        (single,) = targets if len(targets) == 1 else (None,)
        if single in right and single.section == home and coverage >= REWORDED_COVERAGE:
            # All of it went to one new rule that continues nothing else: that rule, reworded.
            left.discard(number)
            right.discard(single)
            alignment.pairs.append(Pair(placement(old[number], new[single]), old[number], new[single], coverage))
        elif coverage >= (SPLIT_COVERAGE if any(t.section == home for t in targets) else SPLIT_AWAY_COVERAGE):
            left.discard(number)
            alignment.pairs.append(Pair(SPLIT, old[number], None, coverage, targets=tuple(targets)))
