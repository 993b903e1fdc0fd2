"""The in-browser comparison of any two versions (``/dm/compare/``, ``/mtg/compare/``).

Diff pages exist for adjacent versions and for each release against the newest; every other
pair (``?lang=en&old=2009-05-01&new=2022-11-18``) is compared by ``site/assets/compare.js``
from the ``api_version`` JSON files, with no server. This page only carries what the script
needs and cannot compute: the URL templates of ``links.py`` and which pairs have diff pages.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules_kb import links
from rules_kb.games import GAME_NAMES, GAMES, LANG_NAMES
from rules_kb.render.html import Page, element, esc, link
from rules_kb.render.site_data import SiteData
from rules_kb.visible import people_json

SCRIPT = "/assets/compare.js"


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
                   data_diffs=_json(diffs), data_languages=_json({lang: LANG_NAMES[lang] for lang in langs}))
    intro = ("Choose any two versions: the rules are fetched from the JSON API and compared here, in your browser. "
             "Rules are paired by number, so a renumbered rule shows as removed and added (the diff pages of "
             "adjacent versions align renumberings). Changed text is marked word by word in English and at "
             "script boundaries in Japanese (runs of kanji, hiragana, katakana or Latin letters). The address "
             "keeps the choice, so it can be pasted into a note.")
    parts = [element("h1", esc(f"{GAME_NAMES[game]}: compare any two versions")),
             element("p", link(path, links.game_page(game), f"{GAME_NAMES[game]}: all versions"), class_="rk-nav"),
             element("p", esc(intro)), form,
             element("p", "", id="rk-compare-status", aria_live="polite"),
             element("div", "", id="rk-compare-summary"),
             element("div", "", id="rk-compare-results"),
             element("noscript", element("p", esc("The comparison runs in the browser and needs JavaScript; "
                                                  "rules-kb diff compares any two versions on the command line."))),
             element("script", "", src=links.relative(path, SCRIPT), defer=True)]
    return Page(path, f"{game} compare", element("div", "".join(parts), class_="rk-page rk-compare-page"))
