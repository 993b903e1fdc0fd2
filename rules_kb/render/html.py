"""Small HTML helpers for the site's generated pages: escaping, elements, page records.

A page's body is finished HTML: written into the theme's frame as it is (``site/frame.py``),
or, for the few pages mkdocs renders, as one raw HTML block that Python-Markdown passes through
untouched. Either way source text (which may hold ``**b**``, ``{{ x }}`` or ``<script>``) is
escaped exactly once, here, and never read as Markdown or markup.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass

from rules_kb import links

# The characters ``html.escape(..., quote=True)`` replaces: most texts of a page hold none of them.
_SPECIAL = re.compile("[&<>\"']")


def esc(text: object) -> str:
    """Text (never markup) for an element's content or a quoted attribute."""
    text = str(text)
    return html.escape(text, quote=True) if _SPECIAL.search(text) else text


ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def dated_html(text: str) -> str:
    """Interface text escaped, each date in it kept on one line (``.rk-nw``): a narrow screen would
    otherwise break ``2001-07-23`` after a hyphen. Text with a date is one span, so that ``ui.js``
    puts the phrase into Japanese whole rather than the pieces around its dates."""
    marked = ISO_DATE.sub(lambda m: element("span", m.group(), class_="rk-nw"), esc(text))
    return marked if marked == esc(text) else element("span", marked, class_="rk-phrase")


def release_date(label: str, date: str | None) -> str:
    """What a version's date is, said beside its label: "" when it adds nothing (no date, or the
    label is the date); "effective D (file date L)" when the label is another date (Magic's file
    date against the date its text says it takes effect); else the date."""
    if not date or date == label:
        return ""
    return f"effective {date} (file date {label})" if ISO_DATE.fullmatch(label) else date


_NAMES: dict[str, str] = {}  # keyword → attribute name (``class_`` → ``class``), spelt once each


def attrs(**values: object) -> str:
    """`` name="value"`` pairs, escaped; ``None`` and ``False`` values are left out, ``class_`` → ``class``."""
    out = []
    for name, value in values.items():
        if value is None or value is False:
            continue
        spelt = _NAMES.get(name)
        if spelt is None:
            spelt = _NAMES[name] = name.rstrip("_").replace("_", "-")
        out.append(f' {spelt}' if value is True else f' {spelt}="{esc(value)}"')
    return "".join(out)


def element(tag: str, content: str = "", **values: object) -> str:
    """``<tag ...>content</tag>``; ``content`` is already HTML."""
    return f"<{tag}{attrs(**values)}>{content}</{tag}>" if values else f"<{tag}>{content}</{tag}>"


SHORT_LABEL = 40  # characters: a link this short holding a date is kept on one line on a phone


def link(page: str, target: str, label: str, **values: object) -> str:
    """An ``<a>`` from the page at root path ``page`` to the root path ``target``, relative. A short
    label holding a date (a version, ``diff page 2009-05-01..2009-07-08``) stays on one line
    (``.rk-nw``): its text stays one node, which ``ui.js`` translates whole."""
    if len(label) <= SHORT_LABEL and ISO_DATE.search(label):
        values["class_"] = " ".join(filter(None, (values.get("class_"), "rk-nw")))
    return element("a", esc(label), href=links.relative(page, target), **values)


def curated(text: str) -> str:
    """Prose the project wrote by hand in English (a correspondence's meaning, its evidence): shown
    as it is in either interface language, so marked ``translate="no"`` for ``ui.js``."""
    return element("span", esc(text), lang="en", translate="no")


def copy_buttons(page: str, pinned: str | None, independent: str) -> str:
    """Copy-link controls (site.js copies the absolute URL of ``data-copy``)."""
    buttons = []
    if pinned is not None:
        buttons.append(element("button", "copy pinned link", type="button", class_="rk-copy",
                               data_copy=links.relative(page, pinned), title="copy this version's permalink"))
    buttons.append(element("button", "copy rule link", type="button", class_="rk-copy",
                           data_copy=links.relative(page, independent), title="copy the version-independent permalink"))
    return element("span", "".join(buttons), class_="rk-copies")


@dataclass(frozen=True)
class Page:
    """One generated page: its root path (``/dm/rule/507.2a/``), title and HTML body."""

    path: str
    title: str
    body: str

    def markdown(self) -> str:
        """The page as a Markdown source: a title in front matter, the body as one raw HTML block."""
        return f"---\ntitle: {json.dumps(self.title, ensure_ascii=False)}\n---\n\n{self.body}\n"


def text_html(text: str) -> str:
    """Source text as HTML content; newlines become ``&#10;`` so a page's raw HTML block never
    holds a blank line (CSS ``white-space: pre-line`` shows them)."""
    return esc(text).replace("\n", "&#10;")
