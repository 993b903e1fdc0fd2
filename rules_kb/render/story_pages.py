"""Story pages (``/dm/story/507/``): what ``explain`` tells, for a judge to read in two minutes.

One page per Duel Masters section that a change notice or a curated correspondence touches.
Every claim links to the rule text it rests on (pinned permalink) and names its document.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules_kb import links
from rules_kb.ask.story import Story, explain_rule
from rules_kb.games import GAME_NAMES, LANG_NAMES
from rules_kb.kb.ids import rule_id
from rules_kb.numbers import RuleNumber
from rules_kb.render.html import Page, curated, dated_html, element, esc, link, text_html
from rules_kb.render.site_data import SiteData

STORY_GAMES = ("dm",)


def story_numbers(site: SiteData, game: str) -> list[RuleNumber]:
    """Sections with a change notice or a curated correspondence: the ones with a story to tell."""
    graph = site.knowledge.graph
    touched = {RuleNumber(n.section) for n in site.numbers[game]
               if any(d.get("kind") == "changed_by" for _, _, d in graph.out_edges(rule_id(game, n), data=True))}
    touched |= {RuleNumber(c.new[2].section) for c in site.correspondences if c.game == game}
    return sorted(n for n in touched if n in site.numbers[game])


def story_pages(site: SiteData) -> Iterator[Page]:
    for game in STORY_GAMES:
        for number in story_numbers(site, game):
            yield story_page(site, game, number)


def _pinned(site: SiteData, path: str, game: str, lang: str, version: str, number: RuleNumber) -> str:
    label = f"{LANG_NAMES[lang]} {number} ({version})"
    if number in site.catalog.rules_in(game, lang, version):
        return link(path, links.pinned_rule(game, lang, version, number), label)
    return esc(label)


def _quote(site: SiteData, game: str, lang: str, version: str, number: RuleNumber) -> str:
    text = site.catalog.text_of(game, lang, version, number)
    if text is None:
        return ""
    return element("blockquote", text_html(text.text), lang=lang, cite=text.document)


def story_page(site: SiteData, game: str, number: RuleNumber) -> Page:
    story = explain_rule(site.knowledge, game, number)
    path = links.story_page(game, number)
    parts = [element("h1", esc(f"{GAME_NAMES[game]} {number}: what changed and what it means")),
             element("p", link(path, links.rule_page(game, number), f"every version of {number}") + " · "
                     + link(path, links.game_page(game), "timeline"), class_="rk-nav")]
    parts += _notices(site, path, game, story)
    parts += _correspondences(site, path, game, story)
    parts += _translations(site, path, game, story)
    parts += _commentary(site, story)
    if story.gaps:
        parts.append(element("h2", "What the corpus does not hold", id="gaps"))
        parts.append(element("ul", "".join(element("li", esc(g)) for g in story.gaps)))
    return Page(path, f"{game} {number} story", element("div", "".join(parts), class_="rk-page rk-story"))


def _notices(site: SiteData, path: str, game: str, story: Story) -> list[str]:
    if not story.notices:
        return []
    items = []
    for notice in story.notices:
        meta = site.catalog.documents[notice.document].meta
        version = meta.versions[0] if meta.versions else notice.date
        rules = ", ".join(_pinned(site, path, game, meta.languages[0], version, RuleNumber.parse(n))
                          for n in notice.rules)
        name = link(path, links.notice_page(game, notice.document), notice.document)
        source = element("span", dated_html(meta.source), translate="no") if meta.source else ""
        items.append(element("li", element("span", esc(notice.date or "undated"), class_="rk-date") + ": " + name
                             + (f" ({source})" if source else "") + " " + element("span", "prints:") + " " + rules))
    return [element("h2", "Change notices", id="notices"), element("ul", "".join(items))]


def _correspondences(site: SiteData, path: str, game: str, story: Story) -> list[str]:
    if not story.correspondences:
        return []
    rows = []
    for c in story.correspondences:
        old = _pinned(site, path, game, *c.old) + _quote(site, game, *c.old)
        new = _pinned(site, path, game, *c.new) + _quote(site, game, *c.new)
        rows.append(element("tr", element("td", old) + element("td", new)
                            + element("td", curated(c.meaning) + element(
                                "p", element("span", "Evidence:") + " " + curated(c.evidence), class_="rk-note"))))
    head = element("tr", "".join(element("th", h) for h in ("before", "after", "what it means")))
    intro = element("p", esc("Old and new texts that say the same rule across the rewrite, each with the evidence "
                             "for the pairing (curated by hand)."))
    return [element("h2", "Before and after", id="correspondences"), intro,
            element("table", element("thead", head) + element("tbody", "".join(rows)), class_="rk-story-table",
                    tabindex="0")]


def _translations(site: SiteData, path: str, game: str, story: Story) -> list[str]:
    items = [element("li", esc(lag)) for lag in story.lags]
    for d in story.drift:
        number = RuleNumber.parse(d.number)
        items.append(element("li", _pinned(site, path, game, "en", d.version, number) + ": "
                             + "; ".join(element("span", esc(note)) for note in d.drift)))
    if not items:
        return []
    return [element("h2", "Translations", id="translations"), element("ul", "".join(items))]


def _commentary(site: SiteData, story: Story) -> list[str]:
    if not story.commentary:
        return []
    items = []
    for passage in story.commentary:
        meta = site.catalog.documents[passage.document].meta
        items.append(element("li", element("span", text_html(passage.text), class_="rk-text") + " " + element(
            "span", esc(f"[{passage.document}, characters {passage.span[0]}–{passage.span[1]}]"),
            class_="rk-note"), lang=meta.languages[0] if meta.languages else None))
    return [element("h2", "Commentary", id="commentary"), element("ul", "".join(items))]
