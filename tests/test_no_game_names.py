"""Outside a game's own places no file names a game (issue 9, "One game, one place").

Scans every tracked source file outside ``companion/games/``, ``templates/games/``,
``static/js/games/``, ``tests/`` and ``docs/`` for a game slug as a string literal
(``"pull"``, ``'shoot'``) or a branch on the game (``game ==``, ``game ===``,
``slug ==``), and fails naming the file and line.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXEMPT = ("companion/games/", "templates/games/", "static/js/games/", "tests/", "docs/")
SOURCE = (".py", ".html", ".js", ".css", ".json", ".toml", ".cfg", ".ini", ".mako", ".txt")
BRANCH = re.compile(r"\b(?:game|slug)\s*(?:===?|!==?)\s*")


def slugs() -> list[str]:
    """Every game folder under companion/games (found without importing them)."""
    return sorted(
        path.parent.name
        for path in (ROOT / "companion" / "games").glob("*/__init__.py")
        if not path.parent.name.startswith("_")
    )


def tracked() -> list[str]:
    try:
        out = subprocess.run(
            ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):  # pragma: no cover - not a checkout
        out = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file()]
    return [
        name
        for name in out
        if name.endswith(SOURCE) and not name.startswith(EXEMPT) and (ROOT / name).is_file()
    ]


def offences(names: list[str], text_of) -> list[str]:
    alternatives = "|".join(re.escape(s) for s in names)
    literal = re.compile(rf"""(["'])(?:{alternatives})\1""") if names else None
    found = []
    for name in tracked():
        for number, line in enumerate(text_of(name).splitlines(), 1):
            if (literal and literal.search(line)) or BRANCH.search(line):
                found.append(f"{name}:{number}: {line.strip()}")
    return found


def test_there_are_games_to_look_for():
    assert slugs(), "no game folders found under companion/games"


def test_no_file_outside_the_games_places_names_a_game():
    found = offences(
        slugs(), lambda name: (ROOT / name).read_text(encoding="utf-8", errors="replace")
    )
    assert not found, "a game is named outside its own places:\n" + "\n".join(found)


def test_the_scan_catches_a_slug_and_a_branch(monkeypatch):
    fake = {"companion/x.py": 'if game == "shoot":\n    pass\n', "static/js/y.js": "ok\n"}
    monkeypatch.setattr("tests.test_no_game_names.tracked", lambda: list(fake))
    found = offences(["shoot"], fake.__getitem__)
    assert found == ['companion/x.py:1: if game == "shoot":']
