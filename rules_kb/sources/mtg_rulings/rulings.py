"""Magic rulings-search text: one comprehensive-rules paragraph per entry, each dated.

The search result ("This search based on the March 17, 2008 release of the Rulings.")
prints a section heading ``309 - Declare Blockers Step``, then paragraphs
``- 309.2a - text … [CompRules 2007/10/01]`` hard-wrapped at ~75 columns, ``Example:``
paragraphs and ``- Note - …`` lines, then chrome (the release line again, ``|`` lines).

Conventions:

* One ``RuleText`` per paragraph; wrapped lines are rejoined with a single space. Its
  ``version`` and ``date`` are the paragraph's CompRules date in ISO form (``2007-10-01``),
  one ``Version`` of kind ``dated-paragraph`` per distinct date. A number printed twice
  with different dates (309.2a) is two versions of one rule, not a duplicate.
* The ``[CompRules …]`` tag is dropped from a rule's text (it is its ``date``) but kept in
  an example's text: an example carries its own date (309.4's is 2003/07/01, the rule's
  2006/05/01) and ``Example`` has no date field. The tag's characters are inside the
  rule's or the example's spans either way; the ``Example:`` label is not in the text.
* The section heading has no tag: it is filed under the rulings release
  (``2008-03-17``, a ``Version`` of kind ``excerpt``), which the page states.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime

from rules_kb.errors import MalformedRuleNumber, ParseError
from rules_kb.model import DocumentMeta, Example, ParsedDocument, Residue, RuleText, Span, Version
from rules_kb.numbers import RuleNumber, number_quirks
from rules_kb.refs import cited_numbers
from rules_kb.sources.common import Line, read_by_line

_RELEASE = re.compile(r"^This search based on the (?P<date>[A-Z][a-z]+ \d{1,2}, \d{4}) release of the Rulings\.$")
_SECTION = re.compile(r"^(?P<number>\d{3}) - (?P<title>\S.*)$")
_RULE = re.compile(r"^- (?P<number>\d{3}\.\d{1,3}\s?[A-Za-z]?) - (?P<text>.*)$")
_NOTE = re.compile(r"^- Note - ")
_EXAMPLE = re.compile(r"^Example:\s*")
_TAG = re.compile(r"\s*\[CompRules (?P<y>\d{4})/(?P<m>\d{2})/(?P<d>\d{2})\]$")
_TAG_ANYWHERE = re.compile(r"\[CompRules \d{4}/\d{2}/\d{2}\]")


def sniff(text: str) -> int:
    """Confidence that ``text`` is a rulings-search result (CompRules-tagged paragraphs)."""
    tags = len(_TAG_ANYWHERE.findall(text))
    score = 60 + min(30, 5 * tags) if tags else 0
    if "release of the Rulings." in text:
        score += 20
    return min(score, 100)


def parse(text: str, meta: DocumentMeta) -> ParsedDocument:
    """Parse one decoded rulings-search page into dated rule paragraphs, examples and residue."""
    if sniff(text) < 20:
        raise ParseError(meta.file, "not a Magic rulings-search text: no [CompRules YYYY/MM/DD] tag", 0)
    return read_by_line(_RulingsReader(ParsedDocument(meta, text)))


@dataclass
class _Paragraph:
    """Lines of one entry (rule, example or note) until its CompRules tag closes it."""

    kind: str  # rule, example, note
    lines: list[Line]
    number: str | None = None
    closed: bool = False


@dataclass
class _RulingsReader:
    parsed: ParsedDocument
    release: str | None = None
    open: _Paragraph | None = None
    rule: RuleText | None = None  # the rule an example belongs to
    parent: RuleNumber | None = None  # the last rule number without a letter
    seen: dict[tuple[str, str], int] = field(default_factory=dict)
    sections: list[tuple[RuleNumber, str, Span]] = field(default_factory=list)

    @property
    def meta(self) -> DocumentMeta:
        return self.parsed.meta

    def read(self, line: Line) -> None:
        stripped = line.stripped
        if not stripped:
            return
        release = _RELEASE.match(stripped)
        if release or stripped == "|":
            self._close()
            self.parsed.residue.append(Residue(stripped, [line.span()], "chrome"))
            if release:
                self._release(release["date"], line.start)
        elif section := _SECTION.match(stripped):
            self._close()
            self.sections.append((RuleNumber.parse(section["number"]), section["title"], line.span()))
        elif _RULE.match(stripped) or _NOTE.match(stripped) or _EXAMPLE.match(stripped):
            self._close()
            self.open = self._start(stripped, line)
        elif self.open is not None and not self.open.closed:
            self.open.lines.append(line)
            self._maybe_close(line)
        else:
            self.parsed.residue.append(Residue(stripped, [line.span()], "commentary"))
            self.parsed.anomaly(
                line.start, "stray-line", "a line outside any tagged paragraph", "kept as commentary"
            )

    # -- paragraphs -----------------------------------------------------------------------

    def _start(self, stripped: str, line: Line) -> _Paragraph:
        rule = _RULE.match(stripped)
        if rule:
            paragraph = _Paragraph("rule", [line], rule["number"])
        elif _NOTE.match(stripped):
            paragraph = _Paragraph("note", [line])
        else:
            paragraph = _Paragraph("example", [line])
        self.open = paragraph
        self._maybe_close(line)
        return paragraph

    def _maybe_close(self, line: Line) -> None:
        if self.open is not None and (_TAG.search(line.stripped) or self.open.kind == "note"):
            self.open.closed = True

    def _close(self) -> None:
        paragraph, self.open = self.open, None
        if paragraph is None:
            return
        joined = " ".join(line.stripped for line in paragraph.lines)
        spans = [line.span() for line in paragraph.lines]
        tag = _TAG.search(joined)
        when = self._tag_date(tag, paragraph.lines[0].start) if tag else None
        if paragraph.kind == "note":
            self._note(joined, spans)
        elif paragraph.kind == "example":
            self._example(_EXAMPLE.sub("", joined, count=1), spans, paragraph.lines[0].start)
        else:
            body = joined[: tag.start()] if tag else joined
            self._rule(paragraph, body, spans, when)
        if tag is None and paragraph.kind != "note":
            self._untagged(paragraph)

    def _rule(self, paragraph: _Paragraph, body: str, spans: list[Span], when: str | None) -> None:
        position = paragraph.lines[0].start
        raw = paragraph.number or ""
        try:
            number = RuleNumber.parse(raw)
        except MalformedRuleNumber:
            self.parsed.residue.append(Residue(body, spans, "commentary"))
            self.parsed.anomaly(position, "malformed-number", f"{raw!r} is not a rule number", "kept as commentary")
            return
        text = _RULE.match(body)["text"].strip()
        label = when or self.release or "undated"
        rule = RuleText(
            game=self.meta.game or "mtg", lang=self._lang(), version=label, number=number, text=text,
            document=self.meta.id, spans=spans, date=when, written_as=raw if raw != str(number) else None,
        )
        self.parsed.rules.append(rule)
        self.rule = rule
        self._check(rule, raw, position)

    def _example(self, text: str, spans: list[Span], position: int) -> None:
        if self.rule is None:
            self.parsed.residue.append(Residue(text, spans, "commentary"))
            self.parsed.anomaly(position, "orphan-example", "an Example: before any rule", "kept as commentary")
            return
        self.rule.examples.append(Example(text, spans))

    def _note(self, text: str, spans: list[Span]) -> None:
        cites = cited_numbers(text, game=self.meta.game or "mtg")
        self.parsed.residue.append(Residue(text, spans, "commentary", cites=cites))
        self.rule = None

    def _untagged(self, paragraph: _Paragraph) -> None:
        """A paragraph without its CompRules tag: cut off by the end, or a defect."""
        position = paragraph.lines[0].start
        at_end = not self.parsed.text[paragraph.lines[-1].end:].strip()
        if at_end and self.rule is not None:
            self.rule.truncated = True
        code = "truncated-excerpt" if at_end else "missing-date-tag"
        self.parsed.anomaly(
            position, code, f"{paragraph.kind} paragraph has no [CompRules YYYY/MM/DD] tag",
            "kept undated" + (" with truncated=True" if at_end else ""),
        )

    # -- dates, checks, versions ----------------------------------------------------------

    def _tag_date(self, tag: re.Match[str], position: int) -> str | None:
        try:
            return date(int(tag["y"]), int(tag["m"]), int(tag["d"])).isoformat()
        except ValueError:
            self.parsed.anomaly(position, "invalid-date", f"{tag.group().strip()} is not a date", "kept undated")
            return None

    def _release(self, written: str, position: int) -> None:
        stated = datetime.strptime(written, "%B %d, %Y").date().isoformat()
        if self.release is not None and stated != self.release:
            self.parsed.anomaly(
                position, "release-mismatch", f"page states releases {self.release} and {stated}",
                "first one used",
            )
        self.release = self.release or stated

    def _check(self, rule: RuleText, raw: str, position: int) -> None:
        for quirk in number_quirks(raw):
            self.parsed.anomaly(position, "odd-number", f"{raw} written with {quirk}", f"filed as {rule.number}")
        if rule.number.depth == 1:
            self.parent = rule.number
        elif self.parent is not None and rule.number.parent != self.parent:
            self.parsed.anomaly(
                position, "out-of-parent", f"{rule.number} follows {self.parent}", "kept under its printed number"
            )
        key = (str(rule.number), rule.version)
        if key in self.seen:
            self.parsed.anomaly(
                position, "duplicate-number", f"{rule.number} printed twice with the same date {rule.version}",
                f"both kept; first at {self.seen[key]}",
            )
        self.seen.setdefault(key, position)

    def _lang(self) -> str:
        return self.meta.languages[0] if self.meta.languages else "en"

    def _sections(self) -> None:
        """Section headings (``309 - Declare Blockers Step``) filed under the release."""
        for number, title, span in self.sections:
            label = self.release or "undated"
            self.parsed.rules.insert(
                sum(1 for r in self.parsed.rules if r.spans[0][0] < span[0]),
                RuleText(
                    game=self.meta.game or "mtg", lang=self._lang(), version=label, number=number, text="",
                    document=self.meta.id, spans=[span], title=title, date=self.release,
                ),
            )

    def finish(self) -> None:
        self._close()
        self._sections()
        game, lang = self.meta.game or "mtg", self._lang()
        if self.release is not None:
            self.parsed.versions.append(Version(game, lang, self.release, self.release, "excerpt"))
        for stated in sorted({r.date for r in self.parsed.rules if r.date and r.title is None}):
            self.parsed.versions.append(Version(game, lang, stated, stated, "dated-paragraph"))
