"""Shared by the search tests: one index and one standalone search page per session, the query set."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT

from rules_kb.search.index import INDEX_DIR
from rules_kb.search.query import SearchIndex
from rules_kb.search.standalone import write_standalone_site

QUERIES = FIXTURES / "search-queries.toml"


@dataclass(frozen=True)
class Query:
    q: str
    expect: list[str]
    why: str


def load_queries(path: Path = QUERIES) -> list[Query]:
    """A query file: the 124-query fixture, or a set of benchmarks/queries/ (same fields)."""
    return [Query(**entry) for entry in tomllib.loads(path.read_text(encoding="utf-8"))["query"]]


def expected_as_of(path: Path = QUERIES) -> dict[tuple[str, str], str]:
    """The release each game's expected numbers were read in: the file's ``as_of`` table
    (``"mtg/en" = "2026-01-16"``), else the fixture's 2024-11-08."""
    table = tomllib.loads(path.read_text(encoding="utf-8")).get("as_of")
    if table is None:
        return EXPECTED_AS_OF
    return {tuple(key.split("/")): label for key, label in table.items()}


def answers(entry: str) -> list[str]:
    """The results that answer one expected entry: ``a|b`` is answered by either."""
    return entry.split("|")


def metrics(queries: list[Query], results: dict[str, list[str]]) -> tuple[float, float, list[str]]:
    """recall@10 (mean share of expected entries answered in the first 10), MRR (1/rank of the
    first result answering any entry), and a line per imperfect query."""
    recall = reciprocal = 0.0
    misses = []
    for query in queries:
        found = results[query.q][:10]
        ranks = {e: min((found.index(a) + 1 for a in answers(e) if a in found), default=0) for e in query.expect}
        share = sum(1 for rank in ranks.values() if rank) / len(query.expect)
        best = min((rank for rank in ranks.values() if rank), default=0)
        recall += share
        reciprocal += 1 / best if best else 0.0
        if share < 1 or best != 1:
            misses.append(f"{query.q!r}: expected {query.expect}, got {found[:5]}")
    return recall / len(queries), reciprocal / len(queries), misses


# The release the set's Magic numbers were read in; a corpus with newer releases may have renumbered them.
EXPECTED_AS_OF = {("mtg", "en"): "2024-11-08"}


def current_expectations(index, queries: list[Query], as_of: dict | None = None) -> list[Query]:
    """The set with each expected Magic number as its rule is numbered today: the group (rule lineage)
    that printed the number in 2024-11-08 (or the file's ``as_of``) gives its current number (scry's
    701.18b is 701.22b from 2025 on). The same queries, scored fairly against a corpus newer than the set."""
    meta = index.meta
    as_of = EXPECTED_AS_OF if as_of is None else as_of
    today: dict[str, str] = {}
    for group, number in enumerate(meta["groupNumber"]):
        game, lang = meta["languages"][meta["groupLanguage"][group]]
        label = as_of.get((game, lang))
        if label is None:
            continue
        record, _ = index.group_record(group)
        for version, _, doc in record["versions"]:
            if version == label:
                today[f"{game}/{lang}/{record.get('old', {}).get(str(doc), number)}"] = f"{game}/{lang}/{number}"
    return [Query(q.q, ["|".join(today.get(a, a) for a in answers(e)) for e in q.expect], q.why) for q in queries]


def result_ids(hits: list[dict]) -> list[str]:
    """``game/lang/number`` of a rule; ``document:section`` of a tournament section (``ipg:2.3``,
    read from its permalink, ``/mtg/ipg/2024-09-23/#2.3``), as the query files name them."""
    return [f"{h['url'].split('/')[2]}:{h['number'].rsplit(' ', 1)[-1]}" if " " in h["number"]
            else f"{h['game']}/{h['lang']}/{h['number']}" for h in hits]


@pytest.fixture(scope="session")
def search_root(real_site) -> Path:
    """The index of the test subset as the site build wrote it (``<site>/search-index/``): the site is
    built once per test run (``conftest.real_site``), where an index of its own cost each worker
    12–18 s more; ``test_search.py`` checks it is the bytes ``build_index_files`` gives."""
    return real_site


@pytest.fixture(scope="session")
def search_index(search_root) -> SearchIndex:
    return SearchIndex(search_root / INDEX_DIR)


@pytest.fixture(scope="session")
def search_site(search_root, tmp_path_factory) -> Path:
    """``site/search.md`` rendered with its script and the index, laid out like the built site."""
    folder = tmp_path_factory.mktemp("search-site")
    write_standalone_site(folder, ROOT / "site", search_root / INDEX_DIR)
    return folder
