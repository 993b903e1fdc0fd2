"""Composing adjacent alignments: a rule followed release by release from the first version of a
chain to the last (sixteen years of rewording defeat any direct similarity), whole or only along
the paths into and out of a scope.
"""

from __future__ import annotations

from itertools import pairwise

from rules_kb.compare.alignment import Alignment, Pair, Scope, pair_key, placement
from rules_kb.compare.kinds import ADDED, REMOVED
from rules_kb.ingest.curated import ForcedMatch
from rules_kb.numbers import RuleNumber


def compose(steps: list[Alignment]) -> Alignment:
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
        kind = placement(start.old, pair.new)
        result.pairs.append(Pair(kind, start.old, pair.new, similarity, forced))
    for pair in last.pairs:
        if pair.new is not None and pair.new_number not in reached:
            result.pairs.append(Pair(ADDED, None, pair.new, 0.0))
    result.notes = sorted({note for step in steps for note in step.notes})
    return result


def compose_within(read, game: str, lang: str, chain: list[str], forced: tuple[ForcedMatch, ...],
                    within: Scope) -> Alignment | None:
    """``compose`` of a long chain, reading only the pairs on the paths into and out of the scope.

    ``read(key, bounds, numbers)`` gives a stored step's pairs under the scope's bounds or under the
    rules of ``numbers``, by their place in the whole step, and the step's notes (None when the step
    is not stored). Every
    path that ends in the scope is walked back first, then every path that starts in it (or on those
    paths) is walked forward, so each rule followed finds its pair at each step; the pairs that touch
    the scope come out as the whole composition's (``test_compose`` compares them). Thirty-one steps
    of section 5 read ~5% of what the whole alignments hold.
    """
    keys = [pair_key(game, lang, old, new, forced) for old, new in pairwise(chain)]
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
    return compose(steps)


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
