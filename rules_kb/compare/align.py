"""Align two versions of one game and language, rule by rule.

Word similarity, greedy best match and manual overrides, as the best public Magic tool
does it, plus what hierarchy and partial versions need:

1. forced matches from ``corpus/forced-matches.toml`` are taken first;
2. in place, depth by depth: sections by number or title, then each rule at its expected
   number (its parent's new number, so 312.3 follows 312 -> 313) when the texts agree;
3. every remaining old rule is paired greedily, best similarity first, with a remaining
   new rule: a different number makes it a move (renumbered), never delete + add;
4. an old rule nobody continues whose sentences live on elsewhere is ``split``;
5. what is left is removed (old side) or added (new side) — but only when the *other*
   version is complete: a rule absent from an excerpt or a change notice is unknown.

Similarity (``similarity``) is an IDF-weighted Jaccard over normalised tokens (Sudachi for
Japanese). Between distant complete releases, adjacent alignments are composed.
"""

from __future__ import annotations

from rules_kb.compare.alignment import Alignment, Pair, Scope, inside, pair_key, pair_order, pick_texts
from rules_kb.compare.compose import compose, compose_within
from rules_kb.compare.kinds import ADDED, REMOVED
from rules_kb.compare.matching import apply_forced, match_in_place, match_moves, match_rewritten, match_within_sections
from rules_kb.compare.memory import AlignmentMemo
from rules_kb.compare.similarity import Vectors
from rules_kb.compare.splits import find_splits
from rules_kb.ingest.curated import ForcedMatch
from rules_kb.kb.catalog import Catalog
from rules_kb.numbers import in_order


def align_versions(catalog: Catalog, memo: AlignmentMemo, game: str, lang: str, old_label: str, new_label: str,
                   forced: list[ForcedMatch] = (), within: Scope | None = None) -> Alignment:
    """Pair the rules of two versions; ``within`` limits what is reported, not what is paired.

    The whole versions are always aligned, so a rule moved into or out of the scope is still
    seen as a move rather than an addition or a removal. Between two complete versions with
    complete versions in between, the adjacent alignments are composed (a rule is followed
    release by release), since sixteen years of rewording defeat any direct text similarity.
    ``memo`` holds the alignments made before (and receives the new ones).
    """
    chain = complete_chain(catalog, game, lang, old_label, new_label)
    alignment = None
    if within is not None and len(chain) == 2:
        alignment = memo.within(pair_key(game, lang, old_label, new_label, tuple(forced)), within.bounds(),
                                within.part())
    elif within is not None:
        alignment = compose_within(memo.pairs_under, game, lang, chain, tuple(forced), within)
    if alignment is None:
        alignment = chain_alignment(catalog, memo, game, lang, tuple(chain), tuple(forced))
    alignment = Alignment(alignment.game, alignment.lang, alignment.old_version, alignment.new_version,
                          alignment.old_complete, alignment.new_complete, list(alignment.pairs),
                          list(alignment.unknown_old), list(alignment.unknown_new), list(alignment.notes))
    if within is not None:
        alignment.pairs = [p for p in alignment.pairs if inside(p, within)]
        alignment.unknown_old = [n for n in alignment.unknown_old if within.contains(n)]
        alignment.unknown_new = [n for n in alignment.unknown_new if within.contains(n)]
    alignment.pairs.sort(key=pair_order)
    return alignment


def chain_alignment(catalog: Catalog, memo: AlignmentMemo, game: str, lang: str, chain: tuple[str, ...],
                    forced: tuple[ForcedMatch, ...]) -> Alignment:
    """The first and last versions of ``chain`` aligned: its first step, composed with the
    alignment of the rest of the chain (memoised). Comparing every release with the newest then
    composes once per release, not once per release and step in between."""
    first = align_pair(catalog, memo, game, lang, chain[0], chain[1], forced)
    if len(chain) == 2:
        return first
    key = (game, lang, chain, forced)
    compositions = memo.compositions
    if key not in compositions:
        compositions[key] = compose([first, chain_alignment(catalog, memo, game, lang, chain[1:], forced)])
    return compositions[key]


def complete_chain(catalog: Catalog, game: str, lang: str, old_label: str, new_label: str) -> list[str]:
    """``[old, …, new]``: the complete versions between two complete versions, else just the two."""
    info = catalog.versions
    if not (info[(game, lang, old_label)].complete and info[(game, lang, new_label)].complete):
        return [old_label, new_label]
    labels = catalog.version_labels(game, lang)
    start, end = labels.index(old_label), labels.index(new_label)
    if start > end:
        return [old_label, new_label]
    return [label for label in labels[start:end + 1]
            if info[(game, lang, label)].complete and catalog.rules_in(game, lang, label)]


def align_pair(catalog: Catalog, memo: AlignmentMemo, game: str, lang: str, old_label: str, new_label: str,
               forced: tuple[ForcedMatch, ...]) -> Alignment:
    key = pair_key(game, lang, old_label, new_label, forced)
    relevant = key[4]
    cached = memo.get(key)
    if cached is not None:
        return cached
    old = pick_texts(catalog, game, lang, old_label)
    new = pick_texts(catalog, game, lang, new_label)
    alignment = Alignment(game, lang, old_label, new_label,
                          catalog.versions[(game, lang, old_label)].complete,
                          catalog.versions[(game, lang, new_label)].complete)
    vectors = Vectors(lang, old, new, memo.word_sets(lang))
    left, right = set(old), set(new)
    automatic = align_pair(catalog, memo, game, lang, old_label, new_label, ()) if relevant else None
    apply_forced(alignment, list(relevant), old, new, left, right, vectors, automatic)
    match_in_place(alignment, old, new, left, right, vectors)
    match_moves(alignment, old, new, left, right, vectors)
    match_rewritten(alignment, old, new, left, right, vectors)
    match_within_sections(alignment, old, new, left, right, vectors)
    if alignment.new_complete:
        find_splits(alignment, old, new, left, right, vectors)
    for number in in_order(left):
        if alignment.new_complete:
            alignment.pairs.append(Pair(REMOVED, old[number], None, 0.0))
        else:
            alignment.unknown_old.append(number)
    for number in in_order(right):
        if alignment.old_complete:
            alignment.pairs.append(Pair(ADDED, None, new[number], 0.0))
        else:
            alignment.unknown_new.append(number)
    alignment.pairs.sort(key=pair_order)
    memo[key] = alignment
    return alignment
