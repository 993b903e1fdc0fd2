"""The permalink scheme of docs/url-scheme.md, one function per kind of page, and the old forms it forwards."""

from __future__ import annotations

import re

from rules_kb import links
from rules_kb.numbers import RuleNumber

R = RuleNumber.parse


def test_design_examples():
    assert links.pinned_rule("dm", "ja", "1.38", R("507.2a")) == "/dm/ja/1.38/5/#507.2a"
    assert links.rule_page("dm", R("507.2a")) == "/dm/rule/507.2a/"
    assert links.diff_page("dm", "ja", "1.38", "1.48") == "/dm/ja/diff/1.38..1.48/"
    assert links.diff_page("mtg", "en", "2008-10-01", "2009-05-01", "3") == "/mtg/en/diff/2008-10-01..2009-05-01/3/"
    assert links.api_version("dm", "ja", "1.38") == "/api/dm/ja/1.38.json"
    assert links.api_history("mtg", R("702.139")) == "/api/mtg/history/702.json"
    assert links.api_versions("mtg") == "/api/mtg/versions.json"


def test_numbers_are_canonical_in_every_link():
    assert links.pinned_rule("dm", "ja", "1.48", R("５０７．２ａ")) == "/dm/ja/1.48/5/#507.2a"
    assert links.pinned_rule("dm", "ja", "1.48", R("000.1")) == "/dm/ja/1.48/0/#000.1"


def test_relative_links():
    here = "/dm/rule/507.2a/"
    assert links.relative(here, "/dm/ja/1.38/5/#507.2a") == "../../ja/1.38/5/#507.2a"
    assert links.relative(here, "/dm/rule/507.2b/") == "../507.2b/"
    assert links.relative(here, here) == "./"
    assert links.relative("/", "/api/dm/versions.json") == "api/dm/versions.json"
    assert links.relative("/dm/ja/1.38/5/", "/dm/ja/1.38/5/#507.1") == "./#507.1"


def forward(path: str) -> str:
    """Apply the first matching old form, as the 404 page does."""
    for pattern, replacement in links.OLD_FORMS:
        if re.search(pattern, path):
            return re.sub(pattern, replacement, path)
    return path


def test_old_forms_forward_to_the_new_scheme():
    assert forward("/dm/ja/1.38/507/") == "/dm/ja/1.38/5/"
    assert forward("/dm/ja/before-2020-10-23/603/") == "/dm/ja/before-2020-10-23/6/"
    assert forward("/mtg/en/diff/2009-05-01..2009-07-08/509/") == "/mtg/en/diff/2009-05-01..2009-07-08/5/"
    assert forward("/mtg/en/diff/2009-05-01..2024-11-08/5/") == "/mtg/compare/?lang=en&old=2009-05-01&new=2024-11-08"
    assert forward("/dm/ja/diff/1.38..1.48/") == "/dm/compare/?lang=ja&old=1.38&new=1.48"  # reached only when missing
    assert forward("/api/dm/ja/1.38/507.2a.json") == "/api/dm/ja/1.38.json"
    assert forward("/api/mtg/rule/702.139.json") == "/api/mtg/history/702.json"
    for current in ("/dm/ja/1.38/5/", "/dm/rule/507.2a/", "/mtg/compare/", "/api/dm/ja/1.38.json"):
        assert forward(current) == current  # the new scheme is never forwarded
