"""What the two Duel Masters Fandom wiki formats share: page chrome, dates, examples, numbering.

The wiki's English fan translation and its Japanese copy are typed by hand, so numbers slip
(``505.2a`` under 506.2, ``506.3c`` twice). ``NumberFiler`` decides, from the sequence
alone, where each printed number belongs, and reports every decision as an anomaly.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date

from rules_kb.errors import MalformedRuleNumber
from rules_kb.model import DocumentMeta, Example, ParsedDocument, RuleText, Span
from rules_kb.numbers import RuleNumber, fold_width, number_quirks

# Lines the wiki's skin prints around every page; never content.
CHROME_LINES = frozenset(
    {
        "Duel Masters Wiki",
        "Register",
        "Advertisement",
        "FANDOM",
        "Documentation for this module may be created at Module:Rules/doc",
    }
)
LICENSE = re.compile(r"Community content is available under CC-BY-SA\b.*")

# `Example:` (English) and `例:` / `例：` (Japanese), the label included in the span.
EXAMPLE = re.compile(r"(?P<label>Example|例)\s*[:：]\s*")

_DATE = re.compile(r"(?P<month>[A-Z][a-z]+)\.?\s+(?P<day>\d{1,2})(?:st|nd|rd|th)?,\s*(?P<year>\d{4})")
_MONTHS = {
    name: index
    for index, name in enumerate(
        (
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December",
        ),
        start=1,
    )
}
# A sentence (or a rule) is complete when it ends with one of these.
_TERMINAL = tuple('.。!?！？)）」』"”’')
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]")
_LETTERS = re.compile(r"[A-Za-z\u3040-\u30ff\u3400-\u9fff]")
# Half-width `.` or `,` written straight after Japanese text (not inside a number).
_HALF_WIDTH_PUNCT = re.compile(r"(?<=[\u3040-\u30ff\u3400-\u9fff」』）])[.,]")
_NORMALISE_PUNCT = str.maketrans({".": "。", ",": "、", "，": "、", "．": "。"})


def parse_date(text: str) -> str | None:
    """ISO date from the wiki's English dates ("September 14, 2023", "March 16th, 2018")."""
    match = _DATE.search(text)
    if match is None or match["month"] not in _MONTHS:
        return None
    try:
        return date(int(match["year"]), _MONTHS[match["month"]], int(match["day"])).isoformat()
    except ValueError:
        return None


def is_complete(text: str) -> bool:
    """True when the text ends like a finished sentence."""
    return text.rstrip().endswith(_TERMINAL)


def detect_language(texts: list[str], default: str) -> str:
    """``ja`` when kana/kanji make up a fifth of the letters, ``en`` when letters are Latin.

    A ratio rather than mere presence: an English rule may quote a Japanese card name.
    """
    joined = "".join(texts)
    letters = len(_LETTERS.findall(joined))
    if letters == 0:
        return default
    return "ja" if len(_JAPANESE.findall(joined)) / letters >= 0.2 else "en"


def filed_rule(meta: DocumentMeta, lang: str, label: str, date: str | None,
               filed: tuple[RuleNumber, str | None], body: str, span: Span) -> RuleText:
    """The rule a page prints under a filed number; a section's words are its title, not a text."""
    number, written_as = filed
    title = None
    if number.depth == 0:
        title, body = body or None, ""
    return RuleText(meta.game, lang, label, number, body, meta.id, [span], title=title, date=date,
                    written_as=written_as)


def example_from(text: str, start: int, end: int) -> Example | None:
    """An example whose span covers ``text[start:end]`` label included; its text drops the label."""
    match = EXAMPLE.match(text, start, end)
    if match is None:
        return None
    return Example(text[match.end() : end].strip(), [(start, end)])


def successor(number: RuleNumber) -> RuleNumber:
    """The next sibling: 506.3d -> 506.3e, 506.3 -> 506.4, 506 -> 507."""
    if number.letter is not None:
        return RuleNumber(number.section, number.rule, chr(ord(number.letter) + 1))
    if number.rule is not None:
        return RuleNumber(number.section, number.rule + 1)
    return RuleNumber(number.section + 1)


def printed_number(raw: str) -> str:
    """The number as printed, without the period that closes it (``507.1.`` -> ``507.1``)."""
    return raw.rstrip(".．")


@dataclass
class NumberFiler:
    """Files the printed numbers of one block (one language, one version) in sequence.

    Decisions, each reported: a subrule whose section or rule disagrees in exactly one part
    with the rule it sits under is a typo and is filed under that rule (``505.2a`` under
    506.2 -> 506.2a); a repeated number whose predecessor's successor is still free is that
    successor (second ``506.3c`` after 506.3d -> 506.3e); anything else keeps its number.
    """

    parsed: ParsedDocument
    seen: dict[RuleNumber, int] = field(default_factory=dict)
    last_child: dict[RuleNumber | None, RuleNumber] = field(default_factory=dict)
    section: int | None = None
    rule: RuleNumber | None = None

    def file(self, raw: str, position: int) -> tuple[RuleNumber, str | None] | None:
        """Canonical number and ``written_as`` for a printed number, or None if unreadable."""
        try:
            number = RuleNumber.parse(raw)
        except MalformedRuleNumber as exc:
            self.parsed.anomaly(position, "malformed-number", str(exc), "line kept as residue")
            return None
        printed = printed_number(raw)
        for quirk in number_quirks(printed):
            self.parsed.anomaly(position, "number-quirk", f"{printed!r}: {quirk}", f"read as {number}")
        number = self._reparent(number, position)
        number = self._deduplicate(number, position)
        self._check_sequence(number, position)
        self._record(number, position)
        written = fold_width(printed).replace(" ", "")
        return number, (printed if written != str(number) or printed != written else None)

    def _reparent(self, number: RuleNumber, position: int) -> RuleNumber:
        if number.depth == 1 and self.section is not None and number.section != self.section:
            fixed = RuleNumber(self.section, number.rule)
            where = f"section {self.section:03d}"
        elif number.depth == 2 and self.rule is not None and number.parent != self.rule:
            parent = self.rule
            later_rule = number.section == parent.section and (number.rule or 0) > (parent.rule or 0)
            one_part = (number.section == parent.section) != (number.rule == parent.rule)
            if later_rule or not one_part:
                self.parsed.anomaly(position, "out-of-sequence", f"{number} follows {parent}", "kept its number")
                return number
            fixed = RuleNumber(parent.section, parent.rule, number.letter)
            where = str(parent)
        else:
            return number
        self.parsed.anomaly(
            position,
            "number-out-of-parent",
            f"{number} sits under {where}",
            f"filed as {fixed} (typo for it; printed form kept in written_as)",
        )
        return fixed

    def _deduplicate(self, number: RuleNumber, position: int) -> RuleNumber:
        if number not in self.seen:
            return number
        previous = self.last_child.get(number.parent)
        candidate = successor(previous) if previous is not None else None
        if candidate is not None and candidate > number and candidate not in self.seen:
            decision = f"filed as {candidate}, the number after its predecessor {previous}"
            self.parsed.anomaly(position, "duplicate", f"{number} appears twice", decision)
            return candidate
        self.parsed.anomaly(position, "duplicate", f"{number} appears twice", "kept both under the same number")
        return number

    def _check_sequence(self, number: RuleNumber, position: int) -> None:
        previous = self.last_child.get(number.parent)
        expected = _first_child(number.parent) if previous is None else successor(previous)
        if expected is None or number == expected or number in self.seen:
            return
        if previous is not None and number < previous:
            self.parsed.anomaly(position, "out-of-order", f"{number} follows {previous}", "kept in text order")
        else:
            self.parsed.anomaly(position, "gap", f"{number} where {expected} was expected", "kept; none invented")

    def _record(self, number: RuleNumber, position: int) -> None:
        self.seen.setdefault(number, position)
        self.last_child[number.parent] = number
        if number.depth == 0:
            self.section, self.rule = number.section, None
        elif number.depth == 1:
            self.section, self.rule = number.section, number


def _first_child(parent: RuleNumber | None) -> RuleNumber | None:
    if parent is None:
        return None
    if parent.rule is None:
        return RuleNumber(parent.section, 1)
    return RuleNumber(parent.section, parent.rule, "a")


def normalised_content(text: str) -> str:
    """Text compared for repeated content: width folded, `.`/`,` as `。`/`、`, no spaces."""
    folded = unicodedata.normalize("NFKC", text).translate(_NORMALISE_PUNCT)
    return re.sub(r"\s+", "", folded)


def report_repeated_content(parsed: ParsedDocument, rules: list[RuleText]) -> None:
    """Report rules of one block whose texts are the same apart from punctuation; keep both."""
    first_with: dict[str, RuleText] = {}
    for rule in rules:
        key = normalised_content(rule.text)
        if len(key) < 8:
            continue
        earlier = first_with.setdefault(key, rule)
        if earlier is not rule:
            parsed.anomaly(
                rule.spans[0][0],
                "duplicate-content",
                f"{rule.number} repeats the content of {earlier.number} (punctuation aside)",
                "kept both",
            )


def report_punctuation(parsed: ParsedDocument, rule: RuleText) -> None:
    """Report half-width `.`/`,` in Japanese rule text; the text stays as published."""
    if rule.lang != "ja":
        return
    hits = list(_HALF_WIDTH_PUNCT.finditer(rule.text))
    if not hits:
        return
    start = rule.spans[0][0]
    if hits[-1].end() == len(rule.text.rstrip()) and rule.text.rstrip().endswith("."):
        parsed.anomaly(start, "half-width-period", f"{rule.number} ends with a half-width '.'", "kept as published")
        hits = hits[:-1]
    if hits:
        parsed.anomaly(
            start,
            "half-width-punctuation",
            f"{rule.number} uses {len(hits)} half-width '.'/',' inside Japanese text",
            "kept as published",
        )


def report_missing_periods(parsed: ParsedDocument) -> None:
    """Report numbered rules (not section titles) whose text does not end a sentence."""
    for rule in parsed.rules:
        if rule.number.depth > 0 and not rule.truncated and not is_complete(rule.text):
            parsed.anomaly(
                rule.spans[0][0], "missing-period", f"{rule.number} has no closing period", "kept as published"
            )
