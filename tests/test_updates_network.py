"""Issue 38, items 3-5: what a publisher's server or page can do to `updates` ends in one line, in
bounded time and memory, and a `--fetch` is all or nothing. A real HTTP server on 127.0.0.1 serves
each case; the releases are the real 2026-01-16 and 2014-09-26 Comprehensive Rules."""

from __future__ import annotations

import functools
import http.server
import resource
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import CORPUS, QuietServer
from test_updates import CURRENT, PAGES, snapshot, template_corpus  # noqa: F401 - the corpus fixture's base

from rules_kb.releases import download

RULES_KB = str(Path(sys.executable).parent / "rules-kb")


@pytest.fixture
def corpus(template_corpus, tmp_path) -> Path:  # noqa: F811 - a copy of the shared template
    copy = tmp_path / "corpus"
    shutil.copytree(template_corpus, copy)
    return copy


class Publisher(http.server.SimpleHTTPRequestHandler):
    """Static files, except ``/drip/``: headers and body sent one byte at a time, ``DRIP`` s apart."""

    DRIP = 0.5

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        if not self.path.startswith("/drip/"):
            super().do_GET()
            return
        try:
            for byte in b"HTTP/1.0 200 OK\r\nContent-Length: 1000\r\n\r\n" + b"x" * 1000:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(self.DRIP)
        except OSError:
            pass


@pytest.fixture
def publisher(tmp_path):
    folder = tmp_path / "publisher"
    folder.mkdir()
    # A fetch that gives up on the drip leaves the server writing to a closed connection: no traceback
    server = QuietServer(("127.0.0.1", 0), functools.partial(Publisher, directory=str(folder)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield folder, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def wizards_page(folder: Path, links: str) -> None:
    (folder / "en/rules").mkdir(parents=True, exist_ok=True)
    (folder / "en/rules/index.html").write_text(f"<!doctype html><title>Rules</title><p>{links}</p>", encoding="utf-8")


def test_a_link_whose_text_is_another_release_is_refused_and_the_whole_fetch_undone(cli, corpus, publisher):
    """Before: the 2014 rules were added as "version 2099-01-01", and the 2026-01-16 release added
    before the failure stayed; the error named a deleted temporary file."""
    folder, base = publisher
    downloads = folder / "downloads"
    downloads.mkdir()
    shutil.copy(CURRENT / "txt/CR-2026-01-16.txt", downloads / "MagicCompRules 20260116.txt")
    shutil.copy(CORPUS / "mtg/CR-2014-09-26.txt", downloads / "MagicCompRules 20990101.txt")
    wizards_page(folder, '<a href="/downloads/MagicCompRules 20260116.txt">TXT</a>'
                         '<a href="/downloads/MagicCompRules%2020990101.txt">TXT</a>')
    before = snapshot(corpus)
    code, out, err = cli("--corpus", str(corpus), "updates", "--fetch", "--game", "mtg",
                         "--wizards-url", f"{base}en/rules/")
    assert code == 1
    assert err == (f"Error: {base}downloads/MagicCompRules%2020990101.txt: the text says it takes effect "
                   "2014-09-25, but its link names the release of 2099-01-01; nothing added\n")
    assert snapshot(corpus) == before
    # the unencoded link of the real release works on its own, and the text's date agrees with it
    wizards_page(folder, '<a href="/downloads/MagicCompRules 20260116.txt">TXT</a>')
    code, out, err = cli("--corpus", str(corpus), "updates", "--fetch", "--game", "mtg",
                         "--wizards-url", f"{base}en/rules/")
    assert code == 0, err
    assert "added mtg-cr-2026-01-16 as mtg/CR-2026-01-16.txt" in out


@pytest.mark.parametrize("url", ["http://[::1", "http://127.0.0.1:abc/", "http://a b/", "ftp://example.org/",
                                 "http:///rules"])
def test_a_malformed_page_url_is_one_line(cli, corpus, url):
    code, out, err = cli("--corpus", str(corpus), "updates", "--game", "mtg", "--wizards-url", url)
    assert (code, out) == (1, "")
    assert err.startswith("Error: ") and "not a usable http(s) URL" in err and err.count("\n") == 1


def test_malformed_links_on_a_page_are_no_links(cli, corpus, publisher):
    folder, base = publisher
    wizards_page(folder, '<a href="http://[::1/MagicCompRules 20260116.txt">a</a>'
                         '<a href="http://x:abc/MagicCompRules 20260117.txt">b</a>'
                         '<a href="/d/MagicCompRules%2020260118.txt">c</a>')
    code, out, err = cli("--corpus", str(corpus), "updates", "--game", "mtg", "--document", "cr",
                         "--wizards-url", f"{base}en/rules/")
    assert code == 0, err
    assert out == (f"Magic (Wizards): the corpus's newest is 2025-11-14; newer on {base}en/rules/: "
                   "2026-01-18 (TXT)\n")


def test_a_server_sending_a_byte_at_a_time_is_cut_off_at_the_deadline(monkeypatch, cli, corpus, publisher):
    """Before: the 30 s limit applied to each read, so a byte every 5 s never timed out."""
    _, base = publisher
    monkeypatch.setattr(download, "DEADLINE_SECONDS", 3.0)
    started = time.monotonic()
    code, _, err = cli("--corpus", str(corpus), "updates", "--game", "mtg", "--wizards-url", f"{base}drip/")
    assert time.monotonic() - started < 10
    assert (code, err) == (1, f"Error: {base}drip/: cannot fetch: not complete after 3 s\n")


def memory_capped(megabytes: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))
    return apply


@pytest.mark.parametrize(("name", "body"), [
    ("huge.html", b"<p>" + b"x" * (60 << 20)),
    ("nested.html", b"<div>" * ((25 << 20) // 5)),
    ("nested-under-the-cap.html", b"<div>" * ((8 << 20) // 5 - 10)),
])
def test_a_huge_or_deeply_nested_page_is_one_line_in_bounded_memory(corpus, publisher, name, body):
    """Before: a 60 MB page took 1.3 GB and 24 s; 25 MB of nested <div> 2.8 GB and 48 s. Now the page
    is refused past 8 MB while it is read, and links are read without a tree (under 500 MB)."""
    folder, base = publisher
    (folder / name).write_bytes(body)
    started = time.monotonic()
    done = subprocess.run([RULES_KB, "--corpus", str(corpus), "updates", "--game", "mtg", "--wizards-url",
                           f"{base}{name}"], capture_output=True, text=True, timeout=120,
                          preexec_fn=memory_capped(500))
    assert time.monotonic() - started < 60
    assert done.returncode == 1 and done.stdout == ""
    problem = ("cannot fetch: over 8,388,608 bytes (the limit); nothing read further" if "cap" not in name else
               "page layout not recognised")
    assert done.stderr.startswith(f"Error: {base}{name}: {problem}"), done.stderr
    assert done.stderr.count("\n") == 1
