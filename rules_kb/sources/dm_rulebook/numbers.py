"""Rule numbers at the start of a rulebook line, and whether they really start a rule.

The PDF extraction of the Duel Masters rulebook puts many number-like strings at the
start of lines that are not rules: the tail of a wrapped citation (``603.2e）``), a
continuation starting with a count (``1 枚で``, ``2000 の修正``) or a cross-reference
(``403.3の例外``). Only a number that is *in sequence* with the rule before it starts a
rule; the same test finds the typos of the official text (``311.2.`` under 312,
``505.2a`` under 506.2) and files them where they belong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from rules_kb.errors import MalformedRuleNumber
from rules_kb.numbers import RuleNumber

_DIGIT = "[0-9０-９]"
_LETTER = "[a-zA-Zａ-ｚＡ-Ｚ]"
_PERIOD = "[.．]"
# section, optional rule, optional letter (possibly after one space), optional period.
_TOKEN = re.compile(
    rf"(?P<section>{_DIGIT}{{3}})(?!{_DIGIT})"
    rf"(?:{_PERIOD}(?P<rule>{_DIGIT}{{1,3}})(?!{_DIGIT})"
    rf"(?:(?P<space>[ \u3000]?)(?P<letter>{_LETTER})(?!{_LETTER}))?)?"
    rf"(?P<period>{_PERIOD})?"
)
_CHAPTER = re.compile(rf"(?P<digit>{_DIGIT}){_PERIOD}[ \u3000]*(?P<title>[^\s0-9０-９].*)")
# What may follow a number that starts a rule: nothing, a space, or the start of a text
# (``603.2c「…``, ``118.1.バトル…``); never a closing bracket or punctuation, which
# betrays the tail of a citation.
_NOT_A_START = "）)」』】、。，,:：・"
# Magic skips these subrule letters; Duel Masters does not, but accepting the skip costs
# nothing and keeps the test honest for both.
_SKIPPED_LETTERS = "lo"


@dataclass(frozen=True)
class NumberToken:
    """A rule number as printed at the start of a line (``start``/``end`` are offsets)."""

    raw: str
    number: RuleNumber
    start: int
    end: int
    period: bool
    rest: str

    @property
    def expected_form(self) -> str:
        """How the house style prints this number: ``507.``, ``507.1.``, ``507.1a``."""
        return f"{self.number}" if self.number.depth == 2 else f"{self.number}."


@dataclass(frozen=True)
class Chapter:
    number: int
    title: str


def read_chapter(text: str) -> Chapter | None:
    """A chapter heading (``1.ゲームの基本``, ``2. カードの見方``), or None."""
    match = _CHAPTER.fullmatch(text.strip())
    if match is None:
        return None
    return Chapter(int(match["digit"].translate(_FULL_DIGITS)), match["title"].strip())


_FULL_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")


def read_number_tokens(text: str, offset: int) -> list[NumberToken]:
    """Readings of the number that starts ``text`` (leading blanks allowed), best first.

    ``701.23 b`` may be rule 701.23b or rule 701.23 followed by a word ``b…``; both
    readings are returned and the sequence decides.
    """
    stripped = text.lstrip()
    lead = len(text) - len(stripped)
    match = _TOKEN.match(stripped)
    if match is None:
        return []
    ends = [match.end()]
    if match["letter"] and match["space"]:
        ends.append(match.start("space"))
    tokens = [_make_token(stripped[:end], stripped[end:], offset + lead) for end in ends]
    return [token for token in tokens if token is not None]


def _make_token(raw: str, rest: str, start: int) -> NumberToken | None:
    if rest[:1] and rest[0] in _NOT_A_START:
        return None
    try:
        number = RuleNumber.parse(raw)
    except MalformedRuleNumber:
        return None
    return NumberToken(raw, number, start, start + len(raw), raw[-1] in ".．", rest)


@dataclass(frozen=True)
class Verdict:
    """Where a rule number is filed and what was irregular about it."""

    number: RuleNumber
    issues: tuple[str, ...]


@dataclass
class Sequencer:
    """Tracks the last accepted chapter, section and rule, and judges the next number."""

    chapter: int | None = None
    section: int | None = None
    last: RuleNumber | None = None
    seen: set[RuleNumber] = field(default_factory=set)

    def accept_chapter(self, chapter: Chapter) -> bool:
        """A chapter heading counts only as the next chapter (or the first one)."""
        if self.chapter is not None and chapter.number != self.chapter + 1:
            return False
        self.chapter = chapter.number
        return True

    def judge(self, token: NumberToken) -> Verdict | None:
        """File ``token`` if it continues the sequence; None if it is ordinary text."""
        verdict = self._judge_section(token) if token.number.depth == 0 else self._judge_rule(token.number)
        if verdict is not None:
            self._advance(verdict.number)
        return verdict

    def _advance(self, number: RuleNumber) -> None:
        self.section = number.section
        self.last = number
        self.seen.add(number)

    def _judge_section(self, token: NumberToken) -> Verdict | None:
        number = token.number
        if token.rest.lstrip()[:1].isdigit():
            return None  # a count after a number (``100. 200 枚``) is text, not a heading
        if self.section is not None and number.section <= self.section:
            return None
        issues = []
        if self.chapter is not None and number.chapter != self.chapter:
            issues.append("section-outside-chapter")
        return Verdict(number, tuple(issues))

    def _judge_rule(self, number: RuleNumber) -> Verdict | None:
        if self.section is None or self.last is None:
            return None
        if number.section != self.section:
            return self._judge_foreign(number)
        step = _step(self.last, number)
        if step == 1:
            return Verdict(number, ())
        if step in (2, 3):
            return Verdict(number, ("number-gap",))
        if step == 0 and number in self.seen:
            return Verdict(number, ("duplicate-number",))
        return None

    def _judge_foreign(self, number: RuleNumber) -> Verdict | None:
        """A number from another section: a typo if it fits here exactly, a new section if it opens one."""
        if self.section is None or self.last is None:
            return None
        filed = replace(number, section=self.section)
        if _step(self.last, filed) == 1:
            return Verdict(filed, ("number-out-of-parent",))
        if number.section > self.section and number.rule == 1 and number.letter is None:
            return Verdict(number, ("missing-section-heading",))
        return None


def _step(last: RuleNumber, number: RuleNumber) -> int | None:
    """How many places ``number`` is after ``last`` among its siblings (1 = the next one)."""
    if number.letter is None:
        rule = number.rule or 0
        if last.rule is None:
            return rule
        return rule - last.rule if last.letter is None or rule > last.rule else None
    if last.rule != number.rule:
        return None
    before = last.letter or "`"
    skipped = sum(1 for letter in _SKIPPED_LETTERS if before < letter < number.letter)
    return ord(number.letter) - ord(before) - skipped
