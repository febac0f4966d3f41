"""The second way of dealing: keyed orders (cards.keyed_order), and how a game keeps the
way it was dealt (State.dealing, Game.dealings)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from companion.games import GAMES, IllegalAction, cards
from companion.games.cards import keyed_order

SHOOT = GAMES["shoot"]


def chi_square(counts, cells: int, total: int) -> float:
    expected = total / cells
    return sum((counts.get(cell, 0) - expected) ** 2 / expected for cell in range(cells))


def test_an_order_is_a_permutation_fixed_by_its_text():
    for size in (2, 5, 52, 100):
        for count in (1, size // 2, size):
            order = keyed_order(f"7:deal:{size}", size, count)
            assert sorted(order) == list(range(size))
            assert order == keyed_order(f"7:deal:{size}", size, count)
    assert keyed_order("7:deal:0", 52, 52) != keyed_order("7:deal:1", 52, 52)


def test_the_same_on_every_platform():
    # BLAKE2b digests read as little-endian words: these places hold anywhere
    assert keyed_order("0:deal:0", 52, 10)[:10] == [47, 7, 23, 4, 11, 6, 13, 14, 27, 2]
    assert keyed_order("123:draw:0", 52, 52)[-5:] == [34, 20, 16, 13, 25]


def test_the_first_places_do_not_depend_on_how_many_are_asked_for():
    for text in ("1:deal:0", "99:draw:3", "x"):
        whole = keyed_order(text, 52, 52)
        for count in range(1, 53):
            assert keyed_order(text, 52, count)[:count] == whole[:count]


def test_every_order_of_a_small_pack_is_equally_likely():
    draws = 24_000
    orders = list(itertools.permutations(range(5)))
    counts = Counter(orders.index(tuple(keyed_order(f"u:{i}", 5, 5))) for i in range(draws))
    # 119 degrees of freedom: 173 is exceeded by chance once in a thousand runs
    assert chi_square(counts, len(orders), draws) < 173
    assert len(counts) == len(orders)


def test_every_card_is_as_likely_in_every_place_a_deal_uses():
    draws = 15_600
    firsts, fourths = Counter(), Counter()
    for i in range(draws):
        order = keyed_order(f"p:{i}", 52, 4)
        firsts[order[0]] += 1
        fourths[order[3]] += 1
    # 51 degrees of freedom: 87 is exceeded by chance once in a thousand runs
    assert chi_square(firsts, 52, draws) < 87
    assert chi_square(fourths, 52, draws) < 87


def test_a_word_from_the_favoured_sliver_is_passed_over(monkeypatch):
    """With a bound that turns half the words away, the order still takes the accepted
    words in turn (compared with a plain reading), and stays uniform."""

    def halved(size):
        pack, places, _, _ = cards._steps(size)
        accepted = tuple((1 << 31) // bound * bound for bound in places)
        return pack, places, accepted, min(accepted)

    monkeypatch.setattr(cards, "_STEPS", {size: halved(size) for size in (4, 52)})
    for i in range(200):
        data = f"h:{i}".encode()
        words = iter(cards._words(data, 200))
        taken = []
        for bound in range(52, 0, -1)[:20]:
            word = next(words)
            while word >= (1 << 31) // bound * bound:
                word = next(words)
            taken.append(word % bound)
        left = list(range(52))
        drawn = [left.pop(place) for place in taken]
        assert keyed_order(f"h:{i}", 52, 20) == drawn + left
    orders = list(itertools.permutations(range(4)))
    counts = Counter(orders.index(tuple(keyed_order(f"v:{i}", 4, 4))) for i in range(9_600))
    assert chi_square(counts, len(orders), 9_600) < 50  # 23 degrees of freedom


def test_a_new_game_deals_the_newest_way_and_keeps_it():
    state = SHOOT.new_state(3, {"schedule": [2, 2]}, seed=5)
    assert state.dealing == SHOOT.dealings[-1] == 2
    choice = random.Random(5).choice
    while state.deal_index == 0:  # into the second deal
        seat = choice(state.to_act())
        state.apply_id(seat, choice(state.legal_ids(seat)))
    snapshot = state.to_dict()
    assert snapshot["state"]["dealing"] == 2
    assert SHOOT.state_from_dict(snapshot).dealing == 2
    assert SHOOT.replay(state).to_dict() == snapshot  # the same two deals again


def test_a_game_stored_before_the_second_way_deals_the_first_way_again():
    first = SHOOT.new_state(4, seed=77, dealing=1)
    snapshot = first.to_dict()
    assert "dealing" not in snapshot["state"]  # as every snapshot stored before was
    restored = SHOOT.state_from_dict(snapshot)
    assert restored.dealing == 1
    restored.log = []
    assert SHOOT.replay(restored).to_dict() == snapshot
    second = SHOOT.new_state(4, seed=77)
    assert second.to_dict()["state"]["hands"] != snapshot["state"]["hands"]


@pytest.mark.parametrize("dealing", [0, 3, True, "2", 2.0])
def test_an_unknown_way_of_dealing_is_refused(dealing):
    with pytest.raises(IllegalAction, match="deals in these ways"):
        SHOOT.new_state(3, seed=1, dealing=dealing)


@pytest.mark.parametrize("slug", [slug for slug in GAMES if slug != "shoot"])
def test_games_with_one_way_keep_their_snapshots(slug):
    game = GAMES[slug]
    assert game.dealings == (1,)
    state = game.new_state(game.min_players, seed=3)
    assert state.dealing == 1
    assert "dealing" not in state.to_dict()["state"]
