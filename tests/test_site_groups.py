"""The site's pages and files made in two processes are the bytes one process makes (``site/groups.py``)."""

from __future__ import annotations

import pytest
from test_site_reuse import corpus_of, files_of

from rules_kb.assemble.caches import ENVIRONMENT, cache_key, file_stats
from rules_kb.assemble.knowledge import build_knowledge
from rules_kb.errors import OutputError
from rules_kb.search.cache import write_index
from rules_kb.site import groups
from rules_kb.site.build import build_site

CHOSEN = ("seed-000", "mtg-cr-2022-11-18", "mtg-cr-2024-11-08")


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    work = tmp_path_factory.mktemp("groups")
    corpus = corpus_of(work / "corpus", CHOSEN)
    return work, corpus, build_knowledge(corpus, work / "cache")


def test_two_processes_write_the_site_and_keep_the_diffs_one_process_does(small, monkeypatch):
    work, corpus, knowledge = small
    reports = {}
    for workers in ("1", "2"):
        monkeypatch.setenv("RULES_KB_WORKERS", workers)
        monkeypatch.setenv(ENVIRONMENT, str(work / f"cache-{workers}"))  # each diffs every pair itself
        reports[workers] = build_site(corpus, work / f"site-{workers}", knowledge=knowledge)
    one, two = reports["1"], reports["2"]
    assert (one.processes, two.processes) == (1, 2)
    assert (one.pages, one.files) == (two.pages, two.files)
    assert files_of(one.out) == files_of(two.out)
    # both groups wrote: a rule page and the search index (first process), a glossary page and the
    # audit data, whose first-against-today diffs only the second process asked (second)
    for made in ("mtg/rule/509.1a/index.html", "search-index/meta.json", "mtg/en/2024-11-08/glossary/index.html",
                 "api/mtg/audit/509.json"):
        assert (two.out / made).exists(), made
    # the token diffs the next build reads: the second process's pairs are kept as one process keeps them
    kept = {workers: sorted((work / f"cache-{workers}" / "compare").glob("tokens-*.json")) for workers in ("1", "2")}
    assert len(kept["1"]) == len(kept["2"]) == 1
    assert kept["1"][0].read_bytes() == kept["2"][0].read_bytes()


def test_a_linked_search_index_moves_the_api_and_keeps_the_bytes(small, monkeypatch):
    """With the CLI's index of the corpus linked instead of written, the API's writers move to the
    second process; the site is still, file for file, the one process's of the test above."""
    work, corpus, knowledge = small
    monkeypatch.setenv("RULES_KB_WORKERS", "2")
    monkeypatch.setenv(ENVIRONMENT, str(work / "cache-linked"))
    index = work / "cli-search" / cache_key(corpus)
    write_index(knowledge, index, file_stats(corpus))
    report = build_site(corpus, work / "site-linked", knowledge=knowledge, search_index=index)
    assert (report.index_linked, report.processes) == (True, 2)
    assert files_of(report.out) == files_of(work / "site-1")


def test_an_error_in_the_second_process_is_raised_as_raised_there(small, monkeypatch):
    work, corpus, knowledge = small
    monkeypatch.setenv("RULES_KB_WORKERS", "2")

    def refused(site):
        raise OutputError("/mtg/somewhere/", "refused in the second process")
        yield  # a generator, as the others

    monkeypatch.setattr(groups, "SECOND", (*groups.SECOND, refused))
    with pytest.raises(OutputError, match="refused in the second process"):
        build_site(corpus, work / "site-failed", knowledge=knowledge)
    assert not (work / "site-failed").exists()
