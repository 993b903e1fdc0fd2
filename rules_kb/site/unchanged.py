"""A build with nothing changed leaves its outputs as they are.

A built site and the graph export are functions of the corpus (its manifest, curated files and
documents), the package's source, the site's hand-written sources and ``mkdocs.yml``, the
installed packages the build renders with, and the base URL. After a build, ``record_build``
keeps in the cache folder a digest of those inputs and the size, mtime and inode of every file
the build left in its outputs. The next ``build`` into the same folder whose inputs digest the
same and whose outputs still stat the same (no file edited, removed or added) has nothing to do:
at the whole history it answers in under a second where rendering every page again took 70 s
only to find the same bytes. Anything else builds as before, and a build that fails or is
interrupted leaves no record (it is written last).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from importlib import metadata
from pathlib import Path

from rules_kb.assemble.caches import CacheDamaged, read_cache_file, write_cache_file
from rules_kb.places import MKDOCS_CONFIG, SITE_SOURCES
from rules_kb.render.output import relative_prefix

__all__ = ["build_inputs", "outputs_current", "record_build"]

FORMAT = 1
FOLDER = "builds"  # under the cache root: one record per output folder


def build_inputs(key: str, files: dict[str, list[int]], base_url: str) -> str:
    """A digest of everything a build's outputs depend on (see the module doc): the corpus's and the
    package's ``key`` (``caches.cache_key``), its files' ``files`` (``caches.file_stats``), the base
    URL, the Python and the installed packages, the site's sources."""
    digest = hashlib.sha256()
    for part in (str(FORMAT), key, json.dumps(files, sort_keys=True), base_url, sys.version, _installed(),
                 _site_sources()):
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()


def outputs_current(cache_dir: Path, out: Path, inputs: str, graph: Path | None) -> bool:
    """Whether the last build into ``out`` (and its ``graph``) read ``inputs`` and its files are
    still exactly the ones it left."""
    try:
        record = read_cache_file(_record_path(cache_dir, out))
    except CacheDamaged:
        return False
    if not isinstance(record, dict) or record.get("inputs") != inputs:
        return False
    return record.get("outputs") == _output_stats(out, graph)


def record_build(cache_dir: Path, out: Path, inputs: str, graph: Path | None) -> None:
    """Remember what a finished build read and left (a cache: failing to write it costs only time)."""
    path = _record_path(cache_dir, out)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_cache_file(path, json.dumps({"inputs": inputs, "outputs": _output_stats(out, graph)}, sort_keys=True))


def _record_path(cache_dir: Path, out: Path) -> Path:
    name = hashlib.sha256(os.path.realpath(out).encode()).hexdigest()[:16]
    return cache_dir / FOLDER / f"site-{name}.json"


def _output_stats(out: Path, graph: Path | None) -> dict[str, object]:
    """Every file of the site folder (relative path → size, mtime, inode) and the graph file's."""
    files: dict[str, list[int]] = {}
    for folder, subfolders, names in os.walk(out):
        subfolders.sort()
        prefix = relative_prefix(out, folder)
        for name in sorted(names):
            info = os.lstat(os.path.join(folder, name))
            files[prefix + name] = [info.st_size, info.st_mtime_ns, info.st_ino]
    stats: dict[str, object] = {"site": os.path.realpath(out), "files": files}
    if graph is not None:
        try:
            info = os.stat(graph)
            stats["graph"] = [os.path.realpath(graph), info.st_size, info.st_mtime_ns, info.st_ino]
        except OSError:
            stats["graph"] = [os.path.realpath(graph)]
    return stats


def _installed() -> str:
    """The installed distributions and their versions (the theme, mkdocs, the tokenizer, …)."""
    names = {f"{dist.metadata['Name']}=={dist.version}" for dist in metadata.distributions()}
    return ";".join(sorted(names))


def _site_sources() -> str:
    """A digest of ``mkdocs.yml`` and every file of the site's hand-written sources."""
    digest = hashlib.sha256(MKDOCS_CONFIG.read_bytes())
    for path in sorted(SITE_SOURCES.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(SITE_SOURCES).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()
