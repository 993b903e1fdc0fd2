"""What the site keeps for offline use: ``offline.json``, read by the service worker ``site/sw.js``.

A judge at a venue with failing Wi-Fi needs today's rulebooks, the search over them and the
pages already opened. The list names, relative to the site's root, the home, search and offline pages,
the theme's and the site's assets, every file of the search index, for each game and
language, the newest version's contents page, its ``latest`` page and every chapter page, and
each tournament document's home and newest version (the whole document on one page). Its
``version`` is a digest of those files' bytes, so the worker keeps them again only when one
changed. Runs after the other writers (it reads the files they wrote).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from rules_kb import links
from rules_kb.assemble.knowledge import Knowledge

OFFLINE_FILE = "offline.json"
FIXED = ("./", "search/", "offline/", "manifest.webmanifest", "sw.js")  # offline/: what sw.js answers when
# a page that was never kept is asked for offline
ASSET_SUFFIXES = (".css", ".js", ".png", ".svg", ".webmanifest")
# The note linker's data (a megabyte) and Material's own search (off) are not needed at the table.
SKIPPED_ASSETS = ("assets/link-data.js", "assets/javascripts/lunr/", "assets/javascripts/workers/")


def offline_paths(knowledge: Knowledge, site: Path) -> list[str]:
    """The site-relative paths to keep, sorted; each exists in ``site``."""
    paths = set(FIXED)
    for file in sorted((site / "assets").rglob("*")) + sorted((site / "search-index").rglob("*")):
        relative = file.relative_to(site).as_posix()
        if file.is_file() and (relative.startswith("search-index/") or (
                file.suffix in ASSET_SUFFIXES and not relative.startswith(SKIPPED_ASSETS))):
            paths.add(relative)
    catalog = knowledge.catalog
    for game, lang in sorted({(key[0], key[1]) for key in catalog.versions}):
        labels = [label for label in catalog.version_labels(game, lang) if catalog.rules_in(game, lang, label)]
        if not labels:
            continue
        newest = labels[-1]
        paths.add(links.latest_page(game, lang).lstrip("/"))
        paths.add(links.version_page(game, lang, newest).lstrip("/"))
        paths.update(links.chapter_page(game, lang, newest, chapter).lstrip("/")
                     for chapter in {links.chapter_of(n) for n in catalog.rules_in(game, lang, newest)})
    sections = catalog.sections  # the tournament documents judges cite beside the rules: newest, whole
    for game, document, lang in sections.documents():
        newest = sections.labels(game, document, lang)[-1]
        paths.add(links.document_home(game, document).lstrip("/"))
        paths.add(links.document_version_page(game, document, newest).lstrip("/"))
    return sorted(path for path in paths if _file(site, path).is_file())


def _file(site: Path, path: str) -> Path:
    return site / path / "index.html" if path.endswith("/") or path == "./" else site / path


def write_offline(knowledge: Knowledge, site: Path) -> None:
    """Write ``offline.json`` at the site's root: ``version``, ``bytes`` and ``precache``."""
    paths = offline_paths(knowledge, site)
    digest = hashlib.sha256()
    total = 0
    for path in paths:
        data = _file(site, path).read_bytes()
        total += len(data)
        digest.update(path.encode() + b"\0" + hashlib.sha256(data).digest())
    record = {"version": digest.hexdigest()[:16], "bytes": total, "precache": paths}
    (site / OFFLINE_FILE).write_text(json.dumps(record, separators=(",", ":")) + "\n", encoding="utf-8")
