"""The README and docs/cli.md tell the truth about the CLI: the generated --help section, the command
table, where the command lives, the judges' questions; and the packaging is quiet (issue 14 item 7)."""

from __future__ import annotations

import argparse
import re
import shlex
import tomllib

from conftest import ROOT

from rules_kb.cli import build_parser
from rules_kb.cli.helpdoc import commands, help_section

README = (ROOT / "README.md").read_text(encoding="utf-8")
CLI_REFERENCE = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    start = README.index(f"## {title}")
    following = README.find("\n## ", start + 3)
    return README[start:] if following < 0 else README[start:following]


def table_rows() -> dict[str, str]:
    """The CLI command table: command name (``graph export`` included) -> its row."""
    rows = {}
    for line in section("The CLI").splitlines():
        found = re.match(r"\| `rules-kb ((?:graph )?[a-z]+)", line)
        if found:
            rows[found[1]] = line
    return rows


def options_of(parser: argparse.ArgumentParser) -> list[str]:
    return [option for action in parser._actions for option in action.option_strings
            if option.startswith("--") and option != "--help"]


def test_generated_help_section_is_up_to_date():
    assert help_section() in CLI_REFERENCE, "run: .venv/bin/python -m rules_kb.cli.helpdoc docs/cli.md"


def test_the_readme_speaks_to_users_in_300_lines_and_links_the_reference():
    assert len(README.splitlines()) <= 300
    assert "[docs/cli.md](docs/cli.md)" in README and "<!-- begin: generated" not in README


def test_command_table_names_every_command_and_every_option():
    rows = table_rows()
    for name, parser in commands(build_parser()):
        short = name.removeprefix("rules-kb ")
        if short == "graph":
            continue  # a group: its one action is the row
        assert short in rows, f"README command table lacks {name}"
        for option in options_of(parser):
            assert option in rows[short], f"README row of {name} lacks {option}"


def test_every_argument_of_every_command_has_a_help_text():
    for name, parser in commands(build_parser()):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction) or action.dest == "help":
                continue
            assert action.help, f"{name} {action.option_strings or action.dest} has no help"


def test_readme_says_where_the_command_lives_and_how_to_put_it_on_path():
    where = section("The two commands")
    assert ".venv/bin/rules-kb" in where
    assert 'export PATH="$PWD/.venv/bin:$PATH"' in where
    assert "source .venv/bin/activate" in where


def test_judges_have_twelve_questions_each_a_valid_command():
    rows = [line for line in section("For judges").splitlines() if line.startswith("| ") and "`rules-kb" in line]
    assert len(rows) == 12  # the eleventh: audit (issue 35); the twelfth: a tournament section (issue 31)
    parser = build_parser()
    for row in rows:
        command = re.search(r"`(rules-kb [^`]+)`", row)[1]
        parser.parse_args(shlex.split(command)[1:])  # exits (fails the test) on an invalid command line


def test_packaging_uses_an_spdx_license_and_quiet_installs():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"  # PEP 639 expression, not the deprecated table
    # >=77 for PEP 639; an upper bound, because `make setup` relies on the compat editable mode
    assert any(re.fullmatch(r"setuptools>=(7[7-9]|[89]\d),<\d+", r) for r in project["build-system"]["requires"])
    installs = [line for line in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines() if "pip install" in line]
    assert installs and all("--quiet" in line and "--disable-pip-version-check" in line for line in installs)
    assert any("-e '.[test]' --config-settings editable_mode=compat" in line for line in installs)
