"""Golden digests of random games: a game played by random legal ids from a seed, each
choice, snapshot and score fed to a digest. A test keeps the digests an engine gave before
its inside changed, so a stored game replays identically whatever the engine looks like."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from typing import Any


def play_into(
    digest: Any,  # a hashlib object
    state: Any,
    choice: Callable,
    snapshot_every: int,
    after: Callable[[Any], None] | None = None,
) -> None:
    """Play ``state`` to its end by ids drawn with ``choice`` (one of several seats to act
    drawn first), feeding ``digest`` each seat, legal list and choice, the snapshot every
    ``snapshot_every`` moves, then whatever ``after(state)`` adds, and at the end the
    snapshot and the scores."""
    while not state.is_over():
        seats = state.to_act()
        seat = seats[0] if len(seats) == 1 else choice(seats)
        legal = state.legal_ids(seat)
        action_id = choice(legal)
        digest.update(repr((seat, legal, action_id)).encode())
        state.apply_id(seat, action_id)
        if state.moves % snapshot_every == 0:
            digest.update(json.dumps(state.to_dict(), sort_keys=True).encode())
        if after is not None:
            after(state)
    digest.update(json.dumps([state.to_dict(), state.scores()], sort_keys=True).encode())


def seen_games_digest(
    game: Any, players: int, games: int, options_for: Callable[[int], dict], views_every: int
) -> str:
    """The digest of ``games`` random games (seed k: the game's seed ``k * 7919``, the
    choices ``random.Random(k)``'s), options ``options_for(k)``: :func:`play_into` with a
    snapshot every 7th move, and besides each action taken and, every ``views_every``
    moves, every phone's view and prompt; the table's view at each game's end."""
    digest = hashlib.sha256()

    def seen(state: Any) -> None:
        digest.update(repr(state.last_action).encode())
        if state.moves % views_every == 0:
            for viewer in [None, *range(players)]:
                shown = [state.view(viewer), state.prompt(viewer)]
                digest.update(json.dumps(shown, sort_keys=True).encode())

    for seed in range(games):
        state = game.new_state(players, options_for(seed), seed=seed * 7919)
        play_into(digest, state, random.Random(seed).choice, snapshot_every=7, after=seen)
        digest.update(json.dumps(state.view(None), sort_keys=True).encode())
    return digest.hexdigest()[:16]
