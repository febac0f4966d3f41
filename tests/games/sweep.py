"""The generic random-playthrough sweep every engine runs (after OpenSpiel's random_sim_test).

Each game's tests call :func:`run_sweep` with its own leak check: a function
``leak_check(state, seat, view)`` that fails when ``view`` (``state.view(seat)``, or the
table view when ``seat`` is None) holds anything that seat must not see, and optionally a
``conservation_check(state)`` that fails when a card is lost or doubled.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from companion.games.base import Game, IllegalAction, State

MAX_ACTIONS = 20_000


def play_randomly(
    game: Game,
    players: int,
    seed: int,
    options: dict | None = None,
    *,
    on_step: Callable[[State], None] | None = None,
) -> State:
    """Play one game with uniformly random legal actions; checks the contract on the way."""
    chooser = random.Random(seed * 7919 + players)
    # A long seed, so that finding it in a view (check_views) cannot be a coincidence.
    state = game.new_state(players, options, seed=1_000_000_007 * (seed + 1))
    for _ in range(MAX_ACTIONS):
        if state.is_over():
            assert state.to_act() == []
            return state
        movers = state.to_act()
        assert movers, "nobody can act, yet the game is not over"
        seat = chooser.choice(movers)
        legal = state.legal_actions(seat)
        assert legal, f"seat {seat} is to act but has no legal action"
        json.dumps(legal)
        action = chooser.choice(legal)
        state.apply(seat, action)
        if on_step is not None:
            on_step(state)
    raise AssertionError(f"game did not end within {MAX_ACTIONS} actions")


def check_round_trip(game: Game, state: State) -> None:
    d = state.to_dict()
    assert json.loads(json.dumps(d)) == d, "to_dict is not JSON-safe"
    assert game.state_from_dict(d).to_dict() == d, "state_from_dict does not round-trip"


def check_replay(game: Game, state: State) -> None:
    assert game.replay(state).to_dict() == state.to_dict(), "replaying the log differs"


def check_views(state: State, leak_check: Callable[[State, int | None, dict], None] | None) -> None:
    for seat in [None, *range(state.players)]:
        view = state.view(seat)
        text = json.dumps(view)
        assert str(state.seed) not in text, "the seed leaked into a view"
        if leak_check is not None:
            leak_check(state, seat, view)


def check_illegal_changes_nothing(state: State, chooser: random.Random) -> None:
    """A seat that may not act, and a made-up action, are refused without any change."""
    before = state.to_dict()
    for seat in range(state.players):
        for bogus in ({"type": "nonsense"}, {"type": "play", "card": "no-such-card"}):
            try:
                state.apply(seat, bogus)
            except IllegalAction as error:
                assert str(error), "an IllegalAction needs a message"
            else:
                raise AssertionError(f"{bogus} was accepted")
    idle = [s for s in range(state.players) if s not in state.to_act()]
    if idle and state.to_act():
        mover = chooser.choice(state.to_act())
        action = chooser.choice(state.legal_actions(mover))
        with pytest.raises(IllegalAction):
            state.apply(chooser.choice(idle), action)
    assert state.to_dict() == before, "a refused action changed the state"


def run_sweep(
    game: Game,
    games: int,
    player_counts: list[int],
    *,
    options: Callable[[int, random.Random], dict | None] | None = None,
    leak_check: Callable[[State, int | None, dict], None] | None = None,
    conservation_check: Callable[[State], None] | None = None,
    deep_every: int = 10,
) -> dict[str, int]:
    """Play ``games`` seeded random games; about one in ``deep_every`` checks every step.

    Returns counters (games, actions) so a test can assert the sweep really ran.
    """
    totals = {"games": 0, "actions": 0}
    for seed in range(games):
        chooser = random.Random(seed)
        players = player_counts[seed % len(player_counts)]
        opts = options(players, chooser) if options else None
        # Whole blocks of consecutive seeds, so deep games cover every player count.
        deep = (seed // len(player_counts)) % deep_every == 0

        def step(state: State, deep=deep, chooser=chooser) -> None:
            if conservation_check is not None:
                conservation_check(state)
            if deep:
                check_views(state, leak_check)
                check_illegal_changes_nothing(state, chooser)

        state = play_randomly(game, players, seed, opts, on_step=step)
        check_round_trip(game, state)
        check_replay(game, state)
        check_views(state, leak_check)
        assert len(state.scores()) == players
        totals["games"] += 1
        totals["actions"] += len(state.log)
    return totals
