"""Small HTML helpers for the site's generated pages: escaping, elements, page records.

A page's body is finished HTML: written into the theme's frame as it is (``site/frame.py``),
or, for the few pages mkdocs renders, as one raw HTML block that Python-Markdown passes through
untouched. Either way source text (which may hold ``**b**``, ``{{ x }}`` or ``<script>``) is
escaped exactly once, here, and never read as Markdown or markup.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass

from rules_kb import links


def esc(text: object) -> str:
    """Text (never markup) for an element's content or a quoted attribute."""
    return html.escape(str(text), quote=True)


def attrs(**values: object) -> str:
    """`` name="value"`` pairs, escaped; ``None`` and ``False`` values are left out, ``class_`` → ``class``."""
    out = []
    for name, value in values.items():
        if value is None or value is False:
            continue
        name = name.rstrip("_").replace("_", "-")
        out.append(f' {name}' if value is True else f' {name}="{esc(value)}"')
    return "".join(out)


def element(tag: str, content: str = "", **values: object) -> str:
    """``<tag ...>content</tag>``; ``content`` is already HTML."""
    return f"<{tag}{attrs(**values)}>{content}</{tag}>"


def link(page: str, target: str, label: str, **values: object) -> str:
    """An ``<a>`` from the page at root path ``page`` to the root path ``target``, relative."""
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
