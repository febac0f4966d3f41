"""Random games played through the integer path give the very same deals, moves, snapshots
and scores as they did before the engine was made quicker (digests taken then): a stored
game must replay identically whatever the engine's inside looks like. Each way of dealing
has its own digests: the first way's were taken before the second way existed."""

from __future__ import annotations

import hashlib
import random

import pytest

from companion.games import GAMES
from tests.games.golden import play_into

GAME = GAMES["shoot"]

# (dealing, players) -> digest of 12 random games (see games_digest)
DIGESTS = {
    (1, 2): "8000a38c16bd1e02",
    (1, 3): "2518b944ee1a5804",
    (1, 4): "026ef105227d0d0d",
    (1, 5): "adb9432f7453f4a3",
    (2, 2): "e256409f99ab7351",
    (2, 3): "c69ff6780b7fe7ca",
    (2, 4): "6b2719af584454da",
    (2, 5): "1ab08c13b0b0c37f",
}


def games_digest(dealing: int, players: int) -> str:
    digest = hashlib.sha256()
    for seed in range(12):
        options = {"chips": True} if seed % 3 == 0 else {}
        state = GAME.new_state(players, options, seed=seed * 7919, dealing=dealing)
        play_into(digest, state, random.Random(seed).choice, snapshot_every=9)
    return digest.hexdigest()[:16]


@pytest.mark.parametrize(("dealing", "players"), sorted(DIGESTS))
def test_random_games_replay_as_they_always_did(dealing, players):
    assert games_digest(dealing, players) == DIGESTS[dealing, players]


def test_every_way_of_dealing_has_its_digests():
    assert {dealing for dealing, _ in DIGESTS} == set(GAME.dealings)
