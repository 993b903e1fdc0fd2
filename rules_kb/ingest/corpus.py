"""The corpus manifest: which files exist, what they are, and that they are unchanged."""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path

from rules_kb.errors import ManifestError
from rules_kb.model import DocumentMeta

MANIFEST = "manifest.toml"
GAMES = ("dm", "mtg")
LANGUAGES = ("ja", "en")
KINDS = ("rules", "change-notice", "commentary", "rulings", "contents")
_REQUIRED = ("id", "file", "sha256", "game", "languages", "format", "kind")


def read_toml(path: Path, *, missing: str | None = None) -> dict:
    """A TOML file of the corpus (manifest, curated data), every failure a ``ManifestError``.

    A missing file reads as empty (curated files are optional) unless ``missing`` says why
    it is required.
    """
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        if missing is None:
            return {}
        raise ManifestError(str(path), missing) from None
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(str(path), f"invalid TOML: {exc}") from None


def load_manifest(corpus: Path) -> list[DocumentMeta]:
    """Read ``corpus/manifest.toml``; every entry is checked for shape, not yet for bytes."""
    path = corpus / MANIFEST
    data = read_toml(path, missing="manifest not found")
    entries = data.get("document", [])
    if not isinstance(entries, list):
        raise ManifestError(str(path), "'document' must be an array of tables")
    seen: set[str] = set()
    documents = []
    for index, entry in enumerate(entries):
        meta = _read_entry(path, index, entry)
        if meta.id in seen:
            raise ManifestError(str(path), f"document {index}: duplicate id {meta.id!r}")
        seen.add(meta.id)
        documents.append(meta)
    return documents


def _read_entry(path: Path, index: int, entry: dict) -> DocumentMeta:
    where = f"document {index}"
    missing = [key for key in _REQUIRED if key not in entry]
    if missing:
        raise ManifestError(str(path), f"{where}: missing {', '.join(missing)}")
    if entry["game"] not in GAMES:
        raise ManifestError(str(path), f"{where}: unknown game {entry['game']!r}")
    if entry["kind"] not in KINDS:
        raise ManifestError(str(path), f"{where}: unknown kind {entry['kind']!r}")
    languages = tuple(entry["languages"])
    if not languages or any(lang not in LANGUAGES for lang in languages):
        raise ManifestError(str(path), f"{where}: languages must be among {LANGUAGES}")
    return DocumentMeta(
        id=entry["id"],
        file=entry["file"],
        sha256=entry["sha256"].lower(),
        game=entry["game"],
        languages=languages,
        format=entry["format"],
        kind=entry["kind"],
        versions=tuple(entry.get("versions", ())),
        dates=tuple(entry.get("dates", ())),
        source=entry.get("source", ""),
        note=entry.get("note", ""),
    )


def read_document_bytes(corpus: Path, meta: DocumentMeta) -> bytes:
    """The file's bytes, after checking them against the manifest's sha256."""
    path = corpus / meta.file
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ManifestError(meta.file, f"file listed in the manifest (id {meta.id}) is missing") from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != meta.sha256:
        raise ManifestError(meta.file, f"sha256 mismatch: manifest {meta.sha256[:12]}…, file {digest[:12]}…")
    return data
