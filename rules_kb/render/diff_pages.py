"""Diff pages: every adjacent pair of versions, per game and language
(``/mtg/en/diff/2009-05-01..2009-07-08/``), and one page per changed chapter below it
(``…/5/``, rows of sections 500-599). Each row shows its class (editorial, substantive,
moved, …) and its token diff; a control hides editorial rows. Every other pair is compared
in the browser (``/mtg/compare/``): one more release adds one pair, not one per release.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules_kb import links
from rules_kb.compare.changes import Comparison, RowChange, compare_versions
from rules_kb.games import GAME_NAMES, GAMES, LANG_NAMES, LANGS
from rules_kb.render.diffmarkup import render_html
from rules_kb.render.html import Page, element, esc, link, text_html
from rules_kb.render.site_data import SiteData, rows_shown
from rules_kb.render.textformat import changed_words

HIDE_CONTROL = element("label", '<input type="checkbox" id="rk-hide-editorial"> hide editorial changes',
                       class_="rk-hide-control")


def diff_pages(site: SiteData) -> Iterator[Page]:
    for game in GAMES:
        for lang in LANGS:
            for old, new in site.diff_pairs(game, lang):
                folder, key = links.diff_page(game, lang, old, new), site.pair_digest(game, lang, old, new)
                saved = site.units.reuse(folder, key) if site.units is not None else None
                if saved is not None:  # the previous build's pages of this pair are in the new site
                    site.diff_rows[(game, lang, old, new)] = saved["shown"]
                    continue
                comparison = compare_versions(site.catalog, site.knowledge.alignments, game, lang, old, new,
                                              site.knowledge.forced)
                shown = site.diff_rows[(game, lang, old, new)] = rows_shown(comparison)
                yield from _pair_pages(game, lang, comparison)
                if site.units is not None:
                    site.units.record(folder, key, {"shown": shown})


def row_chapter(row: RowChange) -> str:
    number = row.pair.new_number or row.pair.old_number
    return links.chapter_of(number)


def _pair_pages(game: str, lang: str, comparison: Comparison) -> Iterator[Page]:
    a = comparison.alignment
    path = links.diff_page(game, lang, a.old_version, a.new_version)
    by_section: dict[str, list[RowChange]] = {}
    anchors: dict[int, list[str]] = {}  # id(row) → the ids it carries: its numbers, each once per page
    used: dict[str, set[str]] = {}
    for row in comparison.rows:
        if row.kind != "unchanged":
            section = row_chapter(row)
            by_section.setdefault(section, []).append(row)
            taken = used.setdefault(section, set())
            numbers = dict.fromkeys(str(n) for n in (row.pair.new_number, row.pair.old_number) if n is not None)
            anchors[id(row)] = [n for n in numbers if n not in taken]
            taken.update(numbers)
    counts = ", ".join(f"{n} {k}" for k, n in comparison.counts().items() if n)
    items = []
    for section in sorted(by_section):
        rows = by_section[section]
        kinds = {}
        for row in rows:
            kinds[row.kind] = kinds.get(row.kind, 0) + 1
        summary = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
        items.append(element("li", link(path, links.diff_page(game, lang, a.old_version, a.new_version, section),
                                        f"{section}00–{section}99") + esc(f": {summary}"),
                             data_kinds=" ".join(sorted(kinds))))
        yield _section_page(game, lang, comparison, section, rows, anchors)
    notes = "".join(element("li", esc(note)) for note in a.notes)
    unknown = ""
    if a.unknown_old or a.unknown_new:
        unknown = element("p", esc(f"{len(a.unknown_old)} rules only in {a.old_version} and {len(a.unknown_new)} only "
                                   f"in {a.new_version} are unknown in the other (a partial version)"),
                          class_="rk-partial")
    parts = [element("h1", esc(f"{GAME_NAMES[game]} {LANG_NAMES[lang]}: {a.old_version} → {a.new_version}")),
             element("p", _version_links(path, game, lang, a.old_version, a.new_version), class_="rk-nav"),
             element("p", esc(counts or "no rules in common"), class_="rk-meta"), unknown,
             element("ul", notes) if notes else "",
             element("h2", "Changed chapters", id="sections"),
             element("ul", "".join(items)) if items else element("p", "nothing changed")]
    yield Page(path, f"{game} {lang} diff {a.old_version}..{a.new_version}",
               element("div", "".join(parts), class_="rk-page rk-diff-page"))


def _version_links(path: str, game: str, lang: str, old: str, new: str) -> str:
    return " · ".join([link(path, links.version_page(game, lang, old), old),
                       link(path, links.version_page(game, lang, new), new),
                       link(path, links.game_page(game), "all versions"),
                       link(path, links.compare_pair(game, lang, old, new), "compare in the browser")])


def _section_page(game: str, lang: str, comparison: Comparison, section: str, rows: list[RowChange],
                  anchors: dict[int, list[str]]) -> Page:
    a = comparison.alignment
    path = links.diff_page(game, lang, a.old_version, a.new_version, section)
    body = [element("h1", esc(f"{GAME_NAMES[game]} {LANG_NAMES[lang]}: {a.old_version} → {a.new_version}, "
                               f"{section}00–{section}99")),
            element("p", link(path, links.diff_page(game, lang, a.old_version, a.new_version),
                              "every changed chapter") + " · "
                    + _version_links(path, game, lang, a.old_version, a.new_version), class_="rk-nav"),
            HIDE_CONTROL]
    for row in rows:
        body.append(_row_html(path, game, lang, comparison, row, anchors[id(row)]))
    return Page(path, f"{game} {lang} diff {a.old_version}..{a.new_version} {section}",
                element("div", "".join(body), class_="rk-page rk-diff-page"))


def _row_html(path: str, game: str, lang: str, comparison: Comparison, row: RowChange, ids: list[str]) -> str:
    a, pair = comparison.alignment, row.pair
    ends = []
    if pair.old is not None:
        ends.append(link(path, links.pinned_rule(game, lang, a.old_version, pair.old.number),
                         f"{pair.old.number} ({a.old_version})"))
    if pair.new is not None:
        ends.append(link(path, links.pinned_rule(game, lang, a.new_version, pair.new.number),
                         f"{pair.new.number} ({a.new_version})"))
    head = " → ".join(ends) + " " + element("span", esc(row.kind), class_="rk-kind")
    if pair.kind == "moved":
        head += " " + element("span", esc(f"(text {row.text_class}, similarity {pair.similarity:.2f})"))
    if pair.kind == "split":
        head += " " + element("span", esc(f"(its sentences are now in {', '.join(map(str, pair.targets))})"))
    if pair.forced:
        head += " " + element("span", "[paired by hand]")
    if row.compared_prefix:
        head += " " + element("span", "[one side is cut off in its source: compared on the common part]")
    parts = [element("div", head, class_="rk-row-head")]
    if row.diff is not None:
        parts.append(element("div", render_html(row.diff), class_="rk-diff", lang=lang))
        if changed := changed_words(row):
            parts.append(element("div", esc("changed: ") + esc(changed), class_="rk-note rk-changed"))
        parts.extend(element("div", esc("editorial: ") + esc(f"{old!r} → {new!r} ({reason})"), class_="rk-note")
                     for old, new, reason in row.diff.editorial_changes)
        for diff in row.example_diffs:
            if diff.classification != "unchanged":
                parts.append(element("div", render_html(diff), class_="rk-example rk-diff", lang=lang))
    else:
        text = pair.new or pair.old
        parts.append(element("div", text_html(" ".join(p for p in (text.title, text.text) if p)), class_="rk-text",
                             lang=lang))
    extra = "".join(element("span", "", id=other, class_="rk-anchor") for other in ids[1:])
    return element("div", extra + "".join(parts), class_=f"rk-row {row.kind}", id=ids[0] if ids else None)
