"""The token diffs a site build keeps for the next one (``compare.diff.seeded``,
``render.compare_diffs.kept_token_diffs``): a kept diff is the very diff the code makes, and a
record that does not fit its two texts is never used."""

from __future__ import annotations

import json
from collections import OrderedDict

import pytest

from rules_kb.compare import diff
from rules_kb.compare.changes import compare_versions
from rules_kb.compare.diff import diff_tokens, pair_digest, seeded, token_diff_from_record, token_diff_record

# The 2009 renumbering of Magic's rules and Duel Masters' 2021-09-07 notice against Ver.1.48: English
# and Japanese texts, whole rewrites and one-character edits.
PAIRS = (("mtg", "en", "2008-10-01", "2009-07-08"), ("dm", "ja", "2021-09-07", "1.48"))


@pytest.fixture(scope="module")
def changed(knowledge):
    """Every diff of two different texts in the two comparisons: (old, new, lang, diff)."""
    found = []
    for game, lang, old, new in PAIRS:
        comparison = compare_versions(knowledge.catalog, knowledge.alignments, game, lang, old, new, knowledge.forced)
        for row in comparison.rows:
            for made in [row.diff, *row.example_diffs] if row.diff is not None else []:
                if made is not None and made.old != made.new:
                    found.append((made.old, made.new, lang, made))
    return found


def test_every_diff_comes_back_whole_from_its_record(changed):
    """Through JSON, as the cache file holds it: the same ops (pieces of both texts), similarity and changes."""
    assert sum(1 for *_, lang, _ in changed if lang == "en") > 400
    assert sum(1 for *_, lang, _ in changed if lang == "ja") > 0
    for old, new, lang, made in changed:
        record = json.loads(json.dumps(token_diff_record(made), ensure_ascii=False))
        assert token_diff_from_record(old, new, lang, record) == made


def test_a_record_that_does_not_fit_its_texts_is_refused(changed):
    """The record is found by a digest of both texts; what is checked is that it fits them (its ops
    cover both texts exactly, its equal stretches are equal), so a foreign or edited record is refused."""
    old, new, lang, made = next(c for c in changed if c[2] == "en" and len(c[3].ops) > 2)
    record = token_diff_record(made)
    other = next(c for c in changed if len(c[0]) != len(old))
    assert token_diff_from_record(other[0], other[1], other[2], record) is None
    longer = json.loads(json.dumps(record))
    first = longer[0][0]
    longer[0][0] = first + 1 if isinstance(first, int) else [first[0] + 1, first[1]]
    assert token_diff_from_record(old, new, lang, longer) is None
    for damaged in (None, [], "ops", [[1], 0.5, []], [[-1], 1.0, []], [record[0], "1.0", record[2]],
                    [record[0], record[1], [["a", "b"]]]):
        assert token_diff_from_record(old, new, lang, damaged) is None


def test_a_seeded_pair_is_read_not_diffed_and_every_pair_asked_is_handed_back(changed, monkeypatch):
    records = {pair_digest(old, new, lang): token_diff_record(made) for old, new, lang, made in changed}
    monkeypatch.setattr(diff, "_memo", OrderedDict())  # nothing diffed earlier in this process answers

    def refuse(*args):
        raise AssertionError("a seeded pair was diffed again")

    monkeypatch.setattr(diff, "diff_token_lists", refuse)
    with seeded(records) as used:
        assert [diff_tokens(old, new, lang) for old, new, lang, _ in changed] == [made for *_, made in changed]
    assert set(used) == {(old, new, lang) for old, new, lang, _ in changed}
    assert diff._seeds == {} and diff._used is None  # outside the block nothing is seeded or recorded
