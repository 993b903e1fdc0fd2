"""``rules-kb serve``: only the built site is served, bad ports and bad paths are one-line answers."""

from __future__ import annotations

import http.client
import socket
import struct
import threading
import time

import pytest
from conftest import FIXTURES

from rules_kb.assemble.knowledge import build_knowledge
from rules_kb.site.build import build_site
from rules_kb.site.serve import make_server


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The hostile fixture's site, with a symlink out of it and a folder without a page, served on a free port."""
    work = tmp_path_factory.mktemp("serve")
    site = work / "site"
    build_site(FIXTURES / "hostile", site, knowledge=build_knowledge(FIXTURES / "hostile"))
    (work / "secret.txt").write_text("not part of the site\n", encoding="utf-8")
    (site / "leak.txt").symlink_to(work / "secret.txt")
    (site / "bare").mkdir()
    (site / "bare" / "data.json").write_text("{}\n", encoding="utf-8")
    server = make_server(site, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield site, server.server_address[1]
    server.shutdown()
    server.server_close()


def get(port: int, path: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body


def test_a_page_of_the_site_is_served(served):
    site, port = served
    assert get(port, "/mtg/rule/100.1a/") == (200, (site / "mtg/rule/100.1a/index.html").read_bytes())


@pytest.mark.parametrize("path", ["/%00", "/no/such/page/", "/leak.txt", "/bare/", "/../secret.txt"])
def test_what_the_site_does_not_hold_gets_its_own_404_page(served, path):
    """Before: ``/%00`` got no response (a traceback on the server), ``/leak.txt`` the file outside
    the site, ``/bare/`` a directory listing, and an unknown URL a bare 404."""
    site, port = served
    assert get(port, path) == (404, (site / "404.html").read_bytes())


@pytest.mark.parametrize("port", ["99999", "-1"])
def test_a_port_out_of_range_is_one_error_line(cli, served, port):
    """Before: an OverflowError traceback."""
    site, _ = served
    code, out, err = cli("serve", "--dir", str(site), "--port", port)
    assert (code, out) == (1, "")
    assert err == f"Error: port {port} is not between 0 and 65535\n"



def test_a_client_that_goes_away_mid_answer_prints_no_traceback(tmp_path, capfd):
    """A browser drops connections it no longer needs. Before: a ``BrokenPipeError`` or
    ``ConnectionResetError`` traceback on the server's stderr for each one."""
    (tmp_path / "index.html").write_text("<!doctype html><title>site</title>\n", encoding="utf-8")
    (tmp_path / "big.json").write_bytes(b"[" + b"0," * 4_000_000 + b"0]")  # more than the socket buffers hold
    server = make_server(tmp_path, 0)
    worker = threading.Thread(target=server.serve_forever, daemon=True)
    worker.start()
    try:
        for _ in range(4):
            client = socket.create_connection(server.server_address, timeout=10)
            client.sendall(b"GET /big.json HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            assert client.recv(64).startswith(b"HTTP/1.0 200")
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # reset, not FIN
            client.close()
        assert get(server.server_address[1], "/index.html")[0] == 200  # still serving
    finally:
        server.shutdown()
        server.server_close()
    worker.join(10)
    time.sleep(0.5)  # the handler threads finish writing into the closed connections
    captured = capfd.readouterr()
    assert "Traceback" not in captured.err and "Error" not in captured.err, captured.err
