"""Notice new releases: read the publishers' rule pages, compare with the corpus, fetch what is newer.

Reference sites that waited for someone to update them by hand went stale; this reads the two
pages the publishers keep current and says which releases the corpus lacks:

* Wizards' rules page links each Comprehensive Rules release as TXT, PDF and DOCX, named by
  date: ``MagicCompRules 20260116.txt`` (URL-encoded ``%20``), ``.pdf``, ``.docx``;
* the Duel Masters rule page links the 総合ゲームルール as a PDF, ``/img/dm_rule_20260723_5.pdf``,
  with the link text 「デュエル・マスターズ総合ゲームルール　Ver.1.51 （PDF形式） （最終更新日2026/07/23）」;
* the same pages link the tournament documents, each one PDF named by its date
  (``MTG_MTR_2025_Apr_21_EN.pdf``, ``MTG_IPG_2024Sep23_EN.pdf``, ``dm_competition_rule_20250501.pdf``):
  the registry (``games.DocumentKind.release_file``) holds each name's pattern. A document the page
  no longer links is said in a line, not an error: the rules releases are still watched.

``fetch_updates`` downloads every newer release, checks that each download is what its link
claims (a PDF is a PDF, a TXT decodes as text) before anything is written, then adds them
oldest first through ``add_releases``, with every check ``add`` makes and one more: the text's own
version and date must be the ones its link names. A page that cannot be fetched, a page whose
layout no longer shows these links, or a bad download is one error naming its URL and leaves the
corpus as it was, however many releases were added before it (``add_releases`` undoes them).
Every fetch goes through ``download.fetch_url`` (URL checked, one deadline, a size cap).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date as date_type
from pathlib import Path
from urllib.parse import unquote, urlsplit

from rules_kb.errors import SourceError
from rules_kb.games import CR, DocumentKind, documents_of
from rules_kb.ingest.corpus import load_manifest
from rules_kb.ingest.decode import decode_document
from rules_kb.ingest.documents import container_kind
from rules_kb.ingest.reading import MAX_SOURCE_BYTES
from rules_kb.releases.add import Addition, ConflictError, add_releases, stated
from rules_kb.releases.download import MAX_PAGE_BYTES, check_url, fetch_url, page_links

_MAGIC_FILE = re.compile(r"MagicCompRules[\s_-]*(\d{4})(\d{2})(\d{2})\.(txt|pdf|docx)", re.IGNORECASE)
_DM_VERSION = re.compile(r"Ver\.?\s*(\d+(?:\.\d+)+)", re.IGNORECASE)
_DM_DATE = re.compile(r"最終更新日\s*(\d{4})/(\d{1,2})/(\d{1,2})")
_DM_FILE_DATE = re.compile(r"dm_rule_(\d{4})(\d{2})(\d{2})")
_PREFERENCE = ("txt", "docx", "pdf")  # the corpus's own form first: the TXT Wizards exports
_FORMAT_NAMES = {"txt": "TXT", "pdf": "PDF", "docx": "DOCX"}


@dataclass
class Release:
    """One release a publisher's page lists."""

    game: str
    label: str  # Magic: the file's date; Duel Masters: the version (1.51); a tournament document: its date
    date: str | None
    links: dict[str, str] = field(default_factory=dict)  # txt/pdf/docx -> absolute URL
    document: str = CR

    def describe(self) -> str:
        formats = ", ".join(_FORMAT_NAMES[kind] for kind in ("txt", "pdf", "docx") if kind in self.links)
        dated = f"{self.date}, " if self.date and self.date != self.label else ""
        return f"{self.label} ({dated}{formats})"


@dataclass
class Status:
    """What the corpus holds of one game against what its publisher's page lists."""

    game: str
    page: str
    newest_held: str | None
    listed: list[Release]
    newer: list[Release]
    document: str = CR


Fetcher = Callable[[str, int], bytes]


def _anchors(html: bytes, base: str) -> list[tuple[str, str]]:
    """(absolute href, text) of every usable link on a page (``download.page_links``)."""
    return page_links(html, base)


def read_wizards_page(html: bytes, url: str) -> list[Release]:
    """The Comprehensive Rules releases Wizards' rules page links, oldest first."""
    releases: dict[str, Release] = {}
    for href, _ in _anchors(html, url):
        name = unquote(urlsplit(href).path.rsplit("/", 1)[-1])
        match = _MAGIC_FILE.fullmatch(name)
        if match is None:
            continue
        year, month, day, kind = match.groups()
        label = f"{year}-{month}-{day}"
        releases.setdefault(label, Release("mtg", label, label)).links.setdefault(kind.lower(), href)
    if not releases:
        raise SourceError(url, "page layout not recognised: no link to the Comprehensive Rules as TXT, PDF or "
                               "DOCX (MagicCompRules YYYYMMDD.txt/.pdf/.docx); nothing fetched")
    return [releases[label] for label in sorted(releases)]


def read_dm_page(html: bytes, url: str) -> list[Release]:
    """The 総合ゲームルール PDFs the Duel Masters rule page links (version, date), oldest first."""
    releases: dict[str, Release] = {}
    for href, text in _anchors(html, url):
        if "総合ゲームルール" not in text or not urlsplit(href).path.lower().endswith(".pdf"):
            continue
        version = _DM_VERSION.search(text)
        if version is None:
            continue
        date = _DM_DATE.search(text) or _DM_FILE_DATE.search(href)
        day = f"{int(date[1]):04d}-{int(date[2]):02d}-{int(date[3]):02d}" if date else None
        releases.setdefault(version[1], Release("dm", version[1], day)).links.setdefault("pdf", href)
    if not releases:
        raise SourceError(url, "page layout not recognised: no 総合ゲームルール link with a Ver. and a PDF; "
                               "nothing fetched")
    return sorted(releases.values(), key=lambda release: _version_key(release.label))


def _version_key(label: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", label))


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _month(raw: str) -> int | None:
    """A month written as a number or an English name or its abbreviation (``Apr``, ``Sept``)."""
    if raw.isdigit():
        return int(raw) if 1 <= int(raw) <= 12 else None
    key = raw[:3].lower()
    return _MONTHS.index(key) + 1 if key in _MONTHS else None


def read_dated_documents(html: bytes, url: str, kind: DocumentKind) -> list[Release]:
    """The releases of a document published as one PDF named by its date, oldest first; none when
    the page does not link it."""
    pattern = re.compile(kind.release_file, re.IGNORECASE)
    releases: dict[str, Release] = {}
    for href, _ in _anchors(html, url):
        match = pattern.fullmatch(unquote(urlsplit(href).path.rsplit("/", 1)[-1]))
        month = _month(match[2]) if match else None
        if match is None or month is None:
            continue
        try:
            day = date_type(int(match[1]), month, int(match[3])).isoformat()
        except ValueError:  # 2025_Feb_30: no release
            continue
        releases.setdefault(day, Release(kind.game, day, day, document=kind.id)).links.setdefault("pdf", href)
    return [releases[label] for label in sorted(releases)]


def _read_page(html: bytes, url: str, kind: DocumentKind) -> list[Release]:
    if kind.id != CR:
        return read_dated_documents(html, url, kind)
    return read_wizards_page(html, url) if kind.game == "mtg" else read_dm_page(html, url)


def _held(corpus: Path, game: str, document: str = CR) -> list[str]:
    """Labels of the complete releases the corpus holds of one game's document (Magic's CR, the
    official Japanese 総合ゲームルール, a tournament document)."""
    manifest = load_manifest(corpus)
    if document != CR:
        return [label for meta in manifest if meta.game == game and meta.document == document
                for label in meta.versions]
    if game == "mtg":
        return [label for meta in manifest if meta.format == "mtg-cr" for label in meta.versions]
    return [label for meta in manifest
            if meta.format == "dm-rulebook" and "ja" in meta.languages for label in meta.versions]


def watched_documents(game: str, documents: tuple[str, ...] | None = None) -> list[DocumentKind]:
    """The documents of ``game`` whose releases its publisher's page links (all, or ``documents``)."""
    return [kind for kind in documents_of(game) if (kind.id == CR or kind.release_file)
            and (documents is None or kind.id in documents)]


def check_updates(corpus: Path, pages: dict[str, str], fetch: Fetcher = fetch_url,
                  documents: tuple[str, ...] | None = None) -> list[Status]:
    """Read each publisher's page (``game -> URL``) once and compare every document it links with
    the corpus (all, or only ``documents``); nothing written."""
    statuses = []
    for game, url in pages.items():
        html = fetch(check_url(url), MAX_PAGE_BYTES)
        for kind in watched_documents(game, documents):
            listed = _read_page(html, url, kind)
            held = _held(corpus, game, kind.id)
            key = _version_key if (game, kind.id) == ("dm", CR) else (lambda label: label)
            newest = max(held, key=key) if held else None
            newer = [r for r in listed if r.label not in held and (newest is None or key(r.label) > key(newest))]
            statuses.append(Status(game, url, newest, listed, newer, kind.id))
    return statuses


def _verify(data: bytes, kind: str, url: str) -> None:
    """Refuse a download that is not what its link says (an error page saved as ``.pdf``)."""
    found = container_kind(data)
    if kind in ("pdf", "docx") and found != kind:
        raise SourceError(url, f"the download is not a {_FORMAT_NAMES[kind]} (it starts {data[:12]!r}); "
                               "nothing added")
    if kind == "txt":
        if found is not None:
            raise SourceError(url, f"the download is not text but a {found.upper()}; nothing added")
        decode_document(data, url)


def fetch_updates(corpus: Path, statuses: list[Status], cache_dir: Path | None = None,
                  fetch: Fetcher = fetch_url) -> list[Addition]:
    """Download every newer release and check each, then add them oldest first with ``add``'s checks
    and one more (``_agrees``: the text is the release its link names), all or nothing: a refusal
    names the URL and leaves the corpus as it was, releases added before it included."""
    wanted = [(status, release) for status in statuses for release in status.newer]
    with tempfile.TemporaryDirectory(prefix="rules-kb-updates-") as folder:
        requests, links = [], {}
        for status, release in wanted:
            kind = next(kind for kind in _PREFERENCE if kind in release.links)
            url = check_url(release.links[kind])
            data = fetch(url, MAX_SOURCE_BYTES)
            _verify(data, kind, url)
            magic_rules = (release.game, release.document) == ("mtg", CR)
            name = f"CR-{release.label}.{kind}" if magic_rules else _file_name(url, kind)
            path = Path(folder) / name
            path.write_bytes(data)
            links[str(path)] = (release, url)
            requests.append((path, {
                "game": release.game, "version": release.label,
                "date": None if magic_rules else release.date,
                "source": f"downloaded by rules-kb updates --fetch from {url} (listed on {status.page})",
                "note": "the publisher's own file, byte for byte"}))
        try:
            return add_releases(corpus, requests, cache_dir, lambda addition: _agrees(addition, *links[
                str(addition.source)]))
        except SourceError as exc:
            if exc.document not in links:
                raise
            raise type(exc)(links[exc.document][1], f"{exc.problem}; nothing added", exc.position) from None


# The file date in a Magic link and the date its text says it takes effect differ by up to 11 days
# in the corpus (2021-07-12 and 2021-07-23); a month apart is another release.
_DATE_SLACK_DAYS = 31


def _agrees(addition: Addition, release: Release, url: str) -> None:
    """Refuse a download whose text is not the release its link names: the text must state its
    version (Duel Masters, tournament documents) and its date, and the date must be the link's (Magic's
    rules: within a month of the file's date; the others: ``add`` compares the link's date exactly)."""
    source = str(addition.source)
    labels, dates = stated(addition.item)
    if (release.game == "dm" or release.document != CR) and release.label not in labels:
        raise ConflictError(source, f"the text states no version; its link says {release.label}")
    if not dates:
        raise ConflictError(source, f"the text states no date; its link says {release.date or release.label}")
    if release.game == "mtg" and release.date:
        apart = min(abs((date_type.fromisoformat(day) - date_type.fromisoformat(release.date)).days)
                    for day in dates)
        if apart > _DATE_SLACK_DAYS:
            raise ConflictError(source, f"the text says it takes effect {', '.join(dates)}, but its link names "
                                        f"the release of {release.date}")


def _file_name(url: str, kind: str) -> str:
    name = unquote(urlsplit(url).path.rsplit("/", 1)[-1])
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "release"
    return name if name.lower().endswith(f".{kind}") else f"{name}.{kind}"
