"""Play mode's layers (docs/architecture.md, "Play mode in layers"): only the store
touches the database, no module is over 500 lines, and every view is short."""

from __future__ import annotations

import ast
from pathlib import Path

import companion.tables

TABLES = Path(companion.tables.__file__).parent
STORE = {"store.py", "kept.py", "saving.py"}
VIEWS = {"api.py", "routes.py"}


def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def imported(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            names.update(f"{module}:{alias.name}" for alias in node.names)
            names.add(module)
    return names


def test_only_the_store_reaches_the_database():
    for path in sorted(TABLES.glob("*.py")):
        if path.name in STORE:
            continue
        names = imported(path)
        database = {n for n in names if n.startswith("sqlalchemy") or n == "..extensions:db"}
        assert not database, f"{path.name} reaches the database: {database}"
        assert "..database" not in names, path.name


def test_no_module_of_play_mode_is_over_500_lines():
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in TABLES.glob("*.py")}
    assert {name: n for name, n in sizes.items() if n > 500} == {}


def is_view(node: ast.FunctionDef) -> bool:
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = getattr(target, "value", None)
        if isinstance(target, ast.Attribute) and isinstance(name, ast.Name) and name.id == "bp":
            return True
    return False


def test_every_view_is_under_40_lines():
    views = {}
    for name in VIEWS:
        for node in ast.walk(tree(TABLES / name)):
            if isinstance(node, ast.FunctionDef) and is_view(node):
                views[f"{name}:{node.name}"] = node.end_lineno - node.lineno + 1
    assert len(views) > 20  # the walk found the views
    assert {view: n for view, n in views.items() if n >= 40} == {}
