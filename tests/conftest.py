"""Shared fixtures: the whole knowledge base, built once per test session from corpus/."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_kb.ask.knowledge import Knowledge, build_knowledge

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
PACKAGE = ROOT / "rules_kb"
FIXTURES = ROOT / "tests" / "fixtures"
SHARED = ROOT.parent / "shared"  # CI clones the repository with shared/ beside it


@pytest.fixture(scope="session")
def knowledge() -> Knowledge:
    return build_knowledge(CORPUS)


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory) -> Path:
    """One knowledge cache for every CLI test of the session (the CLI reads DEFAULT_CACHE)."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture
def cli(cache_dir, monkeypatch, capsys):
    """Run ``rules-kb`` in-process; returns (exit code, stdout, stderr)."""
    from rules_kb import cli as cli_module

    monkeypatch.setattr(cli_module, "DEFAULT_CACHE", cache_dir)

    def run(*argv: str) -> tuple[int, str, str]:
        code = cli_module.main(list(argv))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run
