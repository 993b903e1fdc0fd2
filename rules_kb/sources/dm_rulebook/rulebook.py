"""The official Duel Masters 総合ゲームルール, as text extracted from its PDF.

Layout of the text: a title block (``デュエル・マスターズ総合ゲームルール Ver.1.48``,
``最終更新日 2025 年12 月17 日``), the contents (``もくじ``), then the body: chapters
(``1. ゲームの基本``), sections (``507. ブロッククリーチャー指定ステップ``), rules
(``507.1.``), subrules (``507.1a``) and examples (``例：``), hard-wrapped at the PDF's
line width. The work is split by concern:

* ``dm_rulebook/front.py``: title block, stated version, where the contents end;
* ``dm_rulebook/numbers.py``: which line-initial numbers start rules (the sequence decides);
* ``dm_rulebook/body.py``: chapters, rules, examples and the anomalies of their numbers;
* ``dm_rulebook/text.py``: rejoining wrapped lines.

A text with no rules but a contents list (the first page of an old PDF on a mirror
site) is read as contents, title lines and page chrome.
"""

from __future__ import annotations

import re

from rules_kb.errors import ParseError
from rules_kb.model import DocumentMeta, ParsedDocument
from rules_kb.sources.common import iter_lines, report_overlong_rules
from rules_kb.sources.dm_rulebook.body import BodyReader
from rules_kb.sources.dm_rulebook.front import (
    CONTENTS_LABELS,
    file_contents_only,
    file_front,
    locate_contents,
    stated_version,
)
from rules_kb.sources.dm_rulebook.text import WidthProfile

_RULE_LINE = re.compile(r"^[ \u3000]*[0-9０-９]{3}[.．][0-9０-９]{1,3}[a-zａ-ｚ]?[.．]?(?:[ \u3000]|$)", re.MULTILINE)
# For sniffing: a numbered rule followed by Japanese text (Magic's rules are English).
_JAPANESE_RULE_LINE = re.compile(
    r"^[ \u3000]*[0-9０-９]{3}[.．][0-9０-９]{1,3}[a-zａ-ｚ]?[.．]?[ \u3000]*[\u3040-\u30ff\u4e00-\u9fff「《（]",
    re.MULTILINE,
)
_TITLE = re.compile(r"総合ゲームルール[ \u3000]*Ver")
_DATE_LINE = re.compile(r"最終更新日[ \u3000]*\d{4}[ \u3000]*年")
_MIN_RULE_LINES = 3


def parse(text: str, meta: DocumentMeta) -> ParsedDocument:
    """Parse a whole rulebook (or a contents-only fragment of one) into records."""
    parsed = ParsedDocument(meta, text)
    lines = list(iter_lines(text))
    if len(_RULE_LINE.findall(text)) < _MIN_RULE_LINES:
        if not (_TITLE.search(text) or any(line.stripped in CONTENTS_LABELS for line in lines)):
            raise ParseError(meta.file, "neither rules nor a contents list of the 総合ゲームルール", 0)
        stated_version(parsed, text, "excerpt")
        file_contents_only(parsed, lines)
        return parsed
    layout = locate_contents(lines)
    front = "\n".join(line.text for line in lines[: layout.body_start])
    version = stated_version(parsed, front, "full")
    file_front(parsed, lines, layout)
    reader = BodyReader(parsed, WidthProfile(lines), version.label or "", version.date)
    reader.read(lines[layout.body_start:])
    report_overlong_rules(parsed)
    return parsed


def sniff(text: str) -> int:
    """Confidence (0-100) that ``text`` is the PDF-extracted 総合ゲームルール."""
    head = text[:4000]
    score = 0
    if _TITLE.search(head):
        score += 25
    if any(label in head.split() for label in CONTENTS_LABELS):
        score += 25
    if _DATE_LINE.search(head):
        score += 15
    rule_lines = len(_JAPANESE_RULE_LINE.findall(text[:200_000]))
    if rule_lines >= 20:
        score += 35
    elif rule_lines >= _MIN_RULE_LINES:
        score += 10
    return score
