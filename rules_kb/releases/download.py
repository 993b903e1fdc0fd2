"""Downloading, the one way: a checked URL, a deadline for the whole fetch, a size cap, and a page's
links read without building a tree.

Everything ``updates`` reads from the network comes through ``fetch_url`` and ``page_links``:

* a URL is checked before it is used (``check_url``): http or https, a host, a port that is a
  number, no space or control character. A link on a page is first encoded as a browser encodes
  it (a space becomes ``%20``), so a publisher's unencoded link still works;
* the whole fetch, from connecting to the last byte, has one deadline (``DEADLINE_SECONDS``): a
  server that sends one byte every few seconds is cut off, not waited for. The fetch runs in a
  daemon thread the caller stops waiting for at the deadline; each read is also bounded;
* the body is capped (``limit``) while it is read, before anything parses it: a publisher's page
  at ``MAX_PAGE_BYTES``, a release at ``MAX_SOURCE_BYTES``;
* links are collected by a streaming parser (``html.parser``), so memory grows with the links
  found, not with the page's nesting (a tree of 25 MB of nested ``<div>`` took 2.8 GB).
"""

from __future__ import annotations

import errno
import html.parser
import http.client
import socket
import threading
import time
import unicodedata
import urllib.error
import urllib.request
from urllib.parse import quote, urljoin, urlsplit

from rules_kb.errors import SourceError

DEADLINE_SECONDS = 40.0  # one whole fetch; the largest release (2 MB) takes a few seconds
READ_SECONDS = 15.0  # one read of the socket
MAX_PAGE_BYTES = 8 * 1024 * 1024  # the publishers' rule pages are under 1 MB
_CHUNK = 64 * 1024
_URL_SAFE = ":/?#[]@!$&'()*+,;=%~"


def check_url(url: str) -> str:
    """``url`` when it is a well-formed http(s) URL, else ``SourceError`` in one line."""
    problem = None
    if any(char.isspace() or unicodedata.category(char) == "Cc" for char in url):
        problem = "a space or control character"
    else:
        try:
            parts = urlsplit(url)
            parts.port  # noqa: B018 - raises ValueError on a port that is not a number in range
        except ValueError as exc:
            problem = str(exc)
        else:
            if parts.scheme not in ("http", "https"):
                problem = "not http or https"
            elif not parts.hostname:
                problem = "no host"
    if problem is not None:
        raise SourceError(url, f"not a usable http(s) URL ({problem})")
    return url


def fetch_url(url: str, limit: int, deadline: float | None = None) -> bytes:
    """The body of ``url``, at most ``limit`` bytes, fetched whole within ``deadline`` seconds
    (``DEADLINE_SECONDS``), or ``SourceError`` naming the URL."""
    check_url(url)
    deadline = DEADLINE_SECONDS if deadline is None else deadline
    box: dict[str, object] = {}
    stop = threading.Event()
    worker = threading.Thread(target=_fetch_into, args=(url, limit, time.monotonic() + deadline, stop, box),
                              daemon=True, name="rules-kb-fetch")
    worker.start()
    worker.join(deadline)
    if worker.is_alive():
        stop.set()  # the worker stops at its next read; a daemon thread never holds the exit back
        raise SourceError(url, f"cannot fetch: not complete after {deadline:.0f} s")
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["data"]  # type: ignore[return-value]


def _fetch_into(url: str, limit: int, until: float, stop: threading.Event, box: dict) -> None:
    try:
        box["data"] = _read_body(url, limit, until, stop)
    except SourceError as exc:
        box["error"] = exc
    except urllib.error.HTTPError as exc:
        box["error"] = SourceError(url, f"cannot fetch: HTTP {exc.code} {exc.reason}")
    except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as exc:
        reason = getattr(exc, "reason", None) or exc
        box["error"] = SourceError(url, f"cannot fetch: {_readable(reason)}")


# Name lookups that fail for want of a network (EAI_NONAME, EAI_AGAIN, EAI_NODATA, EAI_FAIL) and
# routes that do not exist (ENETUNREACH, EHOSTUNREACH): what a judge offline reads is that.
_OFFLINE_LOOKUPS = {socket.EAI_NONAME, socket.EAI_AGAIN, getattr(socket, "EAI_NODATA", -5), socket.EAI_FAIL}
_OFFLINE_ERRNOS = {errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ENETDOWN}


def _readable(reason: object) -> str:
    """``[Errno -2] Name or service not known`` said as a person would: the network is unreachable."""
    if isinstance(reason, socket.gaierror) and reason.errno in _OFFLINE_LOOKUPS:
        return "the network is unreachable (the host's name cannot be looked up: offline, or no such host)"
    if isinstance(reason, OSError) and reason.errno in _OFFLINE_ERRNOS:
        return "the network is unreachable (no route to the host)"
    return str(reason)


def _read_body(url: str, limit: int, until: float, stop: threading.Event) -> bytes:
    chunks: list[bytes] = []
    size = 0
    timeout = min(READ_SECONDS, max(until - time.monotonic(), 0.1))
    with urllib.request.urlopen(url, timeout=timeout) as response:  # check_url: http(s) only
        while chunk := response.read1(_CHUNK):
            size += len(chunk)
            if size > limit:
                raise SourceError(url, f"cannot fetch: over {limit:,} bytes (the limit); nothing read further")
            chunks.append(chunk)
            if stop.is_set() or time.monotonic() > until:
                raise SourceError(url, "cannot fetch: the deadline passed")
    return b"".join(chunks)


def page_links(page: bytes, base: str) -> list[tuple[str, str]]:
    """(absolute URL, text) of every usable link on a page, in order; a link whose URL is malformed
    even once encoded is no link (it cannot name a release)."""
    reader = _LinkReader()
    reader.feed(page.decode("utf-8", errors="replace"))
    reader.close()
    out = []
    for href, text in reader.links:
        try:
            url = check_url(urljoin(base, quote(href.strip(), safe=_URL_SAFE)))
        except (SourceError, ValueError):
            continue
        out.append((url, unicodedata.normalize("NFKC", " ".join(text.split()))))
    return out


class _LinkReader(html.parser.HTMLParser):
    """The ``<a href>`` elements of a page and their text, without keeping anything else."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str]] = []
        self._href: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._end()
            self._href = next((value for name, value in attrs if name == "href" and value is not None), None)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a":
            self._end()

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self._text.append(data)

    def close(self) -> None:
        super().close()
        self._end()

    def _end(self) -> None:
        if self._href is not None:
            self.links.append((self._href, " ".join(self._text)))
        self._href, self._text = None, []
