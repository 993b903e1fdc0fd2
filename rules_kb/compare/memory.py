"""The aligner's memory: what it has aligned and composed, owned here and handed forward.

The aligner (``compare.align``) reads and fills an ``AlignmentMemo``; whoever asks it to align
hands one in. The assembly stage seeds one from its JSON cache before anything aligns and keeps
it beside the catalog (``assemble.knowledge.Knowledge.alignments``); the store's view
(``store.alignments.StoreAlignments``) is a memo that reads stored alignments on first use and answers
the narrow questions below from the store's parts. Nothing is stored here, so both say so.
"""

from __future__ import annotations

from collections.abc import Mapping


class AlignmentMemo(dict):
    """Adjacent pairs of versions with the forced matches that concern them -> their alignments;
    ``compositions`` holds chains of complete releases composed."""

    def __init__(self) -> None:
        super().__init__()
        self.compositions: dict = {}
        # language -> comparable text -> its word set, made before (a snapshot carries the Japanese
        # ones: ``assemble.snapshot``), so that aligning them needs no tokenizer
        self.words: dict[str, Mapping[str, frozenset[str]]] = {}

    def within(self, key: tuple, bounds: tuple[str, str], part: str | None = None):
        """A stored adjacent alignment's pairs under a scope (``Scope.bounds``/``Scope.part``), or None."""
        return None

    def pairs_under(self, key: tuple, bounds: tuple[str, str] | None, numbers=()):
        """A stored adjacent alignment's pairs under a scope or some rules, by place, and its notes; or None."""
        return None

    def word_sets(self, lang: str) -> Mapping[str, frozenset[str]]:
        """Word sets of comparable texts made earlier (the store keeps them, and a snapshot)."""
        return self.words.get(lang, {})
