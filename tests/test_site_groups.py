"""The site's pages and files made in two processes are the bytes one process makes (``site/groups.py``)."""

from __future__ import annotations

import json
import os
import time

import pytest
from test_site_reuse import corpus_of, files_of

from rules_kb.assemble.caches import ENVIRONMENT, cache_key, file_stats
from rules_kb.assemble.knowledge import build_knowledge
from rules_kb.errors import OutputError
from rules_kb.search.cache import write_index
from rules_kb.site import groups
from rules_kb.site.build import EXTRA_WRITERS, SITE_WRITERS, build_site
from rules_kb.site.pages import PAGE_GENERATORS

CHOSEN = ("seed-000", "mtg-cr-2022-11-18", "mtg-cr-2024-11-08")
# What a build runs beside mkdocs: every page generator and every writer (``site/build.py``).
NAMES = [g.__name__ for g in PAGE_GENERATORS] + [w.__name__ for w in (*SITE_WRITERS, *EXTRA_WRITERS)]


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    work = tmp_path_factory.mktemp("groups")
    corpus = corpus_of(work / "corpus", CHOSEN)
    return work, corpus, build_knowledge(corpus, work / "cache")


def test_two_processes_write_the_site_and_keep_the_diffs_one_process_does(small, monkeypatch):
    work, corpus, knowledge = small
    reports = {}
    timeline = work / "steps.jsonl"
    for workers in ("1", "2"):
        monkeypatch.setenv("RULES_KB_WORKERS", workers)
        monkeypatch.setenv(ENVIRONMENT, str(work / f"cache-{workers}"))  # each diffs every pair itself
        if workers == "2":
            monkeypatch.setenv("RULES_KB_STEPS", str(timeline))
        reports[workers] = build_site(corpus, work / f"site-{workers}", knowledge=knowledge)
    one, two = reports["1"], reports["2"]
    assert (one.processes, two.processes) == (1, 2)
    assert (one.pages, one.files) == (two.pages, two.files)
    assert files_of(one.out) == files_of(two.out)
    # both processes' kinds of work are there: pages of each group of generators, the writers' files
    for made in ("mtg/rule/509.1a/index.html", "search-index/meta.json", "mtg/en/2024-11-08/glossary/index.html",
                 "api/mtg/audit/509.json"):
        assert (two.out / made).exists(), made
    # every generator and writer ran once, in one of the two processes (the timeline of RULES_KB_STEPS)
    lines = [json.loads(line) for line in timeline.read_text(encoding="utf-8").splitlines()]
    ran = [line["step"] for line in lines if line["step"] in NAMES]
    assert sorted(ran) == sorted(NAMES)
    assert len({line["pid"] for line in lines if line["step"] in NAMES}) == 2
    # the token diffs the next build reads: the second process's pairs are kept as one process keeps them
    kept = {workers: sorted((work / f"cache-{workers}" / "compare").glob("tokens-*.json")) for workers in ("1", "2")}
    assert len(kept["1"]) == len(kept["2"]) == 1
    assert kept["1"][0].read_bytes() == kept["2"][0].read_bytes()


def test_a_linked_search_index_keeps_the_bytes(small, monkeypatch):
    """With the CLI's index of the corpus linked instead of written, the list has one item less; the
    site is still, file for file, the one process's of the test above."""
    work, corpus, knowledge = small
    monkeypatch.setenv("RULES_KB_WORKERS", "2")
    monkeypatch.setenv(ENVIRONMENT, str(work / "cache-linked"))
    index = work / "cli-search" / cache_key(corpus)
    write_index(knowledge, index, file_stats(corpus))
    report = build_site(corpus, work / "site-linked", knowledge=knowledge, search_index=index)
    assert (report.index_linked, report.processes) == (True, 2)
    assert files_of(report.out) == files_of(work / "site-1")


def test_an_error_in_the_second_process_is_raised_as_raised_there(small, monkeypatch, tmp_path):
    """The child takes an item that fails; the parent, taking the other, waits until it has (so the
    child's error, not the parent's, is the one on trial), and the build fails with that error."""
    work, corpus, knowledge = small
    monkeypatch.setenv("RULES_KB_WORKERS", "2")
    parent, taken = os.getpid(), tmp_path / "taken"

    def refused(site):
        if os.getpid() != parent:
            taken.touch()
            raise OutputError("/mtg/somewhere/", "refused in the second process")
        deadline = time.monotonic() + 60
        while not taken.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        yield from ()  # a generator, as the others

    monkeypatch.setattr(groups, "PAGE_GENERATORS", (refused, refused, *groups.PAGE_GENERATORS))
    with pytest.raises(OutputError, match="refused in the second process"):
        build_site(corpus, work / "site-failed", knowledge=knowledge)
    assert taken.exists()
    assert not (work / "site-failed").exists()


def test_the_heaviest_items_come_first_and_steps_that_share_work_stay_together():
    """The list both processes take from: the search index, then the diff and rule pages as one item
    (the rows the diff pages note are the rule pages' links), the audit data with what's new (its
    token diffs are most of what's new's); the rest in their own order; every step once."""

    def write_api(folder):
        pass

    def write_search_index(folder):
        pass

    def write_feeds(folder):
        pass

    def write_audit_data(folder):
        pass

    writers = [write_api, write_feeds, write_audit_data, write_search_index]
    items = groups.work_items(PAGE_GENERATORS, writers)
    steps = [[step.name for step in item.steps] for item in items]
    assert steps[:2] == [["write_search_index"], ["diff_pages", "rule_pages"]]
    assert ["write_audit_data", "whats_new_pages"] in steps
    assert steps.index(["write_api"]) < steps.index(["version_pages"])
    made = [step for item in items for step in item.steps]
    assert sorted(step.name for step in made) == sorted([g.__name__ for g in PAGE_GENERATORS]
                                                        + [w.__name__ for w in writers])
    assert {step.run for step in made if step.pages} == set(PAGE_GENERATORS)
    heavy = {name for group in (*groups.HEAVIEST, *groups.TOGETHER) for name in
             ((group,) if isinstance(group, str) else group)}
    assert [item.name for item in items if item.name not in heavy] == \
        [g.__name__ for g in PAGE_GENERATORS if g.__name__ not in heavy] + ["write_feeds"]
