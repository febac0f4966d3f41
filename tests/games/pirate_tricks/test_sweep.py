"""Pirate Tricks' leak and conservation checks catch what they must (the shared sweep in
tests/games/test_sweep.py runs them)."""

from __future__ import annotations

import pytest

from companion.games import GAMES
from tests.games.pirate_tricks.checks import conservation_check, leak_check
from tests.games.pirate_tricks.helpers import saved

GAME = GAMES["pirate_tricks"]


def _leaky(monkeypatch, extra):
    original = GAME.state_class.view

    def view(self, seat):
        return {**original(self, seat), "extra": extra(self, seat)}

    monkeypatch.setattr(GAME.state_class, "view", view)


def _other(seat):
    return 1 if seat in (None, 0) else 0


@pytest.mark.parametrize(
    "extra",
    [
        lambda st, seat: saved(st)["hands"][_other(seat)][0],  # another seat's card
        lambda st, seat: [list(h) for h in saved(st)["hands"]],  # every hand
        lambda st, seat: saved(st)["rows"][2]["down"],  # face-down cards of a row nobody owns
        lambda st, seat: st.loon[_other(seat)],  # loon behind another screen
        lambda st, seat: sum(st.loon),  # the total loon
        lambda st, seat: st.auction["bids"][2],  # a sealed bid
        lambda st, seat: sum(b or 0 for b in st.auction["bids"]),  # the sealed total
    ],
)
def test_leak_check_catches_leaks_in_the_auction(monkeypatch, extra):
    state = GAME.new_state(3, seed=4)
    state.apply(0, {"type": "bid", "loon": 7})  # row 0 to seat 0
    state.apply(1, {"type": "bid", "loon": 0})
    state.apply(2, {"type": "bid", "loon": 0})
    state.apply(2, {"type": "bid", "loon": 3})  # sealed, on row 1
    for seat in (None, 0, 1):
        leak_check(state, seat, state.view(seat))  # the real views pass
    _leaky(monkeypatch, extra)
    with pytest.raises(AssertionError):
        for seat in (None, 0, 1):
            leak_check(state, seat, state.view(seat))


@pytest.mark.parametrize(
    "extra",
    [
        lambda st, seat: saved(st)["auction"]["reveals"],  # a sealed reveal pick
        lambda st, seat: saved(st)["rows"][0]["down"],  # the row not yet taken
    ],
)
def test_leak_check_catches_a_sealed_reveal(monkeypatch, extra):
    state = GAME.new_state(3, seed=4)
    for seat in range(3):
        state.apply(seat, {"type": "bid", "loon": 2})
    state.apply(0, {"type": "reveal", "card": saved(state)["hands"][0][0]})
    leak_check(state, 1, state.view(1))
    _leaky(monkeypatch, extra)
    with pytest.raises(AssertionError):
        leak_check(state, 1, state.view(1))


def test_leak_check_catches_a_ditched_card(monkeypatch):
    state = GAME.new_state(3, seed=4)
    while state.phase == "bid":
        state.apply(
            state.to_act()[0],
            {"type": "bid", "loon": 0} if len(state.to_act()) > 1 else {"type": "bid", "loon": 1},
        )
    while state.phase != "ditch":
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    state.apply(0, state.legal_actions(0)[-1])
    leak_check(state, 1, state.view(1))
    _leaky(monkeypatch, lambda st, seat: saved(st)["ditched"][0])
    with pytest.raises(AssertionError):
        leak_check(state, 1, state.view(1))


def test_conservation_check_catches_a_lost_card():
    state = GAME.new_state(4, seed=4)
    conservation_check(state)
    lost = state.to_dict()
    lost["state"]["hands"][0].pop()
    with pytest.raises(AssertionError, match="lost or doubled"):
        conservation_check(GAME.state_from_dict(lost))
    doubled = state.to_dict()
    doubled["state"]["hands"][0].append(doubled["state"]["hands"][1][0])
    with pytest.raises(AssertionError, match="lost or doubled"):
        conservation_check(GAME.state_from_dict(doubled))
