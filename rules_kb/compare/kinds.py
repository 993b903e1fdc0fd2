"""The one vocabulary of change kinds: alignment, diff, comparison rows, ``add`` and the JSON.

Alignment decides where each rule went, its *placement*: ``in-place`` (same number), or
``moved`` (renumbered), ``split``, ``added``, ``removed``. The token diff then classes what
happened to a text, its *text class*: ``unchanged``, ``editorial``, ``renumbered-reference``
(only numbering changed: the number inside a cross-reference, because the rule cited was
renumbered, or the ordinal opening an enumerated step, "Second," -> "Third,"),
``substantive``. A comparison row's kind is the text class of a rule that stayed in place and
the placement of any other; those eight words, in this order, are the counts every command prints.
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
RENUMBERED_REFERENCE = "renumbered-reference"
SUBSTANTIVE = "substantive"
TEXT_CLASSES = (UNCHANGED, EDITORIAL, RENUMBERED_REFERENCE, SUBSTANTIVE)

ROW_KINDS = (*TEXT_CLASSES, MOVED, SPLIT, ADDED, REMOVED)
# Rows that change what the rules say (a move does when its text changed substantively).
SUBSTANTIVE_KINDS = (SUBSTANTIVE, SPLIT, ADDED, REMOVED)


def count_kinds(kinds, vocabulary: tuple[str, ...]) -> dict[str, int]:
    """How many of each kind, every word of ``vocabulary`` present, in its order."""
    counts = dict.fromkeys(vocabulary, 0)
    for kind in kinds:
        counts[kind] += 1
    return counts
