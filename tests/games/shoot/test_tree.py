"""The Shoot! strong card play: the tree search (companion.bots.tree) on ShootWorlds."""

from __future__ import annotations

import copy
import random

import pytest

from companion.bots import bot_for, decide, search, tree
from companion.bots.tree import tree_search
from companion.games import GAMES
from companion.games.cards import CARD_INDEX
from companion.games.shoot import worlds as fast
from tests.games.shoot.checks import perturb
from tests.games.test_bots import positions

GAME = GAMES["shoot"]
BOT = bot_for(GAME)
LIMITS = {"iterations": 48, "seconds": 1e9}


def _play_positions(players):
    for state, seat in positions(GAME.slug, players):
        view = state.view(seat)
        if BOT.should_act(view) and view["phase"] == "play":
            yield state, seat, view


def test_the_strong_card_play_is_the_tree_and_the_bids_are_halved(monkeypatch):
    called = []
    real_halving = search.halving
    monkeypatch.setattr(
        "companion.bots.tree.halving", lambda *a: called.append("halving") or real_halving(*a)
    )
    assert BOT.strong_search == "tree"
    state = GAME.new_state(4, {"schedule": [5]}, seed=2)
    view = state.view(0)
    assert view["phase"] == "bid"
    decide(GAME, view, state.legal_actions(0), "strong", random.Random(1), LIMITS)
    assert called == ["halving"]
    assert not BOT.search_worlds(view).walks
    state, seat, view = next(_play_positions(4))
    assert BOT.search_worlds(view).walks


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_tree_reads_nothing_hidden(players, monkeypatch):
    """The same view with the hidden cards dealt again (and sealed bids changed) walks the
    same worlds, in the same order, and plays the same card; the view is left as it was."""
    walked = []
    real_walk = fast.ShootWorlds.walk
    monkeypatch.setattr(
        fast.ShootWorlds,
        "walk",
        lambda self, world: walked.append(copy.deepcopy(world)) or real_walk(self, world),
    )
    rng = random.Random(players)
    checked = 0
    for index, (state, seat, view) in enumerate(_play_positions(players)):
        legal = state.legal_actions(seat)
        if len(legal) < 2:
            continue
        twin = GAME.state_from_dict(perturb(state, seat, rng))
        assert twin.view(seat) == view
        before = copy.deepcopy(view)
        walked.clear()
        mine = tree_search(BOT, GAME, view, legal, random.Random(index), LIMITS)
        seen = list(walked)
        walked.clear()
        theirs = tree_search(BOT, GAME, twin.view(seat), legal, random.Random(index), LIMITS)
        assert mine == theirs and seen == walked and seen
        # the worlds deal the others only cards this seat has not seen, and not the real ones
        real = [sorted(hand) for hand in state.hands]  # integer cards
        shown = {CARD_INDEX[c] for c in [*view["hand"], *view["played"], view["trump"]]}
        shown |= {CARD_INDEX[c] for _, c in view["trick"]}
        for hands, _bids in seen:
            assert not shown & {c for s, hand in enumerate(hands) if s != seat for c in hand}
        assert any(hands != real for hands, _bids in seen)
        assert view == before, "the search changed the view it was given"
        checked += 1
    assert checked >= 5


def test_a_walk_played_by_the_easy_player_is_valued_as_the_fast_worlds_value_it(monkeypatch):
    """Walking a world a card at a time (the easy player's card for every seat) and
    finishing it gives the deciding seat what ShootWorlds.value gives the same first card,
    with no noise; every card walked is one the world allows."""
    monkeypatch.setattr(fast, "NOISE", 0.0)
    checked = 0
    for players in (3, 4):
        for index, (state, seat, view) in enumerate(_play_positions(players)):
            worlds = BOT.search_worlds(view)
            world, _ = worlds.draw(random.Random(index))
            for card in search.root_ids(GAME, state.legal_actions(seat)):
                walk = worlds.walk(world)
                assert worlds.mover(walk) == seat and card in worlds.moves(walk)
                worlds.play(walk, card)
                for _ in range(3):  # a few cards by the walk, the rest by the playout
                    mover = worlds.mover(walk)
                    if mover is None:
                        break
                    move = worlds.preferred(walk)
                    assert move in worlds.moves(walk)
                    worlds.play(walk, move)
                values = worlds.finish(walk, random.Random(1))
                assert values[seat] == worlds.value(world, card, random.Random(1))
                checked += 1
    assert checked > 50


def test_the_tree_runs_to_its_count_when_told_not_to_settle(monkeypatch):
    """With every choice judged settled at once, the tree stops at its first look
    (SETTLE_EVERY worlds) unless its limits' settle is 0 (the expert level's): then it
    walks all its worlds."""
    monkeypatch.setattr("companion.bots.tree.settled", lambda arms, alive: 0)
    finished = []
    real_finish = fast.ShootWorlds.finish
    monkeypatch.setattr(
        fast.ShootWorlds,
        "finish",
        lambda self, walk, rng: finished.append(1) or real_finish(self, walk, rng),
    )
    state, seat, view = next(
        (s, seat, v) for s, seat, v in _play_positions(4) if len(s.legal_actions(seat)) > 1
    )
    legal = state.legal_actions(seat)
    counts = {}
    for settle in (1, 0):
        finished.clear()
        limits = {"iterations": 40, "seconds": 1e9, "settle": settle}
        tree_search(BOT, GAME, view, legal, random.Random(1), limits)
        counts[settle] = len(finished)
    assert counts == {1: tree.SETTLE_EVERY * len(legal), 0: 40 * len(legal)}


def test_the_tree_plays_the_move_of_its_best_root_mean():
    """tree_search plays the move root_means rates best (the same walks, seeded alike),
    and every move's mean is a payoff the walks found."""
    checked = 0
    for index, (state, seat, view) in enumerate(_play_positions(4)):
        legal = state.legal_actions(seat)
        if len(legal) < 2:
            continue
        means = tree.root_means(
            BOT.search_worlds(view), GAME, view, legal, random.Random(index), LIMITS
        )
        played = tree_search(BOT, GAME, view, legal, random.Random(index), LIMITS)
        assert len(means) == len(legal) and all(m > -1e9 for m in means)
        assert played == legal[means.index(max(means))]
        checked += 1
    assert checked > 10
