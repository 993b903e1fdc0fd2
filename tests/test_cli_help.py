"""``--help`` fits an 80-column terminal, Japanese examples included (two columns a character)."""

from __future__ import annotations

from rules_kb.cli import build_parser
from rules_kb.cli.helpdoc import commands
from rules_kb.render.terminal import display_width


def test_every_help_fits_80_columns(monkeypatch):
    """Before: the top-level help's ``show`` line (…a name (deathtouch, ブロッククリーチャー) prints…) took
    85 columns, argparse counting characters."""
    monkeypatch.setenv("COLUMNS", "80")
    parser = build_parser()
    helps = [("rules-kb", parser), *commands(parser)]
    wide = [(name, line) for name, sub in helps for line in sub.format_help().splitlines()
            if display_width(line) > 80]
    assert wide == []
