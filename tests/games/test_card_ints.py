"""Standard cards as small integers (companion/games/cards.py) agree with the card ids."""

from __future__ import annotations

import random

import pytest

from companion.games.cards import (
    CARD_IDS,
    CARD_INDEX,
    SUIT_INDEX,
    SUITS,
    card_ids,
    card_ints,
    rank_of,
    standard_deck,
    suit_of,
    suit_run,
    trick_winner_ints,
)
from tests.games.reference import Trick, deal_one_at_a_time, follow_suit


def test_integers_are_places_in_the_deck_and_sort_suit_by_suit_low_to_high():
    assert list(CARD_IDS) == standard_deck() and len(set(CARD_IDS)) == 52
    assert card_ids(card_ints(standard_deck())) == standard_deck()
    assert CARD_INDEX["2C"] == 0 and CARD_INDEX["AS"] == 51
    for card in standard_deck():
        assert SUITS[SUIT_INDEX[CARD_INDEX[card]]] == suit_of(card)
    shuffled = random.Random(3).sample(standard_deck(), 52)
    by_id = sorted(shuffled, key=lambda c: (SUITS.index(suit_of(c)), rank_of(c)))
    assert card_ids(sorted(card_ints(shuffled))) == by_id


def test_an_unknown_id_is_refused():
    with pytest.raises(KeyError):
        card_ints(["1H"])


@pytest.mark.parametrize("seed", range(200))
def test_suit_runs_and_trick_winners_match_the_id_versions(seed):
    chooser = random.Random(seed)
    deck = standard_deck()
    hand = sorted(chooser.sample(range(52), chooser.randint(0, 13)))
    ids = card_ids(hand)
    for suit, letter in enumerate(SUITS):
        assert card_ids(suit_run(hand, suit)) == [c for c in ids if suit_of(c) == letter]
        assert card_ids(suit_run(hand, suit) or hand) == follow_suit(ids, letter)
    plays = [[seat, CARD_INDEX[card]] for seat, card in enumerate(chooser.sample(deck, 5))]
    trump = chooser.choice([None, 0, 1, 2, 3])
    for size in range(1, 6):
        part = plays[:size]
        expected = Trick.of(
            [[seat, CARD_IDS[card]] for seat, card in part], None if trump is None else SUITS[trump]
        ).winner
        assert trick_winner_ints(part, trump) == expected
    assert trick_winner_ints([], trump) is None


def test_shuffled_gives_random_shuffles_order_and_dealing_goes_round_the_table():
    from companion.games.cards import rng, shuffled

    for seed in range(300):
        for size in (0, 1, 2, 5, 14, 52, 77):
            deck = list(range(size))
            expected = list(deck)
            rng(seed, "deal", size).shuffle(expected)
            generator = rng(seed, "deal", size)
            assert shuffled(deck, generator) == expected, (seed, size)
            assert generator.getstate() == _after_shuffle(seed, size)
    deck = [f"c{i}" for i in range(30)]
    for players in range(1, 6):
        for count in range(0, 30 // players + 1):
            for first in range(players):
                hands = [[] for _ in range(players)]
                for i in range(players * count):
                    hands[(first + i) % players].append(deck[i])
                assert deal_one_at_a_time(deck, players, count, first) == hands


def _after_shuffle(seed, size):
    from companion.games.cards import rng

    generator = rng(seed, "deal", size)
    generator.shuffle(list(range(size)))
    return generator.getstate()


def test_the_standard_faces_are_the_decks_text_name_and_colour():
    from companion.games.cards import standard_faces

    faces = standard_faces()
    assert list(faces) == standard_deck()
    assert faces["TD"] == {"text": "10♦", "label": "10 of diamonds", "colour": "red"}
    assert faces["QS"] == {"text": "Q♠", "label": "queen of spades", "colour": "black"}
    assert {face["colour"] for card, face in faces.items() if suit_of(card) in "HD"} == {"red"}
