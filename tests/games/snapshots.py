"""A snapshot written by an engine of today (card ids as strings) must load on later
engines and play on exactly as it would have: each game keeps one such snapshot, taken in
the middle of a game, with what the engine of that day showed and did after it."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from companion.games.base import Game, State

#: The log and what a snapshot keeps of it (a snapshot of today holds only the log).
LOG_FIELDS = ("log", "moves", "last_action")


def log_free(state: dict) -> dict:
    """A snapshot's state without the log and its counters."""
    return {k: v for k, v in state.items() if k not in LOG_FIELDS}


def without_log(snapshot: dict) -> dict:
    return {**snapshot, "state": log_free(snapshot["state"])}


def check_snapshot_plays_on(game: Game, path: Path) -> None:
    """``path`` holds ``snapshot``; the ``views`` (table first, then each seat), ``legal``,
    ``blocked`` and ``hands`` per seat at that moment; the actions played ``then`` to the
    end, and the ``final`` snapshot (without log) and ``final_view`` (the table's)."""
    fixture = json.loads(path.read_text(encoding="utf-8"))
    snapshot = fixture["snapshot"]
    state = game.state_from_dict(json.loads(json.dumps(snapshot)))
    assert without_log(state.to_dict()) == without_log(snapshot), "the snapshot changed"
    seats = range(snapshot["state"]["players"])
    # Views may have gained public fields since the fixture was written: its own must hold.
    views = [state.view(seat) for seat in [None, *seats]]
    assert len(views) == len(fixture["views"])
    for view, old in zip(views, fixture["views"], strict=True):
        assert {k: view[k] for k in old} == old
    assert [state.legal_actions(seat) for seat in seats] == fixture["legal"]
    assert [state.blocked(seat) for seat in seats] == fixture["blocked"]
    assert [state.hand_of(seat) for seat in seats] == fixture["hands"]
    for seat, action in fixture["then"]:
        assert action in state.legal_actions(seat)
        state.apply(seat, action)
    assert state.is_over()
    assert without_log(state.to_dict()) == without_log(fixture["final"])
    final_view = state.view(None)
    assert {k: final_view[k] for k in fixture["final_view"]} == fixture["final_view"]


def check_unknown_card_refused(game: Game, path: Path, field: str) -> None:
    """A snapshot whose ``field`` (a list of hands) names a card the game has not is
    refused with :class:`ValueError` rather than loaded half-converted."""
    snapshot = json.loads(path.read_text(encoding="utf-8"))["snapshot"]
    snapshot["state"][field][0][0] = "no-such-card"
    try:
        game.state_from_dict(snapshot)
    except ValueError as error:
        assert "no-such-card" in str(error)
    else:
        raise AssertionError("a snapshot with an unknown card loaded")


def same_json(a, b) -> bool:
    """Equal as JSON, types included (True is not 1, 1.0 is not 1)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def check_writes_back_the_same_ids(game: Game, fixture: dict) -> State:
    """``fixture["snapshot"]`` (today's format) loads, writes back the same ids and hands
    each seat its own cards; returns the loaded state."""
    state = game.state_from_dict(copy.deepcopy(fixture["snapshot"]))
    cards = fixture["snapshot"]["state"]
    assert same_json(log_free(state.to_dict()["state"]), log_free(cards))
    for seat in range(state.players):
        assert state.hand_of(seat) == cards["hands"][seat]
        assert state.view(seat)["hand"] == cards["hands"][seat]
    return state


def check_plays_on_as_before(state: State, actions: list, final: dict) -> None:
    """``actions`` are legal in turn from ``state`` and end the game in ``final``."""
    for seat, action in actions:
        assert seat in state.to_act()
        assert action in state.legal_actions(seat)
        state.apply(seat, action)
    assert state.is_over()
    assert same_json(log_free(state.to_dict()["state"]), final)
