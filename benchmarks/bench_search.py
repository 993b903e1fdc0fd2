"""Search: index build time, bytes the browser downloads, time to first results and per later query.

Run: .venv/bin/python benchmarks/bench_search.py [--corpus DIR]
(default: the repository's corpus; the full Magic history copy is /work/fullcorpus, minutes to build).

Speed is measured in headless Chromium with performance.now(): "first results" is from the start
of navigation to ``search/?q=…`` until the results are in the page (HTML, script, meta,
vocabulary, postings and group shards fetched from a local server, no HTTP cache); "later
queries" runs the query set through the page's search function once the page is up.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

from rules_kb.assemble.caches import cache_key, file_stats  # noqa: E402
from rules_kb.assemble.knowledge import build_knowledge, load_knowledge  # noqa: E402
from rules_kb.search.cache import write_index  # noqa: E402
from rules_kb.search.index import INDEX_DIR, write_search_index  # noqa: E402
from rules_kb.search.standalone import write_standalone_site  # noqa: E402

FIRST_QUERY = "ブロックした時"
COLD_LOADS = 5
CLI_QUERIES = 20  # the first this many of the query set, each run as its own rules-kb process


# Milliseconds per query, measured in the page with performance.now().
TIME_QUERIES = """async (queries) => {
    const out = [];
    for (const q of queries) {
        const t = performance.now();
        await window.rulesKbSearch.search(q, {limit: 10});
        out.push(performance.now() - t);
    }
    return out; }"""

class Apart:
    """Python's static file server in a process of its own, as a host is: served from a thread of
    this process, each response waited for the GIL that Playwright's client holds while it waits
    for the page (100-200 ms a shard where a separate process takes 7-25 ms), and the timings
    measured the bench more than the page. ``shutdown()`` stops it."""

    def __init__(self, folder: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", str(folder)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()  # "Serving HTTP on 127.0.0.1 port N (http://...) ..."
        self.port = int(line.split(" port ")[1].split()[0])

    def shutdown(self) -> None:
        self.process.terminate()
        self.process.wait()


def serve(folder: Path) -> tuple[Apart, str]:
    server = Apart(folder)
    return server, f"http://127.0.0.1:{server.port}/"


def gzip_size(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), compresslevel=6, mtime=0))


def index_resources(page) -> list[str]:
    return page.evaluate("performance.getEntriesByType('resource').map(e => e.name)"
                         ".filter(n => n.includes('/search-index/'))")


def downloaded(site: Path, base: str, urls: list[str]) -> tuple[int, int]:
    paths = [site / url.removeprefix(base) for url in sorted(set(urls))]
    return sum(p.stat().st_size for p in paths), sum(gzip_size(p) for p in paths)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus")
    parser.add_argument("--cache", type=Path, help="knowledge cache to reuse (parses and alignments)")
    args = parser.parse_args()
    queries = [q["q"] for q in tomllib.loads((ROOT / "tests/fixtures/search-queries.toml").read_text())["query"]]

    started = time.perf_counter()
    knowledge = load_knowledge(args.corpus, args.cache) if args.cache else build_knowledge(args.corpus)
    knowledge_seconds = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as temporary:
        docs = Path(temporary) / "docs"
        started = time.perf_counter()
        write_search_index(knowledge, docs)
        build_seconds = time.perf_counter() - started
        index = docs / INDEX_DIR
        files = sorted(p for p in index.rglob("*.json"))
        raw = sum(p.stat().st_size for p in files)
        zipped = sum(gzip_size(p) for p in files)
        site = Path(temporary) / "site"
        write_standalone_site(site, ROOT / "site", index)
        print(f"corpus {args.corpus}: {len(knowledge.catalog.all_texts()):,} rule texts "
              f"(knowledge built in {knowledge_seconds:.1f} s)")
        print(f"index build (collect, Sudachi/English tokens, postings, write): {build_seconds:.1f} s")
        print(f"index on disk: {len(files)} files, {raw / 1e6:.2f} MB raw, {zipped / 1e6:.2f} MB gzip; "
              f"meta {(index / 'meta.json').stat().st_size / 1e3:.0f} kB "
              f"({gzip_size(index / 'meta.json') / 1e3:.0f} kB gzip), "
              f"vocab {(index / 'vocab.json').stat().st_size / 1e3:.0f} kB "
              f"({gzip_size(index / 'vocab.json') / 1e3:.0f} kB gzip)")
        for sub in ("p", "g"):
            shards = sorted((index / sub).iterdir())
            print(f"  {sub}/: {len(shards)} files, {sum(p.stat().st_size for p in shards) / 1e6:.2f} MB raw")
        measure_cli(knowledge, args.corpus, Path(temporary) / "cli-cache", queries[:CLI_QUERIES])
        server, base = serve(site)
        try:
            measure_browser(site, base, queries)
        finally:
            server.shutdown()


def measure_cli(knowledge, corpus: Path, cache: Path, queries: list[str]) -> None:
    """Wall time of ``rules-kb search`` processes with the index already cached (what a second query costs)."""
    write_index(knowledge, cache / "search" / cache_key(corpus), file_stats(corpus))
    env = {**os.environ, "RULES_KB_CACHE": str(cache), "PAGER": ""}
    command = [str(ROOT / ".venv/bin/rules-kb"), "--corpus", str(corpus), "search"]
    subprocess.run([*command, "warm up"], env=env, capture_output=True, check=True)
    times = []
    for query in queries:
        started = time.perf_counter()
        subprocess.run([*command, query], env=env, capture_output=True, check=True)
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    print(f"CLI, index cached ({len(times)} queries, one process each): median {statistics.median(times):.0f} ms, "
          f"max {times[-1]:.0f} ms")


def measure_browser(site: Path, base: str, queries: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        firsts = []
        first_bytes = (0, 0)
        for _ in range(COLD_LOADS):
            context = browser.new_context()
            page = context.new_page()
            page.goto(f"{base}search/?q={FIRST_QUERY}")
            page.wait_for_function("document.getElementById('rk-search').dataset.firstResults !== undefined")
            firsts.append(float(page.evaluate("document.getElementById('rk-search').dataset.firstResults")))
            first_bytes = downloaded(site, base, index_resources(page))
            context.close()
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"{base}search/")
        page.wait_for_function("window.rulesKbSearch !== undefined")
        page.evaluate("window.rulesKbSearch.index.open()")
        times = page.evaluate(TIME_QUERIES, queries)  # first pass: shards fetched as needed
        warm = page.evaluate(TIME_QUERIES, queries)  # second pass: every shard cached
        all_bytes = downloaded(site, base, index_resources(page))
        context.close()
        browser.close()
    print(f"page load to first results ({FIRST_QUERY!r} in the address, cold, {COLD_LOADS} loads): "
          f"median {statistics.median(firsts):.0f} ms, max {max(firsts):.0f} ms; "
          f"search files fetched {first_bytes[0] / 1e3:.0f} kB raw, {first_bytes[1] / 1e3:.0f} kB gzip")
    times.sort()
    warm.sort()
    print(f"later queries ({len(times)} of the query set, first time each, shards fetched as needed): "
          f"median {statistics.median(times):.1f} ms, p90 {times[int(0.9 * len(times))]:.1f} ms, "
          f"max {times[-1]:.1f} ms")
    print(f"same queries again (shards cached): median {statistics.median(warm):.1f} ms, "
          f"p90 {warm[int(0.9 * len(warm))]:.1f} ms, max {warm[-1]:.1f} ms")
    print(f"search files fetched after the whole query set: {all_bytes[0] / 1e6:.2f} MB raw, "
          f"{all_bytes[1] / 1e6:.2f} MB gzip")


if __name__ == "__main__":
    main()
