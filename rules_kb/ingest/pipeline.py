"""Ingest: manifest -> bytes -> decoded text -> parsed documents, with accounting."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from rules_kb.errors import ManifestError
from rules_kb.ingest.accounting import Accounting, account
from rules_kb.ingest.corpus import load_manifest, read_document_bytes
from rules_kb.ingest.decode import Decoded, decode_document
from rules_kb.model import DocumentMeta, ParsedDocument


@dataclass
class Ingested:
    parsed: ParsedDocument
    decoded: Decoded
    accounting: Accounting


def parse_bytes(data: bytes, meta: DocumentMeta) -> Ingested:
    """Decode and parse one document's bytes; decode defects become anomalies."""
    decoded = decode_document(data, meta.file)
    from rules_kb.sources.registry import get_parser  # every parser: imported when parsing

    parser = get_parser(meta.format, meta.file)
    parsed = parser(decoded.text, meta)
    from rules_kb.sources.common import report_overlong_rules

    report_overlong_rules(parsed)
    for position, code, message, decision in decoded.notes:
        parsed.anomaly(position, code, message, decision)
    parsed.anomalies.sort(key=lambda a: (a.position, a.code, a.message))
    return Ingested(parsed, decoded, account(parsed))


def select_documents(corpus: Path, only: Iterable[str] | None = None) -> list[DocumentMeta]:
    """The manifest's documents (or those whose id is in ``only``, an unknown id refused), in manifest order."""
    wanted = set(only) if only else None
    documents = load_manifest(corpus)
    if wanted is not None:
        unknown = sorted(wanted - {meta.id for meta in documents})
        if unknown:
            raise ManifestError(str(corpus / "manifest.toml"), f"no document with id {', '.join(unknown)}")
    return [meta for meta in documents if wanted is None or meta.id in wanted]


def ingest_corpus(corpus: Path, only: Iterable[str] | None = None) -> list[Ingested]:
    """Ingest every manifest document (or those whose id is in ``only``), in manifest order."""
    return [parse_bytes(read_document_bytes(corpus, meta), meta) for meta in select_documents(corpus, only)]
