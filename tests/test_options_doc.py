"""The options table in docs/api.md is the one the games' specs generate."""

from __future__ import annotations

from companion import options_doc
from companion.games import GAMES

from . import fifth_game


def test_api_md_options_table_matches_the_specs():
    written = options_doc.table_in(options_doc.API_MD.read_text(encoding="utf-8"))
    assert written == options_doc.options_table(), (
        "docs/api.md's options table differs from the specs: "
        "run `python -m companion.options_doc --write`"
    )


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
