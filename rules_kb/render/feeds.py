"""Each game's Atom feed of releases (``/mtg/feed.xml``), for a judge's feed reader.

One entry per release of the rules, newest first: a dated whole rulebook, excerpt or change
notice (a ``before-…`` label is the text a notice replaces and an undated one a fan copy: neither
is a release). Its content says what the release changed against the version before it, with the
same counts as its what's-new page (``whats_new_pages.change_counts``) and its listed rules linked.
A feed reader reads the feed away from the site, so every link is absolute, under the base URL
the build was given (``SiteData.base_url``, ``rules-kb build --base-url``); the pages link to
the feeds relatively (``<link rel="alternate">`` in every page's head, ``site/overrides``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from rules_kb import links
from rules_kb.compare.changes import Comparison, compare_versions
from rules_kb.games import GAME_NAMES, GAMES, LANG_NAMES, LANGS
from rules_kb.render.site_data import SiteData
from rules_kb.render.whats_new_pages import (
    KIND_TITLES,
    PRINTED_TITLE,
    listed_rows,
    news_sentence,
    release_pairs,
)

FEED_ENTRIES = 30  # per game, newest first
FEED_RULES = 40  # rules named per kind in an entry's content; the what's-new page lists them all
PUBLISHED_KINDS = {"full", "excerpt", "change-notice"}  # what a publisher releases (not dated paragraphs)


@dataclass(frozen=True)
class FeedEntry:
    lang: str
    old: str
    new: str
    date: str
    comparison: Comparison


def is_release(site: SiteData, game: str, lang: str, label: str) -> bool:
    """Whether a version is a dated release of the rules (the feed's entries)."""
    info = site.catalog.versions[(game, lang, label)]
    return bool(info.date) and bool(info.kinds & PUBLISHED_KINDS)


def feed_entries(site: SiteData, game: str) -> list[FeedEntry]:
    """The newest releases of a game (every language), newest first, each compared with the version before it."""
    found = []
    for lang in LANGS:
        for old, new in release_pairs(site.catalog, game, lang):
            if is_release(site, game, lang, new):
                found.append((site.catalog.versions[(game, lang, new)].date, lang, old, new))
    found.sort(key=lambda f: (f[0], f[1], f[3]), reverse=True)
    knowledge = site.knowledge
    return [FeedEntry(lang, old, new, date, compare_versions(site.catalog, knowledge.alignments, game, lang, old,
                                                             new, knowledge.forced))
            for date, lang, old, new in found[:FEED_ENTRIES]]


def entry_content(site: SiteData, game: str, entry: FeedEntry) -> str:
    """The entry's content as HTML (escaped once more by the feed): the counts, then the rules of each
    listed kind, linked to their rule pages."""
    base = site.base_url
    page = links.absolute(base, links.whats_new_page(game, entry.lang, entry.new))
    parts = [f"<p>{escape(news_sentence(entry.comparison, entry.old))}. "
             f'<a href={quoteattr(page)}>What\'s new in {escape(entry.new)}</a></p>']
    rows = listed_rows(entry.comparison)
    for kind, title in KIND_TITLES.items():
        numbers = [row.pair.new_number or row.pair.old_number for row in rows if row.kind == kind]
        if numbers:
            parts.append(_numbers_html(base, game, title, numbers))
    if not entry.comparison.rows:  # nothing to compare it with: what it prints
        printed = sorted(site.catalog.rules_in(game, entry.lang, entry.new))
        parts.append(_numbers_html(base, game, PRINTED_TITLE, printed))
    return "".join(parts)


def _numbers_html(base: str, game: str, title: str, numbers: list) -> str:
    """``Added (3): 702.190, …``, each number linked to its rule page, at most ``FEED_RULES`` of them."""
    named = ", ".join(f'<a href={_address(base, links.rule_page(game, n))}>{n}</a>' for n in numbers[:FEED_RULES])
    more = f" and {len(numbers) - FEED_RULES} more" if len(numbers) > FEED_RULES else ""
    return f"<p>{escape(title)} ({len(numbers)}): {named}{more}</p>"


def feed_xml(site: SiteData, game: str, entries: list[FeedEntry]) -> str:
    """An Atom document (RFC 4287): the feed's identity and links, then one entry per release."""
    base = site.base_url
    updated = (entries[0].date if entries else site_date(site)) + "T00:00:00Z"
    lines = ['<?xml version="1.0" encoding="utf-8"?>', '<feed xmlns="http://www.w3.org/2005/Atom">',
             f"  <title>{escape(GAME_NAMES[game])} comprehensive rules: what's new</title>",
             f"  <id>tag:rules-kb,2026:{game}</id>", f"  <updated>{updated}</updated>",
             "  <author><name>rules-kb</name></author>",
             f'  <link rel="self" type="application/atom+xml" href={_address(base, links.feed(game))}/>',
             f'  <link rel="alternate" type="text/html" href={_address(base, links.game_page(game))}/>']
    for entry in entries:
        page = links.absolute(base, links.whats_new_page(game, entry.lang, entry.new))
        summary = news_sentence(entry.comparison, entry.old)
        lines += ["  <entry>",
                  f"    <title>{escape(GAME_NAMES[game])} {escape(LANG_NAMES[entry.lang])} {escape(entry.new)}</title>",
                  f"    <id>tag:rules-kb,2026:{game}/{entry.lang}/{escape(entry.new)}</id>",
                  f"    <updated>{entry.date}T00:00:00Z</updated>",
                  f'    <link rel="alternate" type="text/html" href={quoteattr(page)}/>',
                  f"    <summary>{escape(summary)}</summary>",
                  f'    <content type="html">{escape(entry_content(site, game, entry))}</content>',
                  "  </entry>"]
    lines.append("</feed>")
    return "\n".join(lines) + "\n"


def _address(base: str, path: str) -> str:
    """An absolute address, quoted for an attribute."""
    return quoteattr(links.absolute(base, path))


def site_date(site: SiteData) -> str:
    """The newest date of any version: a feed without entries is as new as the corpus."""
    return max((info.date for info in site.catalog.versions.values() if info.date), default="2000-01-01")


def write_feeds(site: SiteData, folder: Path) -> None:
    """``/{game}/feed.xml`` for each game (a writer of the site build, after the pages)."""
    for game in GAMES:
        target = folder / links.feed(game).lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(feed_xml(site, game, feed_entries(site, game)), encoding="utf-8")
