"""``sitemap.xml``: every page of the built site, at its absolute address, for a search engine.

mkdocs writes a sitemap of the pages it renders, and only when ``site_url`` is set; the site's
pages are nearly all generated outside mkdocs (``site/frame.py``) and served under any prefix, so
this writer replaces it with one listing every page (each ``index.html``; the 404 page is none),
under the base URL the build was given (``SiteData.base_url``). Sorted, without modification
dates: the same site gives the same bytes, gzipped copy included.

Each game's folder gets a sitemap too (``/dm/sitemap.xml``), an index naming the root's: the theme
reads every ``<link rel="alternate">`` of a page as another language of the site and fetches the
sitemap beside it on every page load, and the feeds' autodiscovery links (``/dm/feed.xml``) are
such links. Without the file the fetch is a 404 in the console; with each game's pages listed the
theme parsed 630 kB of XML on every page (0.5–0.7 s of the main thread at the whole history, before
a search page could show its first results); an index has no page for it to parse, and still
leads a crawler to every page.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path
from xml.sax.saxutils import escape

from rules_kb import links
from rules_kb.games import GAMES
from rules_kb.render.output import relative_prefix
from rules_kb.render.site_data import SiteData

SITEMAP = "sitemap.xml"
PAGE_FILE = "index.html"


def page_paths(folder: Path) -> list[str]:
    """The root path of every page in a built site (``/``, ``/dm/rule/507.2a/``), sorted."""
    found = []
    for where, _, names in os.walk(folder):
        if PAGE_FILE in names:
            found.append("/" + relative_prefix(folder, where))
    return sorted(found)


def sitemap_xml(base: str, paths: list[str]) -> str:
    """A sitemap (sitemaps.org 0.9) of ``paths`` under ``base``."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    lines += [f"<url><loc>{escape(links.absolute(base, path))}</loc></url>" for path in paths]
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"


def sitemap_index_xml(base: str, sitemap_path: str) -> str:
    """A sitemap index (sitemaps.org 0.9) naming one sitemap, ``sitemap_path`` under ``base``."""
    return "\n".join(['<?xml version="1.0" encoding="UTF-8"?>',
                      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
                      f"<sitemap><loc>{escape(links.absolute(base, sitemap_path))}</loc></sitemap>",
                      "</sitemapindex>"]) + "\n"


def write_sitemap(site: SiteData, folder: Path) -> None:
    """``sitemap.xml`` and ``sitemap.xml.gz`` at the site's root, and beside each game's feed an index
    naming it (a writer of the site build, after every page)."""
    _write(folder, sitemap_xml(site.base_url, page_paths(folder)))
    for game in GAMES:
        if (folder / game).is_dir():
            _write(folder / game, sitemap_index_xml(site.base_url, f"/{SITEMAP}"))


def _write(folder: Path, xml: str) -> None:
    data = xml.encode("utf-8")
    (folder / SITEMAP).write_bytes(data)
    (folder / f"{SITEMAP}.gz").write_bytes(gzip.compress(data, mtime=0))
