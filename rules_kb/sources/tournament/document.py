"""One tournament document from its text: outline, sections, version, citations, contents check."""

from __future__ import annotations

from rules_kb.model import DocumentMeta, ParsedDocument, Version
from rules_kb.sources.tournament.cites import find_cites
from rules_kb.sources.tournament.contents import check_contents
from rules_kb.sources.tournament.names import find_infraction
from rules_kb.sources.tournament.outline import Profile, assemble_sections, outline_document


def parse_document(profile: Profile, text: str, meta: DocumentMeta) -> ParsedDocument:
    """Parse ``text`` as ``profile`` describes it; findings about the document become anomalies."""
    parsed = ParsedDocument(meta=meta, text=text)
    version = settle_version(profile, parsed)
    outline = outline_document(profile, text, parsed)
    assemble_sections(profile, outline, parsed, version)
    if not parsed.sections:
        parsed.anomaly(0, "no-sections", f"no numbered section heading of a {profile.document} document found",
                       "every paragraph kept as residue")
    names: dict[str, list[str]] = {}
    for section in parsed.sections:
        if section.category and section.name:
            names.setdefault(section.category, []).append(section.name)
    for section in parsed.sections:
        body = "\n".join([section.text, *(part.text for part in section.parts)])
        section.cites = find_cites(body, document=profile.document, game=meta.game, names=names)
    report_contents(parsed)
    report_unresolved(parsed)
    parsed.versions.append(Version(meta.game, meta.languages[0] if meta.languages else "", version, version, "full"))
    return parsed


def settle_version(profile: Profile, parsed: ParsedDocument) -> str:
    """The effective date the document states (``Effective April 21, 2025``, ``2025 年 5 月 1 日発効``),
    checked against the manifest's version; the manifest's stands in when the text states none."""
    stated = profile.find_date(parsed.text[:2000])
    expected = parsed.meta.versions[0] if parsed.meta.versions else None
    if stated is None:
        parsed.anomaly(0, "no-effective-date", "the document states no effective date in its first page",
                       f"version taken from the manifest ({expected or 'unknown'})")
        return expected or "unknown"
    if expected is not None and expected != stated:
        parsed.anomaly(0, "version-mismatch", f"the document states it is effective {stated}, "
                                              f"the manifest says {expected}", "the document's date used")
    return stated


def report_contents(parsed: ParsedDocument) -> None:
    """An anomaly for each contents entry the body lacks and each section the contents omit."""
    for finding in check_contents(parsed):
        entry = finding.entry
        if entry is None:
            section = next(s for s in parsed.sections if s.number == finding.section and s.title == finding.body_title)
            if section.numbered:
                parsed.anomaly(section.spans[0][0], "section-not-in-contents",
                               f"section {section.number} {section.title!r} is not in the contents", "kept")
            continue
        label = f"{entry.number} {entry.title}".strip()
        if finding.body_title is None:
            parsed.anomaly(entry.position, "contents-entry-missing",
                           f"the contents list {label!r}; no section of the body has it", "reported")
        else:
            parsed.anomaly(entry.position, "contents-title-differs",
                           f"the contents list {label!r}; the body's section {entry.number} is titled "
                           f"{finding.body_title!r}", "the body's title kept")


def report_unresolved(parsed: ParsedDocument) -> None:
    """An anomaly for each citation of the document itself (a section, an infraction) that names
    nothing in it: the writer's own words for an infraction (〔買収行為〕 for 〔非紳士的行為 ─ 買収〕)."""
    numbers = {s.number for s in parsed.sections}
    for section in parsed.sections:
        for kind, target in section.cites:
            if kind == "section" and target not in numbers:
                problem = f"section {target}, which the document does not have"
            elif kind == "infraction" and find_infraction(parsed.sections, target) is None:
                problem = f"the infraction {target!r}, which no section's title, name or category is"
            else:
                continue
            parsed.anomaly(section.spans[0][0], "unresolved-citation",
                           f"section {section.number} cites {problem}", "kept in the section's cites")
