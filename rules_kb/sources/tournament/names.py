"""Infraction titles and penalties as printed: split and normalised for the parsers.

How a citation names an infraction (``name_key``, ``find_infraction``, the dashes in ``SEPARATORS``)
belongs to the reference grammar (``rules_kb.refs``), which lookups use without loading a parser;
they are named here too for the parsers' convenience.
"""

from __future__ import annotations

import re

from rules_kb.refs import SEPARATORS, find_infraction, name_key

__all__ = ["SEPARATORS", "find_infraction", "name_key", "normalise_penalty", "split_title"]

_SEPARATOR = re.compile(f"\\s*[{SEPARATORS}]\\s*")
_SPACE = re.compile(r"\s+")

# Printed penalty -> the normalised name (``Section.penalty``). Duel Masters prints 【警告】* where a
# penalty has an exception (誘発忘れ: the asterisk), the normalised name drops the mark.
PENALTIES_EN = {name.casefold(): name for name in
                ("No Penalty", "Caution", "Warning", "Game Loss", "Match Loss", "Disqualification")}
PENALTIES_JA = {name: name for name in ("注意", "警告", "ゲームの敗北", "マッチの敗北", "失格")}
_JA_PENALTY = re.compile(r"【(?P<name>[^【】]+)】\s*\*?")


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
