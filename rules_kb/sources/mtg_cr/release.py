"""Magic: The Gathering Comprehensive Rules, plain-text releases (format ``mtg-cr``).

A release reads, top to bottom: title, "These rules are effective as of …", introduction,
contents (chapter and section headings, then Glossary and Credits), the numbered rules,
the glossary, the credits and the publisher's small print. The regions are found from the
document's own landmarks (the contents' first entry repeated, the second "Glossary" and
"Credits" lines), then each region is read by its own function; the numbered rules live in
``mtg_cr/body.py`` (their numbers' sequence in ``mtg_cr/numbers.py``) and the glossary in
``mtg_cr/glossary.py``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules_kb.errors import ParseError
from rules_kb.model import DocumentMeta, Heading, ParsedDocument, Residue, Version
from rules_kb.sources.common import Line, iter_lines
from rules_kb.sources.mtg_cr.body import Release, parse_body
from rules_kb.sources.mtg_cr.glossary import parse_glossary

_MONTHS = {
    name: number
    for number, name in enumerate(
        ("january", "february", "march", "april", "may", "june", "july", "august",
         "september", "october", "november", "december"),
        start=1,
    )
}
_EFFECTIVE = re.compile(
    r"These rules are (?:effective|current) as of (?P<month>[A-Za-z]+) (?P<day>\d{1,2}), (?P<year>\d{4})\.?"
)
_TITLE = re.compile(r"_?Magic(?:: The Gathering)?_?.{0,40}Comprehensive Rules", re.IGNORECASE)
_RULE_LINE = re.compile(r"^ ?\d{3}\.\d{1,3}[a-z]?\.? [A-Z]", re.MULTILINE)
_FIRST_RULE = re.compile(r" ?\d{3}\.\d")
_HEADING_LIKE = re.compile(r"\d{1,3}\.\s+\S.*")
_LEGAL = re.compile(r"Published by|®|©|\(R\)|\(TM\)|™|trademark|All Rights Reserved", re.IGNORECASE)
_CONTACT_HEADINGS = ("Questions?", "Customer Service Information")
# Lines of hard-wrapped releases are shorter than this: the releases of 2001-2004 wrap at up to
# 118 characters; in every unwrapped release about 60% of the body lines are longer.
_WRAP_WIDTH = 150
# The longest real rule text of the 100 releases (the creature types of 205.3m) is under
# 3,000 characters; a text far beyond that has swallowed what follows it.
_SENTENCE_END = re.compile(r"[.!?)\"”’]$")
_FRAME = re.compile(r"[-=_*~\u2010-\u2015\u2500]{3,}")  # a line of dashes framing a heading
_LOST = "\ufffd"  # the replacement character: a character the publisher's export lost


@dataclass(frozen=True)
class Regions:
    """Line-index boundaries of the parts of a release (each part runs to the next one)."""

    contents: int | None
    body: int
    glossary: int | None
    credits: int | None
    end: int


def sniff(text: str) -> int:
    """Confidence (0-100) that ``text`` is a Comprehensive Rules release.

    The title names Magic's Comprehensive Rules and the body is dense with ``100.1a``-style
    lines; Duel Masters rulebooks share the numbering but not the title, the rulings pages
    share the title's words but not the line-initial numbers.
    """
    head = text[:3000]
    score = 45 if _TITLE.search(head) else 0
    numbered = len(_RULE_LINE.findall(text, 0, 200_000))
    score += 40 if numbered >= 50 else (20 if numbered >= 5 else 0)
    if _EFFECTIVE.search(head):
        score += 10
    if "\nExample: " in text[:200_000]:
        score += 5
    return min(score, 100)


def parse(text: str, meta: DocumentMeta) -> ParsedDocument:
    """Parse one decoded release into rule texts, headings, glossary terms and residue."""
    parsed = ParsedDocument(meta=meta, text=text)
    lines = list(iter_lines(text))
    regions = _find_regions(lines, meta, parsed)
    date = _effective_date(lines, regions, parsed)
    label = meta.versions[0] if meta.versions else (date or "unknown")
    # A release always ends with its glossary and credits: without either, the file was cut.
    cut = regions.glossary is None and regions.credits is None
    parsed.versions.append(Version("mtg", "en", label, date, "excerpt" if cut else "full"))
    release = Release(meta.id, label, date, _is_wrapped(lines, regions))
    _read_front(lines, regions, parsed)
    body_end = regions.glossary or regions.credits or regions.end
    glossary_start = regions.glossary + 1 if regions.glossary is not None else None
    if regions.glossary is not None:  # a heading framed by lines of dashes (1999): the frame is chrome
        if _FRAME.fullmatch(lines[body_end - 1].stripped):
            body_end -= 1
            parsed.residue.append(Residue(lines[body_end].stripped, [lines[body_end].span()], "chrome"))
        if glossary_start < len(lines) and _FRAME.fullmatch(lines[glossary_start].stripped):
            parsed.residue.append(Residue(lines[glossary_start].stripped, [lines[glossary_start].span()], "chrome"))
            glossary_start += 1
    parse_body(lines, regions.body, body_end, release, parsed)
    _check_contents(lines, regions, parsed)
    if regions.glossary is not None:
        _heading(lines[regions.glossary], parsed)
        parse_glossary(lines, glossary_start, regions.credits or regions.end, release, parsed)
    if regions.credits is not None:
        _read_back(lines, regions.credits, regions.end, parsed)
    _check_lost_characters(text, parsed)
    if cut and parsed.rules:
        parsed.rules[-1].truncated = True
        parsed.anomaly(len(text), "truncated", "the document ends without the glossary and credits of a release"
                       f"{_ending(lines)}", f"kept as an excerpt; rule {parsed.rules[-1].number} is marked truncated")
    elif regions.credits is None and (last := _last_line(lines)) is not None and not _SENTENCE_END.search(
            last.stripped):
        parsed.anomaly(last.end, "truncated", f"the document ends in the glossary, before the credits"
                       f"{_ending(lines)}", "the rules are read in full; the last glossary entry is cut")
    return parsed


def _last_line(lines: list[Line]) -> Line | None:
    return next((line for line in reversed(lines) if line.stripped), None)


def _ending(lines: list[Line]) -> str:
    """Where the text stops, for a truncation message: ``, at 1234: '…last words'`` when mid-sentence."""
    last = _last_line(lines)
    if last is None or _SENTENCE_END.search(last.stripped):
        return ""
    return f", mid-sentence at character {last.end}: {last.stripped[-40:]!r}"


def _find_regions(lines: list[Line], meta: DocumentMeta, parsed: ParsedDocument) -> Regions:
    contents = next((i for i, line in enumerate(lines[:300]) if line.stripped == "Contents"), None)
    body = _body_start(lines, contents, meta, parsed)
    glossary = _landmark(lines, body, "Glossary", parsed)
    credits = _landmark(lines, glossary if glossary is not None else body, "Credits", parsed)
    if glossary is None:
        parsed.anomaly(lines[body].start, "no-glossary", "no 'Glossary' heading after the rules",
                       "the rules run to the credits or to the end of the document")
    return Regions(contents, body, glossary, credits, len(lines))


def _body_start(lines: list[Line], contents: int | None, meta: DocumentMeta, parsed: ParsedDocument) -> int:
    """Where the numbered rules begin: the contents' first entry printed a second time."""
    if contents is not None:
        first = next((i for i in range(contents + 1, len(lines)) if lines[i].stripped), None)
        if first is not None:
            entry = lines[first].stripped
            repeat = next((i for i in range(first + 1, len(lines)) if lines[i].stripped == entry), None)
            if repeat is not None:
                return repeat
    rule = next((i for i, line in enumerate(lines) if _FIRST_RULE.match(line.text)), None)
    if rule is None:
        raise ParseError(meta.file, "no numbered rules (such as 100.1.): not a Comprehensive Rules text", 0)
    start = rule
    while start > 0 and (not lines[start - 1].stripped or _HEADING_LIKE.fullmatch(lines[start - 1].stripped)):
        start -= 1
    if contents is not None:
        parsed.anomaly(lines[start].start, "body-start-guessed",
                       "the contents' first entry is not printed again before the rules",
                       "the rules start at the headings just before the first numbered rule")
    return start


def _landmark(lines: list[Line], after: int, word: str, parsed: ParsedDocument) -> int | None:
    """The first line after ``after`` that is exactly ``word`` and stands as a heading.

    A heading starts a paragraph (or stands under a line of dashes, as the 1999 releases
    frame it); some releases print ``Glossary`` straight under the last
    rule, so a line that follows a finished sentence and is followed by a blank line also
    counts (reported). A hard-wrapped line that happens to read ``Credits`` mid-sentence does not.
    """
    for index in range(after + 1, len(lines)):
        if lines[index].stripped != word:
            continue
        before = lines[index - 1].stripped
        if not before or _FRAME.fullmatch(before):
            return index
        blank_after = index + 1 >= len(lines) or not lines[index + 1].stripped
        if blank_after and _SENTENCE_END.search(before):
            parsed.anomaly(lines[index].start, "heading-without-blank",
                           f"'{word}' is printed on the line right after {before[:40]!r}, without a blank line",
                           f"read as the {word} heading, which ends the text before it")
            return index
    return None


def _effective_date(lines: list[Line], regions: Regions, parsed: ParsedDocument) -> str | None:
    """The ISO date of "These rules are effective as of …", checked against its repetitions."""
    dates: list[tuple[int, str]] = []
    for line in lines[: regions.contents or regions.body] + lines[regions.credits or regions.end:]:
        match = _EFFECTIVE.search(line.text)
        if match and match["month"].lower() in _MONTHS:
            month = _MONTHS[match["month"].lower()]
            dates.append((line.start, f"{match['year']}-{month:02d}-{int(match['day']):02d}"))
    if not dates:
        parsed.anomaly(0, "no-effective-date", "no 'These rules are effective as of …' statement",
                       "rules carry no date")
        return None
    for position, date in dates[1:]:
        if date != dates[0][1]:
            parsed.anomaly(position, "conflicting-dates", f"effective date {date} differs from {dates[0][1]}",
                           f"kept {dates[0][1]}, the date at the top")
    return dates[0][1]


def _is_wrapped(lines: list[Line], regions: Regions) -> bool:
    """True for hard-wrapped releases: (nearly) no body line is longer than a print line."""
    body = [line for line in lines[regions.body:regions.glossary or regions.end] if line.stripped]
    long_lines = sum(1 for line in body if len(line.text) > _WRAP_WIDTH)
    return long_lines <= len(body) // 100


def _read_front(lines: list[Line], regions: Regions, parsed: ParsedDocument) -> None:
    """Title, effective date, introduction and contents: everything before the rules."""
    end = regions.contents if regions.contents is not None else regions.body
    title_seen = False
    for line in lines[:end]:
        stripped = line.stripped
        if not stripped:
            continue
        if not title_seen:
            title_seen = True
            parsed.headings.append(Heading(stripped, [line.span()], level=0))
        elif stripped == "Introduction":
            _heading(line, parsed)
        else:
            parsed.residue.append(Residue(stripped, [line.span()], _front_kind(stripped)))
    if regions.contents is not None:
        entries = [line for line in lines[regions.contents:regions.body] if line.stripped]
        parsed.residue.append(
            Residue("\n".join(line.stripped for line in entries), [line.span() for line in entries], "contents")
        )


def _check_contents(lines: list[Line], regions: Regions, parsed: ParsedDocument) -> None:
    """Compare the contents with the headings printed in the body; report what differs."""
    if regions.contents is None:
        return
    landmarks = {"Contents", "Glossary", "Credits", *_CONTACT_HEADINGS}
    listed = [_squash(line.stripped) for line in lines[regions.contents:regions.body]
              if line.stripped and line.stripped not in landmarks]
    body_start = lines[regions.body].start
    printed = [(h.spans[0][0], _squash(h.text)) for h in parsed.headings if h.spans[0][0] >= body_start]
    printed += [(r.spans[0][0], _squash(parsed.text[r.spans[0][0]:r.spans[0][1]]))
                for r in parsed.rules if r.number.depth == 0]
    printed.sort()
    in_body = {text for _, text in printed}
    in_contents = set(listed)
    for missing, where, position in (
        ([t for t in listed if t not in in_body], "the contents but not the body", lines[regions.contents].start),
        ([t for p, t in printed if t not in in_contents], "the body but not the contents", body_start),
    ):
        if missing:
            shown = "; ".join(missing[:6]) + ("; …" if len(missing) > 6 else "")
            parsed.anomaly(position, "contents-mismatch", f"{len(missing)} heading(s) in {where}: {shown}",
                           "the body's headings are used; the contents stay residue")


def _check_lost_characters(text: str, parsed: ParsedDocument) -> None:
    """Replacement characters in the file stand for characters lost before publication."""
    count = text.count(_LOST)
    if count:
        parsed.anomaly(text.index(_LOST), "lost-characters",
                       f"{count} character(s) printed as U+FFFD (lost in the publisher's export: ™, quotes, …)",
                       "kept as printed; nothing is guessed for them")


def _squash(text: str) -> str:
    return " ".join(text.split())


def _front_kind(stripped: str) -> str:
    return "version-statement" if _EFFECTIVE.search(stripped) else "commentary"


def _read_back(lines: list[Line], start: int, end: int, parsed: ParsedDocument) -> None:
    """Credits, the repeated effective date, the publisher's small print and contact details."""
    _heading(lines[start], parsed)
    section = "credits"
    for line in lines[start + 1:end]:
        stripped = line.stripped
        if not stripped:
            continue
        if stripped in _CONTACT_HEADINGS:
            _heading(line, parsed)
            section = "contact"
            continue
        kind = section
        if section == "credits" and _EFFECTIVE.search(stripped):
            kind = "version-statement"
        elif section == "credits" and _LEGAL.search(stripped) and "Design" not in stripped:
            kind = "legal"
        parsed.residue.append(Residue(stripped, [line.span()], kind))
    _check_back_matter(lines, start, end, parsed)


_MAX_BACK_MATTER = 20_000  # real releases have under 3,000 characters after "Credits"


def _check_back_matter(lines: list[Line], start: int, end: int, parsed: ParsedDocument) -> None:
    """Report back matter that is too long to be credits or holds numbered rules (not silent residue)."""
    ruled = next((line for line in lines[start + 1:end] if _RULE_LINE.match(line.text)), None)
    size = lines[end - 1].end - lines[start].start if end > start else 0
    if ruled is not None or size > _MAX_BACK_MATTER:
        what = f"numbered rule {ruled.stripped[:40]!r} at {ruled.start}" if ruled else "no numbered rule"
        parsed.anomaly(lines[start].start, "unexpected-back-matter",
                       f"{size:,} characters after 'Credits' (characters {lines[start].start}-{lines[end - 1].end}), "
                       f"{what}", "kept as residue; not read as rules")


def _heading(line: Line, parsed: ParsedDocument) -> None:
    parsed.headings.append(Heading(line.stripped, [line.span()], level=1))
