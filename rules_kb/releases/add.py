"""Add a release to the corpus: detect, check against the flags, copy, record, ingest.

``plan_addition`` does all the work that can fail (reading, decoding, detecting, parsing,
accounting, conflict and duplicate checks) and writes nothing; ``commit_addition`` then
copies the file and rewrites the manifest, each through a temporary file, so a failure at
any point leaves the corpus as it was. ``add_release`` runs both while holding the corpus
lock (``flock`` on the corpus folder itself), so concurrent adds are serialised and each
one's duplicate checks see the manifest as the previous one left it.

A ``kill -9`` between the two renames leaves the copied file without its manifest entry;
the next ``add`` of the same bytes recognises that file (identical sha256, listed nowhere)
and completes the addition, and stale temporary files of interrupted adds are removed.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import date as date_type
from datetime import timedelta
from pathlib import Path

from rules_kb.compare.changes import Comparison, compare_versions
from rules_kb.compare.memory import AlignmentMemo
from rules_kb.errors import ManifestError, OutputError, SourceError
from rules_kb.files import replace_file, shielded
from rules_kb.ingest.corpus import (
    DATE,
    MANIFEST,
    VERSION_LABEL,
    check_entry,
    load_manifest,
    load_manifest_text_check,
    manifest_entry,
)
from rules_kb.ingest.curated import load_forced_matches
from rules_kb.ingest.decode import byte_offset, decode_document
from rules_kb.ingest.detect import describe_file
from rules_kb.ingest.pipeline import Ingested, ingest_corpus, parse_bytes
from rules_kb.ingest.reading import read_source
from rules_kb.kb.catalog import Catalog, build_catalog
from rules_kb.model import DocumentMeta
from rules_kb.sources.common import LONGEST_RULE

# Version kinds that name the document's own release (not releases it merely mentions).
_OWN_KINDS = ("full", "excerpt", "change-notice", "contents")
_TEMPORARIES = (".add-*.tmp", ".manifest-*.tmp")
_FILE_MODE = 0o644  # a release and the manifest are read by every user of the corpus
# A parser that finds no version files the rules under a placeholder label ('unknown') and says
# so with this anomaly: the placeholder is not a version the text states.
_NO_VERSION = ("no-version",)


class ConflictError(SourceError):
    """A flag says one thing and the text another."""


@dataclass
class Addition:
    meta: DocumentMeta
    source: Path
    item: Ingested
    previous: str | None = None
    changes: Comparison | None = None  # against ``previous``, as ``diff`` reports it
    neighbours: dict[str, int] = field(default_factory=dict)  # complete releases beside it: label -> rules
    rule_count: int = 0  # distinct rule numbers, when the release is complete
    catalog: Catalog | None = field(default=None, repr=False)  # what the comparison read (kept for the caches)
    alignments: AlignmentMemo = field(default_factory=AlignmentMemo, repr=False)  # and what it aligned


def stated(item: Ingested) -> tuple[list[str], list[str]]:
    """Version labels and dates the text itself states for its own release."""
    own = [v for v in item.parsed.versions if v.kind in _OWN_KINDS]
    unstated = any(anomaly.code in _NO_VERSION for anomaly in item.parsed.anomalies)
    labels = [] if unstated else list(dict.fromkeys(v.label for v in own))
    dates = list(dict.fromkeys(v.date for v in own if v.date))
    return labels, dates


def _check_flag(path: Path, name: str, flag: str | None, stated: list[str]) -> None:
    if flag is not None and stated and flag not in stated:
        raise ConflictError(str(path), f"--{name} {flag} conflicts with the text, which says {', '.join(stated)}")


def plan_addition(corpus: Path, path: Path, *, game: str | None = None, lang: str | None = None,
                  format_name: str | None = None, version: str | None = None, date: str | None = None,
                  source: str | None = None, note: str | None = None, force: bool = False) -> Addition:
    """Everything ``add`` will do, checked, with nothing written yet.

    ``force`` accepts a release whose structure is implausible (see ``_check_plausible``).
    """
    if version is not None and not VERSION_LABEL.fullmatch(version):
        raise SourceError(str(path), f"--version {version!r}: a label is letters, digits, '.', '-' and '_' "
                                     "(like 1.38 or 2024-11-08)")
    if date is not None and not DATE.fullmatch(date):
        raise SourceError(str(path), f"--date {date!r}: expected YYYY-MM-DD")
    data = read_source(path)
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
    labels, dates = stated(probe)
    if guess.format != "mtg-cr":  # Magic's label is the caller's (file date); the text states only a date
        _check_flag(path, "version", version, labels)
    _check_flag(path, "date", date, dates)
    label = version or (labels[0] if labels else None)
    if label is None:
        raise SourceError(str(path), "the text states no version: pass --version")
    for other in existing:
        if (other.game == guess.game and other.document == guess.document and other.kind == guess.kind
                and label in other.versions and set(other.languages) & set(languages)):
            raise ManifestError(str(path), f"version {label} of {guess.game} {'+'.join(languages)} is already in the "
                                           f"corpus as {other.id}; pass --version to label this file differently")
    the_date = date or (dates[0] if dates else None)
    base = f"{guess.format}-{label}" if guess.format.startswith(guess.game) else f"{guess.game}-{guess.format}-{label}"
    meta = replace(guess, id=_unique_id(existing, base),
                   file=f"{guess.game}/{path.name}", languages=languages, versions=(label,),
                   dates=(the_date,) if the_date else (), source=source or f"added by rules-kb add from {path.name}",
                   note=note or "")
    check_entry(meta, str(path))
    _check_destination(corpus, existing, meta, path)
    item = parse_bytes(data, meta)
    if not item.accounting.complete:
        first = (item.accounting.uncovered or item.accounting.overlapping)[0]
        raise SourceError(str(path), f"parse is not lossless ({item.accounting.percent:.2f}% accounted)",
                          byte_offset(data, item.decoded, first[0]))
    addition = Addition(meta, path, item)
    _compare_with_previous(corpus, existing, addition, same_release_check=version is None)
    if not force:
        _check_plausible(addition)
    return addition


def _check_plausible(addition: Addition) -> None:
    """Refuse a release that parsed into something no real release looks like.

    A rule text longer than ``LONGEST_RULE`` (past which every parser reports an anomaly) has
    swallowed lines that are not its own; a complete release with under half the rules of each
    complete neighbour (the releases just before and after it) has lost its numbering. ``--force``
    adds it anyway.
    """
    source = str(addition.source)
    longest = max(addition.item.parsed.rules, key=lambda rule: len(rule.text), default=None)
    if longest is not None and len(longest.text) > LONGEST_RULE:
        raise SourceError(source, f"implausible structure: rule {longest.number} runs to {len(longest.text):,} "
                                  f"characters (no real rule exceeds 3,000); pass --force to add it anyway")
    counts = addition.neighbours
    rules = addition.rule_count
    if counts and all(rules < count / 2 for count in counts.values()):
        shown = ", ".join(f"{label} has {count:,}" for label, count in counts.items())
        raise SourceError(source, f"implausible structure: {rules:,} rules where {shown}; "
                                  "pass --force to add it anyway")


def _check_destination(corpus: Path, existing: list[DocumentMeta], meta: DocumentMeta, path: Path) -> None:
    """Refuse to overwrite a file, except the identical orphan an interrupted add left behind."""
    destination = corpus / meta.file
    if not destination.exists() and not destination.is_symlink():
        return
    listed = any(other.file == meta.file for other in existing)
    if not listed and destination.is_file() and not destination.is_symlink():
        with contextlib.suppress(SourceError):
            if hashlib.sha256(read_source(destination)).hexdigest() == meta.sha256:
                return  # left by an add killed between its two renames: this add completes it
    where = "listed in the manifest" if listed else "not listed in the manifest: remove it or rename this file"
    raise ManifestError(str(path), f"{meta.file} already exists in the corpus with other content ({where})")


def _unique_id(existing: list[DocumentMeta], base: str) -> str:
    taken = {m.id for m in existing}
    base = re.sub(r"[^a-z0-9.]+", "-", base.lower()).strip("-")
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    return candidate


def _compare_with_previous(corpus: Path, existing: list[DocumentMeta], addition: Addition,
                           same_release_check: bool) -> None:
    """Compare the new release with the newest complete one before it, same game and language.

    Without an explicit ``--version``, a release whose stated date equals a complete release
    already held (under another label) is refused as the same release with other bytes.
    """
    meta = addition.meta
    same = [m for m in existing if m.game == meta.game and set(m.languages) & set(meta.languages)
            and m.kind == meta.kind and m.document == meta.document]
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
    addition.catalog = catalog
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
    complete = [lab for lab in catalog.version_labels(meta.game, lang)
                if lab != label and catalog.versions[(meta.game, lang, lab)].complete
                and catalog.rules_in(meta.game, lang, lab)]
    older = [lab for lab in complete
             if (catalog.versions[(meta.game, lang, lab)].date or "") <= (new_info.date or "9999")]
    newer = [lab for lab in complete if lab not in older]
    if new_info.complete:
        addition.rule_count = len(catalog.rules_in(meta.game, lang, label))
        for neighbour in older[-1:] + newer[:1]:
            addition.neighbours[neighbour] = len(catalog.rules_in(meta.game, lang, neighbour))
    if not older:
        return len(ids) == len(same)
    addition.previous = older[-1]
    addition.changes = compare_versions(catalog, addition.alignments, meta.game, lang, older[-1], label,
                                        load_forced_matches(corpus))
    return True


@contextlib.contextmanager
def corpus_lock(corpus: Path) -> Iterator[None]:
    """Hold an exclusive ``flock`` on the corpus folder (waiting for any other holder).

    Locking the folder rather than a lock file inside it leaves nothing behind (a refused
    add changes nothing) and works on a read-only corpus; the folder's inode never changes,
    unlike the manifest's, which every add replaces.
    """
    try:
        handle = os.open(corpus, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise OutputError(str(corpus), f"cannot lock the corpus: {exc.strerror or exc}") from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)  # closing releases the lock


def add_release(corpus: Path, path: Path, cache_dir: Path | None = None, **flags: str | None) -> Addition:
    """Plan and commit one addition under the corpus lock; see ``plan_addition`` for flags.

    With ``cache_dir``, the parse and the alignments the add computed go into the build's
    caches, so the next lookup's rebuild reads them instead of computing them again.
    """
    return add_releases(corpus, [(path, flags)], cache_dir)[0]


Check = Callable[[Addition], None]


def add_releases(corpus: Path, wanted: list[tuple[Path, dict[str, str | None]]], cache_dir: Path | None = None,
                 check: Check | None = None) -> list[Addition]:
    """Add several releases in order, all or nothing (``updates --fetch``): under one corpus lock,
    each is planned (``check`` may refuse the plan) and committed, so a later one is compared with
    an earlier; when any is refused, or anything fails, the manifest is put back as it was and the
    files the others copied are removed."""
    if not corpus.is_dir():
        raise ManifestError(str(corpus), "corpus folder: not a directory" if corpus.exists() else
                            "corpus folder: no such directory")
    additions: list[Addition] = []
    with corpus_lock(corpus):
        remove_stale_temporaries(corpus)
        manifest = corpus / MANIFEST
        before = read_source(manifest, str(manifest)) if manifest.is_file() else None
        try:
            for path, flags in wanted:
                addition = plan_addition(corpus, path, **flags)
                if check is not None:
                    check(addition)
                commit_addition(corpus, addition)
                additions.append(addition)
        except BaseException:
            if additions and before is not None:
                with shielded():
                    _undo(corpus, before, additions)
            raise
    if cache_dir is not None:
        from rules_kb.assemble.knowledge import remember_addition

        for addition in additions:
            remember_addition(cache_dir, addition.catalog or build_catalog([addition.item.parsed]),
                              addition.alignments, addition.item.parsed)
    return additions


def _undo(corpus: Path, manifest: bytes, additions: list[Addition]) -> None:
    """Put the manifest back byte for byte, then remove the files the additions copied."""
    path = corpus / MANIFEST
    try:
        replace_file(path, lambda out: out.buffer.write(manifest), stat.S_IMODE(path.stat().st_mode), sync=True)
        for addition in additions:
            (corpus / addition.meta.file).unlink(missing_ok=True)
    except OSError as exc:
        raise OutputError(str(exc.filename or path), f"cannot undo the additions: {exc.strerror or exc}") from None


def remove_stale_temporaries(corpus: Path) -> None:
    """Delete temporary files left by adds that were killed; only call under the lock."""
    for pattern in _TEMPORARIES:
        for leftover in (*corpus.glob(pattern), *corpus.glob(f"*/{pattern}")):
            with contextlib.suppress(OSError):
                leftover.unlink()


def commit_addition(corpus: Path, addition: Addition) -> None:
    """Copy the file and append its manifest entry; all or nothing."""
    destination = corpus / addition.meta.file
    manifest = corpus / MANIFEST
    entry = manifest_entry(addition.meta)
    temporaries: list[str] = []
    try:
        current = manifest.read_text(encoding="utf-8")
        mode = stat.S_IMODE(manifest.stat().st_mode) | 0o444
        destination.parent.mkdir(parents=True, exist_ok=True)
        for folder, prefix in ((destination.parent, ".add-"), (corpus, ".manifest-")):
            handle, name = tempfile.mkstemp(dir=folder, prefix=prefix, suffix=".tmp")
            os.close(handle)
            temporaries.append(name)
        copy, new_manifest = temporaries
        shutil.copyfile(addition.source, copy)
        os.chmod(copy, _FILE_MODE)  # mkstemp's 0600 would hide the release from other users
        if hashlib.sha256(Path(copy).read_bytes()).hexdigest() != addition.meta.sha256:
            raise SourceError(str(addition.source), "the file changed while it was being added")
        Path(new_manifest).write_text(current.rstrip("\n") + "\n\n" + entry, encoding="utf-8")
        os.chmod(new_manifest, mode)
        load_manifest_text_check(Path(new_manifest))
        os.replace(copy, destination)
        try:
            os.replace(new_manifest, manifest)
        except BaseException:
            destination.unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise OutputError(str(exc.filename or corpus), exc.strerror or str(exc)) from None
    finally:
        for name in temporaries:
            Path(name).unlink(missing_ok=True)
