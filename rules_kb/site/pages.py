"""Every page generator of the site, in two ordered lists: ``generate(site) -> Iterable[Page]``.

The pages that ``mkdocs.yml``'s nav names go through mkdocs (it must know them to build the
nav); every other page is written straight into the theme's frame (``site/frame.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rules_kb.render.compare_pages import compare_pages
from rules_kb.render.diff_pages import diff_pages
from rules_kb.render.drift_pages import drift_pages
from rules_kb.render.glossary_pages import glossary_pages
from rules_kb.render.html import Page
from rules_kb.render.notice_pages import notice_pages
from rules_kb.render.rule_pages import rule_pages
from rules_kb.render.section_pages import section_site_pages
from rules_kb.render.site_data import SiteData
from rules_kb.render.story_pages import story_pages
from rules_kb.render.version_pages import chapter_pages, game_pages, version_pages
from rules_kb.render.whats_new_pages import whats_new_pages

Generator = Callable[[SiteData], Iterable[Page]]

MKDOCS_GENERATORS: tuple[Generator, ...] = (game_pages,)  # /dm/ and /mtg/, in the nav

PAGE_GENERATORS: tuple[Generator, ...] = (
    version_pages,
    chapter_pages,
    diff_pages,  # first: the rows it shows are noted as it goes; a page asking before would compare again
    rule_pages,
    story_pages,
    compare_pages,
    notice_pages,
    drift_pages,
    whats_new_pages,
    glossary_pages,
    section_site_pages,
)
