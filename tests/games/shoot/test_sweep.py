"""Shoot! beyond the shared sweep (tests/games/test_sweep.py): finished games keep a full
score table, and the leak and conservation checks catch what they must."""

from __future__ import annotations

import json
import random

import pytest

from companion.games.shoot import rules

from .checks import conservation_check, leak_check, sweep_options
from .helpers import GAME, snap


def test_sweep_games_end_with_a_full_score_table():
    for seed in range(40):
        players = 2 + seed % 4
        chooser = random.Random(seed)
        options = GAME.check_options(players, sweep_options(players, chooser))
        state = GAME.new_state(players, options, seed=seed)
        while not state.is_over():
            seat = chooser.choice(state.to_act())
            state.apply(seat, chooser.choice(state.legal_actions(seat)))
        schedule = options["schedule"]
        assert [r["cards"] for r in state.results] == schedule
        for result in state.results:
            assert sum(result["tricks"]) == result["cards"]
            assert result["points"] == rules.deal_scores(result["bids"], result["tricks"])
        totals = [sum(r["points"][s] for r in state.results) for s in range(players)]
        assert state.scores() == totals
        assert state.winners() == [s for s in range(players) if totals[s] == max(totals)]
        json.dumps(state.view(None))


# -- the checks themselves catch what they are for ----------------------------------------


def _leaky(monkeypatch, extra):
    original = GAME.state_class.view

    def view(self, seat):
        return {**original(self, seat), "extra": extra(self, seat)}

    monkeypatch.setattr(GAME.state_class, "view", view)


@pytest.mark.parametrize(
    "extra",
    [
        lambda state, seat: snap(state)["stock"][-1],  # the out-of-play stock
        lambda state, seat: state.hand_of((seat or 0) + 1)[0],  # another seat's card
        lambda state, seat: snap(state)["hands"],  # the table shows hands
        lambda state, seat: sum(c[1] == "H" for c in state.hand_of((seat or 0) + 1)),
        lambda state, seat: state.bids[2],  # a sealed bid
        lambda state, seat: sum(b or 0 for b in state.bids),  # the sealed total
    ],
)
def test_leak_check_catches_leaks(monkeypatch, extra):
    state = GAME.new_state(3, seed=4)
    state.apply(2, {"type": "bid", "bid": 3})
    leak_check(state, 0, state.view(0))  # the real view passes
    _leaky(monkeypatch, extra)
    with pytest.raises(AssertionError):
        for seat in (None, 0):
            leak_check(state, seat, state.view(seat))


def test_conservation_check_catches_a_lost_card():
    state = GAME.new_state(3, {"chips": True}, seed=4)
    conservation_check(state)
    state.stock.pop()
    with pytest.raises(AssertionError, match="lost or doubled"):
        conservation_check(state)
    state = GAME.new_state(3, {"chips": True}, seed=4)
    state.chips["pot"] += 1
    with pytest.raises(AssertionError, match="chips"):
        conservation_check(state)
