"""Fuzzing ``link`` (Markdown, HTML and text notes) with hypothesis: notes built from references in
every form, code fences and spans (closed or not), raw HTML (``<a>``, ``<textarea>``, comments),
URLs, Japanese and control characters. Each note must be linked, or refused with a typed error,
within a deadline; in Markdown and HTML nothing but link syntax is inserted, byte for byte, and
every problem's offset lies in the note."""

from __future__ import annotations

import os
import re
from datetime import timedelta

import pytest
from conftest import FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from notes_cases import BASE_URL

from rules_kb.assemble.knowledge import build_knowledge
from rules_kb.errors import RulesKbError
from rules_kb.notes.index import NoteIndex, note_index
from rules_kb.notes.link import link_note
from rules_kb.notes.resolve import LinkOptions

EXAMPLES = int(os.environ.get("RULES_KB_FUZZ_EXAMPLES", "0")) or 300
# The deadline catches a hang, not slowness (5 s failed on a loaded machine).
FUZZ = settings(max_examples=EXAMPLES, deadline=timedelta(seconds=60),
                derandomize="RULES_KB_FUZZ_EXAMPLES" not in os.environ, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])

PIECES = [
    "CR 100.1a", "rule 100.2", "rules 100.1a–b", "100.1", "１００．１ａ", "総合ルール 100.2", "(参考:100.1a)",
    "DM 100.1", "100.9", "5072a", "100.1a (2099-01-01)", "```", "```CR 100.1a``", "~~~", "`", "``", "    ",
    "<textarea>", "</textarea>", "<a href=\"x\">", "</a>", "<code>", "</code>", "<!--", "-->", "<b title=\"",
    "\">", "[x](", ")", "[", "]", "https://example.org/100.1a", "www.example.org", "[1]: https://x/",
    "\n", "\n\n", "\t", " ", "。", "、", "ルール", "\x1b[2J", "\x07", "\u202e", "\u2028", "\ufffc", "&amp;", "&#49;",
]
_INSERTED = {
    "md": re.compile(r"\[([^\[\]]*)\]\(https://rules\.example/[^)\s]*\)"),
    "html": re.compile(r'<a href="https://rules\.example/[^"]*">([^<]*)</a>'),
}


def strip_links(text: str, fmt: str) -> str:
    """The note without the link syntax pointing at the base URL (the innermost brackets only)."""
    return _INSERTED[fmt].sub(r"\1", text)


NOTES = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=8)), max_size=40).map("".join)


@pytest.fixture(scope="module")
def index() -> NoteIndex:
    """The hostile fixture's rules (100.1, 100.1a, 100.2): small, so each example is quick."""
    return NoteIndex(note_index(build_knowledge(FIXTURES / "hostile")))


@FUZZ
@given(note=NOTES, fmt=st.sampled_from(["md", "html", "text"]), game=st.sampled_from([None, "mtg", "dm"]))
def test_link_gives_a_note_or_a_typed_error(index, note, fmt, game):
    try:
        linked = link_note(note, fmt, LinkOptions(BASE_URL, game, None, None), index)
    except RulesKbError:
        return
    assert all(0 <= problem.offset <= len(note) for problem in linked.problems)
    if fmt != "text":
        assert strip_links(linked.text, fmt) == strip_links(note, fmt)
