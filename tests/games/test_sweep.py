"""One random-playthrough sweep over every registered game (and the test-only fifth game),
parametrized by game and player count; the size comes from one setting, ``SWEEP_GAMES``
(games per game and player count, default 250).

A game's own checks come from ``tests/games/<slug>/checks.py`` when it has one:
``leak_check(state, seat, view)``, optional ``conservation_check(state)`` and
``sweep_options(players, chooser)`` (the options each game is played with). Beside the
shared checks of :mod:`tests.games.sweep`, every view must carry the common block and every
legal action a description.
"""

from __future__ import annotations

import importlib
import os

import pytest

from companion.games import GAMES
from tests import fifth_game
from tests.games.sweep import run_sweep

SWEEP_GAMES = int(os.environ.get("SWEEP_GAMES", "250"))
COMMON = (
    "game", "seat", "players", "sides", "scores", "winners", "over",
    "to_act", "doing", "prompt",
)  # fmt: skip


def all_games():
    games = dict(GAMES)
    games.setdefault(fifth_game.SLUG, fifth_game.GAME)
    return games


CASES = [
    pytest.param(slug, players, id=f"{slug}-{players}")
    for slug, game in all_games().items()
    for players in range(game.min_players, game.max_players + 1)
]


def checks_of(slug: str):
    try:
        return importlib.import_module(f"tests.games.{slug}.checks")
    except ModuleNotFoundError as error:
        if not f"tests.games.{slug}.checks".startswith(error.name or "?"):
            raise
        return None


def common_block_check(own_leak_check):
    def check(state, seat, view):
        for key in COMMON:
            assert key in view, f"the view has no {key!r}"
        players = state.players
        assert view["game"] == state.slug and view["seat"] == seat and view["players"] == players
        assert sorted(s for side in view["sides"] for s in side) == list(range(players))
        assert len(view["scores"]) == players
        assert set(view["winners"]) <= set(range(players))
        assert view["over"] == state.is_over() and (view["winners"] != []) <= view["over"]
        assert isinstance(view["prompt"], str)
        if seat is not None:
            for action in state.legal_actions(seat):
                text = state.describe(action)
                assert isinstance(text, str) and text, f"no words for {action}"
        if own_leak_check is not None:
            own_leak_check(state, seat, view)

    return check


@pytest.mark.parametrize(("slug", "players"), CASES)
def test_sweep(slug, players):
    game = all_games()[slug]
    checks = checks_of(slug)
    totals = run_sweep(
        game,
        SWEEP_GAMES,
        [players],
        options=getattr(checks, "sweep_options", None),
        leak_check=common_block_check(getattr(checks, "leak_check", None)),
        conservation_check=getattr(checks, "conservation_check", None),
        deep_every=25,
    )
    assert totals["games"] == SWEEP_GAMES
    faces = game.card_faces({})
    assert all({"text", "label", "colour"} <= set(face) for face in faces.values())
