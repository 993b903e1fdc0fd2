"""Rule-text similarity for alignment: IDF-weighted Jaccard over normalised tokens.

Shared rare words ("blockers", "ブロッカー") count for more than "the" or "を"; an inverted
index over the new version's tokens finds the few candidates worth scoring.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from functools import lru_cache
from itertools import chain

from rules_kb.model import RuleText
from rules_kb.numbers import RuleNumber, in_order
from rules_kb.tokens import token_forms

CANDIDATES_PER_RULE = 8


def comparable_text(rule: RuleText) -> str:
    """What similarity is measured on: the title of a heading rule, else its text."""
    return " ".join(part for part in (rule.title, rule.text) if part)


@lru_cache(maxsize=1 << 15)
def word_set(text: str, lang: str) -> frozenset[str]:
    """The normalised words of a comparable text, punctuation left out: what similarity compares.

    Kept per process: aligning each release with the next reads every text twice and most texts in
    dozens of releases (11,370 distinct English texts in 244,550 rows of the whole history), and
    tokenizing them was two thirds of an alignment's CPU."""
    return frozenset(word for _, word in token_forms(text, lang)
                     if word.isalnum() or any(c.isalnum() for c in word))  # most words: the first test


def japanese_word_sets(texts: Iterable[RuleText]) -> dict[str, frozenset[str]]:
    """The word set of every Japanese comparable text among ``texts``, in text order: kept by the
    store and by a knowledge base's snapshot, so that a process reading either aligns Duel Masters'
    Japanese without loading Sudachi's dictionary (160 MB of it resident once used)."""
    return {text: word_set(text, "ja") for text in sorted({comparable_text(t) for t in texts if t.lang == "ja"})}


class Vectors:
    """Token sets with IDF weights for both versions, built once per alignment.

    ``known`` maps comparable texts to word sets already made (the store keeps the Japanese
    ones: Sudachi was two thirds of a Duel Masters ``explain``); other texts are tokenized here.
    """

    def __init__(self, lang: str, old: dict[RuleNumber, RuleText], new: dict[RuleNumber, RuleText],
                 known: Mapping[str, frozenset[str]] | None = None) -> None:
        self.lang, self.known = lang, known or {}
        self.old = {n: self.words_of(comparable_text(r)) for n, r in old.items()}
        self.new = {n: self.words_of(comparable_text(r)) for n, r in new.items()}
        frequency: Counter[str] = Counter(chain.from_iterable((*self.old.values(), *self.new.values())))
        total = len(self.old) + len(self.new) + 1
        self.idf = {token: math.log(total / count) + 0.1 for token, count in frequency.items()}
        # Candidate search works on positions, not RuleNumbers: hashing dataclasses dominated.
        self.new_order = in_order(self.new)
        self.index: dict[str, list[int]] = defaultdict(list)
        for position, number in enumerate(self.new_order):
            for token in self.new[number]:
                self.index[token].append(position)
        # Rarest first, ties by spelling: one sort of the vocabulary, then each bag sorted by rank.
        rank = {token: position for position, token in enumerate(sorted(self.idf, key=lambda t: (-self.idf[t], t)))}
        self.rare = {number: sorted(bag, key=rank.__getitem__)[:12] for number, bag in self.old.items()}

    def words_of(self, text: str) -> frozenset[str]:
        """A text's word set: a known one, else made (a sentence's too: ``compare.splits``)."""
        found = self.known.get(text)
        return found if found is not None else word_set(text, self.lang)

    def similarity(self, old: RuleNumber, new: RuleNumber) -> float:
        a, b = self.old[old], self.new[new]
        if not a and not b:
            return 1.0
        # fsum is exact, so the result cannot depend on set iteration order (hash seed).
        shared = math.fsum(self.idf[t] for t in a & b)
        union = math.fsum(self.idf[t] for t in a | b)
        return shared / union if union else 0.0

    def candidates(self, old: RuleNumber, allowed: set[RuleNumber]) -> list[RuleNumber]:
        """New rules sharing the old rule's rarest tokens: a cheap pre-filter before scoring."""
        return self.candidates_for(self.rare[old], allowed)

    def candidates_for(self, rare: list[str], allowed: set[RuleNumber] | dict) -> list[RuleNumber]:
        hits: Counter[int] = Counter()
        for token in rare:
            hits.update(self.index.get(token, ()))
        # Most shared tokens first, then by position: bucketed by count, each bucket sorted only when
        # reached (a common token puts hundreds of rules in the last bucket, seldom needed).
        buckets: dict[int, list[int]] = defaultdict(list)
        for position, count in hits.items():
            buckets[count].append(position)
        out = []
        for count in sorted(buckets, reverse=True):
            for position in sorted(buckets[count]):
                number = self.new_order[position]
                if number in allowed:
                    out.append(number)
                    if len(out) == CANDIDATES_PER_RULE:
                        return out
        return out


def content_share(old: frozenset[str], targets: list[frozenset[str]], idf: dict[str, float]) -> float:
    """The IDF-weighted share of ``old``'s tokens found in the union of ``targets``."""
    found = frozenset().union(*targets)
    total = math.fsum(idf.get(t, 0.0) for t in old)
    return math.fsum(idf.get(t, 0.0) for t in old & found) / total if total else 1.0
