"""PULL! under the generic random sweep: legal play, endings, replay, and no leaks."""

from __future__ import annotations

import random

from companion.games.pull.engine import GAME
from tests.games.sweep import run_sweep

from .checks import conservation_check, leak_check

GAMES = 1000


def options(players, chooser):
    opts = {"hands": chooser.randint(1, 2)}
    if players == 4:
        opts["teams"] = chooser.random() < 0.7
    if chooser.random() < 0.1:
        opts = {"goal": 40, "teams": opts.get("teams", False)}
    if chooser.random() < 0.1:
        opts["targets"] = {"trap-T1": {"animal": True, "double": -3}}
    return opts


def test_random_games_sweep():
    totals = run_sweep(
        GAME,
        GAMES,
        [2, 3, 4],
        options=options,
        leak_check=leak_check,
        conservation_check=conservation_check,
        deep_every=25,
    )
    assert totals["games"] == GAMES
    assert totals["actions"] >= GAMES * 20


def test_random_games_to_the_default_goal_end():
    chooser = random.Random(0)
    for seed in range(6):
        players = 2 + seed % 3
        state = GAME.new_state(players, seed=seed)
        while not state.is_over():
            seat = chooser.choice(state.to_act())
            state.apply(seat, chooser.choice(state.legal_actions(seat)))
        assert max(state.totals) >= 200 or len(state.history) == state.options["max_hands"]
