"""Glossary pages: every entry of one version's glossary (``/mtg/en/2024-11-08/glossary/``) and one
version-independent page per term (``/mtg/term/en/deathtouch/``) with each wording it had, the
versions that printed it and what changed between wordings.

Rule references in a definition link to that version's rule; a cross-reference to another entry
(``See Battlefield.``, ``See “Enters the Battlefield.”``) links to that term's page. Source text
is escaped here, once, like every generated page's.

The newest glossary of each game and language is a static page. An older one is drawn in the
browser (``site/assets/reader.js``) from ``/api/{game}/{lang}/glossary/{version}.json``, written
by ``write_glossary_api``: the same entries as segments of text and links (never HTML), every
eighth version whole and the others as what differs from it. 113 static Magic glossaries of
~170 kB each were 20 MB of the site's 300 MB budget; the JSON is ~3 MB.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rules_kb import links
from rules_kb.compare.diff import diff_tokens
from rules_kb.games import GAME_NAMES, GAMES, LANG_NAMES, LANGS
from rules_kb.refs import find_references
from rules_kb.render.diffmarkup import render_html
from rules_kb.render.html import Page, element, esc, link, text_html
from rules_kb.render.site_data import SiteData
from rules_kb.visible import people_json

KEYFRAME = 8  # as the version JSON: every 8th older glossary whole, the others a delta over it
Segment = tuple[str, str | None, str | None]
"""A piece of a definition: its text, and for a link its href (relative to the glossary page) and class."""

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
    names = _names(histories)
    newest = {(game, lang): version for game, lang, version in by_version}  # catalog order: the last wins
    for (game, lang, version), entries in by_version.items():
        yield version_glossary_page(site, game, lang, version, entries, names.get((game, lang), {}),
                                    drawn=version != newest[game, lang])
    for (game, lang, _), history in histories.items():
        yield term_page(site, history, names.get((game, lang), {}), newest[game, lang])


def _names(histories: dict[tuple[str, str, str], TermHistory]) -> dict[tuple[str, str], dict[str, str]]:
    return {(g, lg): {h.term.casefold(): slug for (gg, lgg, slug), h in histories.items() if (gg, lgg) == (g, lg)}
            for g, lg, _ in histories}


def write_glossary_api(site: SiteData, docs_dir: Path) -> None:
    """The JSON every older glossary page draws from (see the module doc)."""
    by_version = glossaries(site)
    names = _names(term_histories(by_version))
    versions: dict[tuple[str, str], list[str]] = {}
    for game, lang, version in by_version:
        versions.setdefault((game, lang), []).append(version)
    for (game, lang), labels in versions.items():
        older = labels[:-1]
        whole: dict[str, dict] = {}
        for i, version in enumerate(older):
            record = glossary_record(site, game, lang, version, by_version[game, lang, version],
                                     names.get((game, lang), {}))
            if i % KEYFRAME == 0:
                whole = record["entries"]
            else:
                base = older[i - i % KEYFRAME]
                record = {**record, "base_api": links.api_glossary(game, lang, base),
                          "entries": {key: e for key, e in record["entries"].items() if whole.get(key) != e}}
            path = docs_dir / links.api_glossary(game, lang, version).lstrip("/")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(people_json(record, separators=(",", ":")) + "\n", encoding="utf-8")


def glossary_record(site: SiteData, game: str, lang: str, version: str, entries: list[Entry],
                    names: dict[str, str]) -> dict:
    """One version's glossary for ``reader.js``: ``order`` lists the entries' keys as printed, ``entries``
    holds each (``id``, ``term``, ``href`` of its term page, ``definition`` as segments)."""
    path = links.glossary_page(game, lang, version)
    order, out = [], {}
    for entry in entries:
        slug = links.term_slug(entry.term)
        key = slug
        while key in out:  # a version printing a name twice keeps both, as the static page does
            key += "~"
        order.append(key)
        out[key] = {"id": slug, "term": entry.term,
                    "href": links.relative(path, links.term_page(game, lang, entry.term)),
                    "definition": [list(s) if s[1] else [s[0]] for s in definition_segments(
                        site, path, game, lang, version, entry.definition, names)]}
    return {"game": game, "lang": lang, "version": version, "order": order, "entries": out}


def version_glossary_page(site: SiteData, game: str, lang: str, version: str, entries: list[Entry],
                          names: dict[str, str], drawn: bool = False) -> Page:
    """A version's whole glossary; ``drawn``: a placeholder that ``reader.js`` fills from the JSON."""
    path = links.glossary_page(game, lang, version)
    if drawn:
        body = _reader(path, game, lang, version)
    else:
        items = []
        for entry in entries:
            slug = links.term_slug(entry.term)
            head = link(path, links.term_page(game, lang, entry.term), entry.term, class_="rk-term")
            items.append(element("dt", head, id=slug) + element("dd", definition_html(
                site, path, game, lang, version, entry.definition, names)))
        body = element("dl", "".join(items), class_="rk-glossary", lang=lang)
    letters = sorted({e.term[:1].upper() for e in entries if e.term[:1].isalpha()})
    parts = [element("h1", esc(f"{GAME_NAMES[game]} {LANG_NAMES[lang]} {version}: glossary")),
             element("p", link(path, links.version_page(game, lang, version), f"contents of {version}") + " · "
                     + link(path, links.game_page(game), "all versions")
                     + esc(f" · {len(entries)} entries"), class_="rk-nav"),
             element("p", " ".join(element("a", esc(c), href=f"#{links.term_slug(_first_with(entries, c))}")
                                   for c in letters), class_="rk-letters"),
             body]
    return Page(path, f"{game} {lang} {version} glossary", element("div", "".join(parts), class_="rk-page"))


def _reader(path: str, game: str, lang: str, version: str) -> str:
    api = links.api_glossary(game, lang, version)
    fallback = element("noscript", element("p", esc("This glossary is drawn by your browser (it needs "
                                                    "JavaScript). Its entries as JSON: ") + link(path, api, api)))
    box = element("div", fallback + element("p", "…", class_="rk-reader-wait"), class_="rk-reader",
                  data_api=api, data_root=links.relative(path, "/"), data_kind="glossary", data_lang=lang)
    return box + element("script", "", src=links.relative(path, "/assets/reader.js"), defer=True)


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
        head = link(path, links.glossary_page(game, lang, last.version) + f"#{links.term_slug(last.term)}", span)
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
    return "".join(text_html(text) if href is None else element("a", text_html(text), href=href, class_=kind)
                   for text, href, kind in definition_segments(site, page, game, lang, version, definition, names))


def definition_segments(site: SiteData, page: str, game: str, lang: str, version: str, definition: str,
                        names: dict[str, str]) -> list[Segment]:
    """What ``definition_html`` shows, as text and links: the static page and ``reader.js`` draw the same."""
    out: list[Segment] = []
    at = 0
    here = site.catalog.rules_in(game, lang, version)
    for ref in find_references(definition, game=game):
        out.extend(_with_see_links(page, game, lang, definition[at:ref.start], names))
        raw, first = definition[ref.start:ref.end], ref.numbers[0]
        if first in here:
            target = links.pinned_rule(game, lang, version, first)
        elif site.number_known(game, first):
            target = links.rule_page(game, first)
        else:
            target = None
        out.append((raw, None, None) if target is None else (raw, links.relative(page, target), "rk-cite"))
        at = ref.end
    out.extend(_with_see_links(page, game, lang, definition[at:], names))
    return [s for s in out if s[0]]


def _with_see_links(page: str, game: str, lang: str, text: str, names: dict[str, str]) -> list[Segment]:
    out: list[Segment] = []
    at = 0
    for match in _SEE.finditer(text):
        target = match[1].strip("“”\" ")
        wanted = [target] if target.casefold() in names else [p.strip() for p in re.split(r",\s*|\s+and\s+", target)]
        if not wanted or not all(w.casefold() in names for w in wanted):
            continue
        out.append((text[at:match.start(1)], None, None))
        piece, cursor = match[1], 0
        for name in wanted:
            start = piece.index(name, cursor)
            out.append((piece[cursor:start], None, None))
            out.append((name, links.relative(page, f"/{game}/term/{lang}/{names[name.casefold()]}/"), "rk-term-ref"))
            cursor = start + len(name)
        out.append((piece[cursor:], None, None))
        at = match.end(1)
    out.append((text[at:], None, None))
    return out
