"""The version-independent page of each rule number (``/dm/rule/507.2a/``).

Every version of both languages, side by side; consecutive identical versions collapsed
into one entry (pages grow with distinct texts, not with releases); each era of a reused
number apart, with the break marked and the lineage linked; the notices a reader needs
when the two languages do not state the same rule; citations in and out; change notices,
commentary, the analogue in the other game, and the rule's neighbourhood.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from rules_kb import links
from rules_kb.ask.chains import analogues_of, gone_notes
from rules_kb.ask.query import (
    Renumbering,
    citations_of,
    documents_about,
    history_with_eras,
    kind_edges,
    newest_of,
    renumbering_of,
)
from rules_kb.compare.changes import RowChange, compare_texts
from rules_kb.games import GAME_NAMES, GAMES, LANG_NAMES, LANGS
from rules_kb.kb.ids import doc_id, rule_id, text_id
from rules_kb.model import RuleText
from rules_kb.numbers import RuleNumber
from rules_kb.render.diffmarkup import render_html
from rules_kb.render.html import Page, copy_buttons, curated, dated_html, element, esc, link, release_date, text_html
from rules_kb.render.neighbourhood import neighbourhood_html
from rules_kb.render.notice_pages import has_notice_page
from rules_kb.render.rule_notices import rule_notices
from rules_kb.render.rule_text import rule_text_html
from rules_kb.render.section_pages import rule_section_citations_html
from rules_kb.render.site_data import SiteData
from rules_kb.render.story_pages import STORY_GAMES, story_numbers
from rules_kb.render.textformat import same_text_once

ENTRY_LABELS = {
    "ja": {"unchanged": "{first}から{last}まで変更なし（{count}版）", "changes": "{prev}からの変更",
           "era": "{version}以降、この番号は別のルールです。",
           "older": "以前の版 ({count})", "subrules": "{version} の下位ルール"},
    "en": {"unchanged": "unchanged from {first} to {last}, {count} releases", "changes": "changes from {prev}",
           "era": "From {version} on, this number is another rule.",
           "older": "older versions ({count})", "subrules": "its subrules in {version}"},
}


@dataclass
class Entry:
    """Consecutive versions of one language that say exactly the same thing."""

    texts: list[RuleText]
    new_era: bool
    key: tuple = field(default=())

    @property
    def labels(self) -> list[str]:
        return list(dict.fromkeys(t.version for t in self.texts))


def rule_pages(site: SiteData) -> Iterator[Page]:
    for game in GAMES:
        stories = set(story_numbers(site, game)) if game in STORY_GAMES else set()
        for number in sorted(site.numbers[game]):
            yield rule_page(site, game, number, stories)


def collapse(texts: list[RuleText], starts: list[bool]) -> list[Entry]:
    """Group consecutive identical texts (same title, text and examples) within an era."""
    entries: list[Entry] = []
    for text, new_era in zip(texts, starts, strict=True):
        key = (text.title, text.text, tuple(e.text for e in text.examples), text.truncated)
        if entries and not new_era and entries[-1].key == key:
            entries[-1].texts.append(text)
        else:
            entries.append(Entry([text], new_era, key))
    return entries


def rule_entries(knowledge, game: str, number: RuleNumber) -> tuple[list[RuleText], dict[str, list[Entry]]]:
    """A number's texts (a cut-off copy is its version, not a change) and, per language, its runs
    of versions saying the same thing: what the page shows and ``history`` prints."""
    texts, starts = history_with_eras(knowledge, number, game)
    shown = [index for index, _ in same_text_once(texts)]
    texts, starts = [texts[i] for i in shown], [starts[i] for i in shown]
    by_lang = {}
    for lang in LANGS:
        picked = [(t, s) for t, s in zip(texts, starts, strict=True) if t.lang == lang]
        if picked:
            by_lang[lang] = collapse([t for t, _ in picked], [s for _, s in picked])
    return texts, by_lang


def rule_page(site: SiteData, game: str, number: RuleNumber, stories: set[RuleNumber] = frozenset()) -> Page:
    knowledge = site.knowledge
    path = links.rule_page(game, number)
    texts, by_lang = rule_entries(knowledge, game, number)
    moves = renumbering_of(knowledge, number, game)
    columns = [_column(site, path, lang, entries, moves) for lang, entries in by_lang.items()]
    title = f"{GAME_NAMES[game]} {number}"
    parts = [element("h1", esc(title) + copy_buttons(path, None, path)),
             element("p", " · ".join([link(path, links.game_page(game), f"{GAME_NAMES[game]}: all versions")] + (
                 [link(path, links.story_page(game, RuleNumber(number.section)), f"the story of {number.section}")]
                 if RuleNumber(number.section) in stories else [])), class_="rk-nav"),
             "".join(element("p", dated_html(note), class_="rk-gone")
                     for note in gone_notes(knowledge, newest_of(texts))),
             rule_notices(site, path, game, number, texts),
             element("div", "".join(columns), class_="rk-columns" if len(columns) > 1 else "rk-column-one"),
             _trail(path, game, moves),
             _citations_out(site, path, game, number, texts),
             _citations_in(site, path, game, number),
             rule_section_citations_html(site, path, game, number),
             _documents(site, path, game, number),
             _analogues(site, path, game, number),
             neighbourhood_html(site, path, game, number)]
    body = element("div", "".join(p for p in parts if p), class_="rk-page rk-rule-page")
    return Page(path, f"{game} {number}", body)


def _column(site: SiteData, path: str, lang: str, entries: list[Entry], moves: list[Renumbering]) -> str:
    """A language's entries, newest first (today's text is what a judge at the table wants), the
    older ones folded; each era break stays between the eras it separates."""
    words = ENTRY_LABELS[lang]
    blocks: list[str] = []  # per entry, oldest first: the entry, then the break that starts its era
    previous: Entry | None = None
    for entry in entries:
        first, last = entry.texts[0], entry.texts[-1]
        if entry.new_era:
            went = [m for m in moves if m.lang == lang and m.direction == "moved to"
                    and previous is not None and m.from_version == previous.texts[-1].version]
            lineage = "".join(" " + _move_link(path, first.game, m) for m in went)
            era = element("div", dated_html(words["era"].format(version=first.version)) + lineage,
                          class_="rk-era-break")
            previous = None
        else:
            era = ""
        labels = entry.labels
        head = [link(path, links.pinned_rule(first.game, lang, labels[0], first.number), labels[0])]
        if len(labels) > 1:
            head = [element("span", dated_html(words["unchanged"].format(first=labels[0], last=labels[-1],
                                                                         count=len(labels))), class_="rk-collapsed"),
                    " (" + ", ".join(link(path, links.pinned_rule(first.game, lang, label, first.number), label)
                                     for label in (labels[0], labels[-1])) + ")"]
        dates = _entry_dates(first, last)
        if dates:
            head.append(element("span", dated_html(" " + dates), class_="rk-date"))
        body = rule_text_html(site, path, last, anchor=False)
        diff = _entry_diff(site, path, lang, previous, entry) if previous is not None else ""
        diff += _newest_link(site, path, first, labels[-1])
        blocks.append(element("div", element("div", "".join(head), class_="rk-entry-head") + body + diff,
                              class_="rk-entry", data_versions=" ".join(labels)) + era)
        previous = entry
    newest, *older = reversed(blocks)
    out = [element("h2", esc(LANG_NAMES[lang]), id=f"lang-{lang}"), newest,
           _subrules(site, path, entries[-1].texts[-1])]
    if older:
        summary = element("summary", esc(words["older"].format(count=len(older))))
        out.append(element("details", summary + "".join(older), class_="rk-older"))
    return element("section", "".join(out), class_="rk-lang", lang=lang)


def _subrules(site: SiteData, path: str, text: RuleText) -> str:
    """Beneath a heading (``702.2. Deathtouch``), the subrules of its version, as the rulebook
    prints them: a heading's page would otherwise say only its name."""
    if not text.is_heading:
        return ""
    version = site.catalog.rules_in(text.game, text.lang, text.version)
    found = [version[number] for number in site.children_of(text.game, text.number) if number in version]
    blocks = [rule_text_html(site, path, texts[same_text_once(texts)[0][0]], anchor=False, copy=False)
              for texts in found]
    if not blocks:
        return ""
    words = ENTRY_LABELS[text.lang]["subrules"].format(version=text.version)
    return element("div", element("p", dated_html(words), class_="rk-subrules-head") + "".join(blocks),
                   class_="rk-subrules")


def _entry_dates(first: RuleText, last: RuleText) -> str:
    """The dates of an entry's first and last versions, when they say more than the labels: each said
    as what it is (``release_date``: effective date against a file date)."""
    said = list(dict.fromkeys(filter(None, (release_date(t.version, t.date) for t in (first, last)))))
    return " – ".join(said)


def entry_change(previous: Entry, entry: Entry) -> RowChange:
    """What changed from one distinct text to the next, classed as ``diff`` and ``explain`` class it."""
    return compare_texts(previous.texts[-1], entry.texts[0], entry.texts[0].game)


def _entry_diff(site: SiteData, path: str, lang: str, previous: Entry, entry: Entry) -> str:
    """What changed from the previous distinct text: token diffs of the text and the examples."""
    old, new = previous.texts[-1], entry.texts[0]
    words = ENTRY_LABELS[lang]
    change = entry_change(previous, entry)
    diffs = [change.diff, *change.example_diffs]
    shown = "".join(element("div", render_html(d), class_="rk-diff" if i == 0 else "rk-example rk-diff")
                    for i, d in enumerate(diffs))
    kind = change.text_class
    page = ""
    target = site.diff_link(new.game, lang, old.version, new.version, new.number)
    if target is not None:
        page = element("p", link(path, target, f"diff page {old.version}..{new.version}"))
    summary = element("summary", esc(words["changes"].format(prev=old.version)) + esc(f" ({kind})"))
    return element("details", summary + shown + page, class_="rk-entry-diff", data_class=kind)


def _newest_link(site: SiteData, path: str, text: RuleText, last_label: str) -> str:
    """A link to this entry's last version compared with the newest, in the browser's compare page."""
    labels = site.labels_with_texts(text.game, text.lang)
    if not labels or last_label == labels[-1]:
        return ""
    target = links.compare_pair(text.game, text.lang, last_label, labels[-1], str(text.number))
    return element("p", link(path, target, f"compare {last_label}..{labels[-1]} (newest)"), class_="rk-newest")


def _move_link(path: str, game: str, move: Renumbering) -> str:
    label = f"{move.direction} {move.other} on {move.to_version}"
    return link(path, links.rule_page(game, RuleNumber.parse(move.other)), label, class_="rk-lineage")


def _trail(path: str, game: str, moves: list[Renumbering]) -> str:
    if not moves:
        return ""
    items = "".join(element("li", _move_link(path, game, m) + dated_html(f" ({m.lang}, from {m.from_version}, "
                                                                   f"similarity {m.similarity:.2f})"))
                    for m in moves)
    return element("h2", "Renumbering trail", id="trail") + element("ul", items)


def _citations_out(site: SiteData, path: str, game: str, number: RuleNumber, texts: list[RuleText]) -> str:
    """What the rule cites: what today's texts cite, then, apart, what only its earlier texts cited."""
    cited: dict[RuleNumber, list[RuleText]] = {}
    graph, cites = site.knowledge.graph, kind_edges(site.knowledge, "cites")
    for text in texts:
        for _, target, _ in cites.out_edges(text_id(text)):
            cited.setdefault(RuleNumber.parse(graph.nodes[target]["number"]), []).append(text)
    if not cited:
        return ""
    today, earlier = [], []
    for other in sorted(cited):
        current = [t for t in cited[other] if _is_current(site, t)]
        citing = (current or cited[other])[-1]
        if other in site.catalog.rules_in(game, citing.lang, citing.version):
            target = links.pinned_rule(game, citing.lang, citing.version, other)
            where = f" ({'as of' if current else 'until'} {citing.lang} {citing.version})"
            item = element("li", link(path, target, str(other)) + dated_html(where))
        elif site.number_known(game, other):
            item = element("li", link(path, links.rule_page(game, other), str(other))
                           + esc(" (not in the citing version)"))
        else:
            item = element("li", element("span", esc(str(other)), class_="rk-unresolved",
                                         title="unresolved: no such rule in the corpus"))
        (today if current else earlier).append(item)
    out = element("h2", "Cites", id="cites-out")
    out += element("ul", "".join(today)) if today else element("p", "nothing, in today's text")
    return out + _earlier(earlier, "cited by earlier texts only")


def _is_current(site: SiteData, text: RuleText) -> bool:
    """Whether a text is its number's text today in its language."""
    return site.current_version(text.game, text.lang, text.number) == text.version


def _earlier(items: list[str], words: str) -> str:
    """Citations that only earlier versions made: history, folded and labelled as such."""
    if not items:
        return ""
    summary = element("summary", esc(f"{words} ({len(items)})"))
    return element("details", summary + element("ul", "".join(items)), class_="rk-cites-earlier")


def _citations_in(site: SiteData, path: str, game: str, number: RuleNumber) -> str:
    """Who cites the rule today (the citing rules' and glossary's texts of today), then, apart, the
    citations only earlier versions made, each with the last version that made it."""
    found = [c for c in citations_of(site.knowledge, number, game) if c.source_kind != "section"]  # listed apart
    search = element("p", link(path, links.search_cites(number), f"search: cites:{number}"), class_="rk-search-cites")
    if not found:
        return element("h2", "Cited by", id="cites-in") + element("p", "nothing in the corpus cites it") + search
    latest: dict[tuple[str, str], object] = {}
    current: set[tuple[str, str]] = set()
    for c in found:  # oldest first: keep the newest version of each citing rule or term
        latest[(c.source_kind, c.number)] = c
        if _cites_today(site, game, c):
            current.add((c.source_kind, c.number))
    today, earlier = [], []
    for key, c in sorted(latest.items(), key=lambda item: _citer_order(item[0])):
        kind, cited_by = key
        when = f"{c.lang} {c.version}" if key in current else f"until {c.lang} {c.version}"
        if kind == "text":
            target = links.pinned_rule(game, c.lang, c.version, RuleNumber.parse(cited_by))
            item = element("li", link(path, target, cited_by) + dated_html(f" ({when})"))
        else:
            item = element("li", dated_html(f"glossary: {cited_by} ({when})"))
        (today if key in current else earlier).append(item)
    out = element("h2", "Cited by", id="cites-in")
    out += element("ul", "".join(today)) if today else element("p", "nothing in today's rules cites it")
    return out + _earlier(earlier, "cited in earlier versions only") + search


def _cites_today(site: SiteData, game: str, citation) -> bool:
    """Whether a citation is made by today's text of its rule, or by today's glossary."""
    if citation.source_kind == "text":
        return site.current_version(game, citation.lang, RuleNumber.parse(citation.number)) == citation.version
    return site.newest_glossary(game, citation.lang) == citation.version


def _citer_order(key: tuple[str, str]) -> tuple:
    kind, name = key
    return (0, RuleNumber.parse(name).sort_key(), "") if kind == "text" else (1, (0, 0, ""), name)


def _documents(site: SiteData, path: str, game: str, number: RuleNumber) -> str:
    docs = documents_about(site.knowledge, number, game)
    if not docs:
        return ""
    graph = site.knowledge.graph
    items = []
    for doc in docs:
        label = "change notice" if doc.kind == "changed_by" else "commentary"
        meta = site.catalog.documents[doc.document].meta
        name = link(path, f"{links.notice_page(game, doc.document)}#{number}" if doc.kind == "changed_by"
                    else links.notice_page(game, doc.document), doc.document) \
            if has_notice_page(site, doc.document) else esc(doc.document)
        text = esc(f"{label} ") + name + dated_html(f" ({doc.date}):" if doc.date else ":") + " " + element(
            "span", dated_html(meta.source), translate="no")
        pinned = [v for v in meta.versions if number in site.catalog.rules_in(game, meta.languages[0], v)]
        extra = "".join(" " + link(path, links.pinned_rule(game, meta.languages[0], v, number), f"as printed ({v})")
                        for v in pinned)
        passages = sorted({d.get("passage", "") for _, t, d in graph.out_edges(rule_id(game, number), data=True)
                           if d.get("kind") == "discussed_by" and t == doc_id(doc.document)} - {""})
        quoted = "".join(element("blockquote", text_html(p), lang=meta.languages[0]) for p in passages)
        items.append(element("li", text + extra + quoted))
    return element("h2", "Change notices and commentary", id="documents") + element("ul", "".join(items))


def _analogues(site: SiteData, path: str, game: str, number: RuleNumber) -> str:
    found = analogues_of(site.knowledge, number, game)
    if not found:
        return ""
    items = []
    for row in found:
        other = RuleNumber.parse(row.analogue)
        name = f"{GAME_NAMES[row.analogue_game]} {other}"
        target = link(path, links.rule_page(row.analogue_game, other), name) \
            if site.number_known(row.analogue_game, other) else esc(name)
        versions = ", ".join(row.mtg_versions)
        items.append(element("li", target + dated_html(f" (Magic {versions}):") + " " + curated(row.evidence)))
    return element("h2", "Analogue in the other game", id="analogue") + element("ul", "".join(items))
