"""Shared helpers for the Shoot! tests: a scripted deal and a way to play it out."""

from __future__ import annotations

from companion.games import GAMES
from companion.games.shoot.engine import ShootState

GAME = GAMES["shoot"]

# Three players, four cards each, diamonds trump, seat 0 deals so seat 1 leads.
#   trick 1: 1 KH, 2 4H, 0 AH -> seat 0 (highest of the suit led)
#   trick 2: 0 2C, 1 9C, 2 AC -> seat 2
#   trick 3: 2 KS, 0 5S, 1 6D -> seat 1 (a trump beats the king led)
#   trick 4: 1 3H, 2 AS, 0 3S -> seat 1 (an off-suit ace never wins)
SCRIPT_DEAL = {
    "dealer": 0,
    "hands": [["AH", "2C", "5S", "3S"], ["KH", "3H", "9C", "6D"], ["4H", "AS", "AC", "KS"]],
    "trump": "2D",
}
SCRIPT_PLAYS = [
    (1, "KH"), (2, "4H"), (0, "AH"),
    (0, "2C"), (1, "9C"), (2, "AC"),
    (2, "KS"), (0, "5S"), (1, "6D"),
    (1, "3H"), (2, "AS"), (0, "3S"),
]  # fmt: skip
SCRIPT_TRICKS = [1, 2, 1]


def scripted(schedule=(4,), chips=False, seed=11, dealing=None) -> ShootState:
    return GAME.new_state(
        3,
        {"schedule": list(schedule), "chips": chips},
        seed=seed,
        deal=SCRIPT_DEAL,
        dealing=dealing,
    )


def bid_all(state: ShootState, bids) -> None:
    for seat, bid in enumerate(bids):
        state.apply(seat, {"type": "bid", "bid": bid})


def play(state: ShootState, plays) -> None:
    for seat, card in plays:
        state.apply(seat, {"type": "play", "card": card})


def snap(state: ShootState) -> dict:
    """The state as its snapshot holds it (card ids), the way tests read hidden parts."""
    return state.to_dict()["state"]
