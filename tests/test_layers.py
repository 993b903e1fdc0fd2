"""Data flows one way: each package imports only from packages before it (README's stage table)."""

from __future__ import annotations

import ast

from conftest import PACKAGE

# The README's stage table, top to bottom; modules of one row may import each other.
LAYERS = [
    ["errors", "files", "games", "visible"], ["numbers"], ["model"], ["refs", "tokens", "links", "jsregex"],
    ["sources"], ["ingest"], ["kb"], ["compare"], ["store"], ["assemble"], ["releases"], ["ask"], ["search"], ["notes"],
    ["render"], ["site"], ["cli"],
]
RANK = {name: i for i, row in enumerate(LAYERS) for name in row}


def stage_of(module: str) -> str:
    return module.split(".")[1]


def imports_of(path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rules_kb."):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("rules_kb."))
    return found


def stage_of_path(path) -> str:
    relative = path.relative_to(PACKAGE)
    return relative.parts[0] if len(relative.parts) > 1 else relative.stem


def test_every_module_and_package_is_in_the_stage_table():
    stages = {stage_of_path(p) for p in PACKAGE.rglob("*.py")} - {"__init__"}
    assert stages <= set(RANK), sorted(stages - set(RANK))


def test_no_module_imports_from_a_later_stage():
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.parent == PACKAGE and path.stem == "__init__":
            continue
        here = stage_of_path(path)
        for module in sorted(imports_of(path)):
            if RANK[stage_of(module)] > RANK[here]:
                wrong.append(f"{path.relative_to(PACKAGE)} imports {module}")
    assert wrong == []


def test_every_format_is_a_package_named_in_the_registry():
    from rules_kb.sources.registry import FORMATS

    packages = {p.parent.name for p in (PACKAGE / "sources").glob("*/__init__.py")}
    modules = {source.parse.__module__.split(".")[2] for source in FORMATS.values()}
    assert packages == modules
