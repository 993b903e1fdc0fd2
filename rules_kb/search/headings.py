"""Which headings a rule sits under, as search counts their words (``index.py``).

A rule carries, once, the words of the headings printed above it in its release (810.4 under 810
Two-Headed Giant Variant), and the first rule under a heading carries that heading as one of its
names (702.2a under 702.2 Deathtouch). A chapter's first section is called General (300 General,
300 総則) and names nothing: its rules sit under the chapter's title as the rulebook prints it
(``3. Card Types``, ``3. カードタイプ``, an unnumbered heading the parsers keep as a ``Heading``).
"""

from __future__ import annotations

import re

from rules_kb.kb.catalog import Catalog
from rules_kb.search.documents import Document, Group

HeadingKey = tuple[str, str, str, str]  # (game, language, version label, number: 702.2, 702; 7 for a chapter)

_CHAPTER = re.compile(r"^(\d{1,2})\.\s*(\S.*)$")


def chapter_titles(catalog: Catalog) -> dict[HeadingKey, str]:
    """(game, language, label, chapter number) → the chapter's title (``3. Card Types`` → Card Types):
    the unnumbered headings a rulebook prints above its sections, which hold no rule of their own."""
    found = {}
    for (game, lang, label), info in catalog.versions.items():
        for name in info.documents:
            for heading in catalog.documents[name].headings:
                match = _CHAPTER.match(heading.text.strip())
                if match is not None:
                    found.setdefault((game, lang, label, match.group(1)), match.group(2).strip())
    return found


def heading_table(groups: list[Group], documents: list[Document], chapters: dict[HeadingKey, str],
                  ) -> dict[HeadingKey, str]:
    """Every heading by where it is printed: each titled rule in each version printing it, and the
    chapters' titles (``chapter_titles``)."""
    headings = {(groups[d.group].game, groups[d.group].lang, label, d.number): d.title
                for d in documents if d.title for label in d.versions}
    headings.update(chapters)
    return headings


_NUMBER_PARTS = re.compile(r"^(\d+)(?:\.(\d+)([a-z]*))?$")


def numbers_above(number: str) -> list[str]:
    """The numbers a rule sits under: 702.7b under 702.7 and 702, 510.4 under 510."""
    match = _NUMBER_PARTS.match(number)
    if match is None or match.group(2) is None:
        return []
    section, rule, letter = match.groups()
    return ([f"{section}.{rule}", section] if letter else [section]) + _chapter_above(section)


def _chapter_above(section: str) -> list[str]:
    """The chapter a chapter's first section sits under: 300 General (総則) under 3 Card Types
    (カードタイプ). Its heading names nothing the chapter's other sections do not; the chapter's
    title names what its rules are about. Other sections name themselves (702 Keyword Abilities)."""
    return [section[:-2]] if len(section) == 3 and section.endswith("00") else []


_FIRST_UNDER = re.compile(r"^(\d+)\.1$|^(\d+\.\d+)a$")


def defining_heading(document: Document, headings: dict[HeadingKey, str], game: str, lang: str,
                     ) -> str | None:
    """The heading a first rule defines: 106.1 under 106 文明 ("…における文明には…の５種類"),
    702.2a under 702.2 Deathtouch ("Deathtouch is a static ability."). The first rule under a
    heading is where both games say what the heading means, so it carries the heading's words:
    the heading printed beside it, in the newest release printing this wording (a number reused
    for another rule has another heading: 309 was Declare Blockers Step in 2008, Dungeons today)."""
    match = _FIRST_UNDER.match(document.number)
    if match is None:
        return None
    above = match.group(1) or match.group(2)
    above = (_chapter_above(above) or [above])[0]  # 300.1 says what chapter 3 is about, not what General is
    return headings.get((game, lang, document.versions[-1], above))


__all__ = ["HeadingKey", "chapter_titles", "defining_heading", "heading_table", "numbers_above"]
