"""The rulebook's body: chapters, sections, rules and their examples, line by line.

Each non-blank line is one of: a chapter heading (``1. ゲームの基本``, only as the next
chapter), a rule or section start (a number in sequence, see ``dm_rulebook_numbers``),
an example start (``例：``, ``例２：``, ``例 2：``), or the continuation of whatever came
before it. Blank lines end nothing: a page break can fall inside a rule.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from rules_kb.model import Example, Heading, ParsedDocument, Residue, RuleText
from rules_kb.numbers import number_quirks
from rules_kb.sources.common import Line
from rules_kb.sources.dm_rulebook.numbers import NumberToken, Sequencer, Verdict, read_chapter, read_number_tokens
from rules_kb.sources.dm_rulebook.text import WidthProfile, join_lines

_SENTENCE_ENDS = "。．.）)」』》"
_EXAMPLE = re.compile(r"\s*例\s*[0-9０-９]*\s*[：:]")
_QUIRK_CODES = {
    "full-width characters": "full-width-number",
    "space before the subrule letter": "space-in-number",
    "capital subrule letter": "capital-letter",
}


@dataclass
class _Block:
    """Lines of one rule or example, each with the part of it that is text."""

    pieces: list[tuple[Line, str]]

    @property
    def spans(self) -> list[tuple[int, int]]:
        return [line.span() for line, _ in self.pieces]


@dataclass
class _Rule:
    token: NumberToken
    verdict: Verdict
    body: _Block
    examples: list[_Block] = field(default_factory=list)


@dataclass
class BodyReader:
    """Reads the body lines of one rulebook into ``parsed``."""

    parsed: ParsedDocument
    widths: WidthProfile
    version: str
    date: str | None
    sequence: Sequencer = field(default_factory=Sequencer)
    _rules: list[_Rule] = field(default_factory=list)
    _current: _Block | None = None

    def read(self, lines: Sequence[Line]) -> None:
        for line in lines:
            if line.stripped:
                self._read_line(line)
        for rule in self._rules:
            self.parsed.rules.append(self._to_rule(rule))
        self._mark_truncation()

    def _mark_truncation(self) -> None:
        """The last rule of an excerpt may stop mid-sentence: say so rather than pass it as whole."""
        if not self.parsed.rules or self.parsed.rules[-1].number.depth == 0:
            return
        last = self.parsed.rules[-1]
        tail = (last.examples[-1].text if last.examples else last.text or last.title or "").rstrip()
        if tail and tail[-1] not in _SENTENCE_ENDS:
            last.truncated = True
            self.parsed.anomaly(last.spans[-1][1], "truncated", f"the text ends inside {last.number}: {tail[-12:]!r}",
                                "rule marked truncated")

    def _read_line(self, line: Line) -> None:
        chapter = read_chapter(line.stripped)
        if chapter is not None and self.sequence.accept_chapter(chapter):
            self.parsed.headings.append(Heading(line.stripped, [line.span()], level=1))
            self._current = None
            return
        if self._start_rule(line):
            return
        example = _EXAMPLE.match(line.text)
        if example is not None and self._current is not None:
            block = _Block([(line, line.text[example.end():])])
            self._rules[-1].examples.append(block)
            self._current = block
            return
        self._continue(line)

    def _start_rule(self, line: Line) -> bool:
        tokens = read_number_tokens(line.text, line.start)
        previous = self.sequence.last
        for token in tokens:
            verdict = self.sequence.judge(token)
            if verdict is not None:
                rule = _Rule(token, verdict, _Block([(line, token.rest)]))
                self._rules.append(rule)
                self._current = rule.body
                self._report_number(token, verdict, previous)
                return True
        if tokens or _looks_cited(line.stripped):
            self._report_continuation(line)
        return False

    def _continue(self, line: Line) -> None:
        if self._current is None:
            self.parsed.residue.append(Residue(line.stripped, [line.span()], "stray-text"))
            self.parsed.anomaly(line.start, "stray-text", "text before any rule of its chapter",
                                "kept as residue 'stray-text'")
            return
        self._current.pieces.append((line, line.text))

    def _to_rule(self, rule: _Rule) -> RuleText:
        token, number = rule.token, rule.verdict.number
        text = join_lines(rule.body.pieces, self.widths)
        title = None
        if number.depth == 0:
            title, text = text, ""
        elif "\n" in text and _is_title(head := text.split("\n", 1)[0]):
            # 101.1. カードの効果はルールに勝つ / its text on the next line: a title, not the text's start.
            title, text = head, text.split("\n", 1)[1]
        written = token.raw if token.raw != f"{number}" + ("" if number.depth == 2 else ".") else None
        return RuleText(
            game=self.parsed.meta.game,
            lang=self.parsed.meta.languages[0] if self.parsed.meta.languages else "ja",
            version=self.version,
            number=number,
            text=text,
            document=self.parsed.meta.id,
            spans=rule.body.spans,
            examples=[Example(join_lines(e.pieces, self.widths), e.spans) for e in rule.examples],
            title=title,
            date=self.date,
            written_as=written,
        )

    def _report_number(self, token: NumberToken, verdict: Verdict, previous: object) -> None:
        """One anomaly per irregularity of a rule number as printed."""
        at, raw, number = token.start, token.raw, verdict.number
        for issue in verdict.issues:
            self.parsed.anomaly(at, issue, _ISSUE_MESSAGES[issue].format(raw=raw, previous=previous),
                                _ISSUE_DECISIONS[issue].format(number=number))
        for quirk in number_quirks(raw):
            self.parsed.anomaly(at, _QUIRK_CODES[quirk], f"{raw!r} is written with {quirk}",
                                f"read as {number}; printed form kept in written_as")
        if number.depth == 2 and token.period:
            self.parsed.anomaly(at, "subrule-period", f"subrule {raw!r} ends with a period; most subrules do not",
                                f"read as {number} (low severity: a house-style inconsistency)")
        if number.depth < 2 and not token.period:
            self.parsed.anomaly(at, "missing-period", f"{raw!r} lacks the period its siblings have",
                                f"read as {number}")
        if number.depth > 0 and token.rest[:1] and not token.rest[0].isspace() and not raw.endswith("．"):
            self.parsed.anomaly(at, "no-space-after-number", f"no space between {raw!r} and its text",
                                "split at the end of the number")

    def _report_continuation(self, line: Line) -> None:
        self.parsed.anomaly(
            line.start, "number-like-continuation",
            f"line starts with {line.stripped[:12]!r}, a rule number out of sequence after {self.sequence.last}",
            f"kept as text of {self.sequence.last}, not as a rule",
        )


def _looks_cited(text: str) -> bool:
    """A line starting like a rule number cut off by a wrap: ``603.2e）``."""
    return re.match(r"[0-9０-９]{3}[.．][0-9０-９]{1,3}[a-zａ-ｚ]?[）)」]", text) is not None


_ISSUE_MESSAGES = {
    "number-out-of-parent": "{raw!r} printed after {previous}, outside its parent section",
    "number-gap": "{raw!r} follows {previous}: numbers are skipped",
    "duplicate-number": "{raw!r} printed twice (previous rule {previous})",
    "missing-section-heading": "{raw!r} opens a section whose heading is missing (after {previous})",
    "section-outside-chapter": "section {raw!r} is out of its chapter's hundred",
}
_ISSUE_DECISIONS = {
    "number-out-of-parent": "filed as {number} (typo in the source)",
    "number-gap": "kept as {number}",
    "duplicate-number": "kept as a second text of {number}",
    "missing-section-heading": "kept as {number}",
    "section-outside-chapter": "kept as {number}",
}


def _is_title(line: str) -> bool:
    """A rule's own first line that is a short heading: no sentence end, a paragraph break after it."""
    stripped = line.strip()
    return 0 < len(stripped) <= _TITLE_MAX and not stripped.endswith(_TITLE_NOT_ENDS)


_TITLE_MAX = 60
_TITLE_NOT_ENDS = ("。", "）", ")", "」", "：", ":", "、")
