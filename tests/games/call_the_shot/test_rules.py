"""The cards of Call the Shot and how a duel is decided."""

from collections import Counter

from companion.games.call_the_shot import rules


def test_fourteen_cards_of_six_kinds():
    assert Counter(rules.DECK) == {
        "man_of_honour": 3,
        "deadly_aim": 3,
        "shoot_to_wound": 3,
        "shoot_to_kill": 2,
        "headshot": 2,
        "coward": 1,
    }
    assert len(rules.DECK) == 14


def test_printed_values_and_zero_for_the_rest():
    assert rules.POINTS == {
        "man_of_honour": 0,
        "deadly_aim": 0,
        "shoot_to_wound": 3,
        "shoot_to_kill": 5,
        "headshot": 9,
        "coward": 0,
    }


def test_a_deadly_aim_doubles_the_printed_value():
    assert rules.card_value("shoot_to_kill", aimed=True) == 10
    assert rules.card_value("shoot_to_kill", aimed=False) == 5
    assert rules.card_value("man_of_honour", aimed=True) == 0
