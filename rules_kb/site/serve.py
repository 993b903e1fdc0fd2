"""Serve a built site on localhost (static files only; the site needs no server logic).

Only what the site holds is served: a path with a NUL byte, one whose real location (symlinks
followed) is outside the folder, and a folder without an ``index.html`` are answered with the
site's own 404 page, never with a traceback or a directory listing.
"""

from __future__ import annotations

import functools
import http.server
import os
import sys
from pathlib import Path

from rules_kb.errors import UsageError

NOT_FOUND_PAGE = "404.html"
IDLE_SECONDS = 10  # the server speaks HTTP/1.0: a connection carries one request, sent at once


def make_server(folder: Path, port: int) -> http.server.ThreadingHTTPServer:
    """An HTTP server on 127.0.0.1 for ``folder``; ``port`` 0 picks a free one."""
    if not (folder / "index.html").is_file():
        raise UsageError(f"{folder} holds no built site (run `rules-kb build` first)")
    if not 0 <= port <= 65535:
        raise UsageError(f"port {port} is not between 0 and 65535")
    handler = functools.partial(SiteHandler, directory=os.path.realpath(folder))
    try:
        return SiteServer(("127.0.0.1", port), handler)
    except (OSError, OverflowError) as exc:
        raise UsageError(f"cannot listen on 127.0.0.1:{port}: {getattr(exc, 'strerror', None) or exc}") from None


class SiteServer(http.server.ThreadingHTTPServer):
    """A client that goes away mid-answer (a browser that drops a connection it no longer needs) is
    no error: socketserver would print a traceback for each ``BrokenPipeError`` or reset."""

    def handle_error(self, request, client_address) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):  # broken pipe, reset, aborted
            return
        super().handle_error(request, client_address)


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files of one built site, confined to its folder.

    Every answer says ``Cache-Control: no-cache``: the browser (and the service worker's fetch,
    which keeps what it gets for offline use) asks again each time and gets a 304 when the file's
    date is unchanged, so a rebuilt site is seen on the next load, JSON included. A connection
    that sends nothing for ``IDLE_SECONDS`` is closed, so idle clients do not hold a thread each.
    """

    directory: str
    timeout = IDLE_SECONDS  # read by ``StreamRequestHandler.setup`` for every connection

    def log_message(self, format: str, *args) -> None:
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self):
        try:
            path = self.translate_path(self.path)
            inside = _inside(os.path.realpath(path), self.directory)
            folder_without_page = os.path.isdir(path) and not os.path.isfile(os.path.join(path, "index.html"))
        except ValueError:  # a NUL byte in the path
            inside, folder_without_page = False, False
        if not inside or folder_without_page:
            self.send_error(404)
            return None
        return super().send_head()

    def list_directory(self, path):
        self.send_error(404)
        return None

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """A 404 is the site's own page; other errors keep the standard short answer."""
        page = os.path.join(self.directory, NOT_FOUND_PAGE)
        if code != 404 or not os.path.isfile(page):
            super().send_error(code, message, explain)
            return
        with open(page, "rb") as handle:
            body = handle.read()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)
