"""The options of every game are generated from the specs when asked for
(``python -m companion.options_doc``); docs/api.md keeps no copy and no list of games, so
adding a game changes no document."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from companion import options_doc
from companion.games import GAMES

from . import fifth_game

ROOT = Path(__file__).resolve().parents[1]
API_MD = ROOT / "docs" / "api.md"


def prose_of(markdown: str) -> str:
    """The text outside fenced code blocks (examples may name a game)."""
    return re.sub(r"```.*?```", "", markdown, flags=re.S)


def test_the_command_prints_a_row_per_option_of_every_registered_game():
    out = subprocess.run(
        [sys.executable, "-m", "companion.options_doc"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.strip() == options_doc.options_table()
    rows = out.strip().splitlines()[2:]
    assert len(rows) == sum(len(game.spec.options) for game in GAMES.values())
    for game in GAMES.values():
        for option in game.spec.options:
            assert any(r.startswith(f"| `{game.slug}` | `{option.name}` |") for r in rows)


def test_a_game_registered_at_run_time_is_in_the_table(high_card):
    table = options_doc.options_table()
    assert f"| `{fifth_game.SLUG}` | `cards` | int | `3` | 1..8 | play, score |" in table


def test_api_md_keeps_no_options_table_and_lists_no_games():
    text = API_MD.read_text(encoding="utf-8")
    assert "python -m companion.options_doc" in text
    prose = prose_of(text)
    # A table row naming a game (the old hand-kept table) or a list of the games.
    for slug in GAMES:
        assert f"| `{slug}` |" not in prose, slug
    listed = [slug for slug in GAMES if f"`{slug}`" in prose]
    assert len(listed) < 2, f"docs/api.md lists games: {listed}"


def test_the_table_has_a_row_per_option():
    assert fifth_game.SLUG not in GAMES
    table = options_doc.options_table([fifth_game.GAME])
    rows = table.splitlines()[2:]
    assert [row.split(" | ") for row in rows] == [
        [
            "| `high_card`",
            "`cards`",
            "int",
            "`3`",
            "1..8",
            "play, score",
            "",
            "Cards each: Also tricks per hand. |",
        ],
        ["| `high_card`", "`target`", "int", "`10`", "1..99", "score", "", "Tricks to win |"],
    ]
