"""Random PULL! games played through the integer path give the very same deals, moves,
legal lists, snapshots, views and scores as they did before the engine's settling of a
round was made quicker (digests taken then, at 91660e3): a stored game must replay
identically, and every phone must see what it saw, whatever the engine's inside looks like."""

from __future__ import annotations

import random

import pytest

from companion.games import GAMES
from companion.games.pull.engine import MOST_ATTRIBUTES
from tests.games.golden import seen_games_digest

GAME = GAMES["pull"]

# players -> digest of 40 random games (see games_digest), taken at 91660e3.
DIGESTS = {
    2: "2a2d64fe6841eb4e",
    3: "6917d59c25b650be",
    4: "71c5642812f58474",
}


def options_for(players: int, seed: int) -> dict:
    """A few fixed hands for most games (the test stays quick), the goal for some, and
    both ways of playing four."""
    options: dict = {} if seed % 5 == 0 else {"hands": 1 + seed % 4}
    if players == 4:
        options["teams"] = seed % 2 == 0
    return options


def games_digest(players: int) -> str:
    """40 games, every phone's screen every 7th move (tests/games/golden.py)."""
    return seen_games_digest(GAME, players, 40, lambda seed: options_for(players, seed), 7)


@pytest.mark.parametrize("players", sorted(DIGESTS))
def test_random_games_replay_as_they_always_did(players):
    assert games_digest(players) == DIGESTS[players]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_state_keeps_few_enough_attributes_for_the_quick_form(players):
    # PullState's docstring: past MOST_ATTRIBUTES names, CPython 3.11 keeps an object's
    # attributes in a plain dictionary, and the whole hot path slows down.
    state = GAME.new_state(players, {"hands": 2}, seed=3)
    chooser = random.Random(3)
    names = set(vars(state))
    while not state.is_over():
        seat = chooser.choice(state.to_act())
        state.apply_id(seat, chooser.choice(state.legal_ids(seat)))
        names |= set(vars(state))
    assert len(names) <= MOST_ATTRIBUTES, sorted(names)
