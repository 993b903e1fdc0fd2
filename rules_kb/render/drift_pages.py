"""The translation-drift report of a game (``/dm/drift/``): every rule whose translations say
something other than their version label claims.

Three sources, the same ones the rule pages' notices read (``render/rule_notices.py``), here
gathered for the whole game: the curated correspondences (``corpus/correspondences.toml``:
an English text labelled 1.38 that states the rule as it was before 2021-09-07), the lag
detection of ``explain`` (a translation release that crossed a change with editorial edits
only; a release in the language the game is published in is an original, not a
translation), and the graph's drift flags (children that differ between the two languages
of one version). One row per rule, linked to both texts and to the rule page.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from rules_kb import links
from rules_kb.ask.story import notices_about, translation_lags, version_chains
from rules_kb.compare.alignment import Scope
from rules_kb.games import GAME_NAMES, GAMES, LANG_NAMES, LANGS, LANGS_FIRST
from rules_kb.kb.ids import text_id
from rules_kb.numbers import RuleNumber
from rules_kb.render.html import Page, curated, element, esc, link
from rules_kb.render.site_data import SiteData

SOURCES = {"correspondence": "curated correspondence", "lag": "translation lag (explain)",
           "drift": "structure differs (graph)"}


@dataclass
class Finding:
    source: str
    what: str
    texts: list[tuple[str, str, RuleNumber]] = field(default_factory=list)  # (lang, version, number)
    meaning: str = ""  # a curated correspondence's meaning: hand-written English, shown as it is


def drift_pages(site: SiteData) -> Iterator[Page]:
    for game in GAMES:
        if site.languages(game):
            yield drift_page(site, game)


def _bilingual(site: SiteData, game: str) -> list[RuleNumber]:
    """Numbers with a text in both languages: the only ones whose translations can be compared."""
    held = {lang: set().union(*(site.catalog.rules_in(game, lang, v) for v in site.labels_with_texts(game, lang)))
            for lang in LANGS}
    return sorted(held["ja"] & held["en"])


def findings(site: SiteData, game: str) -> dict[RuleNumber, list[Finding]]:
    """Every finding of the three sources, by the number of the text whose label misleads."""
    found: dict[RuleNumber, list[Finding]] = {}
    for c in site.correspondences:
        if c.game != game or c.old[0] == c.new[0]:
            continue
        claimed = c.old if c.old[0] == "en" else c.new
        found.setdefault(claimed[2], []).append(Finding(
            "correspondence", f"{LANG_NAMES[c.old[0]]} {c.old[2]} ({c.old[1]}) is the rule as it stood before the "
            f"{c.change} change; it corresponds to {LANG_NAMES[c.new[0]]} {c.new[2]} ({c.new[1]}).",
            [c.old, c.new], c.meaning))
    for number in _bilingual(site, game):
        scope = Scope(rule=number)
        chains = version_chains(site.knowledge, game, scope)
        for lag in translation_lags(site.knowledge, game, chains, notices_about(site.knowledge, game, scope)):
            if lag.lang == LANGS_FIRST[game][0]:
                continue  # the language the rules are published in is the original, not a translation
            other = "ja" if lag.lang == "en" else "en"
            texts = [(lag.lang, lag.old_version, number), (lag.lang, lag.new_version, number)]
            texts += [(other, v, number) for v in _in_force(site, game, other, number, lag.crossed[-1])]
            found.setdefault(number, []).append(Finding("lag", lag.describe(), texts))
    graph = site.knowledge.graph
    for label in site.labels_with_texts(game, "en"):
        for number, texts in site.catalog.rules_in(game, "en", label).items():
            for _, target, data in graph.out_edges(text_id(texts[0]), data=True):
                if data.get("kind") == "translation" and data.get("drifted"):
                    ja = graph.nodes[target]
                    found.setdefault(number, []).append(Finding(
                        "drift", f"English and Japanese {label}: {'; '.join(data['drift'])}",
                        [("en", label, number), ("ja", ja["version"], RuleNumber.parse(ja["number"]))]))
                    break
    return {n: _unique(f) for n, f in sorted(found.items())}


def _unique(items: list[Finding]) -> list[Finding]:
    seen: dict[tuple, Finding] = {}
    for item in items:
        seen.setdefault((item.source, item.what), item)
    return list(seen.values())


def _in_force(site: SiteData, game: str, lang: str, number: RuleNumber, date: str) -> list[str]:
    """The first version of ``lang`` dated on or after ``date`` that holds ``number`` (the changed text)."""
    for label in site.labels_with_texts(game, lang):
        info = site.catalog.versions[(game, lang, label)]
        if info.date and info.date >= date and number in site.catalog.rules_in(game, lang, label):
            return [label]
    return []


def _text_link(site: SiteData, path: str, game: str, lang: str, version: str, number: RuleNumber) -> str:
    label = f"{number} ({version})"
    if number in site.catalog.rules_in(game, lang, version):
        return link(path, links.pinned_rule(game, lang, version, number), label, lang=lang)
    return esc(label)


def drift_page(site: SiteData, game: str) -> Page:
    path = links.drift_page(game)
    found = findings(site, game)
    counts = {source: sum(1 for items in found.values() if any(f.source == source for f in items))
              for source in SOURCES}
    rows = []
    for number, items in found.items():
        cells = {lang: list(dict.fromkeys(_text_link(site, path, game, lang, v, n) for f in items
                                          for (text_lang, v, n) in f.texts if text_lang == lang)) for lang in LANGS}
        what = "".join(element("li", element("span", esc(SOURCES[f.source]), class_="rk-kind") + " " + esc(f.what)
                               + (" " + curated(f.meaning) if f.meaning else "")) for f in items)
        rows.append(element("tr", "".join([
            element("td", link(path, links.rule_page(game, number), str(number))),
            element("td", element("ul", what)),
            element("td", "<br>".join(cells["en"]), lang="en"),
            element("td", "<br>".join(cells["ja"]), lang="ja")]), id=str(number),
            data_sources=" ".join(sorted({f.source for f in items}))))
    summary = (f"{len(found)} rules: " + ", ".join(f"{counts[s]} with a {SOURCES[s]}" for s in SOURCES)
               + f" ({len(_bilingual(site, game))} rules have texts in both languages).")
    intro = ("Where a translation's version label claims one thing and its text says another: an English text "
             "labelled with a recent version that still states the rules as they were before a change, or the two "
             "languages of one version that differ in structure. Each row links both texts (pinned to their "
             "versions) and the rule page.")
    head = element("tr", "".join(element("th", h) for h in ("rule", "what", "English", "日本語")))
    table = element("table", element("thead", head) + element("tbody", "".join(rows)), class_="rk-drift",
                    tabindex="0") \
        if rows else element("p", esc("Nothing found: the corpus holds no translation of this game's rules to compare.")
                             if not _bilingual(site, game) else esc("Nothing found."))
    parts = [element("h1", esc(f"{GAME_NAMES[game]}: translation drift")),
             element("p", link(path, links.game_page(game), f"{GAME_NAMES[game]}: all versions"), class_="rk-nav"),
             element("p", esc(intro)), element("p", esc(summary), class_="rk-meta", id="rk-drift-counts"), table]
    return Page(path, f"{game} translation drift", element("div", "".join(parts), class_="rk-page rk-drift-page"))
