"""Pirate Tricks' own integer action path agrees with the dict contract."""

from __future__ import annotations

import random

import pytest

from companion.games import GAMES
from companion.games.base import IllegalAction
from companion.games.pirate_tricks import engine
from companion.games.pirate_tricks.engine import BID, BIDS, DITCH, PLAY

GAME = GAMES["pirate_tricks"]


def refusal(call, *args) -> str:
    with pytest.raises(IllegalAction) as caught:
        call(*args)
    return str(caught.value)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_ids_are_the_legal_list_and_apply_as_the_dicts_do(players):
    assert GAME.state_class.action_ids is engine.ACTION_IDS
    chooser = random.Random(players)
    for seed in range(3):
        by_id = GAME.new_state(players, {"rounds": 3}, seed=seed)
        by_dict = GAME.new_state(players, {"rounds": 3}, seed=seed)
        steps = 0
        while not by_id.is_over():
            for seat in range(players):
                ids = by_id.legal_ids(seat)
                assert [GAME.action_of(i) for i in ids] == by_id.legal_actions(seat)
            seat = chooser.choice(by_id.to_act())
            ids = by_id.legal_ids(seat)
            # A few ids that are not legal: refused with the dict's own words, no change.
            wrong = [i for i in chooser.sample(range(BIDS + 40), 12) if i not in ids]
            for bad in wrong[:3]:
                before = by_id.to_dict()
                said = refusal(by_id.apply_id, seat, bad)
                action = GAME.action_of(bad)
                assert said == refusal(by_dict.apply, seat, action)
                assert by_id.to_dict() == before
            action_id = chooser.choice(ids)
            by_id.apply_id(seat, action_id)
            by_dict.apply(seat, GAME.action_of(action_id))
            assert by_id.to_dict() == by_dict.to_dict()
            assert by_id.log[-1] == by_dict.log[-1]
            steps += 1
        assert steps > 100
        assert GAME.replay(by_id).to_dict() == by_id.to_dict()


def test_a_seat_not_to_act_is_refused_as_before():
    state = GAME.new_state(4, {"rounds": 3}, seed=9)
    chooser = random.Random(1)
    while state.phase != PLAY:
        seat = state.to_act()[0]
        state.apply_id(seat, chooser.choice(state.legal_ids(seat)))
    other = (state.turn + 1) % 4
    card = state.hands[other][0]
    said = refusal(state.apply_id, other, card)
    assert said == refusal(state.apply, other, GAME.action_of(card))
    assert said == f"It is seat {state.turn + 1}'s turn to play."
    assert state.legal_ids(other) == [] and state.legal_ids(9) == [] and state.legal_ids(-1) == []


def test_a_ditch_in_either_order_is_one_id():
    state = GAME.new_state(3, {"rounds": 3}, seed=2)
    chooser = random.Random(2)
    while state.phase != DITCH:
        seat = state.to_act()[0]
        state.apply_id(seat, chooser.choice(state.legal_ids(seat)))
    seat = state.to_act()[0]
    hand = state.hand_of(seat)
    forward = {"type": "ditch", "cards": [hand[0], hand[3]]}
    assert GAME.id_of(forward) in state.legal_ids(seat)
    assert GAME.id_of({"type": "ditch", "cards": [hand[3], hand[0]]}) is None
    state.apply(seat, {"type": "ditch", "cards": [hand[3], hand[0]]})  # apply sorts them
    assert state.log[-1] == [seat, forward]


def test_bids_beyond_the_first_table_are_numbered_when_someone_has_that_much_loon():
    state = GAME.new_state(3, {"rounds": 3}, seed=5)
    assert state.phase == BID
    saved = state.to_dict()
    rich = engine.FIRST_BIDS + 50
    saved["state"]["loon"][0] = rich
    state = GAME.state_from_dict(saved)
    assert len(engine.ACTION_IDS) > BIDS + rich
    ids = state.legal_ids(0)
    assert ids[-1] == BIDS + rich and GAME.action_of(ids[-1]) == {"type": "bid", "loon": rich}
    assert [GAME.action_of(i) for i in ids] == state.legal_actions(0)
    state.apply(0, {"type": "bid", "loon": rich})
    assert state.auction["bids"][0] == rich
