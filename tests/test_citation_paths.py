"""Every parser that records citations finds them with the one reference grammar.

Each reference case of ``tests/fixtures/refs.txt`` (one line of text) is placed in a minimal
document of each format, at a spot the parser files as prose, and the ``cites`` of the
residue holding it must be exactly the numbers the fixture expects, in order, without
repeats. Before issue 9 the rulings parser found only 601.2b in "rules 601.2b and 601.2f–h".
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from test_refs import CASES, Case

from rules_kb.model import DocumentMeta, Residue
from rules_kb.sources.registry import FORMATS

# A neutral lead-in of plain words keeps every line prose: a line starting with a number
# would be read as a rule, a short Japanese line is not prose to the English wiki parser.
LEAD = "A note on this: "

# format -> (game when the case has none, language, document holding the one line)
DOCUMENTS: dict[str, tuple[str, str, Callable[[str], str]]] = {
    "mtg-rulings": (
        "mtg", "en",
        lambda line: f"This search based on the March 17, 2008 release of the Rulings.\n- Note - {line}\n",
    ),
    "dm-change-notice": ("dm", "ja", lambda line: f"変更点(2021.09.07)\n{line}\n"),
    "pukiwiki": ("dm", "ja", lambda line: f'#author("2020-01-01T00:00:00+09:00","","")\n{line}\n'),
    "fandom-text": (
        "dm", "en",
        lambda line: "Duel Masters Wiki\n"
        "From the Duel Masters - General Game Rules: Version 1.0 (May 1, 2020)\n"
        f"Some prose comes first.\n{line}\n",
    ),
}

ONE_LINE = [case for case in CASES if "\n" not in case.text]


def expected_cites(case: Case) -> tuple[str, ...]:
    return tuple(dict.fromkeys(number for _, _, numbers in case.expected for number in numbers))


def residue_of_line(format_name: str, line: str, game: str | None) -> list[Residue]:
    """Parse the document built around ``line``; the residue whose spans overlap it."""
    default_game, lang, wrap = DOCUMENTS[format_name]
    meta = DocumentMeta("case", "case.txt", "0" * 64, game or default_game, (lang,), format_name, "rules")
    text = wrap(line)
    start = text.rindex(line)
    parsed = FORMATS[format_name].parse(text, meta)
    end = start + len(line)
    return [item for item in parsed.residue if any(a < end and b > start for a, b in item.spans)]


@pytest.mark.parametrize("format_name", sorted(DOCUMENTS))
@pytest.mark.parametrize("case", ONE_LINE, ids=[f"L{case.line}" for case in ONE_LINE])
def test_parser_cites_what_the_grammar_finds(format_name: str, case: Case) -> None:
    line = LEAD + case.text
    holding = residue_of_line(format_name, line, case.game)
    assert "commentary" in [item.kind for item in holding]
    cites = tuple(dict.fromkeys(number for item in holding for number in item.cites))
    assert cites == expected_cites(case)


def test_most_cases_run_through_every_parser() -> None:
    assert len(ONE_LINE) >= 80
    assert sum(bool(case.expected) for case in ONE_LINE) >= 50


@pytest.mark.parametrize("format_name", sorted(DOCUMENTS))
def test_list_with_letter_range_is_read_whole(format_name: str) -> None:
    """The sentence of CR-2024-11-08 that the rulings parser used to cut short."""
    line = "Paying these costs follows the rules for paying additional costs in rules 601.2b and 601.2f–h."
    (holding,) = residue_of_line(format_name, line, "mtg")
    assert holding.cites == ("601.2b", "601.2f", "601.2g", "601.2h")
