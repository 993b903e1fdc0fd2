"""The judge-note fixture (tests/fixtures/notes/): cases, options, expected files.

``RULES_KB_REGEN=1`` rewrites the expected files and the problems in cases.toml from the
current output; they are then read by a person before being committed.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from conftest import FIXTURES

NOTES = FIXTURES / "notes"
CASES_FILE = NOTES / "cases.toml"
BASE_URL = "https://rules.example"
FORMAT_OF = {".md": "md", ".html": "html", ".txt": "text"}
REGENERATE = os.environ.get("RULES_KB_REGEN") == "1"


@dataclass(frozen=True)
class NoteCase:
    name: str
    file: str
    game: str | None = None
    pin: str | None = None
    as_of: str | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def path(self) -> Path:
        return NOTES / self.file

    @property
    def fmt(self) -> str:
        return FORMAT_OF[self.path.suffix]

    @property
    def expected_path(self) -> Path:
        return self.path.with_name(f"{self.path.stem}.expected{self.path.suffix}")

    def text(self) -> str:
        return self.path.read_bytes().decode("utf-8")

    def expected(self) -> str:
        return self.expected_path.read_bytes().decode("utf-8")


def read_cases() -> list[NoteCase]:
    data = tomllib.loads(CASES_FILE.read_text(encoding="utf-8"))
    return [NoteCase(**row) for row in data["case"]]


def write_problems(problems: dict[str, list[str]]) -> None:
    """Rewrite cases.toml's ``problems`` lines (regeneration only), keeping everything else."""
    out, current = [], None
    for line in CASES_FILE.read_text(encoding="utf-8").split("\n"):
        if line.startswith("name = "):
            current = tomllib.loads(line)["name"]
        if line.startswith("problems = ") and current in problems:
            rows = problems[current]
            if not rows:
                line = "problems = []"
            else:
                quoted = ",\n".join(f"    {_quote(row)}" for row in rows)
                line = f"problems = [\n{quoted},\n]"
        elif line.startswith("    ") or line == "]":
            continue  # the previous multi-line list
        out.append(line)
    CASES_FILE.write_text("\n".join(out), encoding="utf-8")


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
