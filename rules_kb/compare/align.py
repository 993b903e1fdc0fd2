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

import math
import re
from dataclasses import dataclass, field
from itertools import pairwise

from rules_kb.compare.kinds import ADDED, IN_PLACE, MOVED, PLACEMENTS, REMOVED, SPLIT, count_kinds
from rules_kb.compare.memory import AlignmentMemo
from rules_kb.compare.similarity import Vectors, comparable_text
from rules_kb.ingest.curated import ForcedMatch
from rules_kb.kb.catalog import Catalog
from rules_kb.model import RuleText
from rules_kb.numbers import RuleNumber
from rules_kb.tokens import tokenize

SAME_NUMBER_THRESHOLD = 0.5
REWRITTEN_THRESHOLD = 0.2
MOVE_THRESHOLD = 0.45


@dataclass(frozen=True)
class Pair:
    """One row of an alignment. ``kind`` is a placement (``compare.kinds``): in-place, moved,
    split, added, removed; what happened to the text is the comparison's business.

    ``split``: no rule continues the old one as such (none was paired with it), but its
    sentences are found in ``targets``, rules that continue other rules or are new (Magic's
    309.3 went into 509.4a and 509.4f in 2009); not a deletion.
    """

    kind: str
    old: RuleText | None
    new: RuleText | None
    similarity: float
    forced: bool = False
    targets: tuple[RuleNumber, ...] = ()

    @property
    def old_number(self) -> RuleNumber | None:
        return self.old.number if self.old else None

    @property
    def new_number(self) -> RuleNumber | None:
        return self.new.number if self.new else None


@dataclass
class Alignment:
    game: str
    lang: str
    old_version: str
    new_version: str
    old_complete: bool
    new_complete: bool
    pairs: list[Pair] = field(default_factory=list)
    unknown_old: list[RuleNumber] = field(default_factory=list)
    unknown_new: list[RuleNumber] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return count_kinds((p.kind for p in self.pairs), PLACEMENTS)

    def pair_for_old(self, number: RuleNumber) -> Pair | None:
        return next((p for p in self.pairs if p.old_number == number), None)


def pick_texts(catalog: Catalog, game: str, lang: str, label: str) -> dict[RuleNumber, RuleText]:
    """One text per number: the first document listed for the version (manifest order)."""
    return {number: rules[0] for number, rules in catalog.rules_in(game, lang, label).items()}


@dataclass(frozen=True)
class Scope:
    """Which rules a comparison reports: one rule and its subrules, one chapter, or all."""

    rule: RuleNumber | None = None
    chapter: int | None = None

    def contains(self, number: RuleNumber) -> bool:
        if self.chapter is not None and number.chapter != self.chapter:
            return False
        return self.rule is None or _descends(number, self.rule)

    def bounds(self) -> tuple[str, str]:
        """Bounds of the number strings the scope can hold (``low <= number < high``; more may
        fall between, 702.20 between 702.2 and 702.2~, and are filtered by ``contains``): a
        question about one rule reads only its stretch of the store's number index."""
        if self.rule is not None:
            top = self.rule if self.rule.depth < 2 else self.rule.parent
            prefix = f"{top.section:03d}" if top.depth == 0 else f"{top.section:03d}.{top.rule}"
            return (prefix, prefix + "~")  # "~" sorts after every letter, digit and ".
        if self.chapter is not None:  # chapter 9: "900" up to "9~" (not "1000", which sorts before "900")
            return (f"{self.chapter * 100:03d}", f"{self.chapter}~")
        return ("", "~")

    def part(self) -> str | None:
        """The one alignment part every pair of the scope is filed under (the store cuts alignments by
        rule: ``store.records.part_of``): 702.2 for 702.2 or 702.2c; None for a section or more.
        Reading it alone skips 702.20-702.29, which the bounds take in."""
        if self.rule is None or self.rule.depth == 0:
            return None
        top = self.rule if self.rule.depth < 2 else self.rule.parent
        return f"{top.section:03d}.{top.rule}"

    def describe(self) -> str:
        if self.rule is not None:
            return f"rule {self.rule}"
        return f"section {self.chapter}" if self.chapter is not None else "all rules"


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
        alignment = memo.within(_pair_key(game, lang, old_label, new_label, tuple(forced)), within.bounds(),
                                within.part())
    elif within is not None:
        alignment = _compose_within(memo.pairs_under, game, lang, chain, tuple(forced), within)
    if alignment is None:
        alignment = chain_alignment(catalog, memo, game, lang, tuple(chain), tuple(forced))
    alignment = Alignment(alignment.game, alignment.lang, alignment.old_version, alignment.new_version,
                          alignment.old_complete, alignment.new_complete, list(alignment.pairs),
                          list(alignment.unknown_old), list(alignment.unknown_new), list(alignment.notes))
    if within is not None:
        alignment.pairs = [p for p in alignment.pairs if _inside(p, within)]
        alignment.unknown_old = [n for n in alignment.unknown_old if within.contains(n)]
        alignment.unknown_new = [n for n in alignment.unknown_new if within.contains(n)]
    alignment.pairs.sort(key=_pair_order)
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
        compositions[key] = _compose([first, chain_alignment(catalog, memo, game, lang, chain[1:], forced)])
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


def _pair_key(game: str, lang: str, old_label: str, new_label: str, forced: tuple[ForcedMatch, ...]) -> tuple:
    """The key of an adjacent alignment: its versions and the forced matches that concern them."""
    relevant = tuple(m for m in forced if (m.game, m.lang, m.old_version, m.new_version) ==
                     (game, lang, old_label, new_label))
    return (game, lang, old_label, new_label, relevant)


def align_pair(catalog: Catalog, memo: AlignmentMemo, game: str, lang: str, old_label: str, new_label: str,
               forced: tuple[ForcedMatch, ...]) -> Alignment:
    key = _pair_key(game, lang, old_label, new_label, forced)
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
    _apply_forced(alignment, list(relevant), old, new, left, right, vectors, automatic)
    _match_in_place(alignment, old, new, left, right, vectors)
    _match_moves(alignment, old, new, left, right, vectors)
    _match_rewritten(alignment, old, new, left, right, vectors)
    _match_within_sections(alignment, old, new, left, right, vectors)
    if alignment.new_complete:
        _find_splits(alignment, old, new, left, right, vectors, lang)
    for number in sorted(left):
        if alignment.new_complete:
            alignment.pairs.append(Pair(REMOVED, old[number], None, 0.0))
        else:
            alignment.unknown_old.append(number)
    for number in sorted(right):
        if alignment.old_complete:
            alignment.pairs.append(Pair(ADDED, None, new[number], 0.0))
        else:
            alignment.unknown_new.append(number)
    alignment.pairs.sort(key=_pair_order)
    memo[key] = alignment
    return alignment


def _compose(steps: list[Alignment]) -> Alignment:
    """Follow every rule of the first version through each step to the last version."""
    first, last = steps[0], steps[-1]
    result = Alignment(first.game, first.lang, first.old_version, last.new_version, True, True)
    forward = [{p.old_number: p for p in step.pairs if p.old is not None} for step in steps]
    reached: set[RuleNumber] = set()
    for start in first.pairs:
        if start.old is None:
            continue
        pair, similarity, forced = start, start.similarity, start.forced
        for mapping in forward[1:]:
            if pair.new is None:
                break
            pair = mapping[pair.new_number]
            similarity = min(similarity, pair.similarity)
            forced = forced or pair.forced
        if pair.new is None:  # removed, or split at some step: follow its targets to the last version
            step = next(i for i, mapping in enumerate(forward) if mapping.get(pair.old_number) is pair)
            targets = _follow(pair.targets, forward[step + 1:])
            kind = pair.kind if targets or pair.kind == REMOVED else REMOVED
            result.pairs.append(Pair(kind, start.old, None, pair.similarity, forced, targets))
            continue
        reached.add(pair.new_number)
        kind = _placement(start.old, pair.new)
        result.pairs.append(Pair(kind, start.old, pair.new, similarity, forced))
    for pair in last.pairs:
        if pair.new is not None and pair.new_number not in reached:
            result.pairs.append(Pair(ADDED, None, pair.new, 0.0))
    result.notes = sorted({note for step in steps for note in step.notes})
    return result


def _compose_within(read, game: str, lang: str, chain: list[str], forced: tuple[ForcedMatch, ...],
                    within: Scope) -> Alignment | None:
    """``_compose`` of a long chain, reading only the pairs on the paths into and out of the scope.

    ``read(key, bounds, numbers)`` gives a stored step's pairs under the scope's bounds or under the
    rules of ``numbers``, by their place in the whole step, and the step's notes (None when the step
    is not stored). Every
    path that ends in the scope is walked back first, then every path that starts in it (or on those
    paths) is walked forward, so each rule followed finds its pair at each step; the pairs that touch
    the scope come out as the whole composition's (``test_compose`` compares them). Thirty-one steps
    of section 5 read ~5% of what the whole alignments hold.
    """
    keys = [_pair_key(game, lang, old, new, forced) for old, new in pairwise(chain)]
    bounds = within.bounds()
    loaded: list[dict[int, Pair]] = []
    notes: list[list[str]] = []
    asked: list[set[RuleNumber]] = [set() for _ in keys]
    for key in keys:
        found = read(key, bounds, ())
        if found is None:
            return None
        loaded.append(found[0])
        notes.append(found[1])

    def load(step: int, numbers: set[RuleNumber]) -> None:
        missing = numbers - asked[step]
        asked[step] |= missing
        if missing:
            loaded[step].update(read(keys[step], None, missing)[0])

    wanted = {p.new_number for p in loaded[-1].values() if p.new is not None and within.contains(p.new_number)}
    for step in reversed(range(len(keys))):  # back from the scope's rules in the last version
        load(step, wanted)
        wanted = {p.old_number for p in loaded[step].values()
                  if p.old is not None and p.new is not None and p.new_number in wanted}
    followed = {p.old_number for p in loaded[0].values() if p.old is not None}
    starts = set(followed)
    for step in range(len(keys)):  # forward from every rule of the first version read so far
        load(step, followed)
        ahead: set[RuleNumber] = set()
        for pair in loaded[step].values():
            if pair.old is not None and pair.old_number in followed:
                ahead.update((pair.new_number,) if pair.new is not None else pair.targets)
        followed = ahead
    steps = []
    for step, (key, pairs, said) in enumerate(zip(keys, loaded, notes, strict=True)):
        kept = [pairs[i] for i in sorted(pairs)]
        if step == 0:  # a start read only in passing (another rule's part) is not followed: left out
            kept = [p for p in kept if p.old is None or p.old_number in starts]
        steps.append(Alignment(game, lang, key[2], key[3], True, True, kept, notes=said))
    return _compose(steps)


def _follow(numbers: tuple[RuleNumber, ...], later: list[dict]) -> tuple[RuleNumber, ...]:
    """Where rules of an intermediate release ended up in the last one (split targets included)."""
    current = list(numbers)
    for mapping in later:
        moved: list[RuleNumber] = []
        for number in current:
            pair = mapping.get(number)
            if pair is None:
                continue
            for target in ([pair.new_number] if pair.new is not None else list(pair.targets)):
                if target not in moved:
                    moved.append(target)
        current = moved
    return tuple(current)


def _descends(number: RuleNumber, root: RuleNumber) -> bool:
    if number.section != root.section:  # most numbers asked about are in another section: no walk
        return False
    while number is not None:
        if number == root:
            return True
        number = number.parent
    return False


def _inside(pair: Pair, scope: Scope) -> bool:
    return any(n is not None and scope.contains(n) for n in (pair.old_number, pair.new_number))


def _pair_order(pair: Pair) -> tuple:
    number = pair.old_number or pair.new_number
    return (number.sort_key(), pair.new_number.sort_key() if pair.new_number else (0, 0, ""))


def _placement(old: RuleText, new: RuleText) -> str:
    return IN_PLACE if old.number == new.number else MOVED


def _apply_forced(alignment: Alignment, forced: list[ForcedMatch], old: dict, new: dict,
                  left: set, right: set, vectors: Vectors, automatic: Alignment | None) -> None:
    """Take the forced matches for this pair of versions first; say which ones were not needed."""
    for match in forced:
        if (match.game, match.lang, match.old_version, match.new_version) != (
                alignment.game, alignment.lang, alignment.old_version, alignment.new_version):
            continue
        if (match.old is not None and match.old not in old) or (match.new is not None and match.new not in new):
            alignment.notes.append(f"forced match {match.old} -> {match.new} names a rule missing from the versions")
            continue
        if match.old is None or match.new is None:
            continue
        if match.old not in left or match.new not in right:
            alignment.notes.append(f"forced match {match.old} -> {match.new} conflicts with an earlier forced match")
            continue
        similarity = vectors.similarity(match.old, match.new)
        if automatic is not None:
            found = automatic.pair_for_old(match.old)
            if found is not None and found.new_number == match.new:
                alignment.notes.append(
                    f"forced match {match.old} -> {match.new} changes nothing (paired automatically)")
        left.discard(match.old)
        right.discard(match.new)
        kind = _placement(old[match.old], new[match.new])
        alignment.pairs.append(Pair(kind, old[match.old], new[match.new], similarity, forced=True))


def _expected_number(number: RuleNumber, mapped: dict[RuleNumber, RuleNumber]) -> RuleNumber:
    """Where a rule should be if it followed its parent: 312.3 under 312 -> 313 is 313.3."""
    parent = number.parent
    target = mapped.get(parent) if parent is not None else None
    if target is None:
        return number
    if number.letter is not None:
        return RuleNumber(target.section, target.rule, number.letter) if target.rule is not None else number
    return RuleNumber(target.section, number.rule)


def _match_in_place(alignment: Alignment, old: dict, new: dict, left: set, right: set,
                    vectors: Vectors) -> None:
    """Pair each rule with its expected number, depth by depth, when the texts agree.

    Sections first (a section renumbered as a whole, 312 Vanguards -> 313, is found by its
    title), then rules under their parent's new number, then subrules under their rule's. So
    templated siblings ("Vanguard cards have no subtypes." / "Phenomenon cards …") follow
    their own section instead of pairing with whatever now holds their old number.
    """
    mapped = _mapping(alignment)
    verbatim = _verbatim_elsewhere(old, new)

    def agree(number: RuleNumber, target: RuleNumber, similarity: float) -> bool:
        if comparable_text(old[number]) == comparable_text(new[target]):
            return True
        return similarity >= SAME_NUMBER_THRESHOLD and not verbatim(number, target)

    for depth in (0, 1, 2):
        _place_at_expected(alignment, old, new, left, right, vectors, depth, mapped, agree)
        if depth == 0:
            # Sections renumbered as a whole are found by their titles before their rules are placed.
            _match_moves(alignment, old, new, left, right, vectors, only_depth=0)
            mapped.update(_mapping(alignment))


def _verbatim_elsewhere(old: dict, new: dict):
    """A test: does either text of a same-number pair stand word for word, once, at another number
    of the other version? Then that is where it went, and the similar text at its number is
    another rule: 2017 dropped 704.5j (planeswalker uniqueness) and the legend rule moved from
    704.5k to 704.5j unchanged; the two legend-shaped texts at 704.5j are 0.6 alike."""
    old_at: dict[str, list[RuleNumber]] = {}
    new_at: dict[str, list[RuleNumber]] = {}
    for number, text in old.items():
        old_at.setdefault(comparable_text(text), []).append(number)
    for number, text in new.items():
        new_at.setdefault(comparable_text(text), []).append(number)

    def elsewhere(text: str, number: RuleNumber, found: dict[str, list[RuleNumber]], own: dict) -> bool:
        there = found.get(text, [])
        return (len(text) > HEADING_LENGTH and len(there) == 1 and len(own.get(text, [])) == 1
                and there[0] != number)

    def verbatim(number: RuleNumber, target: RuleNumber) -> bool:
        return (elsewhere(comparable_text(old[number]), number, new_at, old_at)
                or elsewhere(comparable_text(new[target]), target, old_at, new_at))
    return verbatim


def _mapping(alignment: Alignment) -> dict[RuleNumber, RuleNumber]:
    return {p.old_number: p.new_number for p in alignment.pairs if p.old and p.new}


def _place_at_expected(alignment: Alignment, old: dict, new: dict, left: set, right: set, vectors: Vectors,
                       depth: int, mapped: dict[RuleNumber, RuleNumber], accept) -> None:
    """Pair unpaired rules of one depth with their expected number when ``accept`` says so."""
    for number in sorted(n for n in left if n.depth == depth):
        target = _expected_number(number, mapped)
        if target not in right:
            continue
        similarity = vectors.similarity(number, target)
        if accept(number, target, similarity):
            left.discard(number)
            right.discard(target)
            mapped[number] = target
            alignment.pairs.append(Pair(_placement(old[number], new[target]),
                                        old[number], new[target], similarity))


def _match_rewritten(alignment: Alignment, old: dict, new: dict, left: set, right: set, vectors: Vectors) -> None:
    """Nothing better found: a rule rewritten where it was expected (its own number, or its
    parent's new number) is still that rule, even with little text in common; a retitled
    section is kept when most of its rules went to it."""
    mapped = _mapping(alignment)

    def plausible(number: RuleNumber, target: RuleNumber, similarity: float) -> bool:
        return similarity > REWRITTEN_THRESHOLD or (
            number.depth == 0 and _children_followed(number, target, alignment))

    for depth in (0, 1, 2):
        _place_at_expected(alignment, old, new, left, right, vectors, depth, mapped, plausible)


def _match_within_sections(alignment: Alignment, old: dict, new: dict, left: set, right: set,
                           vectors: Vectors) -> None:
    """A rule rewritten inside its own section, under another number, is still that rule when it
    and a new rule of the same depth are each other's best remaining match there.

    2016 rewrote the steps of each turn-based section: 504.3 "Third, the active player gets
    priority. Players may cast spells ..." became 504.2 "Second, the active player gets
    priority. (See rule 116 ...)": too little in common for a move anywhere, but nothing else
    in section 504 is closer to either of them.
    """
    sections = {p.old_number.section: p.new_number.section for p in alignment.pairs
                if p.old is not None and p.new is not None and p.old_number.depth == 0}
    olds_by_place: dict[tuple[int, int], list[RuleNumber]] = {}
    news_by_place: dict[tuple[int, int], list[RuleNumber]] = {}
    for number in sorted(left):
        if number.depth > 0:
            olds_by_place.setdefault((sections.get(number.section, number.section), number.depth), []).append(number)
    for number in sorted(right):
        news_by_place.setdefault((number.section, number.depth), []).append(number)

    def best(number: RuleNumber, pool: list[RuleNumber], score) -> tuple[float, RuleNumber] | None:
        scored = [(score(candidate), candidate) for candidate in pool]
        return min(scored, key=lambda sc: (-sc[0], sc[1].sort_key()), default=None)

    chosen = []
    for place, numbers in sorted(olds_by_place.items()):
        for number in numbers:
            found = best(number, news_by_place.get(place, []), lambda c, n=number: vectors.similarity(n, c))
            if found is None or found[0] <= (WITHIN_SECTION_THRESHOLD if number.depth == 1 else REWRITTEN_THRESHOLD):
                continue
            similarity, target = found
            rival = best(target, numbers, lambda o, t=target: vectors.similarity(o, t))
            if rival[1] == number and _reworded(vectors, number, target):
                chosen.append((number, target, similarity))
    for number, target, similarity in chosen:
        left.discard(number)
        right.discard(target)
        alignment.pairs.append(Pair(_placement(old[number], new[target]), old[number], new[target], similarity))


# Mutual best matches inside one section need less in common than a rewrite at the expected
# number: 2016's 503.2 -> 503.1 ("Second, the active player gets priority. Players may cast ..."
# -> "... Once it begins, the active player gets priority.") is 0.17; 504.3 -> 504.2 is 0.25. Only
# for rules right under a section: deeper ones share a section with a hundred keywords (702), and
# 2016's offering rule 702.47b is not emerge's 702.118a at 0.19.
WITHIN_SECTION_THRESHOLD = 0.15
SECTION_SHARE = 0.3  # of the old words found in the new rule: 0.31-0.38 in 2016's rewritten steps
FRAGMENT_SHARE = 0.6  # of the new words found in the old rule: above, the new rule is a piece of a split


def _reworded(vectors: Vectors, old: RuleNumber, new: RuleNumber) -> bool:
    """Whether ``new`` rewords ``old`` rather than holding one piece of it (2009's 309.1 -> 509.4
    is one of the three rules 309.1 was split into: 0.73 of 509.4's words are in 309.1)."""
    return (content_share(vectors.old[old], [vectors.new[new]], vectors.idf) >= SECTION_SHARE
            and content_share(vectors.new[new], [vectors.old[old]], vectors.idf) < FRAGMENT_SHARE)


def _match_moves(alignment: Alignment, old: dict, new: dict, left: set, right: set, vectors: Vectors,
                 only_depth: int | None = None) -> None:
    scored = []
    pool = right if only_depth is None else {n for n in right if n.depth == only_depth}
    old_sections, new_sections = {n.section for n in old}, {n.section for n in new}
    for number in sorted(left):
        if only_depth is not None and number.depth != only_depth:
            continue
        for candidate in vectors.candidates(number, pool):
            similarity = vectors.similarity(number, candidate)
            unseen = ((not alignment.old_complete and candidate.section not in old_sections)
                      or (not alignment.new_complete and number.section not in new_sections))
            needed = max(_move_threshold(old[number], new[candidate]), UNSEEN_MOVE_THRESHOLD if unseen else 0.0)
            if similarity >= needed and not _heading_changes_depth(old[number], new[candidate]):
                scored.append((-similarity, number.sort_key(), candidate.sort_key(), number, candidate))
    scored.sort(key=lambda row: row[:3])
    for negative, _, _, number, candidate in scored:
        if number in left and candidate in right:
            left.discard(number)
            right.discard(candidate)
            alignment.pairs.append(Pair(_placement(old[number], new[candidate]),
                                        old[number], new[candidate], -negative))


HEADING_LENGTH = 24  # characters: "General", "Combat Damage Step", 呪文能力


# A move claims the old number is gone and the new one was not there before. When an excerpt or a
# change notice has nothing of the other number's section, that is unknown, and only a near copy
# is taken for the same rule renumbered: Duel Masters 2021's notice 803.1c is 1.48's 804.1c word
# for word, while 1.17's 506.1d (an attacking creature stays attacking) is not 2021's 507.2a (a
# blocking creature stays blocking) at 0.53, though 1.17's excerpt has no 507 to compare with.
UNSEEN_MOVE_THRESHOLD = 0.9
# A heading that moves must keep its words: Duel Masters 1.17's 506 攻撃クリーチャー指定ステップ
# shares 0.58 with 2021's 507 ブロッククリーチャー指定ステップ ("declare attackers" / "declare
# blockers"), two different steps; 2009's 308 -> 508 "Declare Attackers Step" keeps all.
HEADING_MOVE_THRESHOLD = 0.8


def _move_threshold(old: RuleText, new: RuleText) -> float:
    heading = len(comparable_text(old)) <= HEADING_LENGTH and len(comparable_text(new)) <= HEADING_LENGTH
    return HEADING_MOVE_THRESHOLD if heading and old.number != new.number else MOVE_THRESHOLD


def _heading_changes_depth(old: RuleText, new: RuleText) -> bool:
    """A heading-like text ("General") equals many others; it moves only at its own depth.

    Without this, 2008's 212.1 "General" (card types) became 2009's 500 "General" (turn structure).
    """
    return old.number.depth != new.number.depth and len(comparable_text(old)) <= HEADING_LENGTH


def _children_followed(old_section: RuleNumber, new_section: RuleNumber, alignment: Alignment) -> bool:
    """A retitled section (308 Tribals -> Kindreds) is the same section if most of its rules went there."""
    children = [p for p in alignment.pairs if p.old is not None and p.old_number.depth == 1
                and p.old_number.section == old_section.section]
    followed = [p for p in children if p.new is not None and p.new_number.section == new_section.section]
    return bool(children) and 2 * len(followed) > len(children)


SPLIT_CONTAINMENT = 0.75
# A split claims the old text lives on in its targets: at least this share of its words
# (IDF-weighted) must be found there, not one boilerplate sentence ("This turn-based action
# doesn't use the stack.") of a rule whose substance was dropped (2024's 509.2, 509.3).
SPLIT_COVERAGE = 0.4
# When every sentence went to one new rule of the same section that continues no other rule and
# holds this share of the old words, it is that rule reworded (2016: 508.2 -> 508.2b), a move.
REWORDED_COVERAGE = 0.6
# With no target in its own section, more must be found: 2016 dropped 505.4 "Second, any abilities
# that trigger at the beginning of the main phase go on the stack", whose words are mostly in the
# general triggered-ability rule 112.3c (0.54), as were 507.2's (0.58) and 511.1's (0.61).
SPLIT_AWAY_COVERAGE = 0.75
SPLIT_ELSEWHERE = 0.95
_SENTENCE_END = re.compile(r"(?<=[.!?。])\s*(?=\S)")


def content_share(old: frozenset[str], targets: list[frozenset[str]], idf: dict[str, float]) -> float:
    """The IDF-weighted share of ``old``'s tokens found in the union of ``targets``."""
    found = frozenset().union(*targets)
    total = math.fsum(idf.get(t, 0.0) for t in old)
    return math.fsum(idf.get(t, 0.0) for t in old & found) / total if total else 1.0


def _held_before(tokens: set[str], weight: float, before: RuleNumber | None, vectors: Vectors,
                 needed: float) -> bool:
    """Whether the rule a target continues already held the sentence: then the sentence did not
    go there (2016's 503.2 "Players may cast spells and activate abilities." is also in 514.3a,
    unchanged since 2015)."""
    if before is None:
        return False
    return math.fsum(vectors.idf.get(t, 0.0) for t in tokens & vectors.old[before]) / weight >= needed


def _find_splits(alignment: Alignment, old: dict, new: dict, left: set, right: set, vectors: Vectors,
                 lang: str) -> None:
    """Old rules nobody continues whose sentences live on in other new rules.

    Each sentence of four or more words is looked up among all new rules; it is found
    when IDF-weighted, at least ``SPLIT_CONTAINMENT`` of its tokens are in one new rule of
    the section the old rule's section became, or ``SPLIT_ELSEWHERE`` in any other section
    (boilerplate such as "Then the active player gets priority" recurs across sections).
    """
    sections = {p.old_number.section: p.new_number.section for p in alignment.pairs
                if p.old is not None and p.new is not None and p.old_number.depth == 0}
    predecessor = {p.new_number: p.old_number for p in alignment.pairs if p.old is not None and p.new is not None}
    for number in sorted(left):
        home = sections.get(number.section, number.section)
        targets: list[RuleNumber] = []
        for sentence in _SENTENCE_END.split(comparable_text(old[number])):
            tokens = {t.normalized for t in tokenize(sentence, lang) if any(c.isalnum() for c in t.normalized)}
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
            alignment.pairs.append(Pair(_placement(old[number], new[single]), old[number], new[single], coverage))
        elif coverage >= (SPLIT_COVERAGE if any(t.section == home for t in targets) else SPLIT_AWAY_COVERAGE):
            left.discard(number)
            alignment.pairs.append(Pair(SPLIT, old[number], None, coverage, targets=tuple(targets)))
