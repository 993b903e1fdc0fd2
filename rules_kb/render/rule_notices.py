"""The notices at the top of a rule page, for when the languages do not state the same rule.

Three sources, none written in code: the curated correspondences (``corpus/correspondences.toml``:
the English text labelled 1.38 of DM 507.2a is the pre-2021 rule, now Japanese 507.3b), the
lag detection ``explain`` uses (a translation that crossed a change with editorial edits only),
and the graph's drift flags (children or citations that differ between the two languages).
"""

from __future__ import annotations

from rules_kb import links
from rules_kb.ask.query import kind_edges
from rules_kb.ask.story import rule_lags
from rules_kb.games import LANG_NAMES
from rules_kb.kb.ids import text_id
from rules_kb.model import RuleText
from rules_kb.numbers import RuleNumber
from rules_kb.render.html import curated, element, esc, link
from rules_kb.render.site_data import SiteData


def rule_notices(site: SiteData, path: str, game: str, number: RuleNumber, texts: list[RuleText]) -> str:
    notices = _correspondences(site, path, game, number) + _drift(site, texts)
    if {t.lang for t in texts} >= {"ja", "en"}:
        notices += [element("p", esc(lag.describe())) for lag in rule_lags(site.knowledge, game, number)]
    if not notices:
        return ""
    head = element("summary", element("strong", "The languages do not say the same rule here")
                   + esc(f" ({len(notices)} {'note' if len(notices) == 1 else 'notes'})"), class_="rk-notice-title")
    return element("details", head + "".join(notices), class_="rk-mismatch")


def _target(site: SiteData, path: str, game: str, lang: str, version: str, number: RuleNumber) -> str:
    label = f"{LANG_NAMES[lang]} {number} ({version})"
    if number in site.catalog.rules_in(game, lang, version):
        return link(path, links.pinned_rule(game, lang, version, number), label)
    if site.number_known(game, number):
        return link(path, links.rule_page(game, number), label)
    return esc(label)


def _correspondences(site: SiteData, path: str, game: str, number: RuleNumber) -> list[str]:
    out = []
    for c in site.correspondences:
        if c.game != game or c.old[0] == c.new[0]:
            continue
        (old_lang, old_version, old_number), (new_lang, new_version, new_number) = c.old, c.new
        if old_number == number and new_number != number:
            out.append(element("p", esc(f"The {LANG_NAMES[old_lang]} text of {number} labelled {old_version} is "
                                        f"the rule as it stood before the {c.change} change; what it says is now ")
                               + _target(site, path, game, new_lang, new_version, new_number) + ". "
                               + curated(c.meaning)))
        if new_number == number and old_number != number:
            out.append(element("p", esc(f"The {LANG_NAMES[new_lang]} {number} ({new_version}) corresponds to the "
                                        f"pre-{c.change} ")
                               + _target(site, path, game, old_lang, old_version, old_number) + ". "
                               + curated(c.meaning)))
    return out


def _drift(site: SiteData, texts: list[RuleText]) -> list[str]:
    translations = kind_edges(site.knowledge, "translation")
    out = []
    for text in texts:
        if text.lang != "en":
            continue
        for _, _, data in translations.out_edges(text_id(text)):
            if data.get("kind") == "translation" and data.get("drifted"):
                notes = "; ".join(element("span", esc(note)) for note in data["drift"])
                out.append(element("p", esc(f"English and Japanese {text.version} differ in structure:") + " "
                                   + notes + "."))
                break
    return list(dict.fromkeys(out))
