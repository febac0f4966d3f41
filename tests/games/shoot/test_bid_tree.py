"""The Shoot! strong bids walked by the tree (ShootBot.bid_tree, worlds.BidWalks)."""

from __future__ import annotations

import random

import pytest

from companion.bots import bot_for, decide, search
from companion.games import GAMES
from companion.games.shoot import worlds as fast
from companion.games.shoot.engine import BIDS
from tests.games.test_bots import positions

GAME = GAMES["shoot"]
BOT = bot_for(GAME)
LIMITS = {"iterations": 48, "seconds": 1e9}


def _bid_positions(players):
    for state, seat in positions(GAME.slug, players):
        view = state.view(seat)
        if BOT.should_act(view) and view["phase"] == "bid":
            yield state, seat, view


@pytest.mark.parametrize("players", [3, 4])
def test_a_bid_walked_and_finished_is_valued_as_the_bid_played_out(players):
    """A bid as the walk's first move, the deal then finished by the rollout policy, is
    worth to the seat what :meth:`ShootWorlds.value` gives the bid in the same world on
    the same random numbers; walking leaves the world as it was."""
    checked = 0
    for index, (_state, seat, view) in enumerate(_bid_positions(players)):
        plain, walks = fast.ShootWorlds(view, "own"), fast.BidWalks(view, "own")
        assert walks.walks and not plain.walks
        world, _weight = walks.draw(random.Random(index))
        before = repr(world)
        for bid in range(view["hand_size"] + 1):
            walk = walks.walk(world)
            walks.play(walk, BIDS + bid)
            assert walk[5][seat] == bid and walks.mover(walk) == (view["dealer"] + 1) % players
            value = walks.finish(walk, random.Random(3))[seat]
            assert value == plain.value(world, BIDS + bid, random.Random(3))
            checked += 1
        assert repr(world) == before
    assert checked > 10


def test_the_strong_bid_goes_to_the_tree_when_bid_tree_is_on(monkeypatch):
    called = []
    real_halving = search.halving
    monkeypatch.setattr(
        "companion.bots.tree.halving", lambda *a: called.append("halving") or real_halving(*a)
    )
    state = GAME.new_state(4, {"schedule": [5]}, seed=2)
    view = state.view(0)
    monkeypatch.setattr(BOT, "bid_tree", True)
    assert isinstance(BOT.search_worlds(view), fast.BidWalks)
    choice = decide(GAME, view, state.legal_actions(0), "strong", random.Random(1), LIMITS)
    assert choice["type"] == "bid" and called == []
    monkeypatch.setattr(BOT, "bid_tree", False)
    decide(GAME, view, state.legal_actions(0), "strong", random.Random(1), LIMITS)
    assert called == ["halving"]


def test_the_bid_tree_bids_one_with_the_ace_of_trumps_and_zero_with_a_low_card(monkeypatch):
    monkeypatch.setattr(BOT, "bid_tree", True)
    deal = {"dealer": 3, "hands": [["9C"], ["KD"], ["AS"], ["3H"]], "trump": "5S"}
    state = GAME.new_state(4, {"schedule": [1]}, seed=5, deal=deal)
    for seat, bid in ((2, 1), (3, 0)):
        view = state.view(seat)
        choice = decide(GAME, view, state.legal_actions(seat), "strong", random.Random(1), LIMITS)
        assert choice["bid"] == bid
