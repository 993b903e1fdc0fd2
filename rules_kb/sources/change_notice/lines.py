"""Line shapes of the official Duel Masters change-notice pages (変更点, 裁定変更, index).

The pages are rendered HTML, one paragraph per line: rule texts are never hard-wrapped, so
every line is classified on its own. This module only *recognises* shapes; deciding what a
line means in its context (which rule an example belongs to, which version a text is) is
``change_notice``'s job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules_kb import refs
from rules_kb.errors import MalformedRuleNumber
from rules_kb.numbers import RuleNumber
from rules_kb.sources.common import NUMBER_AT_START, iso_date

# Site chrome: the header menu and the footer of every page of dm.takaratomy.co.jp.
CHROME_LINES = frozenset({"デュエル・マスターズ", "メニュー", "商品情報", "PAGE TOP"})
_COPYRIGHT = re.compile(r"^(?:TM and )?©")

# The page title of a notice states its date: 変更点(2021.09.07).
NOTICE_TITLE = re.compile(r"変更点[(（](\d{4})[.．](\d{1,2})[.．](\d{1,2})[)）]")

# Before/after markers. 修正前 / ↓ / 修正後 and 変更前) / 変更後) are the two printed styles.
_BEFORE = re.compile(r"^(?:修正前|変更前)[)）]?$")
_AFTER = re.compile(r"^(?:修正後|変更後)[)）]?$")
_ARROW = "↓"

# 例: / 例： at the start of a line (possibly indented), sometimes printed twice (例:例:).
EXAMPLE_LABEL = re.compile(r"^\s*例[:：]\s*")

# Change descriptions are written in the past tense; rule texts never are (Ver.1.48 has no
# ました。 at all), so a numbered line saying ました is commentary about that rule.
_PAST_TENSE = "ました"

# The index page: links to PDFs and news items, with dates under them.
_NAV_ITEM = re.compile(r"^-(?:\s.*)?$")
_PDF_LINK = re.compile(r"[(（]PDF形式[)）]$")
_UPDATED = re.compile(r"^[(（]最終更新日(\d{4})/(\d{1,2})/(\d{1,2})[)）]$")
_RULEBOOK_VERSION = re.compile(r"総合ゲームルール\s*Ver\.?\s*(\d+(?:\.\d+)+)")

# The 裁定変更 page: numbered steps (1.…), Q&A, numbered worked examples (例1).
_STEP = re.compile(r"^\d{1,2}[.．](?!\d)")
_QA = re.compile(r"^[QA][:：]")
_WORKED_EXAMPLE = re.compile(r"^例\d+$")

SENTENCE_END = "。）)」』》"


@dataclass(frozen=True)
class NumberedLine:
    """A line that starts with a rule number: the number as printed and what follows it."""

    number: RuleNumber
    written: str  # the number exactly as printed, trailing period included
    rest: str  # the text after the number, stripped
    rest_offset: int  # offset of ``rest`` within the stripped line
    spaced: bool  # whether whitespace separates the number from its text


def is_chrome(stripped: str) -> bool:
    return stripped in CHROME_LINES or bool(_COPYRIGHT.match(stripped))


def marker_phase(stripped: str) -> str | None:
    """``before``/``after`` for a before/after marker, ``arrow`` for ↓, else None."""
    if _BEFORE.match(stripped):
        return "before"
    if _AFTER.match(stripped):
        return "after"
    if stripped == _ARROW:
        return "arrow"
    return None


def notice_date(stripped: str) -> str | None:
    """The ISO date of a 変更点(YYYY.MM.DD) title, or None."""
    match = NOTICE_TITLE.search(stripped)
    return None if match is None else iso_date(match.groups())


def read_numbered(stripped: str) -> NumberedLine | None:
    """Split a line into its leading rule number and the rest, or None.

    Only three-digit sections count (``6.2`` of the event rules and the steps ``1.`` of a
    ruling are not comprehensive-rule numbers), and a number glued to more digits
    (``2016``) is not one either.
    """
    match = NUMBER_AT_START.match(stripped)
    if match is None:
        return None
    end = match.end()
    if end < len(stripped) and stripped[end].isdigit():
        return None
    written = match["number"]
    try:
        number = RuleNumber.parse(written)
    except MalformedRuleNumber:
        return None
    tail = stripped[end:]
    rest = tail.lstrip()
    return NumberedLine(number, written, rest, end + len(tail) - len(rest), rest != tail or not rest)


def is_change_description(rest: str) -> bool:
    """Whether a numbered line describes a change (past tense, or an → explanation)."""
    return _PAST_TENSE in rest or rest.startswith("→")


def cited_numbers(text: str, leading: RuleNumber | None, game: str) -> tuple[str, ...]:
    """Canonical rule numbers a prose line cites (the one reference grammar), the leading one
    first: a line led by a bare section (``509. …``) is about that section though no
    reference expression names it."""
    found = (str(leading),) if leading is not None else ()
    return tuple(dict.fromkeys(found + refs.cited_numbers(text, game=game)))


def prose_kind(stripped: str) -> str:
    """Residue kind of an unnumbered line that is not chrome, marker or example."""
    if _NAV_ITEM.match(stripped) or _PDF_LINK.search(stripped) or _UPDATED.match(stripped):
        return "navigation"
    if _QA.match(stripped):
        return "faq"
    if _STEP.match(stripped) or stripped.startswith(("(例", "（例")):
        return "ruling"
    return "commentary"


def is_minor_heading(stripped: str) -> bool:
    """Short headings inside a page: 注意, 例1, ●殿堂入りカード."""
    return stripped == "注意" or bool(_WORKED_EXAMPLE.match(stripped)) or stripped.startswith("●")


def rulebook_version(stripped: str) -> str | None:
    """``1.45`` from an index link ``デュエル・マスターズ総合ゲームルール Ver.1.45 (PDF形式)``."""
    match = _RULEBOOK_VERSION.search(stripped)
    return match[1] if match else None


def updated_date(stripped: str) -> str | None:
    """ISO date of an index line ``(最終更新日2025/04/18)``."""
    match = _UPDATED.match(stripped)
    return None if match is None else iso_date(match.groups())


def ends_sentence(stripped: str) -> bool:
    return stripped.endswith(tuple(SENTENCE_END))
