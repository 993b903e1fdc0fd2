"""Data flows one way: each module imports only from stages before it (README's stage table)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "rules_kb"

# The README's stage table, top to bottom; modules on one row may import each other.
LAYERS = [
    ["errors"], ["numbers"], ["model"], ["corpus", "curated"], ["decode"], ["refs"], ["sources"],
    ["accounting"], ["pipeline", "detect"], ["catalog"], ["graph"], ["tokens", "diff"],
    ["similarity", "align"], ["lineage"], ["changes"], ["knowledge", "query", "story", "export", "add"],
    ["textformat", "output", "cli"],
]
RANK = {name: i for i, row in enumerate(LAYERS) for name in row}


def stage_of(module: str) -> str:
    parts = module.split(".")
    return "sources" if parts[1] == "sources" else parts[1]


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rules_kb."):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("rules_kb."))
    return found


def test_every_module_is_in_the_stage_table():
    modules = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__"}
    assert modules <= set(RANK), sorted(modules - set(RANK))


def test_no_module_imports_from_a_later_stage():
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.stem == "__init__" and path.parent == PACKAGE:
            continue
        here = "sources" if path.parent.name == "sources" else path.stem
        for module in sorted(imports_of(path)):
            if RANK[stage_of(module)] > RANK[here]:
                wrong.append(f"{path.relative_to(PACKAGE)} imports {module}")
    assert wrong == []
