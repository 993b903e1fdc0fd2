"""Shared by the search tests: one index and one standalone search page per session, the query set."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT

from rules_kb.search.index import INDEX_DIR, write_search_index
from rules_kb.search.query import SearchIndex
from rules_kb.search.standalone import write_standalone_site

QUERIES = FIXTURES / "search-queries.toml"


@dataclass(frozen=True)
class Query:
    q: str
    expect: list[str]
    why: str


def load_queries() -> list[Query]:
    return [Query(**entry) for entry in tomllib.loads(QUERIES.read_text(encoding="utf-8"))["query"]]


def metrics(queries: list[Query], results: dict[str, list[str]]) -> tuple[float, float, list[str]]:
    """recall@10 (mean share of expected rules in the first 10), MRR, and a line per imperfect query."""
    recall = reciprocal = 0.0
    misses = []
    for query in queries:
        found = results[query.q][:10]
        share = sum(e in found for e in query.expect) / len(query.expect)
        ranks = [found.index(e) + 1 for e in query.expect if e in found]
        recall += share
        reciprocal += 1 / min(ranks) if ranks else 0.0
        if share < 1 or not ranks or min(ranks) > 1:
            misses.append(f"{query.q!r}: expected {query.expect}, got {found[:5]}")
    return recall / len(queries), reciprocal / len(queries), misses


# The release the set's Magic numbers were read in; a corpus with newer releases may have renumbered them.
EXPECTED_AS_OF = {("mtg", "en"): "2024-11-08"}


def current_expectations(index, queries: list[Query]) -> list[Query]:
    """The set with each expected Magic number as its rule is numbered today: the group (rule lineage)
    that printed the number in 2024-11-08 gives its current number (scry's 701.18b is 701.22b from
    2025 on). The same queries, scored fairly against a corpus newer than the set."""
    meta = index.meta
    today: dict[str, str] = {}
    for group, number in enumerate(meta["groupNumber"]):
        game, lang = meta["languages"][meta["groupLanguage"][group]]
        label = EXPECTED_AS_OF.get((game, lang))
        if label is None:
            continue
        record, _ = index.group_record(group)
        for version, _, doc in record["versions"]:
            if version == label:
                today[f"{game}/{lang}/{record.get('old', {}).get(str(doc), number)}"] = f"{game}/{lang}/{number}"
    return [Query(q.q, [today.get(e, e) for e in q.expect], q.why) for q in queries]


def result_ids(hits: list[dict]) -> list[str]:
    return [f"{h['game']}/{h['lang']}/{h['number']}" for h in hits]


@pytest.fixture(scope="session")
def search_root(knowledge, tmp_path_factory) -> Path:
    """The index of the whole corpus, as the site build writes it (``<docs>/search-index/``)."""
    root = tmp_path_factory.mktemp("search-docs")
    write_search_index(knowledge, root)
    return root


@pytest.fixture(scope="session")
def search_index(search_root) -> SearchIndex:
    return SearchIndex(search_root / INDEX_DIR)


@pytest.fixture(scope="session")
def search_site(search_root, tmp_path_factory) -> Path:
    """``site/search.md`` rendered with its script and the index, laid out like the built site."""
    folder = tmp_path_factory.mktemp("search-site")
    write_standalone_site(folder, ROOT / "site", search_root / INDEX_DIR)
    return folder
