"""One page per change notice, rulings page or commentary document (``/dm/notice/seed-001/``).

The document as the corpus holds it: its provenance (manifest entry: file, source, dates,
sha256), then its entries in the order they are printed, rule texts and prose alike. Each
rule it prints or cites links to its text in the versions just before and just after the
document (pinned permalinks), to the text as the document prints it, and to its rule page,
so a reader can check a notice against the rulebooks it sits between.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules_kb import links
from rules_kb.games import GAME_NAMES, GAMES
from rules_kb.model import ParsedDocument, Residue, RuleText
from rules_kb.numbers import RuleNumber
from rules_kb.render.html import Page, curated, dated_html, element, esc, link, text_html
from rules_kb.render.rule_text import rule_text_html
from rules_kb.render.site_data import SiteData

NOTICE_KINDS = {"change-notice": "change notice", "rulings": "rulings", "commentary": "commentary"}
# Residue that is not the document's content: site menus, links, cut-off numbers, table layout.
SKIPPED = {"chrome", "navigation", "fragment", "table-format"}


def notice_documents(site: SiteData, game: str) -> list[ParsedDocument]:
    """The game's notices and commentary, by date (undated last), then id."""
    docs = [d for d in site.catalog.documents.values() if d.meta.game == game and d.meta.kind in NOTICE_KINDS]
    return sorted(docs, key=lambda d: (min(d.meta.dates) if d.meta.dates else "9999", d.meta.id))


def has_notice_page(site: SiteData, document: str) -> bool:
    doc = site.catalog.documents.get(document)
    return doc is not None and doc.meta.kind in NOTICE_KINDS


def notice_pages(site: SiteData) -> Iterator[Page]:
    for game in GAMES:
        for doc in notice_documents(site, game):
            yield notice_page(site, doc)


def _entries(doc: ParsedDocument) -> list[RuleText | Residue]:
    """Rules and prose in the order the document prints them."""
    items: list[RuleText | Residue] = list(doc.rules) + [r for r in doc.residue if r.kind not in SKIPPED]
    return sorted(items, key=lambda item: item.spans[0][0] if item.spans else 0)


def neighbours(site: SiteData, doc: ParsedDocument, lang: str, number: RuleNumber,
               label: str | None) -> tuple[str | None, str | None]:
    """The nearest versions before and after the document (or its ``label``) that hold ``number``,
    leaving out the versions this document itself gives."""
    game, own = doc.meta.game, set(doc.meta.versions) | {r.version for r in doc.rules}
    labels = site.catalog.version_labels(doc.meta.game, lang)
    if label in labels:
        at = labels.index(label)
        earlier, later = labels[:at], labels[at + 1:]
    else:
        date = min(doc.meta.dates) if doc.meta.dates else "9999"
        dated = [(site.catalog.versions[(game, lang, v)].date, v) for v in labels]
        # An undated label (a notice's before-X text) sits where the catalog puts it: keep it with the earlier ones.
        cut = next((i for i, (d, _) in enumerate(dated) if d is not None and d > date), len(labels))
        earlier, later = labels[:cut], labels[cut:]

    def holds(v: str) -> bool:
        return v not in own and number in site.catalog.rules_in(game, lang, v)

    before = next((v for v in reversed(earlier) if holds(v)), None)
    after = next((v for v in later if holds(v)), None)
    return before, after


def _rule_links(site: SiteData, path: str, doc: ParsedDocument, lang: str, number: RuleNumber,
                label: str | None) -> str:
    game = doc.meta.game
    if not site.number_known(game, number):
        return element("span", esc(str(number)), class_="rk-unresolved",
                       title=f"unresolved: no rule {number} in any version of {game} in the corpus")
    before, after = neighbours(site, doc, lang, number, label)
    out = [link(path, links.rule_page(game, number), f"{number}: every version")]
    if before is not None:
        out.append(link(path, links.pinned_rule(game, lang, before, number), f"before: {before}"))
    if label is not None and number in site.catalog.rules_in(game, lang, label):
        out.append(link(path, links.pinned_rule(game, lang, label, number), f"as printed here: {label}"))
    if after is not None:
        out.append(link(path, links.pinned_rule(game, lang, after, number), f"after: {after}"))
    return element("span", " · ".join(out), class_="rk-notice-links")


def _provenance(site: SiteData, doc: ParsedDocument) -> str:
    meta = doc.meta
    # The provenance a reader can check (the bytes' digest, where they came from); not where the
    # project keeps the file, which is no address of the reader's.
    kept = element("span", dated_html(meta.source), translate="no") if meta.source else esc("not recorded")
    rows = [("kind", esc(NOTICE_KINDS[meta.kind])), ("source", kept), ("URL", esc("not recorded in the manifest")),
            ("dates", esc(", ".join(meta.dates) or "not recorded")),
            ("versions", esc(", ".join(meta.versions) or "none")), ("languages", esc(", ".join(meta.languages))),
            ("sha256", element("code", esc(meta.sha256))), ("note", curated(meta.note) if meta.note else "")]
    return element("table", element("tbody", "".join(
        element("tr", element("th", esc(name)) + element("td", value)) for name, value in rows if value)),
        class_="rk-provenance", tabindex="0")


def notice_page(site: SiteData, doc: ParsedDocument) -> Page:
    meta = doc.meta
    game, lang = meta.game, meta.languages[0]
    path = links.notice_page(game, meta.id)
    when = f" ({', '.join(meta.dates)})" if meta.dates else ""
    parts = [element("h1", esc(f"{GAME_NAMES[game]} {NOTICE_KINDS[meta.kind]}: {meta.id}{when}")),
             element("p", link(path, links.game_page(game), f"{GAME_NAMES[game]}: all versions and notices"),
                     class_="rk-nav"),
             _provenance(site, doc),
             element("h2", "Entries, in the document's order", id="entries")]
    anchored: set[str] = set()
    items = []
    for item in _entries(doc):
        if isinstance(item, RuleText):
            number = str(item.number)
            body = rule_text_html(site, path, item, anchor=False, copy=False)
            head = element("div", element("span", esc(f"rule text, version {item.version}"), class_="rk-kind") + " "
                           + _rule_links(site, path, doc, item.lang, item.number, item.version),
                           class_="rk-row-head")
            items.append(element("li", head + body, class_="rk-notice-entry rk-notice-rule",
                                 id=None if number in anchored else number))
            anchored.add(number)
        else:
            cites = []
            for raw in dict.fromkeys(item.cites):
                cites.append(_rule_links(site, path, doc, lang, RuleNumber.parse(raw), None))
            extra = element("div", element("span", "cites:") + " " + " | ".join(cites), class_="rk-note") \
                if cites else ""
            marks = element("span", esc(" " + ", ".join(item.marks)), class_="rk-note") if item.marks else ""
            items.append(element("li", element("div", element("span", esc(item.kind), class_="rk-kind") + marks,
                                               class_="rk-row-head")
                                 + element("div", text_html(item.text), class_="rk-text", lang=lang) + extra,
                                 class_=f"rk-notice-entry rk-notice-{item.kind}"))
    parts.append(element("ol", "".join(items), class_="rk-notice-entries") if items
                 else element("p", "nothing but page chrome"))
    return Page(path, f"{game} {meta.id}", element("div", "".join(parts), class_="rk-page rk-notice-page"))


def notice_list(site: SiteData, game: str, path: str) -> str:
    """The game page's table of its notices and commentary, each linked to its page."""
    docs = notice_documents(site, game)
    if not docs:
        return ""
    rows = []
    for doc in docs:
        meta = doc.meta
        rows.append(element("tr", "".join([
            element("td", ", ".join(element("span", esc(d), class_="rk-date") for d in meta.dates)),
            element("td", link(path, links.notice_page(game, meta.id), meta.id)),
            element("td", esc(NOTICE_KINDS[meta.kind])), element("td", str(len({r.number for r in doc.rules}))),
            element("td", element("span", dated_html(meta.source), translate="no"))])))
    head = element("tr", "".join(element("th", h) for h in ("date", "document", "kind", "rules printed", "source")))
    return (element("h2", "Change notices and commentary", id="notices")
            + element("table", element("thead", head) + element("tbody", "".join(rows)), class_="rk-notices",
                       tabindex="0"))
