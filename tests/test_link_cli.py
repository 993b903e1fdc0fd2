"""``rules-kb link`` at the command line: output, FILE:LINE:COL problems, exit status, options."""

from __future__ import annotations

import io
import sys

from notes_cases import BASE_URL, NOTES

from rules_kb.jsregex import translate_pattern


def test_links_a_file_and_reports_problems_with_positions(cli) -> None:
    note = NOTES / "en-unknown.md"
    code, out, err = cli("link", str(note), "--base-url", BASE_URL)
    assert code == 1
    assert out == (NOTES / "en-unknown.expected.md").read_text(encoding="utf-8")
    assert err.splitlines() == [
        f"{note}:1:20: DM 507.9: no rule 507.9 in Duel Masters",
        f"{note}:1:33: MTG 999.9a: no rule 999.9a in Magic",
    ]


def test_clean_note_exits_zero(cli) -> None:
    code, out, err = cli("link", str(NOTES / "html-list.html"), "--game", "mtg", "--base-url", BASE_URL)
    assert (code, err) == (0, "")
    assert out == (NOTES / "html-list.expected.html").read_text(encoding="utf-8")


def test_check_reports_without_printing_the_note(cli) -> None:
    code, out, err = cli("link", "--check", str(NOTES / "html-unknown.html"))
    assert code == 1
    assert out == ""
    assert [line.split(": ", 1)[0].rsplit(":", 2)[1:] for line in err.splitlines()] == [["2", "7"], ["3", "7"]]


def test_standard_input_and_format_option(cli, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("総合ルール 507.3c を見よ。\n".encode())))
    code, out, err = cli("link", "-", "--format", "text", "--game", "dm")
    assert (code, err) == (0, "")
    assert out == "総合ルール 507.3c[1] を見よ。\n\n[1]: /dm/rule/507.3c/\n"  # no base URL: root paths


def test_as_of_picks_the_text_in_force_around_the_2021_09_07_rewrite(cli, tmp_path) -> None:
    """Duel Masters 507.2a: the fan translation of 1.20 before the notice, the notice's text from that day."""
    note = tmp_path / "note.md"
    note.write_text("DM 507.2a\n", encoding="utf-8")
    _, before, _ = cli("link", str(note), "--as-of", "2021-09-06")
    _, after, _ = cli("link", str(note), "--as-of", "2021-09-07")
    assert before == "[DM 507.2a](/dm/en/1.20/5/#507.2a)\n"
    assert after == "[DM 507.2a](/dm/ja/2021-09-07/5/#507.2a)\n"


def test_bad_options_are_one_error_line(cli, tmp_path) -> None:
    note = tmp_path / "note.txt"
    note.write_text("DM 507.2a\n", encoding="utf-8")
    code, out, err = cli("link", str(note), "--pin", "9.99")
    assert (code, out) == (1, "")
    assert err.startswith("Error: --pin '9.99': no version with rule texts has that label (nearest: 1.48, 1.38,")
    code, out, err = cli("link", str(note), "--as-of", "2021-13-01")
    assert (code, out, err) == (1, "", "Error: --as-of '2021-13-01': expected a date YYYY-MM-DD\n")
    note.write_bytes(b"rule 509.1a \xff\n")
    code, out, err = cli("link", str(note))
    assert (code, out) == (1, "")
    assert err == f"Error: {note}:12: not UTF-8 (invalid start byte)\n"


def test_translation_to_javascript_syntax() -> None:
    assert translate_pattern(r"(?P<n>a)(?P=n)", multiline=False) == r"(?<n>a)\k<n>"
    assert translate_pattern(r"(?ai:rule[ \t])x", multiline=False) == r"(?:[Rr][Uu][Ll][Ee][ \t])x"
    assert translate_pattern(r"v$", multiline=False) == r"v(?=\n?(?![\s\S]))"
    assert translate_pattern(r"^v$", multiline=True) == r"^v$"
    for unsupported in (r"\Aa", r"a\Z", r"(?>a)", r"(?s:a)", r"(?i:[a-z])"):
        try:
            translate_pattern(unsupported, multiline=False)
        except ValueError:
            continue
        raise AssertionError(f"{unsupported!r} was translated")
    # unicode: the classes Python reads over all of Unicode, spelt so in a u-flagged JavaScript pattern
    assert translate_pattern(r"[^\W_]+(?<=\d)x", multiline=False, unicode=True) == r"[\p{L}\p{N}]+(?<=\p{Nd})x"
    for ascii_only in (r"\w+", r"a\b"):
        try:
            translate_pattern(ascii_only, multiline=False, unicode=True)
        except ValueError:
            continue
        raise AssertionError(f"{ascii_only!r} was translated")


def test_the_search_page_holds_no_copy_of_the_query_grammar() -> None:
    """search.js takes its patterns and numbers from the index's meta.json (segment.browser_grammar);
    none is written in the script a second time."""
    from conftest import ROOT

    from rules_kb.search.segment import browser_grammar

    script = (ROOT / "site/assets/search.js").read_text(encoding="utf-8")
    grammar = browser_grammar()
    for source, _ in grammar["patterns"].values():
        assert source not in script
    for name in ("RULE_NUMBER", "ENGLISH_TOKEN", "JAPANESE_CHAR", "UNKNOWN_COST", "MAX_SURFACE", "NEAREST_EDITS"):
        assert f"const {name} =" not in script and f"{name} = /" not in script


def test_note_index_is_cached_as_json(cli, cache_dir, subset_corpus) -> None:
    import json

    from rules_kb.assemble.caches import SEAL
    from rules_kb.assemble.knowledge import cache_key
    from rules_kb.notes.index import cached_note_index

    cli("link", "--check", str(NOTES / "en-tags.md"))
    path = cache_dir / f"note-index-{cache_key(subset_corpus)}.json"  # the cli fixture reads the subset
    seal, body = path.read_text(encoding="utf-8").split("\n", 1)  # sealed with its digest (issue 38)
    assert seal.startswith(SEAL)
    data = json.loads(body)
    assert data == cached_note_index(subset_corpus, cache_dir)
    assert "507.2a" in data["games"]["dm"]["numbers"]


def test_html_that_looks_like_a_url_or_is_empty(cli, tmp_path) -> None:
    for text in ("https://example.org/dm/rule/507.2a/", "", "notes.html"):
        note = tmp_path / "note.html"
        note.write_text(text, encoding="utf-8")
        assert cli("link", str(note)) == (0, text, "")


def test_the_link_command_offers_the_formats_the_linker_knows():
    """``link --format`` choices are spelled in the CLI (registering it imports no linker): the same three."""
    from rules_kb.cli.link_commands import NOTE_FORMATS
    from rules_kb.notes.link import FORMATS

    assert NOTE_FORMATS == FORMATS


def test_a_note_mixing_games_is_linked_as_written_whatever_game_is_given(cli, tmp_path) -> None:
    """Each reference's own tag decides its game (総合ルール: Duel Masters; CR: Magic); --game decides only
    the untagged 506.1, which both games have (issue 33: "総合ルール507.3c is ambiguous", "with --game dm,
    CR 509.1a is not read as Magic")."""
    note = tmp_path / "note.txt"
    note.write_text("総合ルール507.3c と CR 509.1a、それと 506.1。\n", encoding="utf-8")
    tagged = "[1]: /dm/rule/507.3c/\n[2]: /mtg/rule/509.1a/\n"
    for game in ("dm", "mtg"):
        code, out, err = cli("link", str(note), "--game", game)
        assert (code, err) == (0, "")
        assert out == f"総合ルール507.3c[1] と CR 509.1a[2]、それと 506.1[3]。\n\n{tagged}[3]: /{game}/rule/506.1/\n"
    code, out, err = cli("link", str(note))
    assert code == 1 and out == f"総合ルール507.3c[1] と CR 509.1a[2]、それと 506.1。\n\n{tagged}"
    assert err == (f"{note}:1:29: 506.1: ambiguous: 506.1 exists in Duel Masters and Magic; write DM or MTG "
                   "before it, or pass --game\n")
