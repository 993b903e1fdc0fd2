"""Every number the aligner decides by, in one place, each with the verified rows that set it.

Similarities are IDF-weighted Jaccard (``compare.similarity``); shares are the IDF-weighted part
of one text's words found in another (``similarity.content_share``). The rows named are in
tests/fixtures/verified-alignments.toml (scored by benchmarks/bench_alignment.py) or asserted
by tests/test_align.py; a change here is checked against both.
"""

from __future__ import annotations

# In place (``matching.match_in_place``): a rule at its expected number is that rule when the texts
# are at least this alike (or word for word the same). The verified in-place rows of adjacent
# releases that were reworded score 0.54 (2018-04-27's 810.7), 0.55 and 0.57 (Duel Masters English
# 1.20 -> 1.38, 507.1c and 507.1) and up.
SAME_NUMBER_THRESHOLD = 0.5
# A rule rewritten where it was expected (its number, or its parent's new one) is still that rule
# above this, when nothing better was found (``matching.match_rewritten``): 2016-09-30's 500.6 is
# verified in place at 0.42 against 2015-07-17's, after the moves had their turn.
REWRITTEN_THRESHOLD = 0.2
# A move: an unpaired old rule taken for an unpaired new rule under another number
# (``matching.match_moves``), best similarity first. The verified moves of 2009-07-08's renumbering
# with the least in common are 309.5 -> 509.7 (0.47) and 308.2a -> 508.1a (0.55); 2016's rewritten
# steps (503.2 -> 503.1 at 0.17, 504.3 -> 504.2 at 0.25) are left to the section's mutual best matches.
MOVE_THRESHOLD = 0.45

# Mutual best matches inside one section need less in common than a rewrite at the expected
# number: 2016's 503.2 -> 503.1 ("Second, the active player gets priority. Players may cast ..."
# -> "... Once it begins, the active player gets priority.") is 0.17; 504.3 -> 504.2 is 0.25. Only
# for rules right under a section: deeper ones share a section with a hundred keywords (702), and
# 2016's offering rule 702.47b is not emerge's 702.118a at 0.19.
WITHIN_SECTION_THRESHOLD = 0.15
SECTION_SHARE = 0.3  # of the old words found in the new rule: 0.31-0.38 in 2016's rewritten steps
# Of the new words found in the old rule: above, the new rule is a piece of a split (2009's 309.1 ->
# 509.4 is one of the three rules 309.1 was split into: 0.73 of 509.4's words are in 309.1).
FRAGMENT_SHARE = 0.6

HEADING_LENGTH = 24  # characters: "General", "Combat Damage Step", 呪文能力; shorter texts are headings
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

# Splits (``splits.find_splits``): a sentence of four or more words is found in a new rule of the
# section the old rule's section became when this share of its words is there ...
SPLIT_CONTAINMENT = 0.75
# ... or in a rule of any other section at this share (boilerplate such as "Then the active
# player gets priority" recurs across sections).
SPLIT_ELSEWHERE = 0.95
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
