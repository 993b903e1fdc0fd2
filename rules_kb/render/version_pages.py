"""Version-pinned pages: one page per chapter of each version (``/dm/ja/1.38/5/``, sections
500-599), the contents of each version (``/dm/ja/1.38/``) and each game's timeline (``/dm/``).

A rule's ``id`` on its chapter page is its number, so ``…/5/#507.2a`` is the pinned
permalink; each section heading carries ``id="s507"``. A chapter rather than a section per
page keeps the whole Magic history within a free host's file count (``docs/url-scheme.md``).
When several documents give the same version of a number (an excerpt and a whole rulebook, a
rulings page quoting a release), its text is shown once (``same_text_once``: a copy, or a copy cut
off, is not shown again); a text that says something else follows the first, which carries the
``id``, under the name of the document printing it.

A Magic release older than the newest of its language is drawn in the browser: its chapter
page holds the heading, the navigation and the address of the version's JSON, and
``site/assets/reader.js`` writes the same rule blocks from that JSON (``read_in_browser``).
The JSON holds the same texts already, so the static copies were a third of the site's bytes
for pages that are rarely opened (``docs/url-scheme.md``, "Pinned pages read in the browser").
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby

from rules_kb import links
from rules_kb.games import GAME_NAMES, GAMES, LANG_NAMES, LANGS, REGISTRY, document_kind
from rules_kb.model import RuleText
from rules_kb.numbers import RuleNumber
from rules_kb.render.html import ISO_DATE, Page, dated_html, element, esc, link, release_date
from rules_kb.render.notice_pages import notice_documents, notice_list
from rules_kb.render.rule_text import EXAMPLE_LABEL, rule_text_html
from rules_kb.render.site_data import SiteData
from rules_kb.render.textformat import same_text_once
from rules_kb.render.whats_new_pages import whats_new_links

KIND_LABEL = {"full": "complete rulebook", "excerpt": "excerpt", "change-notice": "change notice",
              "dated-paragraph": "dated paragraphs", "contents": "contents only", "mentioned": "mentioned only"}
LABELS = {
    "ja": {"version": "版", "sections": "セクション", "rules": "ルール数", "previous": "前の章",
           "next": "次の章", "contents": "目次", "read": "最初から読む (章ごと、印刷可)",
           "pinned": "この版の固定リンク", "glossary": "用語集",
           "partial": "部分的な版: この版は{count}件のルールだけを載せています。"
                      "ここにないルールは不明であり、削除ではありません。",
           "whole": "最新の完全なルールブック: ",
           "whole_count": " ({count}件)"},
    "en": {"version": "version", "sections": "sections", "rules": "rules", "previous": "previous chapter",
           "next": "next chapter", "contents": "contents",
           "read": "read it from the start (a page per chapter, printable)", "pinned": "this version's permalink",
           "glossary": "glossary",
           "partial": "Partial version: it prints {count} rules only; a rule absent here is unknown, not removed.",
           "whole": "The newest complete rulebook: ",
           "whole_count": " ({count} rules)"},
}


def sections_of(site: SiteData, game: str, lang: str, label: str) -> list[tuple[str, list[RuleNumber]]]:
    """The version's numbers grouped by the section page they live on, in order."""
    numbers = sorted(site.catalog.rules_in(game, lang, label))
    return [(section, list(group)) for section, group in groupby(numbers, key=links.section_of)]


def version_summary(site: SiteData, game: str, lang: str, label: str) -> str:
    """A version's date (saying which date it is when its label is another), kinds and documents."""
    info = site.catalog.versions[(game, lang, label)]
    kinds = ", ".join(KIND_LABEL.get(k, k) for k in sorted(info.kinds))
    date = release_date(label, info.date) or info.date
    return f"{date + ', ' if date else ''}{kinds}; from {', '.join(info.documents)}"


Sections = list[tuple[str, list[RuleNumber]]]


def chapters_of(site: SiteData, game: str, lang: str, label: str) -> list[tuple[str, Sections]]:
    """The version's sections grouped by the chapter page they live on, in order."""
    sections = sections_of(site, game, lang, label)
    return [(chapter, list(group)) for chapter, group in groupby(sections, key=lambda s: str(int(s[0]) // 100))]


def section_anchor(section: str) -> str:
    """The ``id`` of a section's heading on its chapter page (a rule number never starts with ``s``)."""
    return f"s{section}"


SOURCE_LABEL = {"ja": "{document} ではこう書かれています:", "en": "as {document} prints it:"}
SCRIPTS = ("/assets/link-grammar.js", "/assets/refs.js", "/assets/reader.js")
NOSCRIPT = {"ja": "この版の本文はブラウザーで表示されます (JavaScript が必要)。本文の JSON: ",
            "en": "This release's text is drawn by your browser (it needs JavaScript). Its text as JSON: "}


def read_in_browser(site: SiteData, game: str, lang: str, label: str) -> bool:
    """Whether a version's chapter pages are drawn from its JSON: a Magic release that is not the
    newest of its language, read from one whole document with one text per number (all that the
    version JSON carries, so the page shows the same as a static one)."""
    if not REGISTRY[game].old_releases_drawn or label == site.labels_with_texts(game, lang)[-1]:
        return False
    info = site.catalog.versions[(game, lang, label)]
    if len(info.documents) != 1 or not info.complete:
        return False
    rules = site.catalog.rules_in(game, lang, label)
    return all(len(texts) == 1 and not texts[0].truncated for texts in rules.values())


def chapter_pages(site: SiteData) -> Iterator[Page]:
    for game in GAMES:
        for lang in LANGS:
            for label in site.labels_with_texts(game, lang):
                chapters = chapters_of(site, game, lang, label)
                drawn = read_in_browser(site, game, lang, label)
                for i, (chapter, sections) in enumerate(chapters):
                    before = chapters[i - 1][0] if i else None
                    after = chapters[i + 1][0] if i + 1 < len(chapters) else None
                    yield _chapter_page(site, game, lang, label, chapter, sections, before, after, drawn)


def _chapter_page(site: SiteData, game: str, lang: str, label: str, chapter: str,
                  sections: list[tuple[str, list[RuleNumber]]], before: str | None, after: str | None,
                  drawn: bool) -> Page:
    path = links.chapter_page(game, lang, label, chapter)
    words = LABELS[lang]
    info = site.catalog.versions[(game, lang, label)]
    rules = site.catalog.rules_in(game, lang, label)
    nav = [link(path, links.version_page(game, lang, label), f"{words['contents']} ({label})")]
    if before:
        nav.append(link(path, links.chapter_page(game, lang, label, before), f"← {before}00", rel="prev"))
    if after:
        nav.append(link(path, links.chapter_page(game, lang, label, after), f"{after}00 →", rel="next"))
    span = f"{sections[0][0]}–{sections[-1][0]}" if len(sections) > 1 else sections[0][0]
    parts = [element("h1", esc(f"{GAME_NAMES[game]} {LANG_NAMES[lang]} {label}: {span}")),
             element("p", " · ".join(nav), class_="rk-nav"),
             element("p", dated_html(version_summary(site, game, lang, label)), class_="rk-meta",
                     data_permalink=path)]
    parts.append(partial_note(site, path, game, lang, label))
    documents = info.documents
    if drawn:
        parts.append(_reader(path, game, lang, label, chapter))
        body = element("div", "".join(parts), class_="rk-page rk-section rk-chapter", lang=lang,
                       data_document=documents[0])
        return Page(path, f"{game} {lang} {label} {span}", body)
    for section, numbers in sections:
        parts.append(element("span", "", id=section_anchor(section), class_="rk-anchor"))
        for number in numbers:
            parts.extend(_number_html(site, path, rules[number], documents[0]))
    body = element("div", "".join(parts), class_="rk-page rk-section rk-chapter", lang=lang,
                   data_document=documents[0])
    return Page(path, f"{game} {lang} {label} {span}", body)


def _number_html(site: SiteData, path: str, texts: list[RuleText], document: str) -> list[str]:
    """A number's texts in one version: each distinct text once, the first with the ``id``, any other
    under the name of the document that prints it (its ``from`` line, as a rule page names it)."""
    shown = same_text_once(texts)
    out = []
    for i, (index, _) in enumerate(shown):
        text = texts[index]
        block = rule_text_html(site, path, text, anchor=i == 0, compact=document)
        if i:
            block = element("div", element("p", esc(SOURCE_LABEL[text.lang].format(document=text.document)),
                                           class_="rk-source") + block, class_="rk-other-source")
        out.append(block)
    return out


def partial_note(site: SiteData, path: str, game: str, lang: str, label: str) -> str:
    """For a partial version (an excerpt, a change notice): that it is one, how few rules it prints,
    and the newest complete rulebook of its language, so no reader takes it for the whole rules."""
    if site.catalog.versions[(game, lang, label)].complete:
        return ""
    words = LABELS[lang]
    count = len(site.catalog.rules_in(game, lang, label))
    note = esc(words["partial"].format(count=count))
    versions = site.catalog.versions
    whole = [other for other in site.labels_with_texts(game, lang) if versions[(game, lang, other)].complete]
    if whole:
        count = len(site.catalog.rules_in(game, lang, whole[-1]))
        note += " " + esc(words["whole"]) + link(path, links.version_page(game, lang, whole[-1]), whole[-1]) + esc(
            words["whole_count"].format(count=count))
    return element("p", note, class_="rk-partial")


def _reader(path: str, game: str, lang: str, label: str, chapter: str) -> str:
    """The placeholder ``reader.js`` fills with the chapter's rules, and the scripts it needs."""
    api = links.api_version(game, lang, label)
    fallback = element("noscript", element("p", esc(NOSCRIPT[lang]) + link(path, api, api)))
    box = element("div", fallback + element("p", "…", class_="rk-reader-wait"), class_="rk-reader",
                  data_api=api, data_root=links.relative(path, "/"), data_chapter=chapter, data_game=game,
                  data_lang=lang, data_version=label, data_example=EXAMPLE_LABEL[lang],
                  data_rules=links.relative(path, links.rule_page(game, links.PROBE)).removesuffix(f"{links.PROBE}/"))
    return box + "".join(element("script", "", src=links.relative(path, script), defer=True) for script in SCRIPTS)


def version_pages(site: SiteData) -> Iterator[Page]:
    for game in GAMES:
        for lang in LANGS:
            labels = site.labels_with_texts(game, lang)
            for label in labels:
                yield _version_page(site, game, lang, label, links.version_page(game, lang, label))
            if labels:
                yield _version_page(site, game, lang, labels[-1], links.latest_page(game, lang))


def _version_page(site: SiteData, game: str, lang: str, label: str, path: str) -> Page:
    """A version's contents: its sections, each linking to its place on the chapter pages, which
    read in order (previous / next) are the whole rulebook; also served as the newest's ``latest``."""
    words = LABELS[lang]
    rules = site.catalog.rules_in(game, lang, label)
    items = []
    for section, numbers in sections_of(site, game, lang, label):
        head = rules.get(RuleNumber(int(section)))
        title = head[0].title or head[0].text if head else ""
        target = f"{links.chapter_page(game, lang, label, str(int(section) // 100))}#{section_anchor(section)}"
        items.append(element("li", link(path, target, section)
                             + (" " + element("span", esc(title[:120]), lang=lang, class_="rk-title") if title else "")
                             + f" ({len(numbers)})"))
    first = chapters_of(site, game, lang, label)[0][0]
    nav = [link(path, links.game_page(game), f"{GAME_NAMES[game]}: all versions"),
           link(path, links.chapter_page(game, lang, label, first), words["read"])]
    if site.has_glossary(game, lang, label):
        nav.append(link(path, links.glossary_page(game, lang, label), words["glossary"]))
    if path == links.latest_page(game, lang):
        nav.append(link(path, links.version_page(game, lang, label), f"{words['pinned']}: {label}"))
    parts = [element("h1", esc(f"{GAME_NAMES[game]} {LANG_NAMES[lang]} {label}")),
             element("p", " · ".join(nav), class_="rk-nav"),
             element("p", dated_html(version_summary(site, game, lang, label)) + f"; {len(rules)} {words['rules']}",
                     class_="rk-meta"),
             partial_note(site, path, game, lang, label),
             element("ul", "".join(items), class_="rk-sections")]
    return Page(path, f"{game} {lang} {label}", element("div", "".join(parts), class_="rk-page"))


# The timeline's columns; where versions are labelled with their file's date (Magic), the two dates are named.
TIMELINE_HEADS = {False: ("date", "lang", "version", "kind", "complete?", "rules"),
                  True: ("effective date", "lang", "version (file date)", "kind", "complete?", "rules")}
FILE_DATES_NOTE = ("A release is labelled with the date of its file; its rules take effect on the date its text "
                   "states, which can differ from it by days.")


def game_pages(site: SiteData) -> Iterator[Page]:
    """Each game's timeline: every version of each language, with date, kind and what the corpus holds."""
    for game in GAMES:
        path = links.game_page(game)
        rows = []
        file_dates = False  # whether a label is a date other than the version's own (Magic's file date)
        for lang in LANGS:
            for label in site.catalog.version_labels(game, lang):
                info = site.catalog.versions[(game, lang, label)]
                file_dates = file_dates or (ISO_DATE.fullmatch(label) is not None and info.date not in (None, label))
                count = len(site.catalog.rules_in(game, lang, label))
                name = link(path, links.version_page(game, lang, label), label) if count else esc(label)
                state = "complete" if info.complete else "partial"
                rows.append((info.sort_key(), lang, element("tr", "".join([
                    element("td", dated_html(info.date or "")), element("td", esc(lang)), element("td", name),
                    element("td", esc(", ".join(KIND_LABEL.get(k, k) for k in sorted(info.kinds)))),
                    element("td", state), element("td", str(count))]))))
        rows.sort(key=lambda r: (r[0], r[1]), reverse=True)  # newest first: today's release on top
        heads = TIMELINE_HEADS[file_dates]
        table = element("table", element("thead", element("tr", "".join(element("th", h) for h in heads)))
                        + element("tbody", "".join(r[2] for r in rows)), class_="rk-timeline", tabindex="0")
        parts = [element("h1", esc(f"{GAME_NAMES[game]}: timeline")),
                 element("p", esc("Every version the corpus knows of, newest first. Partial versions (excerpts, "
                                  "change notices) say nothing about the rules they do not print.")),
                 element("p", esc(FILE_DATES_NOTE)) if file_dates else "",
                 extra_links(site, game, path), table, notice_list(site, game, path)]
        yield Page(path, GAME_NAMES[game], element("div", "".join(parts), class_="rk-page"))


def extra_links(site: SiteData, game: str, path: str) -> str:
    """Links from a game's page to its other page kinds (filled by the page generators that exist)."""
    found = [link(path, links.compare_page(game), "compare any two versions"),
             link(path, links.drift_page(game), "translation drift")]
    found.extend(whats_new_links(site, game, path))
    found.extend(link(path, links.document_home(game, document), document_kind(game, document).name(lang))
                 for g, document, lang in site.catalog.sections.documents() if g == game)
    if notice_documents(site, game):
        found.append(element("a", "change notices and commentary", href="#notices"))
    return element("p", " · ".join(found), class_="rk-nav rk-game-links", data_game=game)
