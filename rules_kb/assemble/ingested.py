"""``ingest`` with a cache: what each document's ingest reported, kept under its inputs' key.

``make build`` ingests the whole corpus before every build. A document's report (its summary
line, its anomalies, its model lines, whether it is wholly accounted) is a function of its
bytes, its manifest entry and the package's source, so it is kept under a key of the three
(``ingested/`` in the cache folder) and read back: after an ``add`` only the new document is
parsed (every document was: 17.0 s at the whole corpus, 3.1 s with every report read back). A
document parsed here also goes into the build's parse cache (``parsed/``, ``assemble.knowledge``),
so a cold ``make build`` parses each document once instead of once for ``ingest`` and again for
``build``.

What a report holds is the caller's (``describe``, a module-level function: it runs in the
worker processes); this module only runs the parses and keeps their reports. Every document's
bytes are read and checked against the manifest's sha256 whether its report is cached or not.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from rules_kb.assemble.caches import (
    CacheDamaged,
    mark_used,
    read_cache_file,
    source_hash,
    warn_rebuilt,
    write_cache_file,
)
from rules_kb.assemble.knowledge import PARSING, document_key
from rules_kb.assemble.parallel import map_in_order
from rules_kb.ingest.corpus import read_document_bytes
from rules_kb.ingest.pipeline import Ingested
from rules_kb.model import DocumentMeta

Describe = Callable[[Ingested], dict]
FOLDER = "ingested"


def ingest_documents(corpus: Path, metas: Sequence[DocumentMeta], cache_dir: Path | None,
                     describe: Describe) -> Iterator[dict]:
    """``describe(ingested)`` of every document of ``metas``, in their order: read back from the cache
    when it holds the report of the same bytes, manifest entry and source, else parsed (in worker
    processes, a few at a time) and kept. One report is held at a time, never the whole model."""
    parser, package = source_hash(PARSING), source_hash()
    places = {meta.id: _places(cache_dir, meta, parser, package) for meta in metas}
    missing = [meta for meta in metas if places[meta.id] is None or not places[meta.id][1].is_file()]
    parsed = map_in_order(_ingest_one, ((describe, read_document_bytes(corpus, meta), meta, places[meta.id])
                                        for meta in missing))
    pending = {meta.id for meta in missing}
    damaged: list[str] = []
    for meta in metas:
        if meta.id in pending:
            yield next(parsed)
            continue
        data = read_document_bytes(corpus, meta)  # checked against the manifest, as a parse would be
        report = _read_report(places[meta.id][1], meta, damaged)
        if report is not None:  # the parse it was made from is current too: kept as long (``prune_caches``)
            mark_used(places[meta.id][0])
        yield report if report is not None else _ingest_one(describe, data, meta, places[meta.id])
    warn_rebuilt(damaged, "the ingest cache")


def _places(cache_dir: Path | None, meta: DocumentMeta, parser: str, package: str) -> tuple[Path, Path] | None:
    """Where the document's parse (the build's cache entry) and its report are kept."""
    if cache_dir is None:
        return None
    key = document_key(meta, parser)
    report = hashlib.sha256(f"{key}\n{package}".encode()).hexdigest()[:32]
    return cache_dir / "parsed" / f"{key}.json", cache_dir / FOLDER / f"{report}.json"


def _ingest_one(describe: Describe, data: bytes, meta: DocumentMeta, places: tuple[Path, Path] | None) -> dict:
    """Parse one document, describe it, and keep both the parse and the report when there is a cache."""
    from rules_kb.ingest.pipeline import parse_bytes
    from rules_kb.store.records import document_record

    item = parse_bytes(data, meta)
    report = describe(item)
    if places is not None:
        parse_path, report_path = places
        if not parse_path.is_file():
            write_cache_file(parse_path, _json(document_record(item.parsed)))
        write_cache_file(report_path, _json({"document": meta.id, "report": report}))
    return report


def _read_report(path: Path, meta: DocumentMeta, damaged: list[str]) -> dict | None:
    """The kept report, or None (with the reason in ``damaged``) when it cannot be used."""
    try:
        record = read_cache_file(path)
    except CacheDamaged as exc:
        damaged.append(str(exc))
        return None
    if not (isinstance(record, dict) and record.get("document") == meta.id and isinstance(record.get("report"), dict)):
        if record is not None:
            damaged.append(f"{path}: not a report this code reads")
        return None
    return record["report"]


def _json(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


__all__ = ["ingest_documents"]
