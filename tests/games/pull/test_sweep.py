"""PULL! games played to the default goal end (the shared sweep in tests/games/test_sweep.py
plays short games with this game's checks)."""

from __future__ import annotations

import random

from companion.games.pull.engine import GAME


def test_random_games_to_the_default_goal_end():
    chooser = random.Random(0)
    for seed in range(6):
        players = 2 + seed % 3
        state = GAME.new_state(players, seed=seed)
        while not state.is_over():
            seat = chooser.choice(state.to_act())
            state.apply(seat, chooser.choice(state.legal_actions(seat)))
        assert max(state.totals) >= 200 or len(state.history) == state.options["max_hands"]
