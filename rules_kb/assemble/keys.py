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


def file_stats(corpus: Path) -> dict[str, list[int]]:
    """Size, mtime and ctime of every corpus file, recorded with a cache built from them."""
    from rules_kb.ingest.corpus import load_manifest

    out = {}
    for meta in load_manifest(corpus):
        stat = (corpus / meta.file).stat()
        out[meta.file] = [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns]
    return out


def check_files(corpus: Path, recorded: dict[str, list[int]]) -> None:
    """Re-hash only the files whose size, mtime or ctime moved since a cache was built (stat is cheap);
    an edited or missing file raises ``ManifestError`` instead of being answered from the cache. The
    ctime catches a same-size edit whose mtime was put back: setting the mtime moves the ctime. The
    cache key covers the manifest, so the files recorded are the manifest's."""
    from rules_kb.ingest.corpus import load_manifest, read_document_bytes

    moved = set()
    for file, stats in recorded.items():
        try:
            stat = (corpus / file).stat()
            if stats == [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns]:
                continue
        except OSError:
            pass
        moved.add(file)
    for meta in load_manifest(corpus) if moved else ():
        if meta.file in moved:
            read_document_bytes(corpus, meta)
