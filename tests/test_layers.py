"""Data flows one way: each package imports only from packages before it (the stage table of docs/layout.md)."""

from __future__ import annotations

import ast

from conftest import PACKAGE

# The stage table of docs/layout.md, top to bottom; modules of one row may import each other.
LAYERS = [
    ["errors", "files", "games", "heap", "places", "steps", "visible"], ["numbers"], ["model"],
    ["refs", "tokens", "links", "jsregex"],
    ["sources"], ["ingest"], ["kb"], ["compare"], ["store"], ["assemble"], ["releases"], ["ask"], ["search"], ["notes"],
    ["render"], ["site"], ["cli"], ["__main__"],
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


def _modules() -> dict[str, ast.Module]:
    """Every module of the package by dotted name, parsed."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = ast.parse(path.read_text(encoding="utf-8"))
    return out


def _stage(module: str) -> str:
    return module.split(".")[1] if "." in module else "cli"


def test_no_module_names_another_stage_in_a_string_import():
    """``importlib.import_module("rules_kb.x")`` or ``__import__`` would hide an arrow from the test above."""
    hidden = []
    for name, tree in _modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and (getattr(node.func, "attr", None) == "import_module"
                                               or getattr(node.func, "id", None) == "__import__"):
                hidden.append(f"{name}:{node.lineno}")
    assert hidden == []


def test_the_import_graph_has_no_circle():
    """Modules of one row may import each other, but never round in a circle (imports inside
    functions included: a circle deferred to run time is still a circle)."""
    modules = _modules()
    edges = {name: imports_of_tree(tree, set(modules)) - {name} for name, tree in modules.items()}
    state: dict[str, int] = {}
    circles = []

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for target in sorted(edges[name]):
            if state.get(target) == 1:
                circles.append([*path[path.index(target):], target])
            elif target not in state:
                visit(target, [*path, target])
        state[name] = 2

    for name in sorted(modules):
        if name not in state:
            visit(name, [name])
    assert circles == []


def imports_of_tree(tree: ast.Module, modules: set[str]) -> set[str]:
    """The package's modules a module imports when it runs (``from rules_kb.cli import common`` is
    cli.common); imports only type checkers read (``if TYPE_CHECKING:``) never run."""
    typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and getattr(block.test, "id", None) == "TYPE_CHECKING" for n in ast.walk(block)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module in modules:
            found.update(f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules else node.module
                         for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in modules)
    return found


def test_no_stage_calls_up_through_a_hook():
    """A method a later stage overrides is called only by the stage that declares it (or a later one).

    The import test cannot see a hook: a class of an early stage with a stub method that a later
    stage's subclass fills in, called by a stage in between (the catalog once carried the
    aligner's memory and word sets, stubs filled by the store, so the aligner read the store
    through the catalog). Whoever calls the method must own the class that declares it.
    """
    modules = _modules()
    classes: dict[str, tuple[str, ast.ClassDef]] = {}  # "module.Class" -> (module, node)
    for name, tree in modules.items():
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                classes[f"{name}.{node.name}"] = (name, node)
    calls: dict[str, set[str]] = {}  # method name -> stages calling it
    for name, tree in modules.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                calls.setdefault(node.func.attr, set()).add(_stage(name))
    reaches = []
    for name, tree in modules.items():
        imported = {a.asname or a.name: f"{n.module}.{a.name}" for n in ast.walk(tree)
                    if isinstance(n, ast.ImportFrom) and n.module for a in n.names}
        for node in tree.body:
            if not isinstance(node, ast.ClassDef):
                continue
            for base in node.bases:
                full = imported.get(getattr(base, "id", ""), f"{name}.{getattr(base, 'id', '')}")
                if full not in classes:
                    continue
                base_module, base_node = classes[full]
                low, high = RANK[_stage(base_module)], RANK[_stage(name)]
                if low == high:
                    continue
                declared = {f.name for f in base_node.body if isinstance(f, ast.FunctionDef)}
                overridden = declared & {f.name for f in node.body if isinstance(f, ast.FunctionDef)}
                for method in sorted(m for m in overridden if not m.startswith("__")):
                    between = {s for s in calls.get(method, ()) if low < RANK[s] < high}
                    reaches += [f"{s} calls {full}.{method}, filled in by {name}.{node.name}" for s in sorted(between)]
    assert reaches == []
