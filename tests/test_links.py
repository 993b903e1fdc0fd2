"""The permalink scheme of DESIGN §4, one function per kind of page."""

from __future__ import annotations

from rules_kb import links
from rules_kb.numbers import RuleNumber

R = RuleNumber.parse


def test_design_examples():
    assert links.pinned_rule("dm", "ja", "1.38", R("507.2a")) == "/dm/ja/1.38/507/#507.2a"
    assert links.rule_page("dm", R("507.2a")) == "/dm/rule/507.2a/"
    assert links.diff_page("dm", "ja", "1.38", "1.48") == "/dm/ja/diff/1.38..1.48/"
    assert links.diff_page("mtg", "en", "2008-10-01", "2009-07-08", "309") == "/mtg/en/diff/2008-10-01..2009-07-08/309/"
    assert links.api_pinned_rule("dm", "ja", "1.38", R("507.2a")) == "/api/dm/ja/1.38/507.2a.json"
    assert links.api_rule("mtg", R("702.139")) == "/api/mtg/rule/702.139.json"
    assert links.api_versions("mtg") == "/api/mtg/versions.json"


def test_numbers_are_canonical_in_every_link():
    assert links.pinned_rule("dm", "ja", "1.48", R("５０７．２ａ")) == "/dm/ja/1.48/507/#507.2a"
    assert links.pinned_rule("dm", "ja", "1.48", R("000.1")) == "/dm/ja/1.48/000/#000.1"


def test_relative_links():
    here = "/dm/rule/507.2a/"
    assert links.relative(here, "/dm/ja/1.38/507/#507.2a") == "../../ja/1.38/507/#507.2a"
    assert links.relative(here, "/dm/rule/507.2b/") == "../507.2b/"
    assert links.relative(here, here) == "./"
    assert links.relative("/", "/api/dm/versions.json") == "api/dm/versions.json"
    assert links.relative("/dm/ja/1.38/507/", "/dm/ja/1.38/507/#507.1") == "./#507.1"
