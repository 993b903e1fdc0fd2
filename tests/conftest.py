"""Shared fixtures: the knowledge base, built once per test session from the test subset of corpus/.

The corpus holds about a hundred Magic releases; most tests prove nothing more with all of
them than with the nine the suite was written against. ``SUBSET`` below is the one place that
says which documents they see: every document except the Magic releases added from the
history (tests/test_history.py reads those, and ingests every document for the accounting).
"""

from __future__ import annotations

import fcntl
import gc
import http.server
import json
import os
import sys
import time
from pathlib import Path

import pytest

from rules_kb.assemble.knowledge import Knowledge, build_knowledge
from rules_kb.ingest.corpus import MANIFEST, load_manifest, manifest_entry

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
PACKAGE = ROOT / "rules_kb"
FIXTURES = ROOT / "tests" / "fixtures"
# CI clones the repository with shared/ beside it; a git worktree under <checkout-parent>/wt/ finds it one up.
SHARED = next((p for p in (ROOT.parent / "shared", ROOT.parent.parent / "shared") if p.is_dir()),
              ROOT.parent / "shared")

# The Magic releases the suite's facts were written against; the other Magic releases are history.
SUBSET_MAGIC = frozenset({
    "mtg-cr-2008-10-01", "mtg-cr-2009-05-01", "mtg-cr-2009-07-08", "mtg-cr-2013-04-29", "mtg-cr-2015-07-17",
    "mtg-cr-2016-09-30", "mtg-cr-2019-05-03", "mtg-cr-2022-11-18", "mtg-cr-2024-11-08",
})


def in_subset(meta) -> bool:
    """Every Duel Masters document, seed and rulings page, and the nine Magic releases."""
    return meta.format != "mtg-cr" or meta.id in SUBSET_MAGIC


SUBSET = [meta for meta in load_manifest(CORPUS) if in_subset(meta)]


# Seconds each test file kept its worker busy in a measured run of the whole suite (written by
# `benchmarks/bench_tests.py --costs tests/costs.json`; a file missing from it counts as none).
COSTS = ROOT / "tests" / "costs.json"


def pytest_collection_modifyitems(config, items) -> None:
    """Run the files longest first, a file's tests in their own order.

    pytest-xdist hands each worker the next file of this order whenever it runs low (``--dist
    loadfile --no-loadscope-reorder``), so the run ends on short files on both workers rather than
    on one worker finishing a long file alone (the default order, by number of tests, left 26 s of
    one worker at the end of a run). The second file is the longest that does not need the shared
    site (``real_site``): the first one builds it, and a second worker would only wait for it."""
    costs = json.loads(COSTS.read_text(encoding="utf-8")) if COSTS.is_file() else {}
    files: dict[str, list] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::")[0], []).append(item)
    order = sorted(files, key=lambda name: -costs.get(name, 0.0))  # stable: ties keep collection order

    def needs_site(name: str) -> bool:
        return any("real_site" in item.fixturenames for item in files[name])

    if len(order) > 2 and needs_site(order[0]):
        second = next((name for name in order[1:] if not needs_site(name)), None)
        if second is not None:
            order.remove(second)
            order.insert(1, second)
    items[:] = [item for name in order for item in files[name]]


def freeze_what_is_held() -> None:
    """Move what the worker holds now out of the cyclic collector's sight, its garbage cycles
    collected first: each full collection walked the session's heap again (99 of the suite's ~900
    CPU seconds in two workers' 453 full collections, session 34). Frozen objects are still freed
    when nothing refers to them; only a cycle among them stays."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After a file's last test (its module fixtures finalised), what is still held is the session's."""
    yield
    if nextitem is None or nextitem.path != item.path:
        freeze_what_is_held()


@pytest.fixture(scope="session", autouse=True)
def snapshot_key_folder(tmp_path_factory) -> Path:
    """The key that signs knowledge snapshots (``assemble/snapshot.py``) lives in the user's config
    folder; the suite's builds get one of their own instead of writing into the home folder."""
    folder = tmp_path_factory.mktemp("config")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CONFIG_HOME", str(folder))
        yield folder


@pytest.fixture(scope="session")
def subset_corpus(tmp_path_factory) -> Path:
    """A corpus folder holding the subset: the same files (linked) and curated data, a filtered manifest."""
    folder = tmp_path_factory.mktemp("corpus-subset")
    for entry in CORPUS.iterdir():
        if entry.name != MANIFEST:
            (folder / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    header = "# The test subset of corpus/manifest.toml (written by tests/conftest.py).\n\n"
    (folder / MANIFEST).write_text(header + "\n".join(manifest_entry(meta) for meta in SUBSET), encoding="utf-8")
    return folder


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory) -> Path:
    """One knowledge cache for every CLI test of the session (the CLI reads DEFAULT_CACHE)."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="session")
def knowledge(subset_corpus, cache_dir) -> Knowledge:
    """The subset's knowledge base, its parses and alignments left in the session's cache: the store
    the CLI tests open is then built without parsing or aligning the subset a second time. Frozen
    at once (``freeze_what_is_held``), not only at the end of the file that first asks for it."""
    built = build_knowledge(subset_corpus, cache_dir)
    freeze_what_is_held()
    return built


@pytest.fixture
def cli(cache_dir, subset_corpus, monkeypatch, capsys):
    """Run ``rules-kb`` in-process on the test subset (unless ``--corpus`` says otherwise);
    returns (exit code, stdout, stderr)."""
    from rules_kb import cli as cli_module
    from rules_kb.cli import common as cli_common

    monkeypatch.setattr(cli_common, "DEFAULT_CACHE", cache_dir)
    monkeypatch.setattr(cli_common, "DEFAULT_SEARCH", cache_dir / "search")  # where a build shares its index
    monkeypatch.setattr(cli_module, "DEFAULT_CORPUS", subset_corpus)
    monkeypatch.delenv("COLUMNS", raising=False)  # output to a pipe is not wrapped unless COLUMNS asks

    def run(*argv: str) -> tuple[int, str, str]:
        code = cli_module.main(list(argv))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run


CHROMIUM = "/usr/bin/chromium"
# As root and on a closed network Chromium needs these to start quietly (see the env notes).
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
ARTIFACTS = ROOT / "build" / "test-artifacts"


class InFlight:
    """The requests a page has in flight, counted from Playwright's events, and a wait for the page
    to settle: loaded, and no request started or ended for ``QUIET`` seconds.

    Playwright's "networkidle" is the same wait with half a second of quiet; the pages' tests waited
    it about a hundred times (50 s of one worker doing nothing). A request a page makes later than
    ``QUIET`` after its last one ended (a timer, not a response) is not waited for by either."""

    QUIET = 0.15
    LIMIT = 30.0

    def __init__(self, page) -> None:
        self.page = page
        self.pending: set = set()
        self.changed = time.monotonic()
        page.on("request", self._started)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", self._ended)

    def _started(self, request) -> None:
        self.pending.add(request)
        self.changed = time.monotonic()

    def _ended(self, request) -> None:
        self.pending.discard(request)
        self.changed = time.monotonic()

    def settle(self) -> None:
        """Return once the page has loaded and been quiet for ``QUIET`` s; fail naming what is still loading."""
        self.page.wait_for_load_state("load")
        deadline = time.monotonic() + self.LIMIT
        while True:
            quiet = time.monotonic() - self.changed
            if not self.pending and quiet >= self.QUIET:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"still loading after {self.LIMIT:.0f} s: {[r.url for r in self.pending]}")
            # Waiting in the page lets Playwright deliver its events meanwhile.
            wait = self.QUIET / 3 if self.pending else self.QUIET - quiet
            self.page.wait_for_timeout(max(wait, 0.01) * 1000)


@pytest.fixture(scope="session")
def browser():
    """Headless Debian chromium driven by Playwright (``make test`` installs it with apt)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def file_context(browser):
    """One English desk-sized browser context per test file, with the guard that records any request
    leaving 127.0.0.1 (the site works offline).

    A fresh context per test cost Chromium about 2 CPU seconds more than a page in a kept one
    (measured, session 12). Tests stay apart without one: each asks ``serve_dir`` for a server of
    its own, so its pages have an origin (storage) of their own, and the ``page`` fixture clears
    what a test stored. Service workers are blocked here: a site's worker fetches every file it
    keeps offline, in the background, after the page that registered it has closed.
    ``tests/test_offline_browser.py`` (the worker's own tests) and two of ``tests/test_pages_browser.py``'s
    four tabs (one per interface language) open pages with the worker at work."""
    # An English browser: these tests read the interface's English words (tests/test_pages_browser.py
    # opens every page type in both interface languages).
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US", service_workers="block")
    outside: list[str] = []

    def guard(route):
        url = route.request.url
        if url.startswith(("http://127.0.0.1", "http://localhost", "data:", "blob:", "about:")):
            route.continue_()
        else:
            outside.append(url)
            route.abort()

    context.route("**/*", guard)
    yield context, outside
    context.close()


@pytest.fixture(scope="module")
def kept_context(browser):
    """``kept_context(width, locale)``: a browser context of that width (a phone's height below 400 px)
    and language, made once per test file and shared by its tests, each on a page of its own
    (a fresh context per test cost Chromium about 2 CPU seconds more). These tests read pages as
    they first load; the service worker's background fetches are left to the files that test it."""
    made: dict[tuple[int, str], object] = {}

    def context(width: int, locale: str):
        if (width, locale) not in made:
            size = {"width": width, "height": 844 if width < 400 else 900}
            made[(width, locale)] = browser.new_context(viewport=size, locale=locale, service_workers="block")
        return made[(width, locale)]

    yield context
    for kept in made.values():
        kept.close()


@pytest.fixture
def page(file_context, request):
    """A fresh page that fails the test on any request leaving 127.0.0.1 (the site works offline).

    A screenshot of the last state is saved under ``build/test-artifacts/`` for a person to look at.
    What the test stored (the interface language kept in local storage, cookies, permissions) is
    cleared when it ends, as a fresh context would have it."""
    context, outside = file_context
    outside.clear()
    opened = context.new_page()
    yield opened
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    try:
        opened.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=False)
        for tab in context.pages:
            if tab.url.startswith("http"):
                tab.evaluate("() => { try { localStorage.clear(); sessionStorage.clear(); } catch (e) { } }")
        context.clear_cookies()
        context.clear_permissions()
    finally:
        for tab in context.pages:  # the test's page and any window it opened
            tab.close()
    assert outside == [], f"requests left the site: {outside}"


class QuietServer(http.server.ThreadingHTTPServer):
    """A test server that says nothing when a browser stops reading (a page left mid-download)."""

    def handle_error(self, request, client_address) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@pytest.fixture(scope="session")
def serve_dir():
    """Serve a folder on 127.0.0.1 in a background thread; returns start(folder) -> base URL."""
    import functools
    import threading

    servers = []

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    def start(folder: Path) -> str:
        handler = functools.partial(Quiet, directory=str(folder))
        server = QuietServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/"

    yield start
    # All at once: each ``shutdown()`` waits for its loop's next poll (up to half a second), and a
    # worker's browser tests start twenty or more servers: one after another, the session's end
    # waited 6.5 s for twenty of them (~11.6 s at the end of each worker of a full run).
    stopping = [threading.Thread(target=server.shutdown) for server in servers]
    for thread in stopping:
        thread.start()
    for thread in stopping:
        thread.join()
    for server in servers:
        server.server_close()


AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
# The rules axe-core runs by default that can report a serious or critical violation: a rule's own
# impact or one of its checks' (axe's metadata, read in the page, so an upgrade that changes a rule is
# followed). The suite fails on those impacts only; the other default rules (region, heading-order, …:
# 23 of 90 in axe 4.14) could never fail it and took a fifth to a quarter of each run.
_SERIOUS_RULES = """() => {
  const checks = axe._audit.data.checks || {};
  const grave = impact => impact === "serious" || impact === "critical";
  const impacts = rule => [rule.impact,
    ...[...rule.any, ...rule.all, ...rule.none].map(check => (checks[check.id || check] || {}).impact)];
  return axe._audit.rules.filter(rule => rule.enabled !== false && !rule.tags.includes("experimental")
    && impacts(rule).some(grave)).map(rule => rule.id);
}"""
_RUN_AXE = """async (rules) => {
  const result = await axe.run({runOnly: {type: "rule", values: rules}, resultTypes: ["violations"]});
  return result.violations.filter(v => v.impact === "serious" || v.impact === "critical")
    .map(v => ({id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map(n => n.target)}));
}"""


class _CachedFiles(http.server.SimpleHTTPRequestHandler):
    """Serves axe-core with a day's freshness: Chromium then keeps the compiled script with its
    cached copy, and a page after the second loads it without compiling 560 kB of JavaScript again
    (0.25 s of CPU for each page ``add_script_tag(path=…)`` sent it as text)."""

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "public, max-age=86400")
        super().end_headers()

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="session")
def serious_violations():
    """``serious_violations(page)``: axe-core's serious and critical violations on the page as it
    is now, each ``{id, impact, targets}`` (the first three nodes). axe is loaded from a local server
    of its own (any origin may load a script), and runs the rules that could report either impact."""
    import functools
    import threading

    server = QuietServer(("127.0.0.1", 0), functools.partial(_CachedFiles, directory=str(AXE.parent)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/{AXE.name}"
    rules: list[str] = []

    def violations(page) -> list[dict]:
        page.add_script_tag(url=url)
        if not rules:
            rules.extend(page.evaluate(_SERIOUS_RULES))
        return page.evaluate(_RUN_AXE, rules)

    yield violations
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def real_site(tmp_path_factory, subset_corpus, request) -> Path:
    """The site of the tests' corpus, built once per test run (mkdocs runs in strict mode).

    Under pytest-xdist the first worker to need it builds it in the run's own temporary folder,
    under a lock, and the others read it: the build is the same bytes whichever worker makes it
    (tests/test_determinism.py), and no test writes into it."""
    from rules_kb.site.build import build_site

    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        out = tmp_path_factory.mktemp("real") / "site"
        build_site(subset_corpus, out, knowledge=request.getfixturevalue("knowledge"))
        return out
    shared = tmp_path_factory.getbasetemp().parent  # the run's folder; each worker's is inside it
    out, done = shared / "real" / "site", shared / "real" / "built"
    with open(shared / "real.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not done.exists():
                out.parent.mkdir(exist_ok=True)
                build_site(subset_corpus, out, knowledge=request.getfixturevalue("knowledge"))
                done.touch()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return out
