"""Shoot! rules: trick winners, deal points, winners, chips arithmetic, schedules."""

from __future__ import annotations

import pytest

from companion.games.base import IllegalAction
from companion.games.cards import CARD_INDEX, SUITS, trick_winner_ints
from companion.games.shoot import rules
from companion.games.spec import winners
from tests.games.reference import trick_winner


@pytest.mark.parametrize(
    ("plays", "trump", "winner"),
    [
        ([[0, "5H"], [1, "KH"], [2, "2H"]], "S", 1),  # highest of the suit led
        ([[0, "5H"], [1, "KH"], [2, "2S"]], "S", 2),  # any trump beats the suit led
        ([[0, "5H"], [1, "3S"], [2, "QS"]], "S", 2),  # highest trump
        ([[0, "5H"], [1, "AC"], [2, "AD"]], "S", 0),  # off-suit aces never win
        ([[0, "2S"], [1, "AH"]], "S", 0),  # trump led and followed by nobody
        ([[0, "TD"], [1, "JD"], [2, "9D"], [3, "AS"], [4, "QD"]], "H", 4),
    ],
)
def test_trick_winner(plays, trump, winner):
    """The engine's trick (cards as integers) and the plain reading agree with the rule."""
    assert trick_winner(plays, trump) == winner
    ints = [[seat, CARD_INDEX[card]] for seat, card in plays]
    assert trick_winner_ints(ints, SUITS.index(trump)) == winner


@pytest.mark.parametrize(
    ("bid", "tricks", "points"),
    [(0, 0, 5), (3, 3, 8), (10, 10, 15), (2, 3, -2), (3, 2, -3), (0, 4, -1), (5, 0, -5)],
)
def test_deal_points(bid, tricks, points):
    assert rules.deal_points(bid, tricks) == points


def test_winners_ties_share():
    # the highest total wins; Shoot! uses the shared helper
    assert winners([3, 9, 9, -1]) == [1, 2]
    assert winners([-4, -6]) == [0]


def test_buy_in():
    assert rules.buy_in(4) == (200, [-50, -50, -50, -50])


def test_settle_pays_in_before_paying_out():
    settled = rules.settle_chips(10, [0, 0], [12, -3])
    # 10 + 3 = 13 covers the 12 claimed without a top-up
    assert settled == {"pot": 1, "stacks": [12, -3], "top_ups": 0}


def test_settle_tops_up_when_the_pot_is_short():
    settled = rules.settle_chips(5, [10, -15], [15, -2])
    # 5 + 2 = 7 < 15: everyone adds 50 (pot 107), then 15 is paid out
    assert settled == {"pot": 92, "stacks": [10 - 50 + 15, -15 - 2 - 50], "top_ups": 1}
    twice = rules.settle_chips(0, [0, 0], [120, 1])
    # 0 + 0 < 121: two top-ups of 2 x 50 are needed
    assert twice["top_ups"] == 2 and twice["pot"] == 200 - 121


def test_share_pot_keeps_odd_chips():
    assert rules.share_pot(151, [0, 0, 0]) == {"pot": 1, "stacks": [50, 50, 50], "shared": 50}
    assert rules.share_pot(0, [1, -1]) == {"pot": 0, "stacks": [1, -1], "shared": 0}


def test_dealer_passes_left():
    assert [rules.dealer_of(3, k, 4) for k in range(6)] == [3, 0, 1, 2, 3, 0]


def test_check_schedule_messages():
    assert rules.check_schedule(5, [10, 1]) == [10, 1]
    with pytest.raises(IllegalAction, match="Deal 2: with 5 players each hand holds 1 to 10"):
        rules.check_schedule(5, [10, 11])
    assert rules.max_hand(2) == 25 and rules.max_hand(4) == 12
