"""Add a release to the corpus: detect, check against the flags, copy, record, ingest.

``plan_addition`` does all the work that can fail (reading, decoding, detecting, parsing,
accounting, conflict and duplicate checks) and writes nothing; ``commit_addition`` then
copies the file and rewrites the manifest, each through a temporary file, so a failure at
any point leaves the corpus as it was.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
import tomllib
from dataclasses import dataclass, replace
from datetime import date as date_type
from datetime import timedelta
from pathlib import Path

from rules_kb.compare.align import Alignment, align_pair
from rules_kb.errors import ManifestError, SourceError
from rules_kb.ingest.corpus import MANIFEST, load_manifest
from rules_kb.ingest.curated import load_forced_matches
from rules_kb.ingest.decode import decode_document
from rules_kb.ingest.detect import describe_file
from rules_kb.ingest.pipeline import Ingested, ingest_corpus, parse_bytes
from rules_kb.kb.catalog import build_catalog
from rules_kb.model import DocumentMeta

# Version kinds that name the document's own release (not releases it merely mentions).
_OWN_KINDS = ("full", "excerpt", "change-notice", "contents")


class ConflictError(SourceError):
    """A flag says one thing and the text another."""


@dataclass
class Addition:
    meta: DocumentMeta
    source: Path
    item: Ingested
    previous: str | None = None
    changes: Alignment | None = None


def _stated(item: Ingested) -> tuple[list[str], list[str]]:
    """Version labels and dates the text itself states for its own release."""
    own = [v for v in item.parsed.versions if v.kind in _OWN_KINDS]
    labels = list(dict.fromkeys(v.label for v in own))
    dates = list(dict.fromkeys(v.date for v in own if v.date))
    return labels, dates


def _check_flag(path: Path, name: str, flag: str | None, stated: list[str]) -> None:
    if flag is not None and stated and flag not in stated:
        raise ConflictError(str(path), f"--{name} {flag} conflicts with the text, which says {', '.join(stated)}")


def plan_addition(corpus: Path, path: Path, *, game: str | None = None, lang: str | None = None,
                  format_name: str | None = None, version: str | None = None, date: str | None = None,
                  source: str | None = None, note: str | None = None) -> Addition:
    """Everything ``add`` will do, checked, with nothing written yet."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(str(path), f"cannot read: {exc.strerror}") from None
    digest = hashlib.sha256(data).hexdigest()
    existing = load_manifest(corpus)
    for meta in existing:
        if meta.sha256 == digest:
            raise ManifestError(str(path), f"already in the corpus as {meta.id} ({meta.file}): same sha256")
    text = decode_document(data, str(path)).text
    guess = describe_file(path, data, text, format_name=format_name)
    _check_flag(path, "game", game, [guess.game])
    _check_flag(path, "lang", lang, list(guess.languages))
    languages = (lang,) if lang and len(guess.languages) == 1 else guess.languages
    probe = parse_bytes(data, replace(guess, languages=languages, versions=(version,) if version else ()))
    labels, dates = _stated(probe)
    if guess.format != "mtg-cr":  # Magic's label is the caller's (file date); the text states only a date
        _check_flag(path, "version", version, labels)
    _check_flag(path, "date", date, dates)
    label = version or (labels[0] if labels else None)
    if label is None:
        raise SourceError(str(path), "the text states no version: pass --version")
    for other in existing:
        if (other.game == guess.game and other.kind == guess.kind and label in other.versions
                and set(other.languages) & set(languages)):
            raise ManifestError(str(path), f"version {label} of {guess.game} {'+'.join(languages)} is already in the "
                                           f"corpus as {other.id}; pass --version to label this file differently")
    the_date = date or (dates[0] if dates else None)
    base = f"{guess.format}-{label}" if guess.format.startswith(guess.game) else f"{guess.game}-{guess.format}-{label}"
    meta = replace(guess, id=_unique_id(existing, base),
                   file=f"{guess.game}/{path.name}", languages=languages, versions=(label,),
                   dates=(the_date,) if the_date else (), source=source or f"added by rules-kb add from {path.name}",
                   note=note or "")
    if (corpus / meta.file).exists():
        raise ManifestError(str(path), f"{meta.file} already exists in the corpus with other content")
    item = parse_bytes(data, meta)
    if not item.accounting.complete:
        first = (item.accounting.uncovered or item.accounting.overlapping)[0]
        raise SourceError(str(path), f"parse is not lossless ({item.accounting.percent:.2f}% accounted)", first[0])
    addition = Addition(meta, path, item)
    _compare_with_previous(corpus, existing, addition, same_release_check=version is None)
    return addition


def _unique_id(existing: list[DocumentMeta], base: str) -> str:
    taken = {m.id for m in existing}
    base = re.sub(r"[^a-z0-9.]+", "-", base.lower()).strip("-")
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    return candidate


def _compare_with_previous(corpus: Path, existing: list[DocumentMeta], addition: Addition,
                           same_release_check: bool) -> None:
    """Align the new release with the newest complete one before it, same game and language.

    Without an explicit ``--version``, a release whose stated date equals a complete release
    already held (under another label) is refused as the same release with other bytes.
    """
    meta = addition.meta
    same = [m for m in existing if m.game == meta.game and set(m.languages) & set(meta.languages)
            and m.kind == meta.kind]
    if not same:
        return
    if not _compare_within(corpus, same, addition, same_release_check, _neighbours(same, meta)):
        _compare_within(corpus, same, addition, same_release_check, [m.id for m in same])


# Documents whose manifest date lies this far after the new release's may still be older by
# the date their text states (file names carry upload dates).
_DATE_SLACK_DAYS = 31


def _neighbours(same: list[DocumentMeta], meta: DocumentMeta) -> list[str]:
    """The documents the comparison needs: the few newest dated ones up to the new release's
    date and every undated one, so that an add costs the same at 10 releases as at 100."""
    new_date = _approximate_date(meta)
    undated = [m.id for m in same if _approximate_date(m) is None]
    if new_date is None:
        return [m.id for m in same]
    limit = _shift(new_date, _DATE_SLACK_DAYS)
    dated = sorted((d, m.id) for m in same if (d := _approximate_date(m)) is not None and d <= limit)
    close = [doc for d, doc in dated if d >= new_date]  # same date or within the slack: twins and ties
    before = [doc for d, doc in dated if d < new_date][-3:]
    return undated + before + close


def _approximate_date(meta: DocumentMeta) -> str | None:
    """The manifest's date, or a label that is itself an ISO date (Magic's file dates)."""
    for value in (*meta.dates, *meta.versions):
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            return value
    return None


def _shift(iso: str, days: int) -> str:
    return (date_type.fromisoformat(iso) + timedelta(days=days)).isoformat()


def _compare_within(corpus: Path, same: list[DocumentMeta], addition: Addition, same_release_check: bool,
                    ids: list[str]) -> bool:
    """Compare against the documents ``ids``; False when they held no earlier complete release
    but other documents might."""
    meta = addition.meta
    if not ids:
        return False
    parsed = [i.parsed for i in ingest_corpus(corpus, ids)] + [addition.item.parsed]
    catalog = build_catalog(parsed)
    lang = meta.languages[0]
    label = meta.versions[0]
    new_info = catalog.versions.get((meta.game, lang, label))
    if new_info is None:
        return True
    if same_release_check and new_info.date:
        twins = [v for (g, lg, lab), v in catalog.versions.items()
                 if (g, lg) == (meta.game, lang) and lab != label and v.complete and v.date == new_info.date]
        if twins:
            raise ManifestError(str(addition.source), f"the text's date {new_info.date} is that of version "
                                f"{twins[0].label} ({', '.join(twins[0].documents)}), already in the corpus; "
                                "pass --version to add it anyway under another label")
    older = [lab for lab in catalog.version_labels(meta.game, lang)
             if lab != label and catalog.versions[(meta.game, lang, lab)].complete
             and catalog.rules_in(meta.game, lang, lab)
             and (catalog.versions[(meta.game, lang, lab)].date or "") <= (new_info.date or "9999")]
    if not older:
        return len(ids) == len(same)
    addition.previous = older[-1]
    addition.changes = align_pair(catalog, meta.game, lang, older[-1], label, tuple(load_forced_matches(corpus)))
    return True


def commit_addition(corpus: Path, addition: Addition) -> None:
    """Copy the file and append its manifest entry; all or nothing."""
    destination = corpus / addition.meta.file
    destination.parent.mkdir(parents=True, exist_ok=True)
    manifest = corpus / MANIFEST
    entry = manifest_entry(addition.meta)
    current = manifest.read_text(encoding="utf-8")
    handle, copy = tempfile.mkstemp(dir=destination.parent, prefix=".add-", suffix=".tmp")
    os.close(handle)
    handle, new_manifest = tempfile.mkstemp(dir=corpus, prefix=".manifest-", suffix=".tmp")
    os.close(handle)
    try:
        shutil.copyfile(addition.source, copy)
        Path(new_manifest).write_text(current.rstrip("\n") + "\n\n" + entry, encoding="utf-8")
        load_manifest_text_check(Path(new_manifest))
        os.replace(copy, destination)
        try:
            os.replace(new_manifest, manifest)
        except BaseException:
            destination.unlink(missing_ok=True)
            raise
    finally:
        Path(copy).unlink(missing_ok=True)
        Path(new_manifest).unlink(missing_ok=True)


def load_manifest_text_check(path: Path) -> None:
    """Refuse to install a manifest that would not load back."""
    try:
        tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(str(path), f"the new manifest would not parse: {exc}") from None


def _toml(value) -> str:
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    escaped = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def manifest_entry(meta: DocumentMeta) -> str:
    lines = ["[[document]]"]
    for key in ("id", "file", "sha256", "game", "languages", "format", "kind", "versions", "dates", "source", "note"):
        value = getattr(meta, key)
        if value in ("", ()):
            continue
        lines.append(f"{key} = {_toml(value)}")
    return "\n".join(lines) + "\n"
