"""The Shoot! strong bids: walked by the tree (ShootBot.bid_tree, worlds.BidWalks), the
bids searched (ShootBot.bids_to_share) and the others' bids in the worlds (OTHERS_SHARE)."""

from __future__ import annotations

import random

import pytest

from companion.bots import bot_for, decide, search
from companion.games import GAMES
from companion.games.cards import CARD_IDS
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


def _random_hands(size, count=1500):
    rng = random.Random(size)
    deck = list(range(52))
    for i in range(count):
        rng.shuffle(deck)
        yield sorted(deck[:size]), deck[size], i % 4 == 0


@pytest.mark.parametrize("size", [10, 4])
def test_the_others_bid_their_share_of_the_tricks_on_average(size, monkeypatch):
    """With OTHERS_SHARE the others' bids in the worlds average that share of a seat's
    tricks (the plain estimate times OTHERS_BID does not: 1.0 at 10 cards, 1.5 at 4)."""
    from companion.games.shoot import policy

    monkeypatch.setattr(policy, "OTHERS_SHARE", 0.9)
    bids = [policy.others_bid(h, t, 4, leads) for h, t, leads in _random_hands(size)]
    assert sum(bids) / len(bids) == pytest.approx(0.9 * size / 4, abs=0.25)
    monkeypatch.setattr(policy, "OTHERS_SHARE", 0.0)
    bids = [policy.others_bid(h, t, 4, leads) for h, t, leads in _random_hands(size)]
    assert abs(sum(bids) / len(bids) - 0.9 * size / 4) > 0.4


def test_the_searched_bids_reach_the_fair_share_of_a_long_weak_hand(monkeypatch):
    # ten low cards, spades trumps: the estimate is near 0, a seat's share of ten tricks
    # at 4 players 2.5
    hand = ["2C", "3C", "4C", "2D", "3D", "4D", "2H", "3H", "4H", "5H"]
    rest = [c for c in CARD_IDS if c not in hand and c != "AS"]
    deal = {"dealer": 3, "hands": [hand, rest[:10], rest[10:20], rest[20:30]], "trump": "AS"}
    state = GAME.new_state(4, {"schedule": [10]}, seed=3, deal=deal)
    view, legal = state.view(0), state.legal_actions(0)
    monkeypatch.setattr(BOT, "bids_to_share", False)
    plain = {a["bid"] for a in BOT.candidates(view, legal, random.Random(1))}
    monkeypatch.setattr(BOT, "bids_to_share", True)
    wide = {a["bid"] for a in BOT.candidates(view, legal, random.Random(1))}
    assert max(plain) < 4 and {0, 1, 2, 3, 4} <= wide and max(wide) == 4
