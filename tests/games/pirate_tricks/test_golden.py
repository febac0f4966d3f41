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
from tests.games.golden import seen_games_digest

GAME = GAMES["pirate_tricks"]

# players -> digest of 10 random games (see games_digest). Taken again on 2 December 2026
# when the views changed twice at once: the score cards tag the values of Gang of Three,
# Gang of Two and Partners in Crime "house" (issue 30: the rulebook prints no text for
# them), and every view carries the result card of what ended last (issue 26). The moves,
# legal lists, snapshots and scores of the same games were checked unchanged against the
# engine at a2b691d (the start of that session) before the digests were taken.
DIGESTS = {
    3: "80f7a6ab06c6e6e3",
    4: "91f5989ca8c460a6",
    5: "31594df99ffc1075",
}


def games_digest(players: int) -> str:
    """10 games, every phone's screen every 11th move (tests/games/golden.py)."""
    return seen_games_digest(GAME, players, 10, lambda seed: {"rounds": 3 + seed % 3}, 11)


@pytest.mark.parametrize("players", sorted(DIGESTS))
def test_random_games_replay_as_they_always_did(players):
    assert games_digest(players) == DIGESTS[players]


# players -> digest of 40 more games (views_digest), taken on 2 December 2026 (session 33)
# from the engine before that session's cuts to its per-round work; every fourth game is
# played through the dict contract (legal_actions / apply), the others by ids.
VIEW_DIGESTS = {
    3: "c68280c5052c9c77",
    4: "6c129d77acccfc56",
    5: "bb8ad5d4f17a513e",
}


def views_digest(players: int) -> str:
    digest = hashlib.sha256()
    for seed in range(40):
        choice = random.Random(seed).choice
        state = GAME.new_state(players, {"rounds": 3 + seed % 3}, seed=seed * 104729 + 1)
        by_dicts = seed % 4 == 3
        while not state.is_over():
            seats = state.to_act()
            seat = seats[0] if len(seats) == 1 else choice(seats)
            legal = state.legal_actions(seat) if by_dicts else state.legal_ids(seat)
            chosen = choice(legal)
            digest.update(repr((seat, legal, chosen)).encode())
            if by_dicts:
                state.apply(seat, chosen)
            else:
                state.apply_id(seat, chosen)
            digest.update(repr((state.last_action, state.to_act(), state.scores())).encode())
            if state.moves % 7 == 0:  # the snapshot, every screen, and a replay from it
                digest.update(json.dumps(state.to_dict(), sort_keys=True).encode())
                for viewer in [None, *range(players)]:
                    shown = [state.view(viewer), state.prompt(viewer)]
                    digest.update(json.dumps(shown, sort_keys=True).encode())
                again = GAME.state_from_dict(json.loads(json.dumps(state.to_dict())))
                digest.update(json.dumps(again.to_dict(), sort_keys=True).encode())
        views = [state.view(viewer) for viewer in [None, *range(players)]]
        digest.update(json.dumps([state.to_dict(), state.scores(), views], sort_keys=True).encode())
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("players", sorted(VIEW_DIGESTS))
def test_forty_games_show_every_screen_and_snapshot_as_before(players):
    assert views_digest(players) == VIEW_DIGESTS[players]
