"""What's new: one page per release listing what it changed against the version before it
(``/mtg/new/en/2024-11-08/``); the Atom feed of releases (``render/feeds.py``) says the same.

Every changed row of the comparison (``compare.changes``) is counted once, by its kind, so the
parts add up to the total; the rows that change what a rule says or where it is (substantive
rewrites, additions, removals, splits and moves, a move whatever its words did) are listed,
the editorial rows and the references renumbered only are counted and left to the diff page.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules_kb import links
from rules_kb.compare.changes import Comparison, RowChange, compare_versions
from rules_kb.games import GAME_NAMES, GAMES, LANG_NAMES, LANGS
from rules_kb.model import before_label
from rules_kb.render.html import Page, dated_html, element, esc, link, release_date
from rules_kb.render.site_data import RELEASE_KINDS, SiteData

# The kinds listed on the page, in this order, each under its heading.
KIND_TITLES = {"substantive": "Changed in substance", "added": "Added", "removed": "Removed",
               "split": "Split", "moved": "Moved (renumbered)"}
PRINTED_TITLE = "The rules it prints"  # when it shares no rule with the version before it
# Every kind a changed row has (``compare.kinds``), as the counts name it.
COUNT_WORDS = {"substantive": "changed in substance", "added": "added", "removed": "removed", "split": "split",
               "moved": "moved", "editorial": "editorial only", "renumbered-reference": "a cited rule renumbered only"}
MOVED_WORDS = {"unchanged": "same words", "editorial": "editorial changes",
               "renumbered-reference": "a cited rule renumbered", "substantive": "its words changed in substance"}
EXCERPT = 200  # characters of the new text shown under a row


def release_pairs(catalog, game: str, lang: str) -> list[tuple[str, str]]:
    """Each version holding rules with the version it is compared with (``compared_with``), oldest first."""
    labels = [label for label in catalog.version_labels(game, lang) if catalog.rules_in(game, lang, label)]
    return [(compared_with(catalog, game, lang, labels[:i], new), new) for i, new in enumerate(labels) if i]


def compared_with(catalog, game: str, lang: str, earlier: list[str], new: str) -> str:
    """What a version's news is against: a change notice against the text it replaces (its ``before-``
    label), a rulebook or excerpt against the rulebook or excerpt before it (Duel Masters 1.48
    against 1.38, not against the change notice printed between them), else the version before it."""
    kinds = catalog.versions[(game, lang, new)].kinds
    if "change-notice" in kinds and before_label(new) in earlier:
        return before_label(new)
    if kinds & RELEASE_KINDS:
        releases = [label for label in earlier if catalog.versions[(game, lang, label)].kinds & RELEASE_KINDS]
        if releases:
            return releases[-1]
    return earlier[-1]


def listed_rows(comparison: Comparison) -> list[RowChange]:
    """The rows a reader of what's new wants: those that change what a rule says or where it is,
    in rule order."""
    return [row for row in comparison.rows if row.kind in KIND_TITLES]


def change_counts(comparison: Comparison) -> dict[str, int]:
    """Each changed row once, by its kind (``COUNT_WORDS`` order, kinds with none left out)."""
    counts = comparison.counts()
    return {kind: counts[kind] for kind in COUNT_WORDS if counts.get(kind)}


def changes(count: int) -> str:
    """``no change``, ``1 change``, ``16 changes``."""
    return "no change" if count == 0 else f"{count} change{'' if count == 1 else 's'}"


def counts_sentence(counts: dict[str, int], against: str = "") -> str:
    """``16 changes: 6 changed in substance, 6 added, 1 split, 3 moved``: the parts add up to the total."""
    total = sum(counts.values())
    head = changes(total) + (f" against {against}" if against else "")
    return f"{head}: " + ", ".join(f"{n} {COUNT_WORDS[kind]}" for kind, n in counts.items()) if total else head


def news_sentence(comparison: Comparison, against: str = "") -> str:
    """``counts_sentence``, or that the two versions share no rule (two excerpts of different chapters):
    then nothing was compared, which is not "no change"."""
    if not comparison.rows:
        return f"no rule in common with {comparison.alignment.old_version}"
    return counts_sentence(change_counts(comparison), against)


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
    counts = change_counts(comparison)
    rows = listed_rows(comparison)
    when = (release_date(a.new_version, info.date) or info.date) if info.date else "undated"
    sentences = filter(None, [news_sentence(comparison) + ".", _listed_note(len(rows), sum(counts.values()))])
    parts = [element("h1", esc(f"{GAME_NAMES[game]} {LANG_NAMES[lang]} {a.new_version}: what's new")),
             element("p", element("span", dated_html(f"{when} · against {a.old_version} ·")) + " "
                     + summary_links(site, path, game, lang, a.old_version, a.new_version), class_="rk-nav"),
             element("p", " ".join(element("span", esc(sentence)) for sentence in sentences),  # one text each
                     class_="rk-meta rk-change-counts")]
    if a.unknown_old or a.unknown_new:
        parts.append(element("p", esc(f"{a.new_version if a.unknown_old else a.old_version} is a partial version: "
                                      "only the rules both hold are compared"), class_="rk-partial"))
    for kind, title in KIND_TITLES.items():
        chosen = [row for row in rows if row.kind == kind]
        if chosen:
            parts.append(element("h2", esc(f"{title} ({len(chosen)})"), id=kind))
            parts.append(element("ul", "".join(_row_item(site, path, game, lang, comparison, row) for row in chosen),
                                 class_="rk-whats-new"))
    if not comparison.rows:  # nothing to compare it with: what it prints
        printed = sorted(site.catalog.rules_in(game, lang, a.new_version))
        parts.append(element("h2", esc(f"{PRINTED_TITLE} ({len(printed)})"), id="printed"))
        parts.append(element("p", ", ".join(link(path, links.rule_page(game, n), str(n)) for n in printed)))
    elif not rows:
        parts.append(element("p", "No rule changed in substance, was added, removed, split or moved."))
    parts.append(glossary_block(site, game, lang, a.old_version, a.new_version))
    return Page(path, f"{game} {lang} {a.new_version} what's new", element("div", "".join(parts),
                                                                           class_="rk-page rk-whats-new-page"))


def _listed_note(listed: int, total: int) -> str:
    if listed == total:
        return "Each is listed below." if total else ""
    return (f"Listed below: the {listed} that change what a rule says or where it is; the editorial changes "
            "and renumbered references are on the page of every change.")


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


def summary_links(site: SiteData, path: str, game: str, lang: str, old: str, new: str) -> str:
    """Every change (the diff pages when the pair has them, else the compare page), the contents, the feed."""
    changes_page = links.diff_page(game, lang, old, new) if (old, new) in site.diff_pairs(game, lang) else \
        links.compare_pair(game, lang, old, new)
    return " · ".join([link(path, changes_page, "every change"),
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
    elif pair.kind == "moved":
        head += esc(f" ({MOVED_WORDS[row.text_class]})")
    text = pair.new or pair.old
    words = " ".join(p for p in (text.title, text.text) if p)
    excerpt = words if len(words) <= EXCERPT else words[:EXCERPT].rstrip() + "…"
    return element("li", head + element("div", esc(excerpt), class_="rk-excerpt", lang=lang))


# --- glossary changes (compare.glossary, as `rules-kb diff` prints them) --------------------------


def glossary_block(site: SiteData, game: str, lang: str, old: str, new: str) -> str:
    """Terms the release added, removed and reworded, each linking its term page; "" without glossaries."""
    from rules_kb.compare.glossary import compare_glossaries

    changes = compare_glossaries(old, site.glossary_entries(game, lang, old), new,
                                 site.glossary_entries(game, lang, new))
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

