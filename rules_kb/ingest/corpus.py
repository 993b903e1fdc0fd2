"""The corpus manifest, read and written here: which files exist, what they are, and that they are
unchanged.

Every entry is checked against a small schema before anything uses it: typed fields (a
string where a string is meant, a list of strings where a list is meant, never a string
split into characters), a sha256 of 64 hex digits, version labels and dates of a fixed
shape, and a ``file`` that is a relative path inside the corpus (no ``..``, not absolute).
Symlinks inside the corpus are the corpus owner's choice and are followed. Keys the schema
does not know are left alone.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path, PurePosixPath

from rules_kb.errors import ManifestError, SourceError
from rules_kb.games import CR, DOCUMENTS, GAMES, LANGS
from rules_kb.ingest.reading import parse_nested, read_checked, read_source
from rules_kb.model import DocumentMeta

MANIFEST = "manifest.toml"
KINDS = ("rules", "change-notice", "commentary", "rulings", "contents")
_REQUIRED = ("id", "file", "sha256", "game", "languages", "format", "kind")
# ``1.38``, ``2024-11-08``, ``before-2021-09-07``: letters, digits, ``.``, ``-``, ``_``.
VERSION_LABEL = re.compile(r"[0-9A-Za-z][0-9A-Za-z._-]{0,63}")
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_ID = re.compile(r"[0-9A-Za-z][0-9A-Za-z._-]{0,127}")
_SHA256 = re.compile(r"[0-9a-fA-F]{64}")


def read_toml(path: Path, *, missing: str | None = None) -> dict:
    """A TOML file of the corpus (manifest, curated data), every failure a ``ManifestError``.

    Read as a source file (regular, size-capped, UTF-8 checked with its offset). A missing
    file reads as empty (curated files are optional) unless ``missing`` says why it is required.
    """
    if not path.exists() and not path.is_symlink():
        if missing is None:
            return {}
        raise ManifestError(str(path), missing)
    data = read_source(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ManifestError(str(path), f"invalid UTF-8 ({exc.reason})", exc.start) from None
    try:
        return parse_nested(tomllib.loads, text, str(path))
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(str(path), f"invalid TOML: {exc}") from None
    except SourceError as exc:
        raise ManifestError(str(path), exc.problem) from None


def load_manifest(corpus: Path) -> list[DocumentMeta]:
    """Read ``corpus/manifest.toml``; every entry is checked for shape, not yet for bytes."""
    path = corpus / MANIFEST
    if not corpus.is_dir():
        problem = "not a directory" if corpus.exists() else "no such directory"
        raise ManifestError(str(corpus), f"corpus folder: {problem}")
    return read_manifest(path)


def read_manifest(path: Path, missing: str = "manifest not found") -> list[DocumentMeta]:
    """Every entry of the manifest file ``path``, each checked by the schema; ``load_manifest``
    and ``add`` (on the manifest it is about to install) read through this one loader."""
    entries = read_toml(path, missing=missing).get("document", [])
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


def _read_entry(path: Path, index: int, entry: object) -> DocumentMeta:
    where = f"document {index}"
    if not isinstance(entry, dict):
        raise ManifestError(str(path), f"{where}: must be a table ([[document]]), not {type(entry).__name__}")
    missing = [key for key in _REQUIRED if key not in entry]
    if missing:
        raise ManifestError(str(path), f"{where}: missing {', '.join(missing)}")

    def text(key: str, pattern: re.Pattern[str] | None = None, default: str | None = None) -> str:
        value = entry.get(key, default)
        if not isinstance(value, str) or (pattern is not None and not pattern.fullmatch(value)):
            shape = f" matching {pattern.pattern}" if pattern is not None else ""
            raise ManifestError(str(path), f"{where}: {key} must be a string{shape}, not {value!r}")
        return value

    def strings(key: str, pattern: re.Pattern[str] | None = None) -> tuple[str, ...]:
        value = entry.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ManifestError(str(path), f"{where}: {key} must be a list of strings, not {value!r}")
        bad = [v for v in value if pattern is not None and not pattern.fullmatch(v)]
        if bad:
            raise ManifestError(str(path), f"{where}: {key}: {bad[0]!r} does not match {pattern.pattern}")
        return tuple(value)

    game = text("game")
    if game not in GAMES:
        raise ManifestError(str(path), f"{where}: unknown game {game!r}")
    kind = text("kind")
    if kind not in KINDS:
        raise ManifestError(str(path), f"{where}: unknown kind {kind!r}")
    document = text("document", default=CR)
    if (game, document) not in DOCUMENTS:
        known = ", ".join(d for g, d in DOCUMENTS if g == game)
        raise ManifestError(str(path), f"{where}: {game} publishes no document {document!r} (known: {known})")
    languages = strings("languages")
    if not languages or any(lang not in LANGS for lang in languages):
        raise ManifestError(str(path), f"{where}: languages must be among {LANGS}")
    file = text("file")
    check_relative_file(path, where, file)
    return DocumentMeta(
        id=text("id", _ID),
        file=file,
        sha256=text("sha256", _SHA256).lower(),
        game=game,
        languages=languages,
        format=text("format"),
        kind=kind,
        versions=strings("versions", VERSION_LABEL),
        dates=strings("dates", DATE),
        source=text("source", default=""),
        note=text("note", default=""),
        document=document,
    )


def check_relative_file(path: Path, where: str, file: str) -> None:
    """Refuse a ``file`` that is absolute, empty, or climbs out of the corpus with ``..``."""
    pure = PurePosixPath(file)
    if not file or pure.is_absolute() or "\\" in file or ".." in pure.parts or file.startswith("~"):
        raise ManifestError(str(path), f"{where}: file must be a relative path inside the corpus, not {file!r}")


def read_document_bytes(corpus: Path, meta: DocumentMeta) -> bytes:
    """The file's bytes, after checking them against the manifest's sha256."""
    path = corpus / meta.file
    if not path.exists() and not path.is_symlink():
        raise ManifestError(meta.file, f"file listed in the manifest (id {meta.id}) is missing")
    if path.is_symlink() and not _inside(path, corpus):
        raise ManifestError(meta.file, "a symlink out of the corpus: refused")
    try:
        return read_checked(path, meta.file, meta.sha256)
    except SourceError as exc:
        if not exc.problem.startswith("sha256 mismatch"):
            raise
        raise ManifestError(meta.file, exc.problem.replace("recorded", "manifest")) from None


def _inside(path: Path, folder: Path) -> bool:
    """Whether ``path`` is ``folder`` or lies under it, symlinks resolved. A document that is itself a
    symlink must stay inside the corpus; a folder linked in as a whole is followed."""
    try:
        path, folder = path.resolve(), folder.resolve()
    except (OSError, RuntimeError):
        return True  # a symlink loop: reading it says so
    return path == folder or folder in path.parents


# --- writing the manifest (``releases.add``) -------------------------------------------------


def load_manifest_text_check(path: Path) -> None:
    """Refuse to install a manifest that would not load back: the loader every command uses."""
    read_manifest(path, missing="the new manifest was not written")


def check_entry(meta: DocumentMeta, document: str) -> None:
    """Refuse, before anything is written, an entry the manifest's loader would refuse once
    written (a ``file`` with a backslash, say): ``manifest_entry`` read back by ``_read_entry``."""
    try:
        entry = tomllib.loads(manifest_entry(meta))["document"][0]
        _read_entry(Path(MANIFEST), 0, entry)
    except ManifestError as exc:
        problem = exc.problem.removeprefix("document 0: ")
        raise ManifestError(document, f"cannot be added: its manifest entry would be refused ({problem})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(document, f"cannot be added: its manifest entry is not TOML ({exc})") from None


def _toml(value) -> str:
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return '"' + "".join(_TOML_ESCAPES.get(char) or (f"\\u{ord(char):04x}" if _is_control(char) else char)
                         for char in str(value)) + '"'


# A TOML basic string holds no raw control character: ``--source $'a\nb'`` is written ``"a\nb"``.
_TOML_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b", "\f": "\\f"}


def _is_control(char: str) -> bool:
    return char < " " or char == "\x7f"


def manifest_entry(meta: DocumentMeta) -> str:
    """One ``[[document]]`` table of the manifest, as ``add`` appends it (``load_manifest`` reads it back)."""
    lines = ["[[document]]"]
    for key in ("id", "file", "sha256", "game", "document", "languages", "format", "kind", "versions", "dates",
                "source", "note"):
        value = getattr(meta, key)
        if value in ("", ()) or (key == "document" and value == CR):
            continue
        lines.append(f"{key} = {_toml(value)}")
    return "\n".join(lines) + "\n"
