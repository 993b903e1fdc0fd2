"""``rules-kb link``: every fixture note comes back as its expected file, and linking is idempotent."""

from __future__ import annotations

import re

import pytest
from notes_cases import BASE_URL, REGENERATE, NoteCase, read_cases, write_problems

from rules_kb.notes.index import NoteIndex, note_index
from rules_kb.notes.link import line_and_column, link_note
from rules_kb.notes.resolve import LinkOptions

CASES = read_cases()


@pytest.fixture(scope="session")
def index(knowledge) -> NoteIndex:
    return NoteIndex(note_index(knowledge))


def options_of(case: NoteCase) -> LinkOptions:
    return LinkOptions(BASE_URL, case.game, case.pin, case.as_of)


def problem_lines(case: NoteCase, text: str, index: NoteIndex) -> tuple[str, list[str]]:
    linked = link_note(text, case.fmt, options_of(case), index)
    rows = []
    for problem in linked.problems:
        line, column = line_and_column(text, problem.offset)
        rows.append(f"{line}:{column}: {problem.raw}: {problem.message}")
    return linked.text, rows


def test_fixture_is_large_and_varied() -> None:
    assert len(CASES) >= 40
    assert {case.fmt for case in CASES} == {"md", "html", "text"}
    assert sum(case.name.startswith("ja-") or "ja" in case.name.split("-") for case in CASES) >= 6
    assert {case.as_of for case in CASES} >= {"2021-09-05", "2021-09-07"}


if REGENERATE:
    def test_regenerate(index) -> None:
        problems = {}
        for case in CASES:
            out, rows = problem_lines(case, case.text(), index)
            case.expected_path.write_bytes(out.encode("utf-8"))
            problems[case.name] = rows
        write_problems(problems)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_note_is_linked_as_expected(case: NoteCase, index: NoteIndex) -> None:
    out, rows = problem_lines(case, case.text(), index)
    assert out == case.expected()
    assert rows == case.problems


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_linking_twice_changes_nothing(case: NoteCase, index: NoteIndex) -> None:
    once = case.expected()
    twice, rows = problem_lines(case, once, index)
    assert twice == once
    assert len(rows) == len(case.problems)  # what could not be linked is still reported


def strip_links(text: str, fmt: str) -> str:
    """Remove link syntax pointing at the fixture's base URL (inserted now or by an earlier run)."""
    if fmt == "md":
        return re.sub(r"\[([^\]]*)\]\(https://rules\.example/[^)]*\)", r"\1", text)
    if fmt == "html":
        return re.sub(r'<a href="https://rules\.example/[^"]*">([^<]*)</a>', r"\1", text)
    text = re.sub(r"\n(?:\[[0-9]+\]: https://rules\.example/\S*\n)+$", "", text)
    return re.sub(r"\[[0-9]+\]", "", text)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_only_links_are_inserted(case: NoteCase) -> None:
    """Without link syntax, output and input are the same, byte for byte."""
    given = case.text()
    if case.fmt == "text" and not given.endswith("\n") and case.expected() != given:
        given += "\n"  # the footnote list starts on a line of its own
    assert strip_links(case.expected(), case.fmt) == strip_links(given, case.fmt)
    if case.fmt != "text":
        assert len(case.expected()) > len(case.text()) or case.expected() == case.text()


_LINK = re.compile(r"https://rules\.example(/[^\s)\"]*)")
_RULE_PAGE = re.compile(r"/(?P<game>dm|mtg)/rule/(?P<rule>[0-9.a-z]+)/")
_PINNED = re.compile(
    r"/(?P<game>dm|mtg)/(?P<lang>ja|en)/(?P<version>[^/]+)/(?P<chapter>[0-9])/#(?P<rule>[0-9.a-z]+)"
)


_SECTION_PAGE = re.compile(r"/(?P<game>dm|mtg)/(?P<document>mtr|ipg|competition)/(?P<section>[0-9.]+)/")
_PINNED_SECTION = re.compile(
    r"/(?P<game>dm|mtg)/(?P<document>mtr|ipg|competition)/(?P<version>[0-9-]{10})/#(?P<section>[0-9.]+)")


def _holds_section(index: NoteIndex, match: re.Match) -> bool:
    """Whether the note index's document holds the section (in the version, when the link pins one)."""
    for doc in index.data["sections"]:
        if (doc["game"], doc["document"]) == (match["game"], match["document"]):
            versions = [v for v in doc["versions"] if v["label"] == match.groupdict().get("version", v["label"])]
            return any(match["section"] in v["numbers"] for v in versions)
    return False


def test_every_link_points_at_a_rule_the_corpus_holds(index: NoteIndex) -> None:
    """Each URL in the expected outputs names a number of its game; a pinned one, a version holding it;
    a tournament section, a section its document (and version) holds."""
    checked = 0
    for case in CASES:
        for path in _LINK.findall(case.expected()):
            section = _SECTION_PAGE.fullmatch(path) or _PINNED_SECTION.fullmatch(path)
            if section is not None:
                assert _holds_section(index, section), path
            elif (page := _RULE_PAGE.fullmatch(path)) is not None:
                assert page["rule"] in index.numbers[page["game"]], path
            else:
                pinned = _PINNED.fullmatch(path)
                assert pinned is not None, path
                assert pinned["rule"].startswith(pinned["chapter"]), path
                holders = [v for v in index.versions if (v.game, v.lang, v.label) ==
                           (pinned["game"], pinned["lang"], pinned["version"])]
                assert holders and pinned["rule"] in holders[0].numbers, path
            checked += 1
    assert checked >= 90
