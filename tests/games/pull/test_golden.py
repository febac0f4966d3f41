"""Random PULL! games played through the integer path give the very same deals, moves,
legal lists, snapshots, views and scores as they did before the engine's settling of a
round was made quicker (digests taken then, at 91660e3): a stored game must replay
identically, and every phone must see what it saw, whatever the engine's inside looks like."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from companion.games import GAMES
from companion.games.pull.engine import MOST_ATTRIBUTES
from tests.games.golden import play_into

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
    digest = hashlib.sha256()

    def seen(state) -> None:  # every action taken, and every phone's screen every 7th
        digest.update(repr(state.last_action).encode())
        if state.moves % 7 == 0:
            for viewer in [None, *range(players)]:
                shown = [state.view(viewer), state.prompt(viewer)]
                digest.update(json.dumps(shown, sort_keys=True).encode())

    for seed in range(40):
        state = GAME.new_state(players, options_for(players, seed), seed=seed * 7919)
        play_into(digest, state, random.Random(seed).choice, snapshot_every=7, after=seen)
        digest.update(json.dumps(state.view(None), sort_keys=True).encode())
    return digest.hexdigest()[:16]


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
