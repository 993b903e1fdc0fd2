"""Cross-references in a tournament section's text, as ``(kind, target)`` pairs.

* ``("cr", "103.4c")``: a comprehensive-rules number, found by the one grammar of ``rules_kb.refs``;
  ``("cr", "")``: "Comprehensive Rules" / 総合ゲームルール named without a number;
* ``("section", "4.3")``: a section of the same document (``see section 5.2``, ``sections 2-4``);
  ``("mtr", "4.3")`` / ``("ipg", "2.1")``: of the other Magic document (``MTR section 4.3``,
  ``section 5.2 of the Magic Tournament Rules``), ``("ipg", "")`` when named without a section;
  the changes appendices' ``3.7: New set added.`` cites the section it names;
* ``("infraction", name_key)``: a bracketed name (``〔非紳士的行為 ― 故意の違反〕``), or an English
  ``Category — Name`` whose name is one the document's headings give; a number after the
  brackets (``〔意思疎通〕(4)``) is also a ``("section", "4")``.
"""

from __future__ import annotations

import re

from rules_kb.refs import find_references
from rules_kb.sources.tournament.names import SEPARATORS, name_key

_SECTION = re.compile(
    r"(?:\b(?P<doc>MTR|IPG)\s+)?\bsections?\s+(?P<first>[0-9]{1,2}(?:\.[0-9]{1,2})?)(?![0-9.][0-9])"
    r"(?:\s*[-–]\s*(?P<last>[0-9]{1,2})\b)?"
    r"(?:\s+of\s+the\s+(?:Magic(?::\s*The\s+Gathering)?\s+)?(?P<named>Tournament\s+Rules|Infraction\s+Procedure\s+Guide))?")
_CHANGE = re.compile(r"^(?P<number>[0-9]{1,2}\.[0-9]{1,2}):\s", re.M)
_BRACKETED = re.compile(r"〔(?P<name>[^〔〕\n]{1,80})〕(?:[(（](?P<number>[0-9]{1,2}(?:\.[0-9]{1,2})?)[)）])?")
_CATEGORY = re.compile(f"(?P<category>Game Play Error|Tournament Error|Unsporting Conduct)\\s*[{SEPARATORS}]\\s*")
_BARE_CR = re.compile(r"Comprehensive\s+Rules|総合ゲームルール|総合ルール")
_BARE_DOCUMENT = re.compile(r"(?:Magic\s+)?(?P<named>Tournament\s+Rules|Infraction\s+Procedure\s+Guide)")
_KIND_OF = {"tournament rules": "mtr", "infraction procedure guide": "ipg", "mtr": "mtr", "ipg": "ipg"}


def find_cites(text: str, *, document: str, game: str, names: dict[str, list[str]]) -> list[tuple[str, str]]:
    """Every reference in ``text``, in order of position, without repeats.

    ``names`` maps an English category to the infraction names under it (from the headings), so
    that ``Unsporting Conduct — Cheating infraction`` ends where the name does.
    """
    found: list[tuple[int, tuple[str, str]]] = []
    numbered_cr = find_references(text, game=game if game in ("mtg", "dm") else None)
    found.extend((ref.start, ("cr", str(number))) for ref in numbered_cr for number in ref.numbers)
    for mention in _BARE_CR.finditer(text):
        # "the Magic Comprehensive Rules, rule 103.4" cites 103.4, not the rules as a whole
        if not any(0 <= ref.start - mention.end() <= 12 for ref in numbered_cr):
            found.append((mention.start(), ("cr", "")))
    taken: list[tuple[int, int]] = []
    for match in _SECTION.finditer(text):
        named = _KIND_OF.get(re.sub(r"\s+", " ", (match["named"] or match["doc"] or "")).casefold(), document)
        kind = "section" if named == document else named
        taken.append(match.span())
        if match["last"] is not None and "." not in match["first"]:
            found.extend((match.start(), (kind, str(n))) for n in range(int(match["first"]), int(match["last"]) + 1))
        else:
            found.append((match.start(), (kind, match["first"])))
    for mention in _BARE_DOCUMENT.finditer(text):  # "See the Magic Tournament Rules for …"
        named = _KIND_OF[re.sub(r"\s+", " ", mention["named"]).casefold()]
        if named != document and not any(a <= mention.start() < b for a, b in taken):
            found.append((mention.start(), (named, "")))
    found.extend((m.start(), ("section", m["number"])) for m in _CHANGE.finditer(text))
    for match in _BRACKETED.finditer(text):
        found.append((match.start(), ("infraction", name_key(match["name"]))))
        if match["number"]:  # 〔意思疎通〕(4): the section by title and number
            found.append((match.start("number"), ("section", match["number"])))
    for match in _CATEGORY.finditer(text):
        rest = text[match.end():]
        known = sorted(names.get(match["category"], ()), key=len, reverse=True)
        name = next((n for n in known if rest.startswith(n)), None)
        if name is not None:
            found.append((match.start(), ("infraction", name_key(f"{match['category']} — {name}"))))
    found.sort(key=lambda pair: pair[0])
    return list(dict.fromkeys(cite for _, cite in found))
