"""The final standings (companion/scorekeeper/standings.py): places shared on a tie with the
next place skipped, lower totals first where the game says so, partners together, and the
game's own winners first."""

from __future__ import annotations

from companion.games import GAMES
from companion.scorekeeper.standings import places, standings


def test_ties_share_a_place_and_the_next_place_skips():
    assert places([10, 30, 30, 5]) == [3, 1, 1, 4]
    assert places([10, 30, 30, 5], lower_wins=True) == [2, 3, 3, 1]


def test_the_games_winners_come_first_even_against_the_totals():
    assert places([3, 1, 2], lower_wins=True, first=[1]) == [3, 1, 2]
    assert places([3, 1, 2], first=[2]) == [2, 3, 1]


def summary(game: str, names: list[str], options: dict, rows: list) -> dict:
    return GAMES[game].sheet(names, options).summary(rows)


def test_a_shoot_sheet_ranked_with_a_shared_place():
    rows = [{"bids": [1, 1, 0], "tricks": [1, 1, 8]}]  # 6, 6, 3
    result = standings(summary("shoot", ["Ann", "Bo", "Cy"], {"schedule": [10]}, rows))
    assert [(r["place"], r["name"], r["total"], r["shared"], r["winner"]) for r in result] == [
        (1, "Ann", 6, True, True),
        (1, "Bo", 6, True, True),
        (3, "Cy", 3, False, False),
    ]


def test_partners_stand_together():
    rows = [{"sides": [{"points": 30, "fouls": 0}, {"points": 12, "fouls": 1}]}]
    result = standings(
        summary("pull", ["Ann", "Bo", "Cy", "Di"], {"teams": True, "hands": 1}, rows)
    )
    assert [(r["place"], r["name"], r["seats"], r["total"]) for r in result] == [
        (1, "Ann & Cy", [0, 2], 30),
        (2, "Bo & Di", [1, 3], 12),
    ]
