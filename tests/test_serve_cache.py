"""Issue 38, items 7 and 8: `rules-kb serve` lets a rebuilt site be seen (Cache-Control: no-cache,
so every load revalidates, and a changed file is sent again) and closes connections that stay
idle. A real `rules-kb serve` process on 127.0.0.1, real sockets."""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
from email.utils import formatdate
from pathlib import Path

import pytest
from conftest import FIXTURES

from rules_kb.assemble.knowledge import build_knowledge
from rules_kb.site import serve
from rules_kb.site.build import build_site

RULES_KB = str(Path(sys.executable).parent / "rules-kb")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("serve-cache") / "site"
    build_site(FIXTURES / "hostile", site, knowledge=build_knowledge(FIXTURES / "hostile"))
    return site


def request(port: int, path: str, headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    response.body = response.read()
    connection.close()
    return response


def test_every_answer_asks_the_browser_to_revalidate_and_a_changed_file_is_sent_again(site):
    """Before: no Cache-Control, so a browser kept JSON drawn into older releases' pages by
    heuristic freshness and the service worker kept that stale copy for offline use."""
    process = subprocess.Popen([RULES_KB, "serve", "--dir", str(site), "--port", "0"], stdout=subprocess.PIPE,
                               text=True)
    try:
        port = int(process.stdout.readline().split("http://127.0.0.1:")[1].split("/")[0])
        data = site / "api/mtg/versions.json"
        first = request(port, "/api/mtg/versions.json")
        assert first.status == 200 and first.getheader("Cache-Control") == "no-cache"
        assert request(port, "/no/such/page/").getheader("Cache-Control") == "no-cache"
        since = first.getheader("Last-Modified")
        assert request(port, "/api/mtg/versions.json", {"If-Modified-Since": since}).status == 304
        data.write_bytes(data.read_bytes() + b"\n")  # a rebuild changed the file
        later = time.time() + 5
        os.utime(data, (later, later))
        again = request(port, "/api/mtg/versions.json", {"If-Modified-Since": since})
        assert again.status == 200 and again.body == data.read_bytes()
        assert formatdate(later, usegmt=True)[:16] == again.getheader("Last-Modified")[:16]
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_idle_connections_are_closed(site, monkeypatch):
    """Before: a connection that sent nothing was kept open for ever, a thread each. The server runs
    in this process with the handler's idle limit at one second instead of ten (the limit is the
    handler's ``timeout``, read for each connection): the same code closes them, nine seconds sooner."""
    import threading

    assert serve.SiteHandler.timeout == serve.IDLE_SECONDS  # what `rules-kb serve` runs with
    monkeypatch.setattr(serve.SiteHandler, "timeout", 1)
    server = serve.make_server(site, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        port = server.server_address[1]
        idle = [socket.create_connection(("127.0.0.1", port), timeout=serve.IDLE_SECONDS) for _ in range(20)]
        started = time.monotonic()
        assert [connection.recv(1024) for connection in idle] == [b""] * 20  # each closed by the server
        assert time.monotonic() - started < serve.IDLE_SECONDS
        for connection in idle:
            connection.close()
        assert request(port, "/").status == 200
    finally:
        server.shutdown()
        server.server_close()
