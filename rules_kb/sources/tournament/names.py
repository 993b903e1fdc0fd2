"""Infraction names and penalties as printed, folded so that different printings match.

The Duel Masters document separates category and name with ``─`` (U+2500) or ``―`` (U+2015),
with or without spaces (``ゲーム上の誤り ─過剰なシールドを置いた``), Magic's with an em dash;
citations in running text use whichever the writer typed. ``name_key`` folds all of that, so a
citation, a heading and a contents entry of one infraction compare equal.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from rules_kb.model import Section

# Every dash a publisher prints between an infraction's category and its name.
SEPARATORS = "─―—–‒━"
_SEPARATOR = re.compile(f"\\s*[{SEPARATORS}]\\s*")
_SPACE = re.compile(r"\s+")

# Printed penalty -> the normalised name (``Section.penalty``). Duel Masters prints 【警告】* where a
# penalty has an exception (誘発忘れ: the asterisk), the normalised name drops the mark.
PENALTIES_EN = {name.casefold(): name for name in
                ("No Penalty", "Caution", "Warning", "Game Loss", "Match Loss", "Disqualification")}
PENALTIES_JA = {name: name for name in ("注意", "警告", "ゲームの敗北", "マッチの敗北", "失格")}
_JA_PENALTY = re.compile(r"【(?P<name>[^【】]+)】\s*\*?")


def name_key(text: str) -> str:
    """A folded form of an infraction's (or section's) name: width, case, spaces and separators."""
    folded = unicodedata.normalize("NFKC", text).strip().strip("〔〕[]")
    folded = _SEPARATOR.sub("—", folded)
    return _SPACE.sub("", folded).casefold()


def split_title(title: str) -> tuple[str | None, str | None]:
    """``(category, name)`` of an infraction title ``Category — Name``; ``(None, None)`` otherwise."""
    pieces = _SEPARATOR.split(title.strip(), maxsplit=1)
    if len(pieces) != 2 or not pieces[0] or not pieces[1]:
        return None, None
    return pieces[0].strip(), pieces[1].strip()


def normalise_penalty(printed: str) -> str | None:
    """``Warning`` for ``Warning``, ``警告`` for ``【警告】*``; ``None`` when not a known penalty."""
    text = printed.strip()
    match = _JA_PENALTY.fullmatch(text)
    if match:
        return PENALTIES_JA.get(match["name"].strip())
    return PENALTIES_EN.get(_SPACE.sub(" ", text).casefold())


def find_infraction(sections: Iterable[Section], key: str) -> Section | None:
    """The section an infraction citation names: an infraction by whole title or by name alone,
    else the section of a category (``〔ゲーム上の誤り〕`` is DM 10., not a passing mention), else
    any section of that title.

    ``key`` is a ``name_key``; ``〔過剰なカードを引いた〕`` names 10.3 by its name alone.
    """
    sections = list(sections)
    infractions = [s for s in sections if s.category is not None and s.name is not None]
    found = next((s for s in infractions if name_key(s.title) == key), None) \
        or next((s for s in infractions if name_key(s.name or "") == key), None)
    if found is not None:
        return found
    if key in {name_key(s.category or "") for s in infractions}:
        return next((s for s in sections if "." not in s.number and name_key(s.title) == key), None)
    # the brackets name a section by its title too: 〔意思疎通〕(4)
    return next((s for s in sections if name_key(s.title) == key), None)
