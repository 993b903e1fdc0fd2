"""The in-browser comparison of any two versions (``/dm/compare/``, ``/mtg/compare/``).

Diff pages exist for adjacent versions; every other pair (``?lang=en&old=2009-05-01&new=2022-11-18``)
is compared by ``site/assets/compare.js``, with no server, from the alignments and token diffs
``render/compare_data.py`` writes and the rule texts of the ``api_version`` files: the rows are
``rules-kb diff``'s. This page only carries what the script needs to find them: the URL templates
of ``links.py``, where each language's compare data is, and which pairs have diff pages.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules_kb import links
from rules_kb.games import GAME_NAMES, GAMES, LANG_NAMES
from rules_kb.render.html import Page, element, esc, link
from rules_kb.render.site_data import SiteData
from rules_kb.visible import people_json

# The shared number grammar first (refs.js and its tables), then the page's scripts.
SCRIPTS = ("/assets/link-grammar.js", "/assets/refs.js", "/assets/compare-align.js", "/assets/compare.js")


def compare_pages(site: SiteData) -> Iterator[Page]:
    for game in GAMES:
        if site.languages(game):
            yield compare_page(site, game)


def _json(value: object) -> str:
    return people_json(value, sort_keys=True, separators=(",", ":"))


def compare_page(site: SiteData, game: str) -> Page:
    path = links.compare_page(game)
    langs = site.languages(game)
    pinned = {lang: {label: links.url_template(links.pinned_rule(game, lang, label, links.PROBE))
                     for label in site.labels_with_texts(game, lang)} for lang in langs}
    diffs = {lang: {f"{old}..{new}": links.diff_page(game, lang, old, new) for old, new in site.diff_pairs(game, lang)}
             for lang in langs}
    controls = "".join([
        element("label", "language " + element("select", "", name="lang")),
        element("label", "old " + element("select", "", name="old")),
        element("button", "⇄", type="button", id="rk-compare-swap", title="swap old and new"),
        element("label", "new " + element("select", "", name="new")),
        element("label", "rules " + element("input", "", name="rule", size="8", placeholder="509 or 509.1",
                                            title="only this rule and the rules below it")),
        element("button", "compare", type="submit"),
        element("button", "copy link to this comparison", type="button", class_="rk-copy", id="rk-compare-copy",
                data_copy="./", title="copy the address of this comparison, for a note"),
    ])
    form = element("form", controls, id="rk-compare", class_="rk-compare", autocomplete="off",
                   data_root=links.relative(path, "/"), data_versions=links.api_versions(game),
                   data_pinned=_json(pinned), data_rule_page=links.url_template(links.rule_page(game, links.PROBE)),
                   data_diffs=_json(diffs), data_languages=_json({lang: LANG_NAMES[lang] for lang in langs}),
                   data_compare=_json({lang: links.api_compare(game, lang) for lang in langs}))
    intro = ("Choose any two versions: they are compared as rules-kb diff compares them, rule by rule. "
             "A renumbered rule is shown moved, with the words that changed; a rule whose sentences went to "
             "several rules is shown split; between two whole rulebooks each rule is followed release by "
             "release. Each change is named (editorial, substantive, a renumbered reference) and marked word "
             "by word. The rules field takes a chapter (5), a section (509) or a rule (509.1a). The address "
             "keeps the choice, so it can be pasted into a note.")
    parts = [element("h1", esc(f"{GAME_NAMES[game]}: compare any two versions")),
             element("p", link(path, links.game_page(game), f"{GAME_NAMES[game]}: all versions"), class_="rk-nav"),
             element("p", esc(intro)), form,
             element("p", "", id="rk-compare-status", aria_live="polite"),
             element("div", "", id="rk-compare-summary"),
             element("div", "", id="rk-compare-results"),
             element("noscript", element("p", esc("The comparison runs in the browser and needs JavaScript; "
                                                  "rules-kb diff compares any two versions on the command line."))),
             *(element("script", "", src=links.relative(path, script), defer=True) for script in SCRIPTS)]
    return Page(path, f"{game} compare", element("div", "".join(parts), class_="rk-page rk-compare-page"))
