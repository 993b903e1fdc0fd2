"""The Fandom wiki's Lua module "Module:Rules" holding the English rulebook (``fandom-module``).

The page is wiki skin, a few lines of Lua, then the whole rulebook as one long string
``Rules.text = [[ … ]]``: a title line naming the version, "Last update date …", a table of
contents between "Contents" and "End contents", then the rules (`100.1. …`, no bullets).

Decisions:

* Contents entries repeat the headings, so they are residue ``contents`` (``level`` 1 for a
  chapter, 2 for a section), never rules; "Contents"/"End contents" are ``contents`` too.
* Lua outside the string (and the ``Rules.text = [[`` / ``]]`` delimiters) is residue
  ``code``; the wiki skin is ``chrome``; the title and date lines are ``front-matter`` and
  give the document's one ``Version`` (``full`` when the string is closed, else ``excerpt``).
* In the body, a chapter line (`0. Introduction`) is a ``Heading``; a section line
  (`000. Purpose of this document`) a titled ``RuleText``; an unnumbered paragraph continues
  the rule above it (joined with a blank line, as the module prints it: the official text
  has it in the same rule, e.g. 000.1). ``Example:`` lines are examples, label dropped.
* The corpus copies stop at 2,000 bytes: a string that never closes is a ``truncated``
  anomaly, and a rule cut mid-sentence is marked ``truncated``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules_kb.errors import ParseError
from rules_kb.model import DocumentMeta, Heading, ParsedDocument, Residue, RuleText, Version
from rules_kb.sources.common import NUMBER_AT_START, Line, iter_lines, trim_span
from rules_kb.sources.fandom.shared import (
    CHROME_LINES,
    EXAMPLE,
    NumberFiler,
    example_from,
    filed_rule,
    is_complete,
    parse_date,
    report_missing_periods,
)

_OPEN = re.compile(r"(?<![\w.])(?P<name>[\w.]+)\s*=\s*\[\[")
_CLOSE = "]]"
_TITLE_VERSION = re.compile(r"Version\s+(?P<label>\d+(?:\.\d+)+)")
_LAST_UPDATE = re.compile(r"Last update date\b")
_CHAPTER = re.compile(r"(?P<chapter>\d)\.\s+\S")
_SECTION = re.compile(r"\d{3}\.\s+\S")
_LUA = re.compile(r"(local\s|--|return\b|end\b|function\b|[\w.]+\s*=)")


def sniff(text: str) -> int:
    """Confidence that ``text`` is the Lua module page: the string assignment and its title."""
    score = 0
    if re.search(r"^\s*Rules\.text\s*=\s*\[\[", text, re.MULTILINE):
        score += 60
    if "local Rules = {}" in text:
        score += 20
    if "General Game Rules Version" in text or "End contents" in text:
        score += 20
    return min(score, 100)


def parse(text: str, meta: DocumentMeta) -> ParsedDocument:
    """Parse the module page: code and chrome, front matter, contents, then any rules."""
    if "[[" not in text or _OPEN.search(text) is None:
        raise ParseError(meta.file, "not a Lua rules module: no 'Rules.text = [[' string", 0)
    parsed = ParsedDocument(meta, text)
    _ModuleParser(parsed, NumberFiler(parsed)).run(list(iter_lines(text)))
    return parsed


@dataclass
class _ModuleParser:
    parsed: ParsedDocument
    filer: NumberFiler
    state: str = "page"  # page -> front -> contents -> body -> code
    label: str = "unknown"
    date: str | None = None
    first_entry: str | None = None
    last_rule: RuleText | None = None
    contents: list[Residue] = field(default_factory=list)

    def run(self, lines: list[Line]) -> None:
        for line in lines:
            if line.stripped:
                self._dispatch(line, line.start + len(line.text) - len(line.text.lstrip()), line.end)
        self._finish()

    def _dispatch(self, line: Line, start: int, end: int) -> None:
        """Route the non-blank text ``[start, end)`` of one line by the current state."""
        text = self.parsed.text
        if self.state == "page":
            self._page_line(line, start, end)
        elif (close := text.find(_CLOSE, start, end)) >= 0 and self.state != "code":
            if text[start:close].strip():
                self._dispatch(line, start, close)
            self.state = "code"
            self._residue(close, end, "code")
        elif self.state == "front":
            self._front_line(start, end)
        elif self.state == "contents":
            self._contents_line(line, start, end)
        elif self.state == "body":
            self._body_line(start, end)
        else:
            self._residue(start, end, "code")

    def _page_line(self, line: Line, start: int, end: int) -> None:
        text = self.parsed.text
        opening = _OPEN.search(text, start, end)
        if opening is not None:
            self._residue(start, opening.end(), "code")
            self.state = "front"
            if text[opening.end() : end].strip():
                self._front_line(opening.end(), end)
        elif line.stripped in CHROME_LINES:
            self._residue(start, end, "chrome")
        elif _LUA.match(line.stripped):
            self._residue(start, end, "code")
        else:
            self._unknown(start, end)

    def _front_line(self, start: int, end: int) -> None:
        piece = self.parsed.text[start:end].strip()
        if piece == "Contents":
            self.state = "contents"
            self._residue(start, end, "contents")
        elif (version := _TITLE_VERSION.search(piece)) is not None:
            self.label = version["label"]
            self._residue(start, end, "front-matter", marks=(f"version:{self.label}",))
        elif _LAST_UPDATE.match(piece):
            self.date = parse_date(piece)
            if self.date is None:
                self.parsed.anomaly(start, "unreadable-date", repr(piece), "version kept without a date")
            self._residue(start, end, "front-matter", marks=(f"date:{self.date}",) if self.date else ())
        else:
            self._unknown(start, end)

    def _contents_line(self, line: Line, start: int, end: int) -> None:
        piece = self.parsed.text[start:end].strip()
        if piece == "End contents":
            self.state = "body"
            self._residue(start, end, "contents")
            return
        if piece == self.first_entry:  # the body begins without an "End contents" line
            self.parsed.anomaly(start, "contents-unterminated", "no 'End contents' line", "body starts here")
            self.state = "body"
            self._body_line(start, end)
            return
        level = 1 if _CHAPTER.match(piece) else (2 if _SECTION.match(piece) else 0)
        if level == 0:
            self._unknown(start, end)
            return
        self.first_entry = self.first_entry or piece
        self.contents.append(self._residue(start, end, "contents", level=level))

    def _body_line(self, start: int, end: int) -> None:
        text = self.parsed.text
        span = trim_span(text, start, end)
        piece = text[span[0] : span[1]]
        number = NUMBER_AT_START.match(text, span[0], span[1])
        if _is_rule_number(text, number):
            self._add_rule(number, span)
        elif _CHAPTER.match(piece):
            self.parsed.headings.append(Heading(piece, [span], level=1))
            self.last_rule = None
        elif EXAMPLE.match(piece) and self.last_rule is not None:
            example = example_from(text, *span)
            if example is not None:
                self.last_rule.examples.append(example)
        elif self._continues(self.last_rule):
            self.last_rule.text = f"{self.last_rule.text}\n\n{piece}"
            self.last_rule.spans.append(span)
        else:
            self.parsed.residue.append(Residue(piece, [span], "commentary"))
            self.parsed.anomaly(span[0], "unattached-paragraph", repr(piece[:60]), "kept as commentary")

    @staticmethod
    def _continues(rule: RuleText | None) -> bool:
        """An unnumbered paragraph continues a rule (not a section title, not after examples)."""
        return rule is not None and rule.number.depth > 0 and not rule.examples

    def _add_rule(self, number: re.Match[str], span: tuple[int, int]) -> None:
        text, meta = self.parsed.text, self.parsed.meta
        filed = self.filer.file(number["number"], span[0])
        if filed is None:
            self._unknown(*span)
            return
        lang = meta.languages[0] if meta.languages else "en"
        rule = filed_rule(meta, lang, self.label, self.date, filed, text[number.end() : span[1]].strip(), span)
        self.parsed.rules.append(rule)
        self.last_rule = rule

    def _finish(self) -> None:
        meta = self.parsed.meta
        lang = meta.languages[0] if meta.languages else "en"
        kind = "full" if self.state == "code" else "excerpt"
        self.parsed.versions.append(Version(meta.game, lang, self.label, self.date, kind))
        if self.label == "unknown":
            self.parsed.anomaly(0, "no-version", "the module's title names no version", "rules filed as 'unknown'")
        if self.state != "code":
            self._report_cut()
        report_missing_periods(self.parsed)

    def _report_cut(self) -> None:
        """The string never closes: the excerpt was cut. Say where, and flag a cut rule."""
        end = len(self.parsed.text.rstrip())
        where = {"body": "in the rules", "contents": "inside the contents"}.get(self.state, "before the contents")
        message, decision = f"the module text ends {where}, before its closing ']]'", "parsed what is there"
        rule = self.parsed.rules[-1] if self.parsed.rules else None
        if self.state == "body" and rule is not None and rule.spans[-1][1] == end and not is_complete(rule.text):
            rule.truncated = True
            message += f"; {rule.number} is cut mid-sentence"
            decision += f", {rule.number} marked truncated"
        elif self.state == "contents" and self.contents and self.contents[-1].spans[-1][1] == end:
            message += f"; the last entry {self.contents[-1].text!r} may be cut"
        self.parsed.anomaly(end, "truncated", message, decision)

    def _residue(self, start: int, end: int, kind: str, marks: tuple[str, ...] = (), level: int = 0) -> Residue:
        span = trim_span(self.parsed.text, start, end)
        residue = Residue(self.parsed.text[span[0] : span[1]], [span], kind, marks=marks, level=level)
        self.parsed.residue.append(residue)
        return residue

    def _unknown(self, start: int, end: int) -> None:
        residue = self._residue(start, end, "unknown")
        self.parsed.anomaly(
            residue.spans[0][0], "unclassified-line", repr(residue.text[:60]), "kept as residue 'unknown'"
        )


def _is_rule_number(text: str, number: re.Match[str] | None) -> bool:
    """A numbered body line: ``000.`` or ``100.1.``, not a paragraph opening with ``100 cards``."""
    if number is None or text[number.end() : number.end() + 1].isdigit():
        return False
    return any(dot in number["number"] for dot in ".．")
