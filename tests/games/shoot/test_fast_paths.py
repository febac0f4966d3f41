"""Shoot!'s quicker ways to the same results: the dealer draw shuffles the pack only as far
as it is drawn, the default options are checked once per player count."""

from __future__ import annotations

import pytest

from companion.games import GAMES
from companion.games.cards import CARD_IDS, rng, shuffled
from companion.games.shoot import engine
from companion.games.shoot.engine import draw_for_dealer

GAME = GAMES["shoot"]


def eager_draw(seed, players, deck):
    """The draw as it was first written: the whole pack shuffled, cards popped off."""
    generator = rng(seed, "draw")
    pack = shuffled(deck, generator)
    contenders = list(range(players))
    rounds = []
    while True:
        if len(pack) < len(contenders):
            pack = shuffled(deck, generator)
        drawn = [(seat, pack.pop()) for seat in contenders]
        rounds.append([[seat, CARD_IDS[card]] for seat, card in drawn])
        top = max(card % 13 for _, card in drawn)
        contenders = [seat for seat, card in drawn if card % 13 == top]
        if len(contenders) == 1:
            return rounds


def test_the_draw_is_the_whole_shuffles_draw():
    for seed in range(3000):
        for players in range(2, 6):
            assert draw_for_dealer(seed, players) == eager_draw(seed, players, range(52))


@pytest.mark.parametrize("deck", [[0, 13, 26, 39, 1], [0, 13, 26, 2, 15, 28, 41]])
def test_a_draw_that_runs_out_of_cards_shuffles_a_new_pack_from_the_same_generator(
    monkeypatch, deck
):
    # a small pack of many equal ranks: ties run the pack out, so it is shuffled again
    monkeypatch.setattr(engine, "DECK", deck)
    longest = 0
    for seed in range(500):
        for players in range(2, 6):
            rounds = draw_for_dealer(seed, players)
            assert rounds == eager_draw(seed, players, deck)
            longest = max(longest, sum(len(r) for r in rounds))
    assert longest > len(deck)


def test_default_options_are_checked_once_and_each_state_has_its_own_copy():
    first = GAME.new_state(3, seed=1)
    second = GAME.new_state(3, {}, seed=2)
    assert first.options == second.options == GAME.check_options(3, {"chips": False})
    assert first.options["schedule"] is not second.options["schedule"]
    first.options["schedule"].append(1)
    assert GAME.new_state(3, seed=3).options == second.options
    assert GAME.new_state(5, seed=1).options["schedule"] == list(range(10, 0, -1))


def test_a_loaded_state_plays_on_without_changing_its_snapshot():
    import copy
    import random

    for players, chips in ((2, False), (4, True), (5, True)):
        options = {"schedule": [3, 2, 2], "chips": chips}
        state = GAME.new_state(players, options, seed=players)
        rng = random.Random(players)
        for _ in range(rng.randrange(5, 20)):  # somewhere in the first or second deal
            seat = rng.choice(state.to_act())
            state.apply_id(seat, rng.choice(state.legal_ids(seat)))
        snapshot = state.to_dict()
        kept = copy.deepcopy(snapshot)
        loaded = GAME.state_from_dict(snapshot)
        assert loaded.to_dict() == kept
        twin = GAME.state_from_dict(copy.deepcopy(kept))
        while not loaded.is_over():  # both play the same moves to the end
            seat = rng.choice(loaded.to_act())
            action = rng.choice(loaded.legal_ids(seat))
            loaded.apply_id(seat, action)
            twin.apply_id(seat, action)
        assert snapshot == kept  # nothing the loaded state changed was shared with it
        assert loaded.to_dict() == twin.to_dict()
        assert len(loaded.results) == 3
        assert (loaded.chips is not None) == chips


def test_the_next_deal_is_shuffled_only_when_its_cards_are_read(monkeypatch):
    import random

    from companion.bots import bot_for
    from companion.bots.search import playout

    state = GAME.new_state(4, {"schedule": [3, 2]}, seed=7)
    expected = GAME.new_state(4, {"schedule": [3, 2]}, seed=7)
    bot = bot_for(GAME)
    start = state.view(0)
    calls = []
    monkeypatch.setattr(engine, "shuffled", lambda *args: calls.append(args) or shuffled(*args))
    playout(bot, start, state, random.Random(1))  # to the end of the first deal
    assert state.deal_index == 1 and state.phase == "bid" and calls == []
    assert "hands" not in vars(state)
    assert len(state.hands[0]) == 2 and len(calls) == 1  # read: dealt now, once
    assert state.stock and state.trump not in state.stock
    # the same cards as a state that dealt them at once, whatever is read first
    for seat in range(4):
        expected.apply(seat, {"type": "bid", "bid": 0})
    while expected.deal_index == 0:
        seat = expected.to_act()[0]
        expected.apply_id(seat, expected.legal_ids(seat)[0])
    snapshot = expected.to_dict()["state"]  # to_dict deals what is not dealt yet
    dealt = state.to_dict()["state"]
    assert [dealt[k] for k in ("hands", "trump", "stock")] == [
        snapshot[k] for k in ("hands", "trump", "stock")
    ]
