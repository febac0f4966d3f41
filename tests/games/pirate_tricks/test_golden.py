"""Random games played through the integer path give the very same deals, moves,
snapshots, views and scores as they did before the engine's inside was made quicker
(digests taken then): a stored game must replay identically, and every phone must see
what it saw, whatever the engine's inside looks like."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from companion.games import GAMES

GAME = GAMES["pirate_tricks"]

# players -> digest of 10 random games (see games_digest)
DIGESTS = {
    3: "7adb7c23096386c4",
    4: "126825551b63b691",
    5: "ff2911eb6a618e3f",
}


def games_digest(players: int) -> str:
    digest = hashlib.sha256()
    for seed in range(10):
        choice = random.Random(seed).choice
        options = {"rounds": 3 + seed % 3}
        state = GAME.new_state(players, options, seed=seed * 7919)
        while not state.is_over():
            seats = state.to_act()
            seat = seats[0] if len(seats) == 1 else choice(seats)
            legal = state.legal_ids(seat)
            action_id = choice(legal)
            digest.update(repr((seat, legal, action_id)).encode())
            state.apply_id(seat, action_id)
            digest.update(repr(state.last_action).encode())
            if state.moves % 7 == 0:
                digest.update(json.dumps(state.to_dict(), sort_keys=True).encode())
            if state.moves % 11 == 0:
                for viewer in [None, *range(players)]:
                    seen = [state.view(viewer), state.prompt(viewer)]
                    digest.update(json.dumps(seen, sort_keys=True).encode())
        digest.update(json.dumps([state.to_dict(), state.scores()], sort_keys=True).encode())
        digest.update(json.dumps(state.view(None), sort_keys=True).encode())
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("players", sorted(DIGESTS))
def test_random_games_replay_as_they_always_did(players):
    assert games_digest(players) == DIGESTS[players]
