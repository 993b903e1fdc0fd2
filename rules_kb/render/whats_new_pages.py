"""What's new: one page per release listing what it changed in substance against the version
before it (``/mtg/new/en/2024-11-08/``), and an Atom feed per game (``/mtg/feed.xml``) a judge
subscribes to.

The rows come from the diff classes (``compare.changes``): substantive rewrites, additions,
removals, splits, and moves whose text changed; editorial rows and references renumbered
only are counted, not listed. The feed's links are relative to the feed's own address
(RFC 4287 resolves them against it), so it works under any prefix as the pages do.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from rules_kb import links
from rules_kb.assemble.knowledge import Knowledge
from rules_kb.compare.changes import Comparison, RowChange, compare_versions
from rules_kb.games import GAME_NAMES, GAMES, LANG_NAMES, LANGS
from rules_kb.render.html import Page, element, esc, link
from rules_kb.render.site_data import SiteData

KIND_TITLES = {"substantive": "Changed in substance", "added": "Added", "removed": "Removed",
               "split": "Split", "moved": "Moved, with a change in substance"}
EXCERPT = 200  # characters of the new text shown under a row
FEED_ENTRIES = 30  # per game, newest first


def release_pairs(catalog, game: str, lang: str) -> list[tuple[str, str]]:
    """Each version holding rules with the one before it (oldest first)."""
    labels = [label for label in catalog.version_labels(game, lang) if catalog.rules_in(game, lang, label)]
    return list(pairwise(labels))


def listed_rows(comparison: Comparison) -> list[RowChange]:
    """The rows a reader of what's new wants: those that change what the rules say, in rule order."""
    return [row for row in comparison.rows if row.substantive]


def whats_new_pages(site: SiteData) -> Iterator[Page]:
    for game in GAMES:
        for lang in LANGS:
            for old, new in release_pairs(site.catalog, game, lang):
                folder = links.whats_new_page(game, lang, new)
                key = "whats-new " + site.pair_digest(game, lang, old, new)
                if site.units is not None and site.units.reuse(folder, key) is not None:
                    continue
                comparison = compare_versions(site.catalog, site.knowledge.alignments, game, lang, old, new,
                                              site.knowledge.forced)
                yield whats_new_page(site, game, lang, comparison)
                if site.units is not None:
                    site.units.record(folder, key, {})


def whats_new_page(site: SiteData, game: str, lang: str, comparison: Comparison) -> Page:
    a = comparison.alignment
    path = links.whats_new_page(game, lang, a.new_version)
    info = site.catalog.versions[(game, lang, a.new_version)]
    counts = comparison.counts()
    rows = listed_rows(comparison)
    summary = ", ".join(f"{n} {k}" for k, n in counts.items() if n and k != "unchanged") or "no change"
    parts = [element("h1", esc(f"{GAME_NAMES[game]} {LANG_NAMES[lang]} {a.new_version}: what's new")),
             element("p", esc(f"{info.date or 'undated'} · against {a.old_version} · ")
                     + summary_links(path, game, lang, a.old_version, a.new_version), class_="rk-nav"),
             element("p", esc(f"{len(rows)} changes in substance listed below ({summary}); editorial "
                              "changes and renumbered references are on the diff page."), class_="rk-meta")]
    if a.unknown_old or a.unknown_new:
        parts.append(element("p", esc(f"{a.new_version if a.unknown_old else a.old_version} is a partial version: "
                                      "only the rules both hold are compared"), class_="rk-partial"))
    for kind, title in KIND_TITLES.items():
        chosen = [row for row in rows if row.kind == kind]
        if chosen:
            parts.append(element("h2", esc(f"{title} ({len(chosen)})"), id=kind))
            parts.append(element("ul", "".join(_row_item(site, path, game, lang, comparison, row) for row in chosen),
                                 class_="rk-whats-new"))
    if not rows:
        parts.append(element("p", "Nothing changed in substance."))
    parts.append(glossary_block(site, game, lang, a.old_version, a.new_version))
    return Page(path, f"{game} {lang} {a.new_version} what's new", element("div", "".join(parts),
                                                                           class_="rk-page rk-whats-new-page"))


def whats_new_links(site: SiteData, game: str, path: str) -> list[str]:
    """For a game's page: what's new in each language's newest version, its glossary if any, and the feed."""
    found = []
    for lang in LANGS:
        pairs = release_pairs(site.catalog, game, lang)
        if pairs:
            newest = pairs[-1][1]
            found.append(link(path, links.whats_new_page(game, lang, newest), f"what's new in {lang} {newest}"))
            if any(t.version == newest and t.lang == lang for doc in site.catalog.documents.values()
                   for t in doc.terms):
                found.append(link(path, links.glossary_page(game, lang, newest), f"glossary of {newest}"))
    found.append(link(path, links.feed(game), "Atom feed of releases"))
    return found


def summary_links(path: str, game: str, lang: str, old: str, new: str) -> str:
    return " · ".join([link(path, links.diff_page(game, lang, old, new), "every change"),
                       link(path, links.version_page(game, lang, new), f"contents of {new}"),
                       link(path, links.game_page(game), "all versions"),
                       link(path, links.feed(game), "Atom feed")])


def _row_item(site: SiteData, path: str, game: str, lang: str, comparison: Comparison, row: RowChange) -> str:
    a, pair = comparison.alignment, row.pair
    ends = []
    if pair.old is not None and pair.kind != "in-place":
        ends.append(link(path, links.pinned_rule(game, lang, a.old_version, pair.old.number),
                         f"{pair.old.number} ({a.old_version})"))
    if pair.new is not None:
        ends.append(link(path, links.pinned_rule(game, lang, a.new_version, pair.new.number),
                         f"{pair.new.number}"))
    elif pair.old is not None and not ends:
        ends.append(link(path, links.pinned_rule(game, lang, a.old_version, pair.old.number),
                         f"{pair.old.number} ({a.old_version})"))
    number = pair.new_number or pair.old_number
    diff = site.diff_link(game, lang, a.old_version, a.new_version, number)
    extra = [link(path, diff, "diff", class_="rk-diff-link")] if diff is not None else []
    extra.append(link(path, links.rule_page(game, number), "every version", class_="rk-rule-link"))
    head = " → ".join(ends) + " (" + " · ".join(extra) + ")"
    if pair.kind == "split":
        head += esc(f" (its sentences are now in {', '.join(map(str, pair.targets))})")
    text = pair.new or pair.old
    words = " ".join(p for p in (text.title, text.text) if p)
    excerpt = words if len(words) <= EXCERPT else words[:EXCERPT].rstrip() + "…"
    return element("li", head + element("div", esc(excerpt), class_="rk-excerpt", lang=lang))


# --- glossary changes (compare.glossary, as `rules-kb diff` prints them) --------------------------


def glossary_block(site: SiteData, game: str, lang: str, old: str, new: str) -> str:
    """Terms the release added, removed and reworded, each linking its term page; "" without glossaries."""
    from rules_kb.compare.glossary import compare_glossaries

    def entries(version: str) -> list[tuple[str, str]]:
        return [(t.term, t.definition) for doc in site.catalog.documents.values() for t in doc.terms
                if (t.game, t.lang, t.version) == (game, lang, version)]

    changes = compare_glossaries(old, entries(old), new, entries(new))
    if not changes.compared or not changes.changed:
        return ""
    path = links.whats_new_page(game, lang, new)
    groups = [("Added", changes.added), ("Removed", changes.removed),
              ("Reworded", tuple(r.term for r in changes.reworded))]
    items = "".join(element("li", esc(f"{title}: ") + ", ".join(
        link(path, links.term_page(game, lang, term), term) for term in terms)) for title, terms in groups if terms)
    return (element("h2", esc(f"Glossary ({len(changes.added)} added, {len(changes.removed)} removed, "
                              f"{len(changes.reworded)} reworded)"), id="glossary")
            + element("ul", items, class_="rk-whats-new-glossary"))


# --- the feed ------------------------------------------------------------------------------------


def feed_entries(knowledge: Knowledge, game: str) -> list[dict]:
    """The newest releases of a game (every language), newest first, with their counts."""
    catalog = knowledge.catalog
    pairs = []
    for lang in LANGS:
        for old, new in release_pairs(catalog, game, lang):
            date = catalog.versions[(game, lang, new)].date or ""
            pairs.append((date, lang, old, new))
    pairs.sort(key=lambda p: (p[0], p[1], p[3]), reverse=True)
    out = []
    for date, lang, old, new in pairs[:FEED_ENTRIES]:
        comparison = compare_versions(catalog, knowledge.alignments, game, lang, old, new, knowledge.forced)
        counts = {k: n for k, n in comparison.counts().items() if n and k != "unchanged"}
        out.append({"date": date, "lang": lang, "old": old, "new": new, "counts": counts,
                    "listed": len(listed_rows(comparison)),
                    "rules": [str(r.pair.new_number or r.pair.old_number) for r in listed_rows(comparison)][:12]})
    return out


def feed_xml(game: str, entries: list[dict]) -> str:
    """An Atom document: one entry per release, linking its what's-new page (relative to the feed)."""
    feed_path = links.feed(game)
    updated = (entries[0]["date"] if entries else "1970-01-01") + "T00:00:00Z"
    lines = ['<?xml version="1.0" encoding="utf-8"?>', '<feed xmlns="http://www.w3.org/2005/Atom">',
             f"  <title>{escape(GAME_NAMES[game])} comprehensive rules: what's new</title>",
             f"  <id>tag:rules-kb,2026:{game}</id>", f"  <updated>{updated}</updated>",
             "  <author><name>rules-kb</name></author>",
             f'  <link rel="self" href={quoteattr(links.relative(feed_path, feed_path))}/>',
             f'  <link href={quoteattr(links.relative(feed_path, links.game_page(game)))}/>']
    for entry in entries:
        page = links.relative(feed_path, links.whats_new_page(game, entry["lang"], entry["new"]))
        counts = ", ".join(f"{n} {k}" for k, n in entry["counts"].items()) or "no change"
        rules = ", ".join(entry["rules"]) + (", …" if entry["listed"] > len(entry["rules"]) else "")
        summary = f"{entry['listed']} changes in substance against {entry['old']} ({counts})" + (
            f": {rules}" if rules else "")
        title = f"{GAME_NAMES[game]} {LANG_NAMES[entry['lang']]} {entry['new']}"
        lines += ["  <entry>",
                  f"    <title>{escape(title)}</title>",
                  f"    <id>tag:rules-kb,2026:{game}/{entry['lang']}/{escape(entry['new'])}</id>",
                  f"    <updated>{entry['date'] or '1970-01-01'}T00:00:00Z</updated>",
                  f"    <link href={quoteattr(page)}/>",
                  f"    <summary>{escape(summary)}</summary>",
                  "  </entry>"]
    lines.append("</feed>")
    return "\n".join(lines) + "\n"


def write_feeds(knowledge: Knowledge, folder: Path) -> None:
    """``/{game}/feed.xml`` for each game (an extra writer of the site build)."""
    for game in GAMES:
        target = folder / links.feed(game).lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(feed_xml(game, feed_entries(knowledge, game)), encoding="utf-8")
