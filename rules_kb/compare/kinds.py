"""The one vocabulary of change kinds: alignment, diff, comparison rows, ``add`` and the JSON.

Alignment decides where each rule went, its *placement*: ``in-place`` (same number), or
``moved`` (renumbered), ``split``, ``added``, ``removed``. The token diff then classes what
happened to a text, its *text class*: ``unchanged``, ``editorial``, ``substantive``. A
comparison row's kind is the text class of a rule that stayed in place and the placement of
any other; those seven words, in this order, are the counts every command prints.
"""

from __future__ import annotations

IN_PLACE = "in-place"
MOVED = "moved"
SPLIT = "split"
ADDED = "added"
REMOVED = "removed"
PLACEMENTS = (IN_PLACE, MOVED, SPLIT, ADDED, REMOVED)

UNCHANGED = "unchanged"
EDITORIAL = "editorial"
SUBSTANTIVE = "substantive"
TEXT_CLASSES = (UNCHANGED, EDITORIAL, SUBSTANTIVE)

ROW_KINDS = (*TEXT_CLASSES, MOVED, SPLIT, ADDED, REMOVED)


def count_kinds(kinds, vocabulary: tuple[str, ...]) -> dict[str, int]:
    """How many of each kind, every word of ``vocabulary`` present, in its order."""
    counts = dict.fromkeys(vocabulary, 0)
    for kind in kinds:
        counts[kind] += 1
    return counts
