"""Reuse of the previous build's units: one more release should not cost a whole new site.

A unit is a folder of generated pages that depends only on what its key digests (the pages of
one version pair's diff depend on the two versions' texts and the forced matches between
them). The built site carries a manifest of its units and their keys, each key salted with the
package's source and the theme's frames; the next build into the same folder hard-links a
unit's files from the old site instead of computing them again when its key is unchanged.
A build from an empty folder, or after any code or theme change, computes everything.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from rules_kb.assemble.caches import source_hash
from rules_kb.errors import SourceError
from rules_kb.ingest.reading import parse_json, read_source
from rules_kb.render.output import WORK_MARK, relative_prefix
from rules_kb.site.frame import Frame, FrameKey

MANIFEST = ".rules-kb-units.json"
MAX_MANIFEST_BYTES = 64 * 1024 * 1024  # 60 bytes a file: room for a million files


def build_salt(frames: dict[FrameKey, Frame]) -> str:
    """What every unit depends on besides its own key: the code and the theme's frames."""
    digest = hashlib.sha256(source_hash().encode())
    for key in sorted(frames, key=lambda k: (k[0] or "", k[1])):
        frame = frames[key]
        digest.update(f"{key}\0{frame.head}\0{frame.middle}\0{frame.tail}\0".encode())
    return digest.hexdigest()


class PreviousBuild:
    """The ``Units`` a site generator asks (``render.site_data.Units``), backed by the old site.

    Made with the site's data, before any page; it reads the old manifest once the theme's frames
    are known (``open``: they salt every key), which is before any generator asks."""

    def __init__(self, previous: Path, staging: Path) -> None:
        self.previous, self.staging = previous, staging
        self.salt: str | None = None
        self.old: dict[str, dict] = {}
        self.new: dict[str, dict] = {}
        self.reused_pages = 0
        self.unchanged_pages = 0  # written with the bytes the previous build had: linked (``keep_same``)

    def open(self, salt: str) -> None:
        """Read the previous build's units that were made with the same code and frames."""
        self.salt = salt
        self.old = _read_manifest(self.previous / MANIFEST, salt)

    def reuse(self, folder: str, key: str) -> dict | None:
        if self.salt is None:
            raise RuntimeError("PreviousBuild.open must run before a generator asks for a unit")
        entry = self.old.get(folder)
        source = self.previous / folder.strip("/")
        if entry is None or entry.get("key") != key or not source.is_dir():
            return None
        shutil.copytree(source, self.staging / folder.strip("/"), copy_function=_link_or_copy)
        self.reused_pages += sum(1 for _ in source.rglob("index.html"))
        self.new[folder] = entry
        return entry

    def keep_same(self, relative: str, data: bytes) -> bool:
        """Link the previous build's file at ``relative`` into the new site when it holds exactly
        ``data``; False (nothing done) when it differs, is missing, or cannot be linked."""
        old = self.previous / relative
        try:
            if old.stat().st_size != len(data) or old.read_bytes() != data:
                return False
            os.link(old, self.staging / relative)
        except OSError:
            return False
        self.unchanged_pages += 1
        return True

    def record(self, folder: str, key: str, data: dict) -> None:
        self.new[folder] = {"key": key, **data}

    def write_manifest(self) -> None:
        """The units and every file of the finished site (``files``: what the next build may replace);
        written last, after every writer."""
        files = sorted(relative_prefix(self.staging, folder) + name for folder, _, names in os.walk(self.staging)
                       for name in names if name != WORK_MARK)
        record = {"salt": self.salt, "units": self.new, "files": files}
        (self.staging / MANIFEST).write_text(json.dumps(record, ensure_ascii=False, sort_keys=True, indent=0) + "\n",
                                             encoding="utf-8")


def _read_record(path: Path) -> dict | None:
    """The manifest of a previous build, read by the one rule (``ingest/reading.py``), or None."""
    try:
        record = parse_json(read_source(path, MANIFEST, MAX_MANIFEST_BYTES), MANIFEST)
    except SourceError:
        return None
    return record if isinstance(record, dict) else None


def _read_manifest(path: Path, salt: str) -> dict[str, dict]:
    """The previous build's units, or none when it was built by other code (or is unreadable)."""
    record = _read_record(path)
    if record is None or record.get("salt") != salt or not isinstance(record.get("units"), dict):
        return {}
    return record["units"]


def foreign_files(site: Path) -> list[str]:
    """What in a previous build ``site`` the build did not write (``CNAME``, ``.git/``), to be refused
    by name rather than deleted; a build whose manifest lists no files (an older rules-kb's, or a
    damaged one) is all foreign. A folder is named once (``.git/``), not file by file."""
    record = _read_record(site / MANIFEST)
    files = record.get("files") if record else None
    if not isinstance(files, list) or not all(isinstance(name, str) for name in files):
        return [f"{MANIFEST} lists no files (a build by an older rules-kb, or damaged)"]
    written = set(files) | {MANIFEST, WORK_MARK}
    folders = {parent for name in files for parent in _parents(name)}
    foreign = []
    for folder, subfolders, names in os.walk(site):
        prefix = relative_prefix(site, folder)
        for name in sorted(subfolders):
            if prefix + name not in folders:
                foreign.append(f"{prefix}{name}/")
        subfolders[:] = [name for name in subfolders if prefix + name in folders]
        foreign.extend(path for name in sorted(names) if (path := prefix + name) not in written)
    return sorted(foreign)


def _parents(name: str) -> list[str]:
    parts = name.split("/")[:-1]
    return ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]


def _link_or_copy(source: str, target: str) -> None:
    """A hard link (the old site is deleted after the swap, the file lives on), else a copy."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)
