"""The tournament documents on the site: a home per document, every version whole, a page per section.

``/mtg/ipg/`` (the newest contents and every version), ``/mtg/ipg/2024-09-23/`` (one version,
whole, to read and print; each section at ``#2.1``) and ``/mtg/ipg/2.1/`` (one section in every
version, newest first, with what it cites, what cites it and its counterpart in the other game).
Penalties are badges a judge sees at a glance. Duel Masters' document is Japanese: its pages carry
their interface in both languages (``.rk-ui-ja`` / ``.rk-ui-en``, switched by ``ui.js``).
Cross-references in a section's text are links: a rule to the release in force on the document's
date, a section to its anchor in the same version, an infraction named in brackets to its section.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from rules_kb import links
from rules_kb.ask.sections import SectionLink, answer_section, sections_citing_rule
from rules_kb.assemble.knowledge import Knowledge
from rules_kb.errors import OutputError
from rules_kb.files import replace_file
from rules_kb.games import CR, GAME_NAMES, document_kind
from rules_kb.kb.section_graph import rules_in_force
from rules_kb.model import Section
from rules_kb.numbers import RuleNumber
from rules_kb.refs import SECTION_TAGS, find_infraction, find_references, find_section_references, name_key
from rules_kb.render.html import Page, copy_buttons, curated, element, esc, link, text_html
from rules_kb.render.interface import LABELS
from rules_kb.render.site_data import SiteData
from rules_kb.visible import people_json

_SECTION_WORD = re.compile(r"(?i:sections?)[ \t]+(?P<number>[0-9]{1,2}(?:\.[0-9]{1,2})?)(?![0-9]|\.[0-9])")
# "section 4.3 of the Magic Tournament Rules": the section is another document's.
_OF_DOCUMENT = re.compile(r"[ \t]+(?:of|in)[ \t]+(?:the[ \t]+)?(?P<tag>"
                          + "|".join(re.escape(t) for t in sorted(SECTION_TAGS, key=len, reverse=True)) + ")")
PENALTY_CLASSES = {
    "No Penalty": "none", "Caution": "caution", "注意": "caution", "Warning": "warning", "警告": "warning",
    "Game Loss": "game-loss", "ゲームの敗北": "game-loss", "Match Loss": "match-loss", "マッチの敗北": "match-loss",
    "Disqualification": "disqualification", "失格": "disqualification",
}


def _ui(key: str, japanese: bool, **values: str) -> str:
    """An interface label: English, and for a Japanese document its Japanese too (``ui.js`` picks)."""
    english, ja = (text.format(**values) for text in LABELS[key])
    if not japanese:
        return esc(english)
    return element("span", esc(ja), class_="rk-ui-ja", lang="ja", hidden=True) + element(
        "span", esc(english), class_="rk-ui-en")


def _japanese(game: str, document: str) -> bool:
    return "ja" in document_kind(game, document).langs


def penalty_badge(penalty: str | None) -> str:
    if not penalty:
        return ""
    return element("span", esc(penalty), class_=f"rk-penalty rk-penalty-{PENALTY_CLASSES.get(penalty, 'other')}")


def section_site_pages(site: SiteData) -> Iterator[Page]:
    """Every page of every tournament document: its home, each version whole, each section."""
    sections = site.catalog.sections
    for game, document, lang in sections.documents():
        labels = sections.labels(game, document, lang)
        yield document_home_page(site, game, document, lang, labels)
        for label in labels:
            yield document_version_page(site, game, document, lang, label)
        numbers = dict.fromkeys(n for label in labels for n in sections.sections_in(game, document, lang, label))
        for number in numbers:
            yield section_page(site, game, document, lang, number)


def document_home_page(site: SiteData, game: str, document: str, lang: str, labels: list[str]) -> Page:
    kind = document_kind(game, document)
    path = links.document_home(game, document)
    ja = _japanese(game, document)
    newest = site.catalog.sections.all_in(game, document, lang, labels[-1])
    body = [element("h1", esc(kind.name(lang))),
            element("p", link(path, links.game_page(game), GAME_NAMES[game]), class_="rk-meta"),
            element("h2", _ui("versions", ja)),
            element("ul", "".join(_version_item(path, game, document, label, ja) for label in reversed(labels))),
            element("h2", _ui("contents", ja) + " " + element("span", esc(f"({labels[-1]})"), class_="rk-date")),
            _contents(path, game, document, newest, section_pages=True)]
    return Page(path, kind.name(lang), element("div", "".join(body), class_="rk-page"))  # one block, as mkdocs renders


def _version_item(path: str, game: str, document: str, label: str, ja: bool) -> str:
    effective = element("span", _ui("effective", ja, date=label), class_="rk-date")
    return element("li", link(path, links.document_version_page(game, document, label), label) + " " + effective)


def section_anchors(sections: list[Section]) -> list[str]:
    """The ``id`` of each section on a version's page: its number; a number printed again gets
    ``-2``, ``-3`` (the publisher's repeat stays reachable, and the first keeps the plain anchor)."""
    seen: dict[str, int] = {}
    out = []
    for section in sections:
        seen[section.number] = seen.get(section.number, 0) + 1
        out.append(section.number if seen[section.number] == 1 else f"{section.number}-{seen[section.number]}")
    return out


def _contents(path: str, game: str, document: str, sections: list[Section], *, section_pages: bool) -> str:
    items = []
    for section, anchor in zip(sections, section_anchors(sections), strict=True):
        target = (links.section_page(game, document, section.number) if section_pages
                  else f"#{anchor}")
        label = f"{section.number} {section.title}".strip()
        anchor = element("a", esc(label), href=target if target.startswith("#") else links.relative(path, target))
        depth = section.number.count(".")
        items.append(element("li", anchor + " " + penalty_badge(section.penalty), class_=f"rk-depth-{depth}"))
    return element("ul", "".join(items), class_="rk-contents")


def document_version_page(site: SiteData, game: str, document: str, lang: str, label: str) -> Page:
    kind = document_kind(game, document)
    path = links.document_version_page(game, document, label)
    ja = _japanese(game, document)
    sections = site.catalog.sections.all_in(game, document, lang, label)
    blocks = [element("h1", esc(f"{kind.name(lang)} ({label})")),
              element("p", link(path, links.document_home(game, document), kind.name(lang)) + " · "
                      + element("span", _ui("effective", ja, date=label), class_="rk-date"), class_="rk-meta"),
              element("h2", _ui("contents", ja)),
              _contents(path, game, document, sections, section_pages=False)]
    anchors = section_anchors(sections)
    blocks += [section_block(site, path, section, anchor=anchors[i]) for i, section in enumerate(sections)]
    return Page(path, f"{kind.name(lang)} ({label})", element("div", "".join(blocks), class_="rk-document", lang=lang))


def section_block(site: SiteData, page: str, section: Section, *, anchor: str | bool) -> str:
    """One section as the document prints it: number, title, penalty, text, labelled parts."""
    independent = links.section_page(section.game, section.document, section.number)
    pinned = links.pinned_section(section.game, section.document, section.version, section.number)
    head = element("a", esc(section.number), href=links.relative(page, independent), class_="rk-num")
    head += " " + element("span", text_html(section.title), class_="rk-title") + " " + penalty_badge(section.penalty)
    head += copy_buttons(page, pinned, independent)
    parts = [element("div", head, class_="rk-head")]
    if section.text:
        parts.append(element("div", linked_text_html(site, page, section, section.text), class_="rk-text"))
    for part in section.parts:
        if part.label == "penalty":
            continue
        title = element("div", text_html(part.heading.rstrip("：:") or part.label), class_="rk-part-head")
        parts.append(element("div", title + element("div", linked_text_html(site, page, section, part.text),
                                                     class_="rk-text"), class_=f"rk-part rk-part-{part.label}"))
    ident = anchor if isinstance(anchor, str) else section.number if anchor else None
    return element("section", "".join(parts), class_="rk-rule rk-section", id=ident)


def linked_text_html(site: SiteData, page: str, section: Section, text: str) -> str:
    """Source text, escaped, with its rule, section and infraction references linked."""
    spans: list[tuple[int, int, str]] = []
    cr_version = rules_in_force(site.catalog, section.game, section.version)
    cr_lang = document_kind(section.game, CR).langs[0]
    for ref in find_references(text, game=section.game):
        number = ref.numbers[0]
        if cr_version and number in site.catalog.rules_in(section.game, cr_lang, cr_version):
            target = links.pinned_rule(section.game, cr_lang, cr_version, number)
        elif site.number_known(section.game, number):
            target = links.rule_page(section.game, number)
        else:
            continue
        spans.append((ref.start, ref.end, target))
    own = site.catalog.sections.sections_in(section.game, section.document, section.lang, section.version)
    for match in _SECTION_WORD.finditer(text):
        other = _OF_DOCUMENT.match(text, match.end())
        if other is not None:
            game, document = SECTION_TAGS[other["tag"]]
            if site.catalog.sections.section(game, document, match["number"]) is not None:
                spans.append((match.start(), other.end(), links.section_page(game, document, match["number"])))
        elif match["number"] in own:
            spans.append((match.start(), match.end(), links.pinned_section(
                section.game, section.document, section.version, match["number"])))
    for ref in find_section_references(text):
        target = None
        if ref.document is not None:
            found = site.catalog.sections.section(ref.game, ref.document, ref.number)
            target = links.section_page(ref.game, ref.document, ref.number) if found else None
        else:
            found = find_infraction(own.values(), name_key(ref.name or ""))
            if found is not None:
                target = links.pinned_section(found.game, found.document, found.version, found.number)
        if target is not None:
            spans.append((ref.start, ref.end, target))
    out, position = [], 0
    for start, end, target in sorted(spans):
        if start < position:
            continue
        out.append(text_html(text[position:start]))
        out.append(element("a", text_html(text[start:end]), href=links.relative(page, target), class_="rk-cite"))
        position = end
    out.append(text_html(text[position:]))
    return "".join(out)


def section_page(site: SiteData, game: str, document: str, lang: str, number: str) -> Page:
    """One section, newest version first, then older versions folded, links and analogues."""
    kind = document_kind(game, document)
    path = links.section_page(game, document, number)
    ja = _japanese(game, document)
    history = [s for s in site.catalog.sections.history(game, document, number) if s.lang == lang]
    newest = history[-1]
    answer = answer_section(site.knowledge, newest)
    body = [element("h1", esc(f"{kind.short} {number} {newest.title}".strip())),
            element("p", link(path, links.document_home(game, document), kind.name(lang)) + " · "
                    + element("span", _ui("newest", ja) + " " + esc(newest.version), class_="rk-date"),
                    class_="rk-meta"),
            element("div", section_block(site, path, newest, anchor=True), lang=lang)]
    for repeat in site.catalog.sections.repeats_of(newest):  # the publisher printed the number twice
        body.append(element("p", _ui("repeat", ja, number=number), class_="rk-note")
                    + element("div", section_block(site, path, repeat, anchor=False), lang=lang))
    older = [s for s in reversed(history[:-1])]
    if older:
        inner = "".join(element("div", element("p", esc(s.version), class_="rk-date")
                                + section_block(site, path, s, anchor=False), lang=lang) for s in older)
        body.append(element("details", element("summary", _ui("older", ja, count=str(len(older)))) + inner))
    if answer.children:
        body.append(element("h2", _ui("subsections", ja)) + element("ul", "".join(
            element("li", link(path, links.section_page(game, document, n), f"{n} {t}")) for n, t in answer.children)))
    for key, found in (("cites", answer.cites), ("cited_by", answer.cited_by)):
        if found:
            body.append(element("h2", _ui(key, ja)) + element("ul", "".join(
                element("li", _link_html(path, item, ja)) for item in found)))
    if answer.analogues:
        body.append(element("h2", _ui("analogue", ja)) + "".join(_analogue_html(path, item, ja)
                                                                 for item in answer.analogues))
    title = f"{kind.short} {number} {newest.title}".strip()
    return Page(path, title, element("div", "".join(body), class_="rk-page"))  # one block, as mkdocs renders it


def _link_html(page: str, item: SectionLink, ja: bool) -> str:
    if item.document == CR:
        label = f"{'CR' if item.game == 'mtg' else '総合ゲームルール'} {item.number}"
        where = " " + element("span", _ui("as_of", ja, version=item.version), class_="rk-date") if item.version else ""
        return element("a", esc(label), href=links.relative(page, item.path)) + where
    kind = document_kind(item.game, item.document)
    return element("a", esc(f"{kind.short} {item.number} {item.title}".strip()), href=links.relative(page, item.path),
                   translate="no")  # a section's name in its document's words


def _analogue_html(page: str, item: SectionLink, ja: bool) -> str:
    parts = [element("p", element("strong", _link_html(page, item, ja)) + " "
                     + element("span", esc(item.relation), class_="rk-kind"))]
    for key, value in (("evidence", item.evidence), ("differs", item.differs)):
        if value:
            parts.append(element("p", element("span", _ui(key, ja), class_="rk-part-head") + ": " + curated(value)))
    return element("div", "".join(parts), class_="rk-analogue")


def rule_section_citations_html(site: SiteData, path: str, game: str, number: RuleNumber) -> str:
    """For a rule page: the tournament sections that cite the rule, each with the release it meant."""
    found = sections_citing_rule(site.knowledge, game, str(number))
    if not found:
        return ""
    ja = game == "dm"
    items = []
    for item in found:
        kind = document_kind(item.game, item.document)
        label = f"{kind.short} {item.number} {item.title} ({item.version})"
        items.append(element("li", link(path, item.path, label) + " " + element("q", esc(item.raw))))
    return element("h2", _ui("cited_by_rules", ja), id="cited-by-sections") + element("ul", "".join(items))


def write_section_api(knowledge: Knowledge, site_dir: Path) -> None:
    """``/api/{game}/{document}/{version}.json``: every section of one version, as ``show --json`` prints it."""
    sections = knowledge.catalog.sections
    for game, document, lang in sections.documents():
        for label in sections.labels(game, document, lang):
            records = [answer_section(knowledge, s).to_record()
                       for s in sections.sections_in(game, document, lang, label).values()]
            target = site_dir / links.api_document(game, document, label).lstrip("/")
            target.parent.mkdir(parents=True, exist_ok=True)
            body = people_json({"game": game, "document": document, "lang": lang, "version": label,
                                "sections": records}, indent=1, sort_keys=True)
            try:
                replace_file(target, lambda out, body=body: out.write(body + "\n"), 0o644)
            except OSError as exc:
                raise OutputError(str(target), exc.strerror or str(exc)) from None
