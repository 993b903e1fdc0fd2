"""Duel Masters Fandom wiki pages rendered to text (format ``fandom-text``).

A page is skin chrome, a title or infobox, prose about the step, "Details"/"Rulings"
headings, then one block per language, each opened by "From the Duel Masters - General Game
Rules: Version X (Month D, YYYY)" and holding bulleted rules (`•` nested by indentation, or
flat `- ` in older renderings) with their `Example:`/`例:` lines. Each block takes its
version and date from its own opening line and its language from its own text (kana/kanji
ratio): both blocks of a page carry the same label, so nothing else tells them apart.

Decisions:

* ``Example.text`` drops the `Example:`/`例:` label; the example's span still covers it.
* A section line (`507. Block Declaration Step`) is a ``RuleText`` with ``title`` set and
  empty ``text``.
* The wiki's `:::` markup that runs several rules into one line is residue ``markup``; each
  rule or example split off such a line gets its own spans and a ``merged-line`` anomaly.
* Residue kinds: ``chrome`` (skin), ``license``, ``infobox``, ``title`` (page title lines),
  ``commentary`` (prose; rule numbers it cites in ``cites``), ``source`` (the version line;
  ``marks`` carry ``version:`` and ``date:``), ``editions`` (the list of older editions),
  ``markup``, and ``unknown`` (always with an ``unclassified-line`` anomaly).
* Versions: ``excerpt`` for a block that holds rules; ``mentioned`` for a version the page
  only names (a "Current version" line without rules, the editions list).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise

from rules_kb.errors import ParseError
from rules_kb.model import DocumentMeta, Heading, ParsedDocument, Residue, RuleText, Version
from rules_kb.refs import cited_numbers
from rules_kb.sources.common import NUMBER_AT_START, Line, iter_lines, trim_span
from rules_kb.sources.fandom.shared import (
    CHROME_LINES,
    EXAMPLE,
    LICENSE,
    NumberFiler,
    detect_language,
    example_from,
    filed_rule,
    is_complete,
    parse_date,
    report_missing_periods,
    report_punctuation,
    report_repeated_content,
)

VERSION_LINE = re.compile(
    r"From the Duel Masters\s*-\s*General Game Rules:\s*Version\s+(?P<label>\d+(?:\.\d+)+)\s*\((?P<date>[^)]*)\)"
)
_BULLET = re.compile(r"[ \t]*(?P<bullet>[•\-*])[ \t]+")
_MERGE_MARK = ":::"
_EDITIONS_HEADER = re.compile(r"File:\s*Version:\s*Last Updated:")
_EDITION_LINE = re.compile(r"\[\s*(?P<label>\d+(?:\.\d+)+)(?![\d.])(?P<rest>.*)")
_SECTION_HEADINGS = frozenset(
    {
        "Details",
        "Rulings",
        "Other Details",
        "Current version",
        "Latest Edition",
        "Older Editions",
        "Trivia",
        "Gallery",
        "References",
        "See also",
        "Notes",
    }
)
_WORD = re.compile(r"[A-Za-z\u3040-\u30ff\u3400-\u9fff]{2,}")


def sniff(text: str) -> int:
    """Confidence that ``text`` is a rendered Fandom page: version line, bullets, wiki skin."""
    if "Rules.text = [[" in text or "local Rules = {}" in text:
        return 5  # the Lua module page: format ``fandom-module``
    score = 0
    if VERSION_LINE.search(text):
        score += 60
    if re.search(r"^[ \t]*[•-][ \t]+\d{3}\.", text, re.MULTILINE):
        score += 20
    if re.search(r"^(Duel Masters Wiki|FANDOM)$|Community content is available under CC-BY-SA", text, re.MULTILINE):
        score += 20
    return min(score, 100)


def parse(text: str, meta: DocumentMeta) -> ParsedDocument:
    """Parse one rendered Fandom page into rules, examples, headings, residue and anomalies."""
    if sniff(text) < 40:
        problem = "not a Duel Masters Fandom wiki page (no version line, rule bullet or wiki skin)"
        raise ParseError(meta.file, problem, 0)
    parsed = ParsedDocument(meta, text)
    _PageParser(parsed, list(iter_lines(text))).run()
    return parsed


@dataclass
class _Block:
    """The rules under one "From the … Version X" line: one language, one version."""

    label: str
    date: str | None
    lang: str
    filer: NumberFiler
    rules: list[RuleText] = field(default_factory=list)


@dataclass
class _PageParser:
    parsed: ParsedDocument
    lines: list[Line]
    block: _Block | None = None
    seen_prose: bool = False
    named_versions: list[tuple[str, str | None, int]] = field(default_factory=list)
    version_slot: int = 0  # where the open block's Version goes, to keep document order

    def run(self) -> None:
        for index, line in enumerate(self.lines):
            stripped = line.stripped
            if not stripped:
                continue
            version = VERSION_LINE.fullmatch(stripped)
            if version is not None:
                self._open_block(index, version)
            elif (number_at := _rule_number_offset(line.text)) is not None:
                self._add_rule_line(index, line, number_at)
            elif EXAMPLE.match(stripped):
                self._add_example_line(line)
            else:
                self._classify(index, line)
        self._close_block()
        _mark_truncation(self.parsed)
        report_missing_periods(self.parsed)
        _report_date_order(self.parsed, self.named_versions)

    # -- blocks --------------------------------------------------------------------------

    def _open_block(self, index: int, match: re.Match[str]) -> None:
        self._close_block()
        line = self.lines[index]
        label, date = match["label"], parse_date(match["date"])
        if date is None:
            self.parsed.anomaly(line.start, "unreadable-date", f"date {match['date']!r}", "version kept without a date")
        marks = (f"version:{label}",) + ((f"date:{date}",) if date else ())
        self.parsed.residue.append(Residue(line.stripped, [line.span()], "source", marks=marks))
        self.named_versions.append((label, date, line.start))
        self.block = self._new_block(index + 1, label, date)
        self.version_slot = len(self.parsed.versions)

    def _new_block(self, first: int, label: str, date: str | None) -> _Block:
        meta = self.parsed.meta
        default = meta.languages[0] if meta.languages else "en"
        lang = detect_language(self._rule_texts_from(first), default)
        if meta.languages and lang not in meta.languages:
            where = self.lines[first - 1].start if first else 0
            self.parsed.anomaly(where, "language-mismatch", f"block reads as {lang!r}", "kept as detected")
        return _Block(label, date, lang, NumberFiler(self.parsed))

    def _rule_texts_from(self, first: int) -> list[str]:
        """Texts of the rule lines from ``first`` up to the next version line."""
        texts = []
        for line in self.lines[first:]:
            if VERSION_LINE.fullmatch(line.stripped):
                break
            if _rule_number_offset(line.text) is not None:
                texts.append(line.text)
        return texts

    def _close_block(self) -> None:
        block, meta = self.block, self.parsed.meta
        if block is None:
            return
        kind = "excerpt" if block.rules else "mentioned"
        version = Version(meta.game, block.lang, block.label, block.date, kind)
        self.parsed.versions.insert(self.version_slot, version)
        report_repeated_content(self.parsed, block.rules)
        for rule in block.rules:
            report_punctuation(self.parsed, rule)
        self.block = None

    def _current_block(self, index: int) -> _Block:
        if self.block is None:
            meta = self.parsed.meta
            label = meta.versions[0] if meta.versions else "unknown"
            date = meta.dates[0] if meta.dates else None
            self.parsed.anomaly(
                self.lines[index].start,
                "no-version-line",
                "rules before any version line",
                f"filed under the manifest's version {label!r}",
            )
            self.block = self._new_block(index, label, date)
            self.version_slot = len(self.parsed.versions)
        return self.block

    # -- rules and examples ----------------------------------------------------------------

    def _add_rule_line(self, index: int, line: Line, number_at: int) -> None:
        """One bulleted rule line; `:::` splits it into several rules and examples."""
        block = self._current_block(index)
        text = self.parsed.text
        start = line.start + len(line.text) - len(line.text.lstrip())
        marks = [line.start + m.start() for m in re.finditer(re.escape(_MERGE_MARK), line.text)]
        ends = [*marks, line.end]
        rule = self._make_rule(block, start, line.start + number_at, ends[0])
        host = f"{rule.number}'s line" if rule is not None else "a rule line"
        for mark, end in zip(marks, ends[1:], strict=True):
            self.parsed.residue.append(Residue(_MERGE_MARK, [(mark, mark + len(_MERGE_MARK))], "markup"))
            piece = mark + len(_MERGE_MARK)
            example = example_from(text, *trim_span(text, piece, end))
            if example is not None and rule is not None:
                rule.examples.append(example)
                what, decision = "an example", f"split off as an example of {rule.number}"
            elif NUMBER_AT_START.match(text, piece, end) and rule is not None:
                rule = self._make_rule(block, piece, piece, end) or rule
                what, decision = f"rule {rule.number}", f"split off as {rule.number} with its own span"
            else:
                self.parsed.residue.append(Residue(text[piece:end].strip(), [trim_span(text, piece, end)], "unknown"))
                what, decision = "unrecognised text", "kept as residue 'unknown'"
            self.parsed.anomaly(mark, "merged-line", f"{what} run into {host} by ':::'", decision)

    def _make_rule(self, block: _Block, start: int, number_at: int, end: int) -> RuleText | None:
        text, meta = self.parsed.text, self.parsed.meta
        match = NUMBER_AT_START.match(text, number_at, end)
        span = trim_span(text, start, end)
        filed = block.filer.file(match["number"], number_at) if match else None
        if match is None or filed is None:
            self.parsed.residue.append(Residue(text[span[0] : span[1]], [span], "unknown"))
            return None
        rule = filed_rule(meta, block.lang, block.label, block.date, filed, text[match.end() : end].strip(), span)
        block.rules.append(rule)
        self.parsed.rules.append(rule)
        return rule

    def _add_example_line(self, line: Line) -> None:
        example = example_from(self.parsed.text, *line.span())
        if self.block is not None and self.block.rules and example is not None:
            self.block.rules[-1].examples.append(example)
            return
        self.parsed.residue.append(Residue(line.stripped, [line.span()], "commentary"))
        self.parsed.anomaly(line.start, "orphan-example", "example with no rule before it", "kept as commentary")

    # -- everything that is not rules ------------------------------------------------------

    def _classify(self, index: int, line: Line) -> None:
        stripped, span = line.stripped, line.span()
        kind = _fixed_kind(stripped)
        if kind is None and (edition := _EDITION_LINE.match(stripped)) is not None:
            kind = "editions"
            self._name_edition(edition, line.start)
        if kind is None and self._is_heading(index, stripped):
            self.parsed.headings.append(Heading(stripped.removesuffix("[]").strip(), [span], level=2))
            return
        if kind is None and not self.seen_prose and _is_title(stripped):
            kind = "title"
        if kind is None and _is_prose(stripped):
            kind, self.seen_prose = "commentary", True
        if kind is None:
            kind = "unknown"
            self.parsed.anomaly(line.start, "unclassified-line", repr(stripped[:60]), "kept as residue 'unknown'")
        cites = cited_numbers(stripped, game=self.parsed.meta.game) if kind == "commentary" else ()
        self.parsed.residue.append(Residue(stripped, [span], kind, cites=cites))

    def _name_edition(self, edition: re.Match[str], position: int) -> None:
        label, date, meta = edition["label"], parse_date(edition["rest"]), self.parsed.meta
        lang = meta.languages[0] if meta.languages else "en"
        self.parsed.versions.append(Version(meta.game, lang, label, date, "mentioned"))
        self.named_versions.append((label, date, position))

    def _is_heading(self, index: int, stripped: str) -> bool:
        """A wiki section header: `Details[]`, a known section name, or a short isolated line."""
        if stripped.endswith("[]") or stripped in _SECTION_HEADINGS:
            return True
        if not self.seen_prose or is_complete(stripped) or len(stripped.split()) > 5:
            return False
        return self._blank(index - 1) and self._blank(index + 1)

    def _blank(self, index: int) -> bool:
        return not 0 <= index < len(self.lines) or not self.lines[index].stripped


def _rule_number_offset(line: str) -> int | None:
    """Offset of the rule number in a bulleted rule line, or None for any other line."""
    bullet = _BULLET.match(line)
    if bullet is None:
        return None
    number = NUMBER_AT_START.match(line, bullet.end())
    if number is None or line[number.end() : number.end() + 1].isdigit():
        return None
    return bullet.end()


def _fixed_kind(stripped: str) -> str | None:
    """Residue kinds recognised from the line alone."""
    if stripped in CHROME_LINES:
        return "chrome"
    if LICENSE.fullmatch(stripped):
        return "license"
    if "|" in stripped:
        return "infobox"
    if _EDITIONS_HEADER.fullmatch(stripped):
        return "editions"
    return None


def _is_title(stripped: str) -> bool:
    """A page title line before the prose: "Attack Step", "(Atakku Suteppu)"."""
    return not stripped.endswith((".", "。", "!", "?")) and len(stripped.split()) <= 6


def _is_prose(stripped: str) -> bool:
    return len(_WORD.findall(stripped)) >= 3 or (is_complete(stripped) and bool(_WORD.search(stripped)))


def _mark_truncation(parsed: ParsedDocument) -> None:
    """An excerpt cut mid-sentence: flag the rule (or passage) holding the last character."""
    end = len(parsed.text.rstrip())
    for rule in parsed.rules[-1:]:
        pieces = [(rule.spans[-1][1], rule.text or rule.title or "")]
        pieces += [(e.spans[-1][1], e.text) for e in rule.examples]
        for piece_end, piece in pieces:
            if piece_end == end and not is_complete(piece):
                rule.truncated = True
                parsed.anomaly(end, "truncated", f"{rule.number} is cut off mid-sentence", "kept, marked truncated")
                return
    for residue in parsed.residue:
        cut = residue.spans[-1][1] == end and not is_complete(residue.text)
        if cut and residue.kind in ("commentary", "editions", "unknown"):
            parsed.anomaly(end, "truncated", f"text cut off: {residue.text[-30:]!r}", "kept as residue")


def _report_date_order(parsed: ParsedDocument, named: list[tuple[str, str | None, int]]) -> None:
    """A later version label dated before an earlier one (the page contradicts itself)."""
    dated = sorted({(tuple(int(p) for p in label.split(".")), label, date, pos) for label, date, pos in named if date})
    for (_, old_label, old_date, _), (_, new_label, new_date, pos) in pairwise(dated):
        if new_label != old_label and new_date < old_date:
            parsed.anomaly(
                pos,
                "date-order",
                f"version {new_label} dated {new_date}, before {old_label} ({old_date})",
                "dates kept as published",
            )
