"""Illegal actions are refused with a message a player understands, changing nothing."""

import pytest

from companion.games.base import IllegalAction

from .helpers import act, make_deal, new

DEAL = make_deal(
    ["man_of_honour", "headshot", "deadly_aim", "shoot_to_wound", "shoot_to_kill"],
    ["man_of_honour", "headshot", "deadly_aim", "shoot_to_wound", "coward"],
)


def play(card, claim=None):
    return {"type": "play", "card": card, "claim": claim or card}


@pytest.mark.parametrize(
    ("moves", "seat", "action", "message"),
    [
        ([], 0, play("man_of_honour", "headshot"), "Man of Honour can't lie"),
        ([], 0, {"type": "call"}, "before you have played a card yourself"),
        (["headshot"], 1, {"type": "call"}, "before you have played a card yourself"),
        ([], 0, play("coward"), "don't have a Coward in your hand"),
        ([], 0, play("shoot_to_kill", "joker"), "not a card you can claim"),
        ([], 0, play("joker"), "'joker' is not a Call the Shot card"),
        ([], 0, {"type": "play", "card": "headshot"}, "A play needs the card"),
        ([], 0, {**play("headshot"), "seat": 1}, "A play needs the card"),
        ([], 0, {"type": "pass"}, "either play a card"),
        ([], 0, {"card": "headshot"}, 'must be an object with a "type"'),
        ([], 0, "headshot", 'must be an object with a "type"'),
        ([], 1, play("headshot"), "your opponent's turn"),
        (["headshot"], 0, play("shoot_to_kill"), "your opponent's turn"),
        ([], 2, play("headshot"), "no seat 2"),
        (["headshot", "headshot"], 0, {"type": "call", "now": True}, 'just {"type": "call"}'),
        (["headshot", "headshot"], 0, play("headshot"), "don't have a Headshot"),
        ([], 0, play(["headshot"]), "not a Call the Shot card"),
    ],
)
def test_illegal_action(moves, seat, action, message):
    state = new(DEAL)
    act(state, *moves)
    before = state.to_dict()
    with pytest.raises(IllegalAction, match=message) as caught:
        state.apply(seat, action)
    assert caught.value.message == str(caught.value)
    assert state.to_dict() == before


def test_after_the_game_is_over_nothing_is_accepted():
    state = new(DEAL, shots_to_lose=1)
    act(state, "headshot", "headshot", "call")  # seat 1 holds the Coward
    assert state.is_over()
    before = state.to_dict()
    for seat in (0, 1):
        for action in ({"type": "call"}, play("man_of_honour")):
            with pytest.raises(IllegalAction, match="The game is over"):
                state.apply(seat, action)
    assert state.to_dict() == before
