"""The integer action path agrees with the dict contract, for every game.

``legal_ids`` / ``apply_id`` / ``Game.action_of`` / ``Game.id_of`` (base.py) are what bots
and the engine benchmark drive. A game with its own numbering (``State.action_ids``) reads
the dict contract through it; any other game is numbered by the fallback table. Along
random games (the sweep's driver and options), every seat's ids name exactly its legal
actions in order, and applying an action as a dict or as its id gives the same snapshot.
"""

from __future__ import annotations

import random

import pytest

from companion.games.base import ActionIds, IllegalAction, State, action_key, same_json
from tests import fifth_game
from tests.games.sweep import play_randomly
from tests.games.test_strict_actions import wrong_versions
from tests.games.test_sweep import CASES, SWEEP_GAMES, all_games, checks_of

GAMES_PER_CASE = max(2, SWEEP_GAMES // 20)
OWN_IDS = [slug for slug, game in all_games().items() if game.state_class.action_ids is not None]


def same_actions(a: list, b: list) -> bool:
    return len(a) == len(b) and all(x == y and same_json(x, y) for x, y in zip(a, b, strict=True))


def fork(game, state: State) -> State:
    copy = game.state_from_dict(state.to_dict())
    copy.log = []  # the snapshot holds no log: keep the fork's own actions
    return copy


def test_games_number_their_own_actions_and_the_test_game_falls_back():
    # Which games do is each game's own test (tests/games/<slug>/test_spec.py).
    assert OWN_IDS  # and the test-only game uses the fallback:
    assert fifth_game.SLUG not in OWN_IDS


@pytest.mark.parametrize(("slug", "players"), CASES)
def test_ids_name_the_legal_actions_and_apply_alike(slug, players):
    game = all_games()[slug]
    sweep_options = getattr(checks_of(slug), "sweep_options", None)
    applied = 0
    for seed in range(GAMES_PER_CASE):
        chooser = random.Random(seed)
        options = sweep_options(players, chooser) if sweep_options else None

        def step(state, chooser=chooser):
            nonlocal applied
            for seat in range(state.players):
                ids = state.legal_ids(seat)
                legal = state.legal_actions(seat)
                assert same_actions([game.action_of(i) for i in ids], legal), seat
                assert [game.id_of(action) for action in legal] == ids
            if state.is_over():
                assert all(state.legal_ids(seat) == [] for seat in range(state.players))
                return
            seat = chooser.choice(state.to_act())
            ids = state.legal_ids(seat)
            if state.action_ids is not None:  # the direct check agrees with the list
                for other in range(len(state.action_ids)):
                    assert state._id_legal(seat, other) == (other in ids), other
            action_id = chooser.choice(ids)
            size = len(game.state_class.ids())
            wrong = [i for i in range(-1, size + 1) if i not in ids]
            for bad in chooser.sample(wrong, min(3, len(wrong))):
                before = state.to_dict()
                with pytest.raises(IllegalAction):
                    state.apply_id(seat, bad)
                assert state.to_dict() == before, bad
            by_dict, by_id = fork(game, state), fork(game, state)
            by_dict.apply(seat, game.action_of(action_id))
            by_id.apply_id(seat, action_id)
            assert by_id.to_dict() == by_dict.to_dict(), "the id and the dict differ"
            assert same_json(by_id.log[-1], by_dict.log[-1])
            applied += 1

        play_randomly(game, players, seed, options, on_step=step)
    assert applied > 0


@pytest.mark.parametrize(("slug", "players"), CASES)
def test_a_game_played_by_ids_replays_from_its_log(slug, players):
    game = all_games()[slug]
    chooser = random.Random(players)
    state = game.new_state(players, seed=4242 + players)
    for _ in range(400):
        if state.is_over():
            break
        seat = chooser.choice(state.to_act())
        state.apply_id(seat, chooser.choice(state.legal_ids(seat)))
    assert state.log and all(type(action) is dict for _, action in state.log)
    assert game.replay(state).to_dict() == state.to_dict()


@pytest.mark.parametrize("slug", OWN_IDS)
def test_an_own_table_reads_every_action_and_look_alike_as_its_lookup_does(slug):
    game = all_games()[slug]
    state_class = game.state_class
    table = state_class.action_ids
    parse = state_class._id_of
    assert len(table) > 1
    for action_id in range(len(table)):
        action = game.action_of(action_id)
        assert game.id_of(action) == action_id
        if parse is not None:
            assert parse(action) == action_id
            for wrong in wrong_versions(action):
                # As apply sees it: only a dict whose "type" is a string reaches the hook.
                if type(wrong.get("type")) is str:
                    assert parse(wrong) == table.id_of(wrong), wrong
    for bad in (-1, len(table), True, 1.0, "1", None):
        with pytest.raises(KeyError):
            game.action_of(bad)
    assert game.id_of({"type": "no-such-move"}) is None
    assert game.id_of("play") is None


@pytest.mark.parametrize("slug", sorted(all_games()))
def test_the_log_and_the_table_share_nothing_with_callers(slug):
    game = all_games()[slug]
    players = game.min_players
    first = game.new_state(players, seed=77)
    second = game.new_state(players, seed=77)
    seat = first.to_act()[0]
    action_id = first.legal_ids(seat)[0]
    original = game.action_of(action_id)

    handed = game.action_of(action_id)
    handed["type"] = "changed"  # a caller's copy
    for action in first.legal_actions(seat):
        action["type"] = "changed"  # the dicts the dict contract hands out
    first.apply_id(seat, action_id)
    logged = first.log[-1][1]
    assert logged == original and logged is not handed
    logged["type"] = "changed too"  # whoever holds the state changes its log
    assert game.action_of(action_id) == original
    second.apply_id(seat, action_id)
    assert second.log[-1][1] == original and second.log[-1][1] is not logged
    assert first.legal_ids(first.to_act()[0]) == second.legal_ids(second.to_act()[0])


@pytest.mark.parametrize("slug", sorted(all_games()))
def test_a_wrong_id_is_refused_with_a_message_and_changes_nothing(slug):
    game = all_games()[slug]
    state = game.new_state(game.min_players, seed=5)
    seat = state.to_act()[0]
    legal = state.legal_ids(seat)
    size = len(game.state_class.ids())
    before = state.to_dict()
    wrong = [-1, size, True, float(legal[0]), str(legal[0]), None, [legal[0]]]
    wrong += [i for i in range(size) if i not in legal][:5]  # numbered but not legal now
    for bad in wrong:
        with pytest.raises(IllegalAction) as refusal:
            state.apply_id(seat, bad)
        assert str(refusal.value), bad
        assert state.to_dict() == before, bad
    waiting = [s for s in range(state.players) if s not in state.to_act()]
    for other in [*waiting, -1, state.players, "0"]:
        assert state.legal_ids(other) == []
        with pytest.raises(IllegalAction):
            state.apply_id(other, legal[0])
        assert state.to_dict() == before


def test_an_illegal_id_gets_the_games_own_reason():
    game = all_games()["shoot"]
    state = game.new_state(3, seed=8)
    for seat in range(3):
        state.apply_id(seat, state.legal_ids(seat)[0])  # every bid in: play starts
    seat = state.to_act()[0]
    foreign = next(i for i in range(52) if i not in state.legal_ids(seat))
    card = game.action_of(foreign)["card"]
    with pytest.raises(IllegalAction) as by_id:
        state.apply_id(seat, foreign)
    with pytest.raises(IllegalAction) as by_dict:
        state.apply(seat, {"type": "play", "card": card})
    assert str(by_id.value) == str(by_dict.value) and "don't hold" in str(by_id.value)


def test_the_fallback_numbers_each_action_once_per_state_class():
    game = fifth_game.GAME
    state = game.new_state(2, seed=3)
    seat = state.to_act()[0]
    ids = state.legal_ids(seat)
    assert ids == state.legal_ids(seat) and len(set(ids)) == len(ids)
    assert [game.id_of(action) for action in state.legal_actions(seat)] == ids
    assert game.id_of({"type": "play", "card": "never offered"}) is None
    assert game.state_class.ids() is game.state_class.ids()
    assert State.ids() is not game.state_class.ids()


def test_an_action_table_refuses_a_double_and_keeps_json_types_apart():
    with pytest.raises(ValueError, match="twice"):
        ActionIds([{"type": "bid", "bid": 1}, {"bid": 1, "type": "bid"}])
    table = ActionIds([{"type": "bid", "bid": 1}, {"type": "bid", "bid": True}])
    assert table.id_of({"type": "bid", "bid": 1}) == 0
    assert table.id_of({"type": "bid", "bid": True}) == 1
    assert table.id_of({"type": "bid", "bid": 1.0}) is None
    assert table.flat and table.add({"type": "x", "cards": [1]}) == 2 and not table.flat
    copy = table.copy_of(2)
    copy["cards"].append(2)
    assert table.action_of(2) == {"type": "x", "cards": [1]}
    assert action_key(table.action_of(1)) == action_key({"type": "bid", "bid": True})
