"""A rule's neighbourhood, drawn as a small diagram in plain HTML and CSS.

Material renders Mermaid by loading mermaid.js from a CDN, which an offline site may not
do; the diagram is small (parent, siblings, children, and the rules it cites and that cite
it in the newest version of each language) so it is generated here as boxes instead, with
every box a link: nothing to load, nothing to execute.
"""

from __future__ import annotations

from rules_kb import links
from rules_kb.ask.query import kind_edges
from rules_kb.kb.ids import rule_id, text_id
from rules_kb.numbers import RuleNumber
from rules_kb.render.html import element, esc, link
from rules_kb.render.site_data import SiteData

MAX_CHILDREN = 30
MAX_CITATIONS = 12


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
    cites, cited_by = citations_newest(site, game, number)
    for label, found, cls in (("cites", cites, "rk-cites-out"), ("cited by", cited_by, "rk-cites-in")):
        if found:
            shown = "".join(box(n) for n in found[:MAX_CITATIONS])
            more = esc(f" … {len(found) - MAX_CITATIONS} more") if len(found) > MAX_CITATIONS else ""
            rows.append(element("div", element("span", esc(label), class_="rk-level-label") + shown + more,
                                class_=f"rk-level rk-citations {cls}"))
    return element("h2", "Neighbourhood", id="neighbourhood") + element(
        "div", "".join(rows), class_="rk-diagram", role="group",
        aria_label=f"{number}: parent, siblings, children and citations")


def citations_newest(site: SiteData, game: str, number: RuleNumber) -> tuple[list[RuleNumber], list[RuleNumber]]:
    """The numbers the rule's newest texts cite, and the numbers whose newest texts cite it
    (newest: the last version with texts of each language), known numbers only, in order."""
    graph, edges = site.knowledge.graph, kind_edges(site.knowledge, "cites")
    newest = {lang: labels[-1] for lang in site.languages(game) if (labels := site.labels_with_texts(game, lang))}
    cites: set[RuleNumber] = set()
    for lang, label in newest.items():
        for text in site.catalog.rules_in(game, lang, label).get(number, []):
            for _, target, _ in edges.out_edges(text_id(text)):
                cites.add(RuleNumber.parse(graph.nodes[target]["number"]))
    cited_by: set[RuleNumber] = set()
    node = rule_id(game, number)
    if node in graph:
        for source, _, _ in edges.in_edges(node):
            found = graph.nodes[source]
            if found.get("kind") == "text" and newest.get(found["lang"]) == found["version"]:
                cited_by.add(RuleNumber.parse(found["number"]))
    known = site.numbers[game]
    return sorted(n for n in cites if n in known and n != number), sorted(n for n in cited_by if n != number)
