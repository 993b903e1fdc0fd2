"""One rule text as HTML: number, title, text with its citations linked, examples set apart.

A citation links to the cited rule in the version the citing text belongs to; one that
resolves only in other versions links to the rule's version-independent page; one that
resolves nowhere is marked, with the reason on hover. Source text is always escaped.
"""

from __future__ import annotations

from rules_kb import links
from rules_kb.model import RuleText
from rules_kb.numbers import RuleNumber
from rules_kb.refs import find_references
from rules_kb.render.html import copy_buttons, element, esc, text_html
from rules_kb.render.site_data import SiteData

EXAMPLE_LABEL = {"ja": "例", "en": "Example"}


def cited_html(site: SiteData, page: str, rule: RuleText, body: str) -> str:
    """``body`` (a text of ``rule``) escaped, with each reference turned into a link or a marked span."""
    out: list[str] = []
    at = 0
    for ref in find_references(body, game=rule.game):
        out.append(text_html(body[at:ref.start]))
        out.append(_reference(site, page, rule, ref.numbers, body[ref.start:ref.end]))
        at = ref.end
    out.append(text_html(body[at:]))
    return "".join(out)


def _reference(site: SiteData, page: str, rule: RuleText, numbers: tuple[RuleNumber, ...], raw: str) -> str:
    here = site.catalog.rules_in(rule.game, rule.lang, rule.version)
    first = numbers[0]
    if first in here:
        target = links.pinned_rule(rule.game, rule.lang, rule.version, first)
        return element("a", text_html(raw), href=links.relative(page, target), class_="rk-cite")
    if site.number_known(rule.game, first):
        target = links.rule_page(rule.game, first)
        return element("a", text_html(raw), href=links.relative(page, target), class_="rk-cite rk-other",
                       title=f"{first} is not in {rule.lang} {rule.version}; it exists in other versions")
    return element("span", text_html(raw), class_="rk-unresolved",
                   title=f"unresolved: no rule {first} in any version of {rule.game} in the corpus")


def rule_text_html(site: SiteData, page: str, rule: RuleText, *, anchor: bool, copy: bool = True,
                   compact: str | None = None) -> str:
    """A rule text block; ``anchor`` gives it ``id`` = its number (once per page).

    ``compact`` (the page's document) is for the chapter pages, which hold every text of every
    version (most of the site's bytes): no copy buttons (``site.js`` adds them to each
    ``.rk-chapter .rk-rule``), no tooltip, no ``lang`` (the page's), and ``data-document`` only
    for a text from another document than the page's."""
    number = str(rule.number)
    pinned = links.pinned_rule(rule.game, rule.lang, rule.version, rule.number)
    independent = links.rule_page(rule.game, rule.number)
    head = element("a", esc(number), href=links.relative(page, independent), class_="rk-num",
                   title=None if compact else "every version of this rule")
    if rule.title:
        head += " " + element("span", text_html(rule.title), class_="rk-title")
    if copy and not compact:
        head += copy_buttons(page, pinned, independent)
    parts = [element("div", head, class_="rk-head")]
    if rule.text:
        parts.append(element("div", cited_html(site, page, rule, rule.text), class_="rk-text"))
    for example in rule.examples:
        label = element("span", EXAMPLE_LABEL.get(rule.lang, "Example"), class_="rk-example-label")
        parts.append(element("div", label + cited_html(site, page, rule, example.text), class_="rk-example"))
    if rule.truncated:
        parts.append(element("div", "cut off in its source document", class_="rk-note"))
    if compact:
        return element("div", "".join(parts), class_="rk-rule", id=number if anchor else None,
                       data_document=None if rule.document == compact else rule.document)
    return element("div", "".join(parts), class_="rk-rule", id=number if anchor else None, lang=rule.lang,
                   data_document=rule.document)
