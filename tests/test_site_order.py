"""Page generators are functions of the site's data: none needs another to have run first."""

from __future__ import annotations

from itertools import islice

from rules_kb.render.diff_pages import diff_pages
from rules_kb.render.rule_pages import rule_pages
from rules_kb.render.site_data import load_site_data


def test_rule_pages_link_the_same_diff_rows_whether_the_diff_pages_ran_first_or_not(knowledge):
    """A rule page links each change to its row on a diff page; the rows were once known only after
    the diff pages had been generated (rule pages had to come later). Now the site data answers
    either way, with the same links."""
    after_diffs = load_site_data(knowledge)
    for _ in diff_pages(after_diffs):
        pass
    expected = {page.path: page.body for page in islice(rule_pages(after_diffs), 600)}
    alone = load_site_data(knowledge)
    got = {page.path: page.body for page in islice(rule_pages(alone), 600)}
    assert got == expected
    linked = [path for path, body in expected.items() if "/diff/" in body]
    assert len(linked) >= 10, len(linked)  # 14 of the first 600 (Duel Masters) link a diff row
