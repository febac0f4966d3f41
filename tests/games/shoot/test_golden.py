"""Random games played through the integer path give the very same deals, moves, snapshots
and scores as they did before the engine was made quicker (digests taken then): a stored
game must replay identically whatever the engine's inside looks like."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from companion.games import GAMES

GAME = GAMES["shoot"]

# players -> digest of 12 random games (see games_digest)
DIGESTS = {
    2: "8000a38c16bd1e02",
    3: "2518b944ee1a5804",
    4: "026ef105227d0d0d",
    5: "adb9432f7453f4a3",
}


def games_digest(players: int) -> str:
    digest = hashlib.sha256()
    for seed in range(12):
        choice = random.Random(seed).choice
        options = {"chips": True} if seed % 3 == 0 else {}
        state = GAME.new_state(players, options, seed=seed * 7919)
        while not state.is_over():
            seats = state.to_act()
            seat = seats[0] if len(seats) == 1 else choice(seats)
            legal = state.legal_ids(seat)
            action_id = choice(legal)
            digest.update(repr((seat, legal, action_id)).encode())
            state.apply_id(seat, action_id)
            if state.moves % 9 == 0:
                digest.update(json.dumps(state.to_dict(), sort_keys=True).encode())
        digest.update(json.dumps([state.to_dict(), state.scores()], sort_keys=True).encode())
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("players", sorted(DIGESTS))
def test_random_games_replay_as_they_always_did(players):
    assert games_digest(players) == DIGESTS[players]
