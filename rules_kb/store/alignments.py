"""The aligner's memory over the store (``compare.memory.AlignmentMemo``): stored adjacent
alignments rebuilt on first use, or only the pairs a scoped question needs, and the word sets of
comparable texts. A module of its own so that a lookup, which never aligns, imports no stage of
comparison (``store.views.StoreKnowledge.alignments`` imports it when diff or explain asks).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping

from rules_kb.compare.memory import AlignmentMemo
from rules_kb.kb.catalog import Catalog
from rules_kb.numbers import RuleNumber
from rules_kb.store.read import Store


class StoreAlignments(AlignmentMemo):
    """The aligner's memory over the store: adjacent alignments rebuilt on first use, new ones kept
    in memory, and the word sets of comparable texts."""

    def __init__(self, store: Store, catalog: Catalog) -> None:
        """``catalog`` is the store's (``store.views.StoreCatalog``): its texts are read by number."""
        super().__init__()
        self.store, self.catalog = store, catalog
        self._word_sets: dict[str, Mapping[str, frozenset[str]]] = {}

    def word_sets(self, lang: str) -> Mapping[str, frozenset[str]]:
        """The store's word sets of one language (Japanese: 886 texts, read once, checked)."""
        if lang not in self._word_sets:
            self._word_sets[lang] = {text: frozenset(json.loads(words)) for _, text, words in self.store.rows(
                "SELECT * FROM word_sets WHERE lang=?", (lang,))}
        return self._word_sets[lang]

    def get(self, key, default=None):
        if key in self:
            return self[key]
        from rules_kb.store.records import alignment_from_record, forced_record  # diff and explain only

        game, lang, old, new, relevant = key
        rows = self.store.rows("SELECT * FROM alignments WHERE game=? AND lang=? AND "
                               "old_version=? AND new_version=?", (game, lang, old, new))
        if not rows or json.loads(rows[0][4]) != json.loads(json.dumps(forced_record(relevant))):
            return default
        rules = self.catalog.texts
        self[key] = alignment_from_record(json.loads(rows[0][5]), _lazy(rules, (game, lang, old)),
                                          _lazy(rules, (game, lang, new)))
        return self[key]


    def within(self, key, bounds: tuple[str, str], part: str | None = None):
        """The pairs of a stored adjacent alignment whose old or new number lies between ``bounds``
        (``Scope.bounds``), or only those filed under ``part`` (``Scope.part``), texts read for
        those numbers only; None if not stored.

        A question about one rule (``explain 509.1`` reads 113 Magic steps) needs a few pairs of
        each step, not the thousands of texts a whole alignment names.
        """
        from rules_kb.store.records import alignment_from_parts, forced_record

        game, lang, old, new, relevant = key
        where, wanted = ("part = ?", (part,)) if part is not None else ("part >= ? AND part < ?", bounds)
        rows = self.store.rows("SELECT * FROM alignment_parts WHERE game=? AND lang=? AND old_version=? AND "
                               f"new_version=? AND {where} ORDER BY part", (game, lang, old, new, *wanted))
        forced = json.loads(json.dumps(forced_record(relevant)))
        if not rows or any(json.loads(row[5]) != forced for row in rows):
            return None
        texts = self.catalog.texts

        def text_of(label: str):
            return lambda number: texts.by_number(number)[(game, lang, label)][0]
        return alignment_from_parts([json.loads(row[6]) for row in rows], text_of(old), text_of(new))


    def pairs_under(self, key, bounds: tuple[str, str] | None, numbers=()):
        """Pairs of a stored adjacent alignment under ``bounds`` (``Scope.bounds``) or under the rules
        of ``numbers``, keyed by their place in the whole alignment (texts are ``LazyText``), and the
        alignment's notes; None if not stored."""
        from rules_kb.store.records import forced_record, part_of, positioned_pairs

        game, lang, old, new, relevant = key
        where, params = [], []
        if bounds is not None:
            where.append("(part >= ? AND part < ?)")
            params.extend(bounds)
        wanted = sorted({part_of(n) for n in numbers})
        if bounds is not None:
            wanted = [p for p in wanted if not bounds[0] <= p < bounds[1]]
        if wanted:
            where.append(f"part IN ({', '.join('?' * len(wanted))})")
            params.extend(wanted)
        if not where:
            return {}, []
        rows = self.store.rows(f"SELECT * FROM alignment_parts WHERE game=? AND lang=? AND old_version=? AND "
                               f"new_version=? AND ({' OR '.join(where)})", (game, lang, old, new, *params))
        if not rows:  # nothing there, or no such alignment: the whole row says which (and its notes)
            whole = self.get(key)
            return None if whole is None else ({}, list(whole.notes))
        forced = json.loads(json.dumps(forced_record(relevant)))
        if any(json.loads(row[5]) != forced for row in rows):
            return None
        parts = [json.loads(row[6]) for row in rows]
        texts = self.catalog.texts
        return (positioned_pairs(parts, _lazy(texts, (game, lang, old)), _lazy(texts, (game, lang, new))),
                list(parts[0]["notes"]))


class LazyText:
    """A version's text for a number, read when first used. Composing a long chain of releases
    (``diff 2019-05-03 2024-11-08``, 31 steps) follows numbers through every release between but
    reads the texts of the two ends only; the first use of a text reads its whole version once."""

    __slots__ = ("_rules", "_text", "number")

    def __init__(self, number: RuleNumber, rules) -> None:  # a store.views.VersionRules
        self.number, self._rules, self._text = number, rules, None

    def __getattr__(self, name: str):
        if self._text is None:
            self._text = self._rules.all()[self.number][0]
        return getattr(self._text, name)


def _lazy(texts: Mapping, key: tuple[str, str, str]) -> Callable[[RuleNumber], LazyText]:
    rules = texts[key]
    return lambda number: LazyText(number, rules)
