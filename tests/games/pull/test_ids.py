"""PULL!'s own integer action path (``ACTION_IDS``): it names exactly the legal actions,
applies as the dict does, refuses with the dict's words, and leaves the snapshot as it was.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from companion.games.base import IllegalAction, same_json
from companion.games.pull.deck import SHOT
from companion.games.pull.engine import ACTION_IDS, GAME, SECONDS, PullState
from tests.games.snapshots import check_plays_on_as_before, log_free

FIXTURE = json.loads(Path(__file__).with_name("snapshot_today.json").read_text())
CASES = [(2, {}), (3, {}), (4, {"teams": True}), (4, {"teams": False})]


def fork(state):
    copy_ = GAME.state_from_dict(state.to_dict())
    copy_.log = []
    return copy_


def refusal(method, seat, action) -> str:
    with pytest.raises(IllegalAction) as error:
        method(seat, action)
    return str(error.value)


def test_the_numbering_is_fixed_by_the_code():
    # Ids are stored nowhere yet, but bots and benchmarks in other processes share them.
    assert PullState.action_ids is ACTION_IDS
    assert len(ACTION_IDS) == 3 * len(SHOT) == 144
    assert GAME.action_of(0) == {"type": "shoot", "card": SHOT[0], "target": 0}
    assert GAME.action_of(2 * 13 + 1) == {"type": "shoot", "card": SHOT[13], "target": 1}
    assert GAME.action_of(SECONDS + 47) == {"type": "second", "card": SHOT[47]}
    assert GAME.id_of({"type": "shoot", "card": SHOT[5], "target": True}) is None
    assert GAME.id_of({"type": "second", "card": SHOT[5], "target": 0}) is None


@pytest.mark.parametrize(("players", "options"), CASES)
def test_ids_are_the_legal_list_and_apply_as_the_dicts(players, options):
    checked = 0
    for seed in range(3):
        chooser = random.Random(seed)
        state = GAME.new_state(players, {"hands": 2, **options}, seed=seed)
        while not state.is_over():
            for seat in range(players):
                ids = state.legal_ids(seat)
                legal = state.legal_actions(seat)
                actions = [GAME.action_of(i) for i in ids]
                assert actions == legal and all(map(same_json, actions, legal))
                assert (ids != []) == (seat in state.to_act())
            seat = chooser.choice(state.to_act())
            ids = state.legal_ids(seat)
            # Ids that are not legal now: refused with the dict's words, nothing changed.
            wrong = [i for i in range(len(ACTION_IDS)) if i not in ids]
            for bad in chooser.sample(wrong, 4):
                before = state.to_dict()
                by_id = refusal(state.apply_id, seat, bad)
                by_dict = refusal(state.apply, seat, GAME.action_of(bad))
                assert by_id == by_dict
                assert state.to_dict() == before
            other = next((s for s in range(players) if s not in state.to_act()), None)
            if other is not None and ids:
                by_id = refusal(state.apply_id, other, ids[0])
                assert by_id == refusal(state.apply, other, GAME.action_of(ids[0]))
            action_id = chooser.choice(ids)
            by_dict, by_id = fork(state), fork(state)
            by_dict.apply(seat, GAME.action_of(action_id))
            by_id.apply_id(seat, action_id)
            assert same_json(by_id.to_dict(), by_dict.to_dict())
            assert by_id.log == by_dict.log
            state.apply_id(seat, action_id)
            checked += 1
        assert all(state.legal_ids(seat) == [] for seat in range(players))
    assert checked > 100


def test_seats_that_are_not_seats_get_no_ids():
    state = GAME.new_state(3, seed=1)
    seat = state.to_act()[0]
    assert state.legal_ids(seat)
    for bad in (True, float(seat), str(seat), None, -1, 3):
        assert state.legal_ids(bad) == []


def test_a_snapshot_of_today_plays_on_by_ids_to_the_same_end():
    state = GAME.state_from_dict(copy.deepcopy(FIXTURE["snapshot"]))
    for seat, action in FIXTURE["actions"]:
        state.apply_id(seat, GAME.id_of(action))
    assert same_json(log_free(state.to_dict()["state"]), FIXTURE["final"])


def test_a_game_played_by_ids_saves_ids_and_replays_by_dicts():
    state = GAME.new_state(3, {"hands": 1}, seed=8)
    chooser = random.Random(8)
    played = []
    start = fork(state)
    while not state.is_over():
        seat = chooser.choice(state.to_act())
        action_id = chooser.choice(state.legal_ids(seat))
        played.append([seat, GAME.action_of(action_id)])
        state.apply_id(seat, action_id)
    saved = state.to_dict()["state"]
    assert all(type(card) is str for hand in saved["hands"] for card in hand)
    assert all(type(card) is str for card in saved["unused"] + saved["target_deck"])
    check_plays_on_as_before(start, played, log_free(saved))
