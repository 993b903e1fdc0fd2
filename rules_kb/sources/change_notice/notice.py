"""Official Duel Masters change notices (変更点), the 裁定変更 page and the rules index page.

The pages are rendered HTML, one paragraph per line, so rule texts are never hard-wrapped:
each line is a rule (``507.2a …``), an example of the rule above (``例:``), a before/after
marker, a heading (page title, ``■総合ゲームルール更新箇所``), commentary or site chrome.

Three notice formats occur and are read by one state machine:

* new text only (2021-09-07): topic paragraphs, then the rules as they now read;
* ``修正前`` / ``↓`` / ``修正後`` (2020-10-23, 2023-08-10, 2023-09-14);
* ``変更前)`` / ``変更後)`` (2016-09-13).

Version convention (the diff stage relies on it): a text printed after ``修正後``/``変更後``
or without any marker is the rule as of the notice, ``version`` = the notice date
(``2021-09-07``, from the title ``変更点(2021.09.07)``) and ``date`` = that date. A text
printed after ``修正前``/``変更前`` is the rule as it read just before, ``version`` =
``before-2021-09-07`` and ``date`` = None (the notice does not say since when). Both are
``Version`` records of kind ``change-notice``. A notice that prints the number alone and
quotes only the changed sentence (2023-08-10 ``601.1a``) gives rules with
``truncated=True``: the quote is not the whole rule.

Residue kinds: ``chrome`` (site menu, PAGE TOP, copyright), ``commentary`` (topic
paragraphs, explanations under a rule), ``change-marker`` (修正前, ↓, 修正後, 変更前), ``event-rules``
(the ■競技イベント運営ルール section: tournament rules, not comprehensive rules), ``ruling``
and ``faq`` (steps and Q&A of the 裁定変更 page), ``navigation`` (links of the index page),
``fragment`` (a rule number cut by the end of an excerpt).

Numbered lines written in the past tense (``104.2c …を定義しました。``) describe a change
and are commentary citing that rule: Ver.1.48 has no ``ました。`` in any rule text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules_kb.errors import ParseError
from rules_kb.model import (
    BEFORE,
    DocumentMeta,
    Example,
    Heading,
    ParsedDocument,
    Residue,
    RuleText,
    Span,
    Version,
    before_label,
)
from rules_kb.numbers import number_quirks
from rules_kb.sources.change_notice import lines as shape
from rules_kb.sources.common import Line, read_by_line

_QUIRK_CODES = {
    "full-width characters": "full-width-number",
    "space before the subrule letter": "spaced-subrule-letter",
    "capital subrule letter": "capital-subrule-letter",
}
_STRAY_SPACE = re.compile(r"[、。][ \u3000]")


def sniff(text: str) -> int:
    """Confidence that ``text`` is an official change-notice, ruling-change or index page."""
    score = 0
    if shape.NOTICE_TITLE.search(text):
        score += 60
    if "裁定変更のお知らせ" in text:
        score += 60
    if re.search(r"^■総合", text, re.MULTILINE):
        score += 25
    if re.search(r"^(?:修正前|変更前|修正後|変更後)[)）]?$", text, re.MULTILINE):
        score += 20
    if "(PDF形式)" in text and "最終更新日" in text and "総合ゲームルール" in text:
        score += 50
    if re.search(r"^PAGE TOP$", text, re.MULTILINE) or re.search(r"^商品情報$", text, re.MULTILINE):
        score += 15
    return min(score, 100)


def parse(text: str, meta: DocumentMeta) -> ParsedDocument:
    """Parse one decoded notice page into rules (before/after versions), headings and residue."""
    if sniff(text) < 10:
        raise ParseError(meta.file, "not an official Duel Masters change-notice page", 0)
    return read_by_line(_NoticeReader(ParsedDocument(meta, text)))


@dataclass
class _Pending:
    """A rule number printed on a line of its own; its texts follow the markers below it."""

    numbered: shape.NumberedLine
    span: Span
    phases: list[str] = field(default_factory=list)


@dataclass
class _NoticeReader:
    """Reads a page line by line; the fields are the context a line is interpreted in."""

    parsed: ParsedDocument
    date: str | None = None
    phase: str = "new"  # new (no marker yet), before, between (after ↓), after
    other_section: bool = False  # inside a ■ section that is not the comprehensive rules
    title_seen: bool = False
    current: RuleText | None = None  # the rule an example line would belong to
    pending: _Pending | None = None
    prose_kind: str | None = None  # kind of the previous line when it was prose
    blank_before: bool = False
    last: tuple[int, object] | None = None  # (position, record) of the last content line
    printed: list[tuple[shape.NumberedLine, int]] = field(default_factory=list)
    seen: dict[tuple[str, str], int] = field(default_factory=dict)

    @property
    def meta(self) -> DocumentMeta:
        return self.parsed.meta

    @property
    def after_label(self) -> str:
        return self.date or "undated"

    # -- dispatch -------------------------------------------------------------------------

    def read(self, line: Line) -> None:
        stripped = line.stripped
        if not stripped:
            self.blank_before = True
            return
        span = line.span()
        if shape.is_chrome(stripped):
            self._residue(stripped, span, "chrome")
        elif not self.title_seen and shape.read_numbered(stripped) is None and not shape.marker_phase(stripped):
            self._title(stripped, span)
        elif stripped.startswith("■"):
            self._section(stripped, span)
        elif shape.marker_phase(stripped):
            self._marker(stripped, span)
        elif shape.is_minor_heading(stripped):
            self._minor_heading(stripped, span)
        elif self.other_section:
            self._residue(stripped, span, "event-rules")
        elif shape.EXAMPLE_LABEL.match(line.text) and self.current is not None:
            self._example(self.current, line, span)
        else:
            self._content(stripped, span)
        self.blank_before = False

    def _content(self, stripped: str, span: Span) -> None:
        numbered = shape.read_numbered(stripped)
        if numbered is not None and not numbered.rest:
            self._flush_pending()
            self.pending = _Pending(numbered, span)
            self.current = None
            self.last = (span[0], None)
        elif numbered is not None and not shape.is_change_description(numbered.rest):
            self._flush_pending()
            self._rule(numbered, [span], numbered.rest, span[0])
            if not numbered.spaced:
                self.parsed.anomaly(
                    span[0], "no-space-after-number",
                    f"{numbered.written} is glued to its text", "number read up to its period",
                )
        elif numbered is None and self.pending is not None and self._pending_takes_text(self.pending):
            self._pending_text(self.pending, stripped, span)
        else:
            self._flush_pending()
            kind = self._prose_kind(stripped)
            cites = shape.cited_numbers(stripped, numbered.number if numbered else None, self.meta.game or "dm")
            self._residue(stripped, span, kind, cites)
            self.prose_kind = kind

    # -- records --------------------------------------------------------------------------

    def _title(self, stripped: str, span: Span) -> None:
        self.title_seen = True
        self.date = shape.notice_date(stripped)
        self.parsed.headings.append(Heading(stripped, [span], level=1))
        self.last = (span[0], None)
        self._check_date(span[0])

    def _section(self, stripped: str, span: Span) -> None:
        self._flush_pending()
        self.other_section = "総合" not in stripped
        self.phase = "new"
        self.current = None
        self.parsed.headings.append(Heading(stripped, [span], level=2))
        self.last = (span[0], None)

    def _marker(self, stripped: str, span: Span) -> None:
        phase = shape.marker_phase(stripped)
        if phase in ("before", "after"):
            self.phase = phase
        elif self.phase == "before":
            self.phase = "between"  # after ↓ and before 修正後: still nothing new
        self.current = None
        self._residue(stripped, span, "change-marker")

    def _minor_heading(self, stripped: str, span: Span) -> None:
        """注意, 例1, ●殿堂入りカード: headings inside a page, below the ■ sections."""
        self._flush_pending()
        self.current = None
        self.prose_kind = None
        self.parsed.headings.append(Heading(stripped, [span], level=3))
        self.last = (span[0], None)

    def _rule(self, numbered: shape.NumberedLine, spans: list[Span], text: str, position: int,
              partial: bool = False) -> RuleText:
        before = self.phase in ("before", "between")
        number = numbered.number
        heading = number.depth == 0
        written = numbered.written.rstrip(".．")
        rule = RuleText(
            game=self.meta.game or "dm",
            lang=self.meta.languages[0] if self.meta.languages else "ja",
            version=before_label(self.after_label) if before else self.after_label,
            number=number,
            text="" if heading else text,
            document=self.meta.id,
            spans=spans,
            title=text if heading else None,
            date=None if before else self.date,
            truncated=partial,
            written_as=written if written != str(number) else None,
        )
        self.parsed.rules.append(rule)
        self.current = rule
        self.prose_kind = None
        self.last = (spans[-1][0], rule)
        self.printed.append((numbered, position))
        self._check_rule(rule, numbered, position, partial)
        return rule

    def _example(self, rule: RuleText, line: Line, span: Span) -> None:
        body = line.text[shape.EXAMPLE_LABEL.match(line.text).end():]
        doubled = shape.EXAMPLE_LABEL.match(body)
        if doubled:
            body = body[doubled.end():]
            self.parsed.anomaly(
                span[0], "doubled-example-label", f"example of {rule.number} is labelled 例: twice",
                "one example; text starts after the second label",
            )
        rule.examples.append(Example(body.strip(), [span]))
        self.last = (span[0], rule)

    def _residue(self, stripped: str, span: Span, kind: str, cites: tuple[str, ...] = ()) -> None:
        item = Residue(stripped, [span], kind, cites=cites)
        self.parsed.residue.append(item)
        if kind != "chrome":
            self.current = None
            self.last = (span[0], item)

    def _prose_kind(self, stripped: str) -> str:
        """Kind of a prose line; a line right under a ruling step continues that step."""
        kind = shape.prose_kind(stripped)
        if kind == "commentary" and self.prose_kind == "ruling" and not self.blank_before:
            return "ruling"
        return kind

    # -- a number printed alone (601.1a / 修正前 / text / 修正後 / text) --------------------

    def _pending_takes_text(self, pending: _Pending) -> bool:
        """The first unnumbered line under each marker is the text of the lone number."""
        return self.phase in ("before", "after") and self.phase not in pending.phases

    def _pending_text(self, pending: _Pending, stripped: str, span: Span) -> None:
        spans = [span] if pending.phases else [pending.span, span]
        pending.phases.append(self.phase)
        rule = self._rule(pending.numbered, spans, stripped, pending.span[0], partial=True)
        self.parsed.anomaly(
            span[0], "partial-quote",
            f"{rule.number} ({rule.version}) is quoted as one sentence under a number printed alone",
            "kept with truncated=True: not the whole rule",
        )
        self.current = None  # the quote is not followed by examples of the whole rule
        if len(pending.phases) == 2:
            self.pending = None

    def _flush_pending(self) -> None:
        pending, self.pending = self.pending, None
        if pending is None or pending.phases:
            return
        self.parsed.residue.append(
            Residue(pending.numbered.written, [pending.span], "commentary", cites=(str(pending.numbered.number),))
        )
        self.parsed.anomaly(
            pending.span[0], "number-without-text", f"{pending.numbered.written} stands alone with no rule text",
            "kept as commentary citing it",
        )

    # -- checks ---------------------------------------------------------------------------

    def _check_date(self, position: int) -> None:
        stated = self.meta.dates
        if self.date is not None and stated and self.date not in stated:
            self.parsed.anomaly(
                position, "date-mismatch", f"title says {self.date}, manifest says {', '.join(stated)}",
                "title date used",
            )

    def _check_rule(self, rule: RuleText, numbered: shape.NumberedLine, position: int, partial: bool) -> None:
        for quirk in number_quirks(numbered.written.rstrip(".．")):
            self.parsed.anomaly(
                position, _QUIRK_CODES.get(quirk, "odd-number"),
                f"{numbered.written} written with {quirk}", f"filed as {rule.number}",
            )
        key = (str(rule.number), rule.version)
        if key in self.seen and not partial:
            self.parsed.anomaly(
                position, "duplicate-number", f"{rule.number} ({rule.version}) printed twice",
                f"both kept; first at {self.seen[key]}",
            )
        self.seen.setdefault(key, position)
        if _STRAY_SPACE.search(rule.text):
            self.parsed.anomaly(
                position, "stray-space", f"{rule.number} has a space after Japanese punctuation",
                "kept as published",
            )

    def _check_periods(self) -> None:
        """A rule or section number without its period where others in the page have one."""
        upper = [(n, p) for n, p in self.printed if n.number.depth < 2]
        if not any(n.written.endswith((".", "．")) for n, _ in upper):
            return
        for numbered, position in upper:
            if not numbered.written.endswith((".", "．")):
                self.parsed.anomaly(
                    position, "missing-period",
                    f"{numbered.written} has no trailing period where its siblings have one",
                    f"read as {numbered.number}",
                )

    def _check_truncation(self) -> None:
        """An excerpt cut at 2,000 bytes ends mid-sentence: mark the record it cut."""
        if self.last is None:
            return
        position, record = self.last
        end = self.parsed.text.rstrip()
        tail = end[end.rfind("\n") + 1:].strip()
        if shape.is_chrome(tail) or shape.ends_sentence(tail):
            return
        if isinstance(record, RuleText):
            record.truncated = True
            in_example = bool(record.examples) and record.examples[-1].spans[0][0] == position
            cut = "its last example" if in_example else "its text"
            self.parsed.anomaly(
                position, "truncated-excerpt", f"{record.number}: {cut} is cut off mid-sentence by the excerpt's end",
                "kept with truncated=True",
            )
        elif isinstance(record, Residue):
            if re.fullmatch(r"\d{1,3}", record.text):
                record.kind = "fragment"
            self.parsed.anomaly(
                position, "truncated-excerpt", f"the excerpt ends mid-line in {record.kind} {record.text[:20]!r}",
                f"kept as {record.kind}",
            )

    def _versions(self) -> None:
        game, lang = self.meta.game or "dm", self.meta.languages[0] if self.meta.languages else "ja"
        labels = [r.version for r in self.parsed.rules]
        if self.date is not None or self.after_label in labels:
            self.parsed.versions.append(Version(game, lang, self.after_label, self.date, "change-notice"))
        if before_label(self.after_label) in labels:
            self.parsed.versions.append(Version(game, lang, before_label(self.after_label), None, "change-notice"))
        self._index_versions(game, lang)

    def _index_versions(self, game: str, lang: str) -> None:
        """The index page states the current rulebook release and its date."""
        version = None
        for item in self.parsed.residue:
            if item.kind != "navigation":
                continue
            stated = shape.rulebook_version(item.text)
            if stated is not None:
                version = stated
            elif version is not None and (date := shape.updated_date(item.text)):
                self.parsed.versions.append(Version(game, lang, version, date, "full"))
                version = None

    def finish(self) -> None:
        self._flush_pending()
        if self.date is None and self.parsed.rules and self.meta.dates:
            self.date = self.meta.dates[0]
            self.parsed.anomaly(0, "undated-notice", "no 変更点(YYYY.MM.DD) title", f"manifest date {self.date} used")
            for rule in self.parsed.rules:
                rule.version = rule.version.replace("undated", self.date)
                rule.date = None if rule.version.startswith(BEFORE) else self.date
        self._check_periods()
        self._check_truncation()
        self._versions()
