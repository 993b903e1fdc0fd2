"""Serve a built site on localhost (static files only; the site needs no server logic)."""

from __future__ import annotations

import functools
import http.server
from pathlib import Path

from rules_kb.errors import UsageError


def make_server(folder: Path, port: int) -> http.server.ThreadingHTTPServer:
    """An HTTP server on 127.0.0.1 for ``folder``; ``port`` 0 picks a free one."""
    if not (folder / "index.html").is_file():
        raise UsageError(f"{folder} holds no built site (run `rules-kb build` first)")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(folder))
    try:
        return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as exc:
        raise UsageError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from None
