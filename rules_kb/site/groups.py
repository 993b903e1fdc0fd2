"""The generated pages and the writers' files made in two processes: the site's bytes are one process's.

Page generators are independent (``tests/test_site_order.py``; ``SiteData.diff_link`` compares a
pair itself when its diff pages were not written first) and every file has one writer, so the
work splits in two groups with no file in common. The build forks once the knowledge base and the
theme's frames are ready: the child makes its writers' files, then ``SECOND``; the parent the rest, each
from the copy of the same data the fork gives it, so each page comes out as it would in one
process. The groups are balanced by the CPU each part took at the whole history (78 and 79 s,
caches warm: ``docs/publishing.md``): the version, diff and rule pages with the API in the parent
(the diff pages note the rows the rule pages link to, so they stay together); what's new, the
glossaries, the tournament pages, the search index and the other JSON writers in the child (the
API too when the search index is linked from the CLI's rather than written: ``site/build.py``).
``RULES_KB_WORKERS=1`` makes everything here, in order.

What the child did comes back over a pipe: its page count, the paths it claimed (two pages at
one path are refused as in one process), the units it made or reused, the pages it kept and the
token diffs it asked (so the diff cache keeps them: ``render/compare_diffs.py``); an error it
raised is raised here as it was raised there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rules_kb.assemble.parallel import Beside, can_fork
from rules_kb.compare import diff
from rules_kb.errors import OutputError
from rules_kb.heap import release_free_memory
from rules_kb.render.glossary_pages import glossary_pages
from rules_kb.render.html import Page
from rules_kb.render.section_pages import section_site_pages
from rules_kb.render.site_data import SiteData
from rules_kb.render.whats_new_pages import whats_new_pages
from rules_kb.site.pages import PAGE_GENERATORS, Generator
from rules_kb.tokens import unload_dictionary

# Made in the second process, with the writers handed to ``make_groups`` as ``second_writers``.
SECOND: tuple[Generator, ...] = (whats_new_pages, glossary_pages, section_site_pages)

WritePages = Callable[[Iterable[Page], set[str]], int]
Writer = Callable[[Path], None]


@dataclass
class GroupReport:
    """What one group made: pages written, paths claimed, units, kept pages and token diffs asked."""

    pages: int = 0
    seen: set[str] = field(default_factory=set)
    units: dict[str, dict] = field(default_factory=dict)
    reused: int = 0
    unchanged: int = 0
    asked: dict = field(default_factory=dict)
    processes: int = 1


def make_groups(site: SiteData, write_pages: WritePages, first_writers: Sequence[Writer],
                second_writers: Sequence[Writer], staging: Path, seen: set[str], previous) -> GroupReport:
    """Every page of ``PAGE_GENERATORS`` written by ``write_pages`` and every writer run into
    ``staging``: in two processes when allowed, else in this one, in order (pages, then
    ``first_writers``, then ``second_writers``). ``seen`` gains the paths the pages took;
    ``previous`` (a ``site.reuse.PreviousBuild``) the units and counts."""
    if not can_fork():
        count = _run(site, write_pages, PAGE_GENERATORS, (*first_writers, *second_writers), staging, seen)
        return GroupReport(count, seen)
    second = Beside(str(staging), _second, site, write_pages, second_writers, staging, previous)
    try:
        first = [generate for generate in PAGE_GENERATORS if generate not in SECOND]
        count = _run(site, write_pages, first, first_writers, staging, seen)
    except BaseException:
        second.cancel()  # this group failed: the other's work is thrown away with the staging folder
        raise
    other: GroupReport = second.result()
    both = seen & other.seen
    if both:
        raise OutputError(sorted(both)[0], "two generated pages at the same path")
    seen |= other.seen
    previous.new.update(other.units)
    previous.reused_pages += other.reused
    previous.unchanged_pages += other.unchanged
    diff.note_asked(other.asked)
    return GroupReport(count + other.pages, seen, processes=2)


def _second(site: SiteData, write_pages: WritePages, writers: Sequence[Writer], staging: Path,
            previous) -> GroupReport:
    """In the child: the second group's pages and writers; what it did, for the parent to add up."""
    units_before, asked_before = dict(previous.new), diff.pairs_asked()
    reused, unchanged = previous.reused_pages, previous.unchanged_pages
    seen: set[str] = set()
    # its writers first, the heaviest (the search index) leading: each works on the smallest heap
    count = _run(site, write_pages, SECOND, writers, staging, seen, writers_first=True)
    units = {folder: unit for folder, unit in previous.new.items() if units_before.get(folder) is not unit}
    asked = {key: found for key, found in diff.pairs_asked().items() if key not in asked_before}
    return GroupReport(count, seen, units, previous.reused_pages - reused, previous.unchanged_pages - unchanged, asked)


def _run(site: SiteData, write_pages: WritePages, generators: Iterable[Generator], writers: Sequence[Writer],
         staging: Path, seen: set[str], writers_first: bool = False) -> int:
    """One group's pages, generator by generator, and its writers (after the pages, or before them);
    the count of pages. What each step freed goes back to the system before the next, and Sudachi's
    dictionary goes too (a step that cuts Japanese loads it again, 0.2 s): a process's peak is then
    its largest step's, not the sum of what every earlier step left behind."""
    count = 0

    def pages() -> None:
        nonlocal count
        for generate in generators:
            count += write_pages(generate(site), seen)
            _release()

    if not writers_first:
        pages()
    for writer in writers:
        writer(staging)
        _release()
    if writers_first:
        pages()
    return count


def _release() -> None:
    unload_dictionary()
    release_free_memory()


__all__ = ["SECOND", "GroupReport", "make_groups"]
