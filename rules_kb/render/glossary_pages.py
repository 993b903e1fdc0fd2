"""Glossary pages: every entry of one version's glossary (``/mtg/en/2024-11-08/glossary/``) and one
version-independent page per term (``/mtg/term/en/deathtouch/``) with each wording it had, the
versions that printed it and what changed between wordings.

Rule references in a definition link to that version's rule; a cross-reference to another entry
(``See Battlefield.``, ``See “Enters the Battlefield.”``) links to that term's page. Source text
is escaped here, once, like every generated page's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from rules_kb import links
from rules_kb.compare.diff import diff_tokens, render_html
from rules_kb.refs import find_references
from rules_kb.render.html import GAME_NAMES, LANG_NAMES, Page, element, esc, link, text_html
from rules_kb.render.site_data import GAMES, LANGS, SiteData

_SEE = re.compile(r"\bSee (?!rules? |section )(?:also )?([^.\n]+?)\.(?=”|\"|\s|$)")


@dataclass
class Entry:
    """One term of one version's glossary."""

    term: str
    definition: str
    version: str
    document: str


@dataclass
class TermHistory:
    """A term of one game and language across every version whose glossary has it, oldest first."""

    game: str
    lang: str
    term: str
    entries: list[Entry] = field(default_factory=list)

    def wordings(self) -> list[list[Entry]]:
        """Consecutive versions with the same definition, grouped."""
        runs: list[list[Entry]] = []
        for entry in self.entries:
            if runs and runs[-1][-1].definition == entry.definition:
                runs[-1].append(entry)
            else:
                runs.append([entry])
        return runs


def glossaries(site: SiteData) -> dict[tuple[str, str, str], list[Entry]]:
    """(game, lang, version) -> its glossary entries in printed order, versions in catalog order."""
    catalog = site.catalog
    found: dict[tuple[str, str, str], list[Entry]] = {}
    for doc_id, parsed in catalog.documents.items():
        for term in parsed.terms:
            found.setdefault((term.game, term.lang, term.version), []).append(
                Entry(term.term, term.definition, term.version, doc_id))
    order = {key: i for i, key in enumerate((g, lg, label) for g in GAMES for lg in LANGS
                                            for label in catalog.version_labels(g, lg))}
    return {key: found[key] for key in sorted(found, key=lambda k: order.get(k, len(order)))}


def term_histories(by_version: dict[tuple[str, str, str], list[Entry]]) -> dict[tuple[str, str, str], TermHistory]:
    """(game, lang, page slug) -> the term's history; one name per slug (the newest spelling)."""
    out: dict[tuple[str, str, str], TermHistory] = {}
    for (game, lang, _), entries in by_version.items():
        seen: set[str] = set()
        for entry in entries:
            slug = links.term_slug(entry.term)
            if slug in seen:  # a version printing a name twice: the first is the entry
                continue
            seen.add(slug)
            history = out.setdefault((game, lang, slug), TermHistory(game, lang, entry.term))
            history.term = entry.term
            history.entries.append(entry)
    return out


def glossary_pages(site: SiteData) -> Iterator[Page]:
    by_version = glossaries(site)
    histories = term_histories(by_version)
    names = {(g, lg): {h.term.casefold(): slug for (gg, lgg, slug), h in histories.items() if (gg, lgg) == (g, lg)}
             for g, lg, _ in histories}
    # One whole glossary page per game and language, of its newest version: 114 Magic glossaries of
    # ~170 kB each were 20 MB of the site's 300 MB budget, and every older wording of every entry is
    # on its term page, with the versions that print it and the diff from the wording before.
    newest = {(game, lang): version for game, lang, version in by_version}  # catalog order: the last wins
    for (game, lang), version in newest.items():
        yield version_glossary_page(site, game, lang, version, by_version[game, lang, version],
                                    names.get((game, lang), {}))
    for (game, lang, _), history in histories.items():
        yield term_page(site, history, names.get((game, lang), {}), newest[game, lang])


def version_glossary_page(site: SiteData, game: str, lang: str, version: str, entries: list[Entry],
                          names: dict[str, str]) -> Page:
    path = links.glossary_page(game, lang, version)
    items = []
    for entry in entries:
        slug = links.term_slug(entry.term)
        head = link(path, links.term_page(game, lang, entry.term), entry.term, class_="rk-term")
        items.append(element("dt", head, id=slug) + element("dd", definition_html(site, path, game, lang, version,
                                                                                   entry.definition, names)))
    letters = sorted({e.term[:1].upper() for e in entries if e.term[:1].isalpha()})
    parts = [element("h1", esc(f"{GAME_NAMES[game]} {LANG_NAMES[lang]} {version}: glossary")),
             element("p", link(path, links.version_page(game, lang, version), f"contents of {version}") + " · "
                     + link(path, links.game_page(game), "all versions")
                     + esc(f" · {len(entries)} entries"), class_="rk-nav"),
             element("p", " ".join(element("a", esc(c), href=f"#{links.term_slug(_first_with(entries, c))}")
                                   for c in letters), class_="rk-letters"),
             element("dl", "".join(items), class_="rk-glossary", lang=lang)]
    return Page(path, f"{game} {lang} {version} glossary", element("div", "".join(parts), class_="rk-page"))


def _first_with(entries: list[Entry], letter: str) -> str:
    return next(e.term for e in entries if e.term[:1].upper() == letter)


def term_page(site: SiteData, history: TermHistory, names: dict[str, str], paged: str) -> Page:
    """Every wording of one term, newest first; ``paged`` is the version whose whole glossary has a page."""
    game, lang = history.game, history.lang
    path = links.term_page(game, lang, history.term)
    runs = history.wordings()
    newest = runs[-1][-1]
    count = len(history.entries)
    span = (f"in {count} versions, {history.entries[0].version} to {newest.version}" if count > 1
            else f"in {newest.version} only")
    wordings = f"{len(runs)} wording{'s' if len(runs) > 1 else ''}"
    parts = [element("h1", esc(history.term)),
             element("p", esc(f"{GAME_NAMES[game]} {LANG_NAMES[lang]} glossary · {span} · {wordings} · ")
                     + link(path, links.glossary_page(game, lang, paged), f"glossary of {paged}"),
                     class_="rk-nav"),
             element("div", definition_html(site, path, game, lang, newest.version, newest.definition, names),
                     class_="rk-text rk-term-definition", lang=lang)]
    items = []
    for index, run in enumerate(reversed(runs)):  # newest wording first
        first, last = run[0], run[-1]
        span = first.version if len(run) == 1 else f"{first.version} to {last.version} ({len(run)} versions)"
        # Only the newest version has a whole glossary page; an older wording links its version's contents.
        target = (links.glossary_page(game, lang, last.version) + f"#{links.term_slug(last.term)}"
                  if last.version == paged else links.version_page(game, lang, first.version))
        head = link(path, target, span)
        body = definition_html(site, path, game, lang, last.version, last.definition, names)
        before = runs[len(runs) - index - 2] if index < len(runs) - 1 else None
        change = ""
        if before is not None:
            diff = diff_tokens(before[-1].definition, last.definition, lang)
            change = element("div", esc(f"changes from {before[-1].version}: ") + render_html(diff),
                             class_="rk-diff", lang=lang)
        items.append(element("li", element("div", head, class_="rk-row-head")
                             + element("div", body, class_="rk-text", lang=lang) + change))
    parts += [element("h2", "Every wording", id="history"), element("ol", "".join(items), class_="rk-term-history")]
    return Page(path, f"{history.term} ({game} {lang} glossary)", element("div", "".join(parts), class_="rk-page"))


def definition_html(site: SiteData, page: str, game: str, lang: str, version: str, definition: str,
                    names: dict[str, str]) -> str:
    """A definition escaped, its rule references linked to ``version``'s rules, its ``See X.`` to X's page."""
    out: list[str] = []
    at = 0
    here = site.catalog.rules_in(game, lang, version)
    for ref in find_references(definition, game=game):
        out.append(_with_see_links(page, game, lang, definition[at:ref.start], names))
        raw, first = definition[ref.start:ref.end], ref.numbers[0]
        if first in here:
            target = links.pinned_rule(game, lang, version, first)
        elif site.number_known(game, first):
            target = links.rule_page(game, first)
        else:
            target = None
        out.append(text_html(raw) if target is None else
                   element("a", text_html(raw), href=links.relative(page, target), class_="rk-cite"))
        at = ref.end
    out.append(_with_see_links(page, game, lang, definition[at:], names))
    return "".join(out)


def _with_see_links(page: str, game: str, lang: str, text: str, names: dict[str, str]) -> str:
    out: list[str] = []
    at = 0
    for match in _SEE.finditer(text):
        target = match[1].strip("“”\" ")
        wanted = [target] if target.casefold() in names else [p.strip() for p in re.split(r",\s*|\s+and\s+", target)]
        if not wanted or not all(w.casefold() in names for w in wanted):
            continue
        out.append(text_html(text[at:match.start(1)]))
        piece, cursor = match[1], 0
        linked = []
        for name in wanted:
            start = piece.index(name, cursor)
            linked.append(text_html(piece[cursor:start]))
            href = links.relative(page, f"/{game}/term/{lang}/{names[name.casefold()]}/")
            linked.append(element("a", text_html(name), href=href, class_="rk-term-ref"))
            cursor = start + len(name)
        linked.append(text_html(piece[cursor:]))
        out.append("".join(linked))
        at = match.end(1)
    out.append(text_html(text[at:]))
    return "".join(out)
