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
from rules_kb.site.frame import Frame, FrameKey

MANIFEST = ".rules-kb-units.json"


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
        record = {"salt": self.salt, "units": self.new}
        (self.staging / MANIFEST).write_text(json.dumps(record, ensure_ascii=False, sort_keys=True, indent=0) + "\n",
                                             encoding="utf-8")


def _read_manifest(path: Path, salt: str) -> dict[str, dict]:
    """The previous build's units, or none when it was built by other code (or is unreadable)."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(record, dict) or record.get("salt") != salt or not isinstance(record.get("units"), dict):
        return {}
    return record["units"]


def _link_or_copy(source: str, target: str) -> None:
    """A hard link (the old site is deleted after the swap, the file lives on), else a copy."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)
