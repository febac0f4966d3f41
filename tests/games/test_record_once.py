"""An applied action is counted and logged in one place, ``State._record`` (issue 24): no
engine repeats its lines for speed, so a change to what a move leaves behind (the count,
the last action, the log) is made once and holds for every game."""

from __future__ import annotations

import ast
from pathlib import Path

import companion.games

GAMES_DIR = Path(companion.games.__file__).resolve().parent
RECORDED = {"moves", "last_action"}  # what _record writes on the state


def writes(tree: ast.AST):
    """(function, line, what) of every write to ``self.moves`` / ``self.last_action`` and
    every ``.log.append`` / ``log.append`` in ``tree``."""
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(function):
            targets = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AugAssign | ast.AnnAssign):
                targets = [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and target.attr in RECORDED:
                    yield function.name, node.lineno, target.attr
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "append"
                and (
                    isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "log"
                    or isinstance(node.func.value, ast.Attribute)
                    and node.func.value.attr == "log"
                )
            ):
                yield function.name, node.lineno, "log.append"


def test_only_state_record_counts_and_logs_an_action():
    found = []
    for path in sorted(GAMES_DIR.rglob("*.py")):
        for function, line, what in writes(ast.parse(path.read_text())):
            where = f"{path.relative_to(GAMES_DIR)}:{function}"
            if where == "base.py:_record" or (where == "base.py:__init__" and what != "log.append"):
                continue  # the one place, and the fresh state's starting values
            found.append(f"{where} line {line}: {what}")
    assert not found, "State._record's lines repeated outside it:\n" + "\n".join(found)


def test_the_check_finds_an_inline_copy():
    """The scan above is not blind: the lines it forbids, pasted into an engine, are found."""
    inline = (
        "class S:\n"
        "    def apply_id(self, seat, action_id):\n"
        "        entry = [seat, action_id]\n"
        "        self.moves += 1\n"
        "        self.last_action = entry\n"
        "        log = self.log\n"
        "        if log is not None:\n"
        "            log.append(entry)\n"
    )
    assert {what for _, _, what in writes(ast.parse(inline))} == RECORDED | {"log.append"}
