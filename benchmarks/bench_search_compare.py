"""The query sets through three searches on the same pages: ours, Material's built-in, Pagefind.

Run: .venv/bin/python benchmarks/bench_search_compare.py [--queries FILE ...] [--ours-only]
(default sets: the 124 queries of tests/fixtures/search-queries.toml and the judge set of
benchmarks/queries/judge.toml; one table per set)
(needs ``pip install -e '.[bench]'`` for Pagefind's extended build, which segments Japanese).

One mkdocs site with one page per rule (game, language, number: every distinct wording of
it, newest first, as our index holds them) is built with Material and its search plugin
(``lang: [en, ja]``, the documented set-up for a two-language site), then indexed by
Pagefind (``--force-language ja``: one index for both languages, Japanese segmentation).
Each query is typed into Material's search box and sent to Pagefind's JavaScript API in
headless Chromium; the first ten result pages give recall@10 and MRR against the same
expected rules as ``tests/test_search_quality``. Prints one row per search.
"""

from __future__ import annotations

import argparse
import html
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from bench_search import serve  # noqa: E402  (the static server in a process of its own)
from conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from search_support import (  # noqa: E402
    QUERIES,
    current_expectations,
    expected_as_of,
    load_queries,
    metrics,
    result_ids,
)

from rules_kb.assemble.knowledge import build_knowledge, load_knowledge  # noqa: E402
from rules_kb.search.documents import collect  # noqa: E402
from rules_kb.search.index import INDEX_DIR, write_search_index  # noqa: E402
from rules_kb.search.query import SearchIndex, search  # noqa: E402

MKDOCS = """site_name: rules-kb search comparison
use_directory_urls: true
theme:
  name: material
  font: false
  language: en
plugins:
  - search:
      lang: [en, ja]
nav:
  - index.md
not_in_nav: |
  /r/
"""


def page_name(group) -> str:
    """``dm-ja-507.2a`` for a rule; ``section-ipg-2.3`` for a tournament section (its document is
    the first part of its permalink, /mtg/ipg/2.3/), as the query files name them (``ipg:2.3``)."""
    if isinstance(group.number, str):
        return f"section-{group.rule_url.split('/')[2]}-{group.number.rsplit(' ', 1)[-1]}"
    return f"{group.game}-{group.lang}-{group.number}"


def write_pages(knowledge, docs: Path) -> int:
    groups, documents, _ = collect(knowledge)
    (docs / "r").mkdir(parents=True)
    (docs / "index.md").write_text("# Rules\n\nOne page per rule, for the search comparison.\n", encoding="utf-8")
    for group in groups:
        seen: list[int] = []
        for _, _, doc_id in group.versions:
            if doc_id not in seen:
                seen.append(doc_id)
        body = "\n".join(f"<p>{html.escape(documents[d].text)}</p>" for d in seen)
        page = docs / "r" / f"{page_name(group)}.md"
        page.write_text(f"# {group.number} {group.game} {group.lang}\n\n{body}\n", encoding="utf-8")
    return len(groups)


def rule_of(url: str) -> str | None:
    """``…/r/dm-ja-507.2a/#…`` → ``dm/ja/507.2a``; ``…/r/section-ipg-2.3/`` → ``ipg:2.3``."""
    if "/r/" not in url:
        return None
    name = url.split("/r/", 1)[1].split("/", 1)[0]
    first, second, rest = name.split("-", 2)
    return f"{second}:{rest}" if first == "section" else f"{first}/{second}/{rest}"


def material_results(page, base: str, queries: list[str]) -> dict[str, list[str]]:
    page.goto(base)
    page.wait_for_selector(".md-search__input", state="attached")
    box = page.locator("input.md-search__input")
    if not box.is_visible():  # narrow layouts hide the box behind a button; "s" opens it
        page.keyboard.press("s")
    page.wait_for_function("document.querySelector('.md-search-result__meta')?.textContent.includes('Type')",
                           timeout=120_000)
    out = {}
    box.click()
    for query in queries:
        box.fill("")
        box.press("End")  # Material reads the box on key events
        page.wait_for_function("document.querySelector('.md-search-result__meta').textContent.includes('Type')")
        box.fill(query)
        box.press("End")
        page.wait_for_function("document.querySelector('.md-search-result__meta').textContent.includes('matching')")
        time.sleep(0.05)
        hrefs = page.evaluate("[...document.querySelectorAll('.md-search-result__item')]"
                              ".map(li => li.querySelector('a').href)")
        out[query] = [r for r in (rule_of(h) for h in hrefs) if r][:10]
    return out


def pagefind_results(page, base: str, queries: list[str]) -> dict[str, list[str]]:
    page.goto(base)
    found = page.evaluate("""async (queries) => {
        const pagefind = await import('/pagefind/pagefind.js');
        await pagefind.init();
        const out = {};
        for (const q of queries) {
            const search = await pagefind.search(q);
            const top = await Promise.all(search.results.slice(0, 10).map(r => r.data()));
            out[q] = top.map(d => d.url);
        }
        return out; }""", queries)
    return {q: [r for r in (rule_of(u) for u in urls) if r] for q, urls in found.items()}


DEFAULT_SETS = [QUERIES, ROOT / "benchmarks" / "queries" / "judge.toml"]


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser()
    parser.add_argument("--work", type=Path, help="keep the built sites here and reuse them on the next run")
    parser.add_argument("--cache", type=Path, help="knowledge cache to reuse (parses and alignments)")
    parser.add_argument("--queries", type=Path, action="append", help="a query file (repeatable)")
    parser.add_argument("--ours-only", action="store_true", help="rules-kb's search only (no mkdocs, no Pagefind)")
    args = parser.parse_args()
    sets = {path: load_queries(path) for path in args.queries or DEFAULT_SETS}
    texts = list(dict.fromkeys(q.q for queries in sets.values() for q in queries))
    knowledge = load_knowledge(ROOT / "corpus", args.cache) if args.cache else build_knowledge(ROOT / "corpus")
    rows = []
    with tempfile.TemporaryDirectory() as temporary:
        work = args.work or Path(temporary)
        started = time.perf_counter()
        write_search_index(knowledge, work / "ours")
        ours_seconds = time.perf_counter() - started
        index = SearchIndex(work / "ours" / INDEX_DIR)
        ours = {q: result_ids([h.to_record() for h in search(index, q, limit=10)]) for q in texts}
        rows.append(("rules-kb (Sudachi index, CLI = browser)", ours, f"index {ours_seconds:.0f} s"))
        if not args.ours_only:
            rows += other_searches(knowledge, work, texts, sync_playwright)
        sets = {path: current_expectations(index, queries, expected_as_of(path)) for path, queries in sets.items()}
        pages = len(index.meta["groupNumber"])
    for path, queries in sets.items():
        print(f"\n{path.name}: {len(queries)} queries over {pages:,} rules (lineages)")
        print(f"{'search':42} {'recall@10':>9} {'MRR':>6} {'rank 1':>7} {'zero hits':>9}  build")
        for name, results, note in rows:
            recall, mrr, _ = metrics(queries, results)
            empty = sum(1 for q in queries if not results[q.q])
            first = sum(1 for q in queries if results[q.q][:1] and any(results[q.q][0] in e.split("|")
                                                                          for e in q.expect))
            print(f"{name:42} {recall:9.3f} {mrr:6.3f} {first:3d}/{len(queries):<3d} {empty:9d}  {note}")
        for name, results, _ in rows:
            _, _, misses = metrics(queries, results)
            print(f"\n{name}: queries not answered first ({path.name})")
            print("\n".join(misses))


def other_searches(knowledge, work: Path, texts: list[str], sync_playwright) -> list:
    """Material's and Pagefind's results for every query, from one mkdocs site (built once per --work)."""
    mkdocs_seconds = pagefind_seconds = 0.0
    if not (work / "site" / "pagefind").exists():
        write_pages(knowledge, work / "docs")
        (work / "mkdocs.yml").write_text(MKDOCS, encoding="utf-8")
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(work / "mkdocs.yml"), "-d",
                        str(work / "site")], check=True)
        mkdocs_seconds = time.perf_counter() - started
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pagefind", "--site", str(work / "site"), "--force-language",
                        "ja", "--silent"], check=True)
        pagefind_seconds = time.perf_counter() - started
    rows = []
    server, base = serve(work / "site")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            page = browser.new_page()
            rows.append(("Material built-in (lunr, lang en+ja)", material_results(page, base, texts),
                         f"mkdocs build {mkdocs_seconds:.0f} s"))
            rows.append(("Pagefind extended (force ja)", pagefind_results(page, base, texts),
                         f"index {pagefind_seconds:.0f} s"))
            browser.close()
    finally:
        server.shutdown()
    return rows


if __name__ == "__main__":
    main()
