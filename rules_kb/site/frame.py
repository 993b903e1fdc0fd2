"""Generated pages written straight into Material's frame, without a Markdown pass per page.

mkdocs renders every page through Python-Markdown and the theme's Jinja templates and keeps
all of them in memory until the build ends: at the whole Magic history that is most of the
build's time and memory, spent on pages whose body is already finished HTML (``Page.body``,
one raw block that Markdown passes through untouched). So mkdocs renders one small frame
page per top folder and depth instead, holding two markers; the build cuts each frame at its
markers and writes every generated page as head + escaped title + middle + body + tail.

A frame is exactly what mkdocs would wrap a page in when the page is outside the nav (these
generated pages always are) and in the same place: same assets, same relative links, same
header and footer. ``tests/test_site_frame.py`` holds pages written through their frames to
the same pages rendered by mkdocs, byte for byte.
"""

from __future__ import annotations

import html
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from rules_kb.errors import OutputError
from rules_kb.games import GAMES
from rules_kb.render.html import Page

FRAME = "_frame"
MAX_DEPTH = 8
TITLE_MARK = "RKFRAMETITLE"
# An HTML comment passes through Markdown as a raw block. It holds "<h1" on purpose: Material
# adds an <h1> with the page title when the content has none, and a generated page brings its
# own (or gets one from ``framed_html``), so the frame must not carry one.
BODY_MARK = "<!-- rk-frame-body <h1 -->"


@dataclass(frozen=True)
class Frame:
    """Material's page around a generated body, for one place (top folder and depth) in the site."""

    head: str
    middle: str
    tail: str


FrameKey = tuple[str | None, int]


def frame_key(path: str) -> FrameKey:
    """Which frame fits a page: its top folder when frames exist there (the nav's links to
    ``/dm/`` are written relative to the page, so they depend on it) and its depth."""
    parts = [part for part in path.split("/") if part]
    top = parts[0] if parts and parts[0] in GAMES else None
    return top, len(parts)


def frame_path(key: FrameKey) -> str:
    """The root path of a frame page: ``/dm/_frame/f/`` is the frame of pages three folders deep in /dm/."""
    top, depth = key
    parts = [top, FRAME] if top else [FRAME]
    return "/" + "/".join(parts + ["f"] * (depth - len(parts))) + "/"


def frame_keys() -> list[FrameKey]:
    return [(None, depth) for depth in range(1, MAX_DEPTH + 1)] + [
        (top, depth) for top in GAMES for depth in range(2, MAX_DEPTH + 1)]


def write_frame_sources(docs_dir: Path) -> None:
    """One Markdown page per frame, for mkdocs to render."""
    for key in frame_keys():
        target = docs_dir / frame_path(key).strip("/") / "index.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f"---\ntitle: {TITLE_MARK}\n---\n\n{BODY_MARK}\n", encoding="utf-8")


def take_frames(site_dir: Path) -> dict[FrameKey, Frame]:
    """Cut the rendered frame pages at their markers, then remove them from the built site."""
    frames = {}
    for key in frame_keys():
        file = site_dir / frame_path(key).strip("/") / "index.html"
        rendered = file.read_text(encoding="utf-8")
        if rendered.count(TITLE_MARK) != 1 or rendered.count(BODY_MARK) != 1:
            raise OutputError(str(file), "the theme's page frame lost its markers (one title, one body expected); "
                                         "was the theme override changed?")
        head, rest = rendered.split(TITLE_MARK)
        middle, tail = rest.split(BODY_MARK)
        frames[key] = Frame(squeeze(head), squeeze(middle), squeeze(tail))
    for top in (None, *GAMES):
        shutil.rmtree(site_dir / (f"{top}/{FRAME}" if top else FRAME))
    return frames


def squeeze(html_text: str) -> str:
    """The frame without its template's blank lines and indentation: 1.9 of its 7.5 kB,
    which every one of ten thousand pages repeats. Each run of whitespace holding a line break
    becomes one line break (the frame holds no ``<pre>`` or ``<textarea>``, its scripts are one
    line each), so the page renders the same."""
    return re.sub(r"[ \t]*\n\s*", "\n", html_text)


def framed_html(frames: dict[FrameKey, Frame], page: Page) -> str:
    """The whole HTML file of a generated page; its title escaped, its body as generated."""
    frame = frames.get(frame_key(page.path))
    if frame is None:
        raise OutputError(page.path, f"no frame for a generated page there (frames go {MAX_DEPTH} folders deep)")
    body = page.body if "<h1" in page.body else f"<h1>{html.escape(page.title)}</h1>\n{page.body}"
    return f"{frame.head}{html.escape(page.title, quote=False)}{frame.middle}{body}{frame.tail}"
