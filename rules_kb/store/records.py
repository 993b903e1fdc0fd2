"""Parsed documents and alignments as JSON: the per-document and per-pair caches.

JSON, not pickle: a cache file may come from anywhere (a copied ``build/``, a shared disk),
and reading JSON runs no code. A record that does not fit the expected shape raises
``ValueError``/``KeyError``/``TypeError``; the caller treats that as no cache.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from rules_kb.ingest.curated import ForcedMatch
from rules_kb.model import (
    Anomaly,
    DocumentMeta,
    Example,
    Heading,
    ParsedDocument,
    Residue,
    RuleText,
    Section,
    SectionPart,
    Term,
    Version,
)
from rules_kb.numbers import RuleNumber

if TYPE_CHECKING:
    from rules_kb.compare.alignment import Alignment


@cache
def _number_of(raw: str) -> RuleNumber:
    """``RuleNumber.parse``, once per distinct spelling: the caches name the same few thousand
    numbers hundreds of thousands of times, and a ``RuleNumber`` is immutable, so one is shared."""
    return RuleNumber.parse(raw)


def _shared(value: str | None) -> str | None:
    """One string object for every equal string read back: 116 near-identical Magic releases
    repeat most texts, titles and definitions, and every record its game, language, version,
    date and document, each a new object from ``json.loads``; ``sys.intern`` keeps one while any
    record holds it (hundreds of megabytes at the whole history)."""
    return None if value is None else sys.intern(value)


def _spans(raw: list) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in raw]


def rule_record(rule: RuleText) -> dict:
    return {"game": rule.game, "lang": rule.lang, "version": rule.version, "number": str(rule.number),
            "text": rule.text, "document": rule.document, "spans": rule.spans,
            "examples": [[e.text, e.spans] for e in rule.examples], "title": rule.title, "date": rule.date,
            "truncated": rule.truncated, "written_as": rule.written_as}


def rule_from_record(data: dict) -> RuleText:
    return RuleText(_shared(data["game"]), _shared(data["lang"]), _shared(data["version"]),
                    _number_of(data["number"]), _shared(data["text"]), _shared(data["document"]),
                    _spans(data["spans"]), [Example(_shared(text), _spans(spans)) for text, spans in data["examples"]],
                    _shared(data["title"]), _shared(data["date"]), bool(data["truncated"]), data["written_as"])


def document_record(parsed: ParsedDocument) -> dict:
    """Everything a parser found in one document, as plain JSON values."""
    meta = parsed.meta
    return {
        "meta": {**meta.__dict__, "languages": list(meta.languages), "versions": list(meta.versions),
                 "dates": list(meta.dates)},
        "text": parsed.text,
        "rules": [rule_record(r) for r in parsed.rules],
        "headings": [[h.text, h.spans, h.level] for h in parsed.headings],
        "terms": [[t.term, t.definition, t.spans, t.game, t.lang, t.version] for t in parsed.terms],
        "residue": [[r.text, r.spans, r.kind, list(r.cites), list(r.marks), r.level] for r in parsed.residue],
        "anomalies": [[a.document, a.position, a.code, a.message, a.decision] for a in parsed.anomalies],
        "versions": [[v.game, v.lang, v.label, v.date, v.kind] for v in parsed.versions],
        "sections": [section_record(s) for s in parsed.sections],
    }


def section_record(section: Section) -> dict:
    """A tournament document's section with every span (``Section.to_record`` keeps only the extent)."""
    return {**{key: value for key, value in section.__dict__.items() if key not in ("parts", "cites")},
            "parts": [[p.label, p.heading, p.text, p.spans] for p in section.parts],
            "cites": [list(cite) for cite in section.cites]}


def section_from_record(data: dict) -> Section:
    return Section(**{**data, "spans": _spans(data["spans"]),
                      "parts": [SectionPart(label, heading, text, _spans(spans))
                                for label, heading, text, spans in data["parts"]],
                      "cites": [(kind, target) for kind, target in data["cites"]]})


def document_from_record(data: dict) -> ParsedDocument:
    meta = data["meta"]
    return ParsedDocument(
        meta=DocumentMeta(**{**meta, "languages": tuple(meta["languages"]), "versions": tuple(meta["versions"]),
                             "dates": tuple(meta["dates"])}),
        text=data["text"],
        rules=[rule_from_record(r) for r in data["rules"]],
        headings=[Heading(_shared(text), _spans(spans), level) for text, spans, level in data["headings"]],
        terms=[Term(_shared(term), _shared(definition), _spans(spans), _shared(game), _shared(lang), _shared(version))
               for term, definition, spans, game, lang, version in data["terms"]],
        residue=[Residue(_shared(text), _spans(spans), _shared(kind), tuple(cites), tuple(marks), level)
                 for text, spans, kind, cites, marks, level in data["residue"]],
        anomalies=[Anomaly(*a) for a in data["anomalies"]],
        versions=[Version(*v) for v in data["versions"]],
        sections=[section_from_record(s) for s in data.get("sections", ())],
    )


def forced_record(forced: tuple[ForcedMatch, ...]) -> list:
    return [[m.game, m.lang, m.old_version, m.new_version, _number(m.old), _number(m.new), m.evidence]
            for m in forced]


def _number(number: RuleNumber | None) -> str | None:
    return None if number is None else str(number)


def _parse(raw: str | None) -> RuleNumber | None:
    return None if raw is None else _number_of(raw)


def alignment_record(alignment: Alignment) -> dict:
    """An alignment with each rule text named by its number (texts are looked up again on load)."""
    return {
        "game": alignment.game, "lang": alignment.lang, "old": alignment.old_version,
        "new": alignment.new_version, "old_complete": alignment.old_complete,
        "new_complete": alignment.new_complete,
        "pairs": [[p.kind, _number(p.old_number), _number(p.new_number), p.similarity, p.forced,
                   [str(t) for t in p.targets]] for p in alignment.pairs],
        "unknown_old": [str(n) for n in alignment.unknown_old],
        "unknown_new": [str(n) for n in alignment.unknown_new],
        "notes": list(alignment.notes),
    }


def alignment_from_record(data: dict, old_text: Callable[[RuleNumber], RuleText],
                          new_text: Callable[[RuleNumber], RuleText]) -> Alignment:
    """Rebuild an alignment; ``old_text``/``new_text`` give the text a version holds for a number."""
    from rules_kb.compare.alignment import Alignment, Pair

    pairs = [_pair(row, old_text, new_text, Pair) for row in data["pairs"]]
    return Alignment(data["game"], data["lang"], data["old"], data["new"], bool(data["old_complete"]),
                     bool(data["new_complete"]), pairs, [_number_of(n) for n in data["unknown_old"]],
                     [_number_of(n) for n in data["unknown_new"]], list(data["notes"]))


def _pair(row: list, old_text: Callable[[RuleNumber], RuleText], new_text: Callable[[RuleNumber], RuleText],
          pair_class: type):  # the class from the caller: a lookup does not load the aligner
    kind, old, new, similarity, forced, targets = row
    old_number, new_number = _parse(old), _parse(new)
    return pair_class(kind, None if old_number is None else old_text(old_number),
                None if new_number is None else new_text(new_number), float(similarity), bool(forced),
                tuple(_number_of(t) for t in targets))


def positioned_pairs(parts: list[dict], old_text: Callable[[RuleNumber], RuleText],
                     new_text: Callable[[RuleNumber], RuleText]) -> dict[int, object]:
    """The pairs of some parts of an alignment, keyed by their place in the whole."""
    from rules_kb.compare.alignment import Pair

    rows = {row[0]: row[1:] for part in parts for row in part["pairs"]}
    return {position: _pair(row, old_text, new_text, Pair) for position, row in rows.items()}


def alignment_parts(alignment: Alignment) -> dict[str, dict]:
    """An alignment cut by rule: each pair (with its place in the whole) under the rules (702.2;
    a section heading under 702) of its old and new numbers, the unknown numbers under theirs;
    flags and notes in every part."""
    record = alignment_record(alignment)
    parts: dict[str, dict] = {}

    def part(number: RuleNumber) -> dict:
        key = part_of(number)
        return parts.setdefault(key, {name: record[name] for name in (
            "game", "lang", "old", "new", "old_complete", "new_complete", "notes")} | {
            "pairs": [], "unknown_old": [], "unknown_new": []})

    for position, (pair, row) in enumerate(zip(alignment.pairs, record["pairs"], strict=True)):
        for number in {part_of(n): n for n in (pair.old_number, pair.new_number) if n is not None}.values():
            part(number)["pairs"].append([position, *row])
    for side in ("unknown_old", "unknown_new"):
        for number in getattr(alignment, side):
            part(number)[side].append(str(number))
    return parts


def part_of(number: RuleNumber) -> str:
    """The rule a number belongs to, as the store cuts alignments: 702.2 for 702.2c, 702 for 702."""
    return f"{number.section:03d}" if number.rule is None else f"{number.section:03d}.{number.rule}"


def alignment_from_parts(parts: list[dict], old_text: Callable[[RuleNumber], RuleText],
                         new_text: Callable[[RuleNumber], RuleText]) -> Alignment:
    """The pairs of some parts of an alignment (each once, in the whole's order) as an alignment."""
    first = parts[0]
    pairs = {row[0]: row[1:] for part in parts for row in part["pairs"]}
    unknown = {side: sorted({n for part in parts for n in part[side]}, key=lambda n: _number_of(n).sort_key())
               for side in ("unknown_old", "unknown_new")}
    data = {**first, "pairs": [pairs[i] for i in sorted(pairs)], **unknown}
    return alignment_from_record(data, old_text, new_text)
