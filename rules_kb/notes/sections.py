"""Linking tournament sections in a note: ``MTR 3.10``, ``IPG 2.1 (Missed Trigger)``, ``運営ルール10.2``,
``〔ゲーム上の誤り ─ 過剰なカードを引いた〕``.

The facts come from the section catalog, flattened into the note index (``section_index``) so that
the command and the site's link page (``site/assets/link.js``) decide alike. A tagged number links
to the section's page, or, with ``--pin``/``--as-of``, to the version of the document that was in
force (a pin that is no version of the document is taken as a date: the version in force then).
A bracketed name links when a document has an infraction or section of that name; a bracket that
does not look like an infraction (no category and dash inside) is left alone silently.
"""

from __future__ import annotations

import re

from rules_kb.games import document_kind
from rules_kb.kb.sections import SectionCatalog
from rules_kb.links import PROBE, document_version_page, section_page, url_template
from rules_kb.refs import SEPARATORS, SectionReference, name_key

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def section_index(sections: SectionCatalog) -> list[dict]:
    """Each tournament document: its versions with their section numbers, and its names -> numbers."""
    out = []
    for game, document, lang in sections.documents():
        labels = sections.labels(game, document, lang)
        names: dict[str, str] = {}
        for label in labels:  # newer versions win: a name that moved points to its newest number
            for section in sections.sections_in(game, document, lang, label).values():
                for name in (section.title, section.name, f"{section.category} {section.name}"
                             if section.category and section.name else None):
                    if name:
                        names[name_key(name)] = section.number
        out.append({
            "game": game, "document": document, "lang": lang, "short": document_kind(game, document).short,
            "page": url_template(section_page(game, document, str(PROBE))),
            "pinned": url_template(document_version_page(game, document, str(PROBE))),
            "versions": [{"label": label, "numbers": list(sections.sections_in(game, document, lang, label))}
                         for label in labels],
            "names": dict(sorted(names.items())),
        })
    return out


def _fill(template: str, value: str) -> str:
    return template.replace("{anchor}", value)


def resolve_section(reference: SectionReference, base_url: str, pin: str | None, as_of: str | None,
                    documents: list[dict]) -> tuple[str | None, str | None]:
    """``(url, None)`` or ``(None, problem)``; ``(None, None)`` for a bracket that names nothing."""
    if reference.document is None:
        key = name_key(reference.name or "")
        hits = [(doc, doc["names"][key]) for doc in documents if key in doc["names"]]
        if not hits:
            if not any(sep in (reference.name or "") for sep in SEPARATORS):
                return None, None
            return None, f"no infraction or section named {reference.name!r} in the corpus"
        if len(hits) > 1:
            return None, f"ambiguous: {reference.name!r} names a section of {len(hits)} documents"
        doc, number = hits[0]
    else:
        doc = next((d for d in documents if (d["game"], d["document"]) == (reference.game, reference.document)), None)
        if doc is None:
            return None, f"no {reference.raw.split()[0]} in the corpus"
        number = reference.number
        if not any(number in version["numbers"] for version in doc["versions"]):
            return None, f"no section {number} in {doc['short']}"
    version_asked = reference.name if reference.name and _DATE.fullmatch(reference.name) else None
    when = version_asked or pin or as_of
    if when is None:
        return base_url.rstrip("/") + _fill(doc["page"], number), None
    labels = [v["label"] for v in doc["versions"] if number in v["numbers"]]
    chosen = when if when in labels else max((label for label in labels if label <= when), default=None)
    if chosen is None:
        return None, f"no version of {doc['short']} {number} in force on {when} in the corpus"
    return base_url.rstrip("/") + _fill(doc["pinned"], chosen) + "#" + number, None
