"""The generated pages and the writers' files made in two processes: the site's bytes are one process's.

Page generators are independent (``tests/test_site_order.py``; ``SiteData.diff_link`` compares a
pair itself when its diff pages were not written first) and every file has one writer, so the
work is a list of items with no file in common. The build forks once the knowledge base and the
theme's frames are ready, and each process takes the next item of the list whenever it is free
(a byte read from one pipe: each item goes to one process), each from the copy of the same data
the fork gives it, so each page comes out as it would in one process. The list starts with the
heaviest items (``HEAVIEST``), so that neither process is left with a long item while the other
has nothing to do: fixed halves, balanced for a warm build (78 and 79 CPU s), left one core idle
for the last 37 s of a cold one, whose comparisons all fall on the second half's writers.
``RULES_KB_WORKERS=1`` makes everything here, in order.

What the child did comes back over a pipe: its page count, the paths it claimed (two pages at
one path are refused as in one process), the units it made or reused, the pages it kept and the
token diffs it asked (so the diff cache keeps them: ``render/compare_diffs.py``); an error it
raised is raised here as it was raised there.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rules_kb.assemble.parallel import Beside, can_fork
from rules_kb.compare import diff
from rules_kb.errors import OutputError
from rules_kb.heap import release_free_memory
from rules_kb.render.html import Page
from rules_kb.render.site_data import SiteData
from rules_kb.site.pages import PAGE_GENERATORS, Generator
from rules_kb.steps import record_step
from rules_kb.tokens import unload_dictionary

# The items taken first, heaviest first (CPU s of each at the whole history, cold · warm, from
# ``RULES_KB_STEPS``: ``docs/publishing.md``); every other item follows in its own order. The search
# index leads: it holds the most while it is made (~270 MB), so it is made on a process's smallest
# heap.
HEAVIEST = ("write_search_index",  # 17 · 0 (linked from the CLI's index when that is current)
            "diff_pages",  # with the rule pages: 63 · 28-33
            "write_compare_data",  # 28 and its two workers' 45 · 6-8
            "write_audit_data",  # with what's new: 28 · 9-14
            "write_api")  # 9 · 11-13
# Steps that share what they compute go in one item, in this order. The rows the diff pages show are
# noted as they go, and the rule pages link to them without comparing the pairs again; the token
# diffs the audit data makes are most of what's new's (what's new alone 25.0 CPU s cold, after the
# audit data 15.3).
TOGETHER = (("diff_pages", "rule_pages"), ("write_audit_data", "whats_new_pages"))

WritePages = Callable[[Iterable[Page], set[str]], int]
Writer = Callable[[Path], None]


@dataclass
class GroupReport:
    """What one process made: pages written, paths claimed, units, kept pages and token diffs asked."""

    pages: int = 0
    seen: set[str] = field(default_factory=set)
    units: dict[str, dict] = field(default_factory=dict)
    reused: int = 0
    unchanged: int = 0
    asked: dict = field(default_factory=dict)
    processes: int = 1


@dataclass(frozen=True)
class Step:
    """A page generator (``pages``: its pages are written) or a writer (it writes into the folder)."""

    name: str
    run: Callable
    pages: bool


@dataclass(frozen=True)
class Item:
    """One piece of the list: its steps, run in order by one process."""

    name: str
    steps: tuple[Step, ...]


def work_items(generators: Sequence[Generator], writers: Sequence[Writer]) -> list[Item]:
    """The list both processes take from: ``HEAVIEST`` first, in its order, then the rest as given
    (the generators, then the writers); the steps of each ``TOGETHER`` group as one item, named
    after its first."""
    steps = [Step(_name(g), g, True) for g in generators] + [Step(_name(w), w, False) for w in writers]
    named = {step.name: step for step in steps}
    grouped = {name: group for group in TOGETHER for name in group}
    items: list[Item] = []
    for step in steps:
        group = [member for member in grouped.get(step.name, (step.name,)) if member in named]
        if group[0] == step.name:  # a group's later members come with its first
            items.append(Item(step.name, (step, *(named[member] for member in group[1:]))))
    rank = {name: place for place, name in enumerate(HEAVIEST)}
    return sorted(items, key=lambda item: rank.get(item.name, len(HEAVIEST)))  # stable: the rest keep their order


def _name(step: Callable) -> str:
    return getattr(step, "__name__", None) or step.func.__name__  # a writer may be a partial: its function's


def make_groups(site: SiteData, write_pages: WritePages, writers: Sequence[Writer], staging: Path,
                seen: set[str], previous, generators: Sequence[Generator] | None = None) -> GroupReport:
    """Every page of ``generators`` written by ``write_pages`` and every writer run into ``staging``:
    in two processes taking items from one list when allowed, else in this one, in the list's
    order. ``seen`` gains the paths the pages took; ``previous`` (a ``site.reuse.PreviousBuild``)
    the units and counts."""
    items = work_items(PAGE_GENERATORS if generators is None else generators, writers)
    if not can_fork():
        count = sum(_do(item, site, write_pages, staging, seen) for item in items)
        return GroupReport(count, seen)
    queue = _queue(len(items))
    try:
        second = Beside(str(staging), _second, site, write_pages, items, queue, staging, previous)
        try:
            count = _take(queue, items, site, write_pages, staging, seen)
        except BaseException:
            second.cancel()  # this process failed: the other's work is thrown away with the staging folder
            raise
        with record_step("waiting for the second process"):
            other: GroupReport = second.result()
    finally:
        os.close(queue)
    both = seen & other.seen
    if both:
        raise OutputError(sorted(both)[0], "two generated pages at the same path")
    seen |= other.seen
    previous.new.update(other.units)
    previous.reused_pages += other.reused
    previous.unchanged_pages += other.unchanged
    diff.note_asked(other.asked)
    return GroupReport(count + other.pages, seen, processes=2)


def _queue(size: int) -> int:
    """A pipe holding the items' places, one byte each, its writing end closed: a read of one byte
    takes the next place, the same in both processes after the fork, and the end of the pipe says
    the list is done."""
    if size > 255:
        raise ValueError(f"{size} items: a place must fit in a byte")
    reading, writing = os.pipe()
    try:
        os.write(writing, bytes(range(size)))  # far below a pipe's buffer: never blocks
    finally:
        os.close(writing)
    return reading


def _take(queue: int, items: list[Item], site: SiteData, write_pages: WritePages, staging: Path,
          seen: set[str]) -> int:
    """Take items from ``queue`` until it is empty; the pages written."""
    count = 0
    while place := os.read(queue, 1):
        count += _do(items[place[0]], site, write_pages, staging, seen)
    return count


def _second(site: SiteData, write_pages: WritePages, items: list[Item], queue: int, staging: Path,
            previous) -> GroupReport:
    """In the child: the items it takes; what it did, for the parent to add up."""
    units_before, asked_before = dict(previous.new), diff.pairs_asked()
    reused, unchanged = previous.reused_pages, previous.unchanged_pages
    seen: set[str] = set()
    count = _take(queue, items, site, write_pages, staging, seen)
    units = {folder: unit for folder, unit in previous.new.items() if units_before.get(folder) is not unit}
    asked = {key: found for key, found in diff.pairs_asked().items() if key not in asked_before}
    return GroupReport(count, seen, units, previous.reused_pages - reused, previous.unchanged_pages - unchanged, asked)


def _do(item: Item, site: SiteData, write_pages: WritePages, staging: Path, seen: set[str]) -> int:
    """One item; the pages it wrote. What it freed goes back to the system before the next, and
    Sudachi's dictionary goes too (an item that cuts Japanese loads it again, 0.2 s): a process's
    peak is then its largest item's, not the sum of what every earlier item left behind."""
    count = 0
    for step in item.steps:
        with record_step(step.name):
            if step.pages:
                count += write_pages(step.run(site), seen)
            else:
                step.run(staging)
    _release()
    return count


def _release() -> None:
    unload_dictionary()
    release_free_memory()


__all__ = ["HEAVIEST", "TOGETHER", "GroupReport", "Item", "Step", "make_groups", "work_items"]
