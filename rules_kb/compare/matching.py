"""The aligner's matching steps, in the order ``compare.align.align_pair`` runs them: forced
matches, rules in place depth by depth, moves (greedy, best similarity first), rewrites at the
expected number, mutual best matches within a section. Each step pairs some of the rules still
unpaired (``left`` in the old version, ``right`` in the new) and removes them from the pools.
Every number they compare against is in ``compare.thresholds``, with the rows that set it.
"""

from __future__ import annotations

from rules_kb.compare.alignment import Alignment, Pair, placement
from rules_kb.compare.similarity import Vectors, comparable_text, content_share
from rules_kb.compare.thresholds import (
    FRAGMENT_SHARE,
    HEADING_LENGTH,
    HEADING_MOVE_THRESHOLD,
    MOVE_THRESHOLD,
    REWRITTEN_THRESHOLD,
    SAME_NUMBER_THRESHOLD,
    SECTION_SHARE,
    UNSEEN_MOVE_THRESHOLD,
    WITHIN_SECTION_THRESHOLD,
)
from rules_kb.ingest.curated import ForcedMatch
from rules_kb.model import RuleText
from rules_kb.numbers import RuleNumber, in_order


def apply_forced(alignment: Alignment, forced: list[ForcedMatch], old: dict, new: dict,
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
        kind = placement(old[match.old], new[match.new])
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


def match_in_place(alignment: Alignment, old: dict, new: dict, left: set, right: set,
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
            match_moves(alignment, old, new, left, right, vectors, only_depth=0)
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
    for number in in_order(n for n in left if n.depth == depth):
        target = _expected_number(number, mapped)
        if target not in right:
            continue
        similarity = vectors.similarity(number, target)
        if accept(number, target, similarity):
            left.discard(number)
            right.discard(target)
            mapped[number] = target
            alignment.pairs.append(Pair(placement(old[number], new[target]),
                                        old[number], new[target], similarity))


def match_rewritten(alignment: Alignment, old: dict, new: dict, left: set, right: set, vectors: Vectors) -> None:
    """Nothing better found: a rule rewritten where it was expected (its own number, or its
    parent's new number) is still that rule, even with little text in common; a retitled
    section is kept when most of its rules went to it."""
    mapped = _mapping(alignment)

    def plausible(number: RuleNumber, target: RuleNumber, similarity: float) -> bool:
        return similarity > REWRITTEN_THRESHOLD or (
            number.depth == 0 and _children_followed(number, target, alignment))

    for depth in (0, 1, 2):
        _place_at_expected(alignment, old, new, left, right, vectors, depth, mapped, plausible)


def match_within_sections(alignment: Alignment, old: dict, new: dict, left: set, right: set,
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
    for number in in_order(left):
        if number.depth > 0:
            olds_by_place.setdefault((sections.get(number.section, number.section), number.depth), []).append(number)
    for number in in_order(right):
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
        alignment.pairs.append(Pair(placement(old[number], new[target]), old[number], new[target], similarity))


def _reworded(vectors: Vectors, old: RuleNumber, new: RuleNumber) -> bool:
    """Whether ``new`` rewords ``old`` rather than holding one piece of it (2009's 309.1 -> 509.4
    is one of the three rules 309.1 was split into: 0.73 of 509.4's words are in 309.1)."""
    return (content_share(vectors.old[old], [vectors.new[new]], vectors.idf) >= SECTION_SHARE
            and content_share(vectors.new[new], [vectors.old[old]], vectors.idf) < FRAGMENT_SHARE)


def match_moves(alignment: Alignment, old: dict, new: dict, left: set, right: set, vectors: Vectors,
                 only_depth: int | None = None) -> None:
    scored = []
    pool = right if only_depth is None else {n for n in right if n.depth == only_depth}
    old_sections, new_sections = {n.section for n in old}, {n.section for n in new}
    for number in in_order(left):
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
            alignment.pairs.append(Pair(placement(old[number], new[candidate]),
                                        old[number], new[candidate], -negative))


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
