"""Keys of what a build depends on, cheap enough for every lookup (no stage is imported)."""

from __future__ import annotations

import hashlib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent  # the whole rules_kb package


def source_hash(parts: tuple[str, ...] | None = None) -> str:
    """sha256 of the package's source files (all, or those under ``parts``)."""
    digest = hashlib.sha256()
    for source in sorted(PACKAGE.rglob("*.py")):
        relative = source.relative_to(PACKAGE)
        if parts is not None and relative.parts[0] not in parts:
            continue
        digest.update(str(relative).encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()


def cache_key(corpus: Path) -> str:
    """Key of everything a built knowledge base depends on: the manifest and every curated file
    (the corpus folder's ``*.toml``; documents are covered by their sha256 in the manifest) and
    the package's source."""
    digest = hashlib.sha256()
    for path in sorted(corpus.glob("*.toml")):
        digest.update(path.name.encode() + b"\0")
        digest.update(path.read_bytes())
    digest.update(source_hash().encode())
    return digest.hexdigest()[:16]
