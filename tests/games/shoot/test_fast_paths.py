"""Shoot!'s quicker ways to the same results: the dealer draw shuffles the pack only as far
as it is drawn, a deal seeds, shuffles and deals inline, the default options are checked
once per player count. The draws and deals here are the first way of dealing's
(``dealing=1``, every game stored before the second): they must never change."""

from __future__ import annotations

import pytest

from companion.games import GAMES
from companion.games.cards import CARD_IDS, rng, shuffled, standard_deck
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
            assert draw_for_dealer(seed, players, 1) == eager_draw(seed, players, range(52))


@pytest.mark.parametrize("deck", [[0, 13, 26, 39, 1], [0, 13, 26, 2, 15, 28, 41]])
def test_a_draw_that_runs_out_of_cards_shuffles_a_new_pack_from_the_same_generator(
    monkeypatch, deck
):
    # a small pack of many equal ranks: ties run the pack out, so it is shuffled again
    monkeypatch.setattr(engine, "DECK", deck)
    longest = 0
    for seed in range(500):
        for players in range(2, 6):
            rounds = draw_for_dealer(seed, players, 1)
            assert rounds == eager_draw(seed, players, deck)
            longest = max(longest, sum(len(r) for r in rounds))
    assert longest > len(deck)


def eager_keyed_draw(seed, players, deck):
    """The second way's draw written plainly: each pack in its whole keyed order."""
    from companion.games.cards import keyed_order

    def pack_of(number):
        return [deck[i] for i in keyed_order(f"{seed}:draw:{number}", len(deck), len(deck))]

    number, pack = 0, pack_of(0)
    contenders = list(range(players))
    rounds = []
    while True:
        if len(pack) < len(contenders):
            number += 1
            pack = pack_of(number)
        drawn = [(seat, pack.pop(0)) for seat in contenders]
        rounds.append([[seat, CARD_IDS[card]] for seat, card in drawn])
        top = max(card % 13 for _, card in drawn)
        contenders = [seat for seat, card in drawn if card % 13 == top]
        if len(contenders) == 1:
            return rounds


@pytest.mark.parametrize("deck", [range(52), [0, 13, 26, 39, 1], [0, 13, 26, 2, 15, 28, 41]])
def test_the_second_ways_draw_orders_a_pack_only_as_far_as_it_goes(monkeypatch, deck):
    # small packs of many equal ranks: ties run a pack out, so a new one is ordered
    monkeypatch.setattr(engine, "DECK", tuple(deck))
    longest = 0
    for seed in range(500):
        for players in range(2, 6):
            rounds = draw_for_dealer(seed, players, 2)
            assert rounds == eager_keyed_draw(seed, players, tuple(deck))
            longest = max(longest, sum(len(r) for r in rounds))
    assert longest > len(deck) or len(deck) == 52


def test_every_deal_is_random_shuffles_deal():
    """_start_deal's inline seeding and shuffle against random.Random's own, every deal of
    random games (the schedule's sizes, the dealer passing left, hands sorted by id)."""
    import random

    order = {card: index for index, card in enumerate(standard_deck())}
    for seed in [*range(30), 2**52 - 1]:
        for players in range(2, 6):
            state = GAME.new_state(players, seed=seed, dealing=1)
            choice = random.Random(seed).choice
            deals = 0
            while not state.is_over():
                if state.phase == engine.BID and not any(b is not None for b in state.bids):
                    deck = standard_deck()
                    random.Random(f"{seed}:deal:{state.deal_index}").shuffle(deck)
                    end = players * state.hand_size
                    first = state.dealer + 1
                    hands = [
                        deck[(seat - first) % players : end : players] for seat in range(players)
                    ]
                    snapshot = state.to_dict()["state"]
                    assert snapshot["hands"] == [sorted(h, key=order.get) for h in hands]
                    assert snapshot["trump"] == deck[end]
                    assert snapshot["stock"] == deck[end + 1 :]
                    deals += 1
                seat = choice(state.to_act())
                state.apply_id(seat, choice(state.legal_ids(seat)))
            assert deals == 10


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
