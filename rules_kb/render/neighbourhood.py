"""A rule's neighbourhood, drawn as a small diagram in plain HTML and CSS.

Material renders Mermaid by loading mermaid.js from a CDN, which an offline site may not
do; the diagram is small (parent, siblings, children) so it is generated here as nested
boxes instead, with every box a link: nothing to load, nothing to execute.
"""

from __future__ import annotations

from rules_kb import links
from rules_kb.numbers import RuleNumber
from rules_kb.render.html import element, esc, link
from rules_kb.render.site_data import SiteData

MAX_CHILDREN = 30


def neighbourhood_html(site: SiteData, path: str, game: str, number: RuleNumber) -> str:
    known = site.numbers[game]
    parent = number.parent
    siblings = site.children_of(game, parent)
    at = siblings.index(number) if number in siblings else 0
    nearby = siblings[max(0, at - 2): at + 3]
    children = site.children_of(game, number)

    def box(other: RuleNumber, here: bool = False) -> str:
        if here:
            return element("span", esc(str(other)), class_="rk-box rk-here", aria_current="page")
        return link(path, links.rule_page(game, other), str(other), class_="rk-box")

    rows = []
    if parent is not None and parent in known:
        rows.append(element("div", box(parent), class_="rk-level rk-parent"))
    rows.append(element("div", "".join(box(n, n == number) for n in nearby), class_="rk-level rk-siblings"))
    if children:
        shown = "".join(box(n) for n in children[:MAX_CHILDREN])
        more = esc(f" … {len(children) - MAX_CHILDREN} more") if len(children) > MAX_CHILDREN else ""
        rows.append(element("div", shown + more, class_="rk-level rk-children"))
    return element("h2", "Neighbourhood", id="neighbourhood") + element(
        "div", "".join(rows), class_="rk-diagram", role="img", aria_label=f"{number}: parent, siblings and children")
