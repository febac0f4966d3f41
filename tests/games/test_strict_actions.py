"""Actions are checked by JSON type as well as by value, for every game.

Python says ``True == 1 == 1.0``, so a check by ``==`` alone would let JSON ``true`` or
``1.0`` through as the number 1. Along random games (the sweep's driver and options), every
legal action is accepted at its step, and each look-alike of the action played (a number
turned into true/false, a float or a string, a key added or left out) is refused with a
message and changes nothing: through an engine's own ``_is_legal`` hook where it has one,
through the comparison with the legal list where it has none (the test-only fifth game).
"""

from __future__ import annotations

import random

import pytest

from companion.games.base import IllegalAction, action_key, same_json
from tests import fifth_game
from tests.games.sweep import play_randomly
from tests.games.test_sweep import CASES, all_games, checks_of

GAMES_PER_CASE = 3


def look_alikes(value):
    """Values that Python's == may confuse with ``value`` but JSON keeps apart."""
    kind = type(value)
    if kind is int:
        found = [float(value), str(value)]
        if value in (0, 1):
            found.append(bool(value))
        return found
    if kind is str:
        return [[value]]
    if kind is list:
        found = []
        for i, item in enumerate(value):
            found += [[*value[:i], other, *value[i + 1 :]] for other in look_alikes(item)]
        return found
    if kind is dict:
        return [{**value, key: other} for key, item in value.items() for other in look_alikes(item)]
    return []


def wrong_versions(action):
    """``action`` with one value swapped for a look-alike, one key added or one left out."""
    versions = [
        {**action, key: other}
        for key, value in action.items()
        if key != "type"
        for other in look_alikes(value)
    ]
    versions.append({**action, "extra": 1})
    versions += [{k: v for k, v in action.items() if k != key} for key in action if key != "type"]
    return versions


def test_look_alikes_cover_bools_floats_and_strings():
    assert look_alikes(1) == [1.0, "1", True] and look_alikes(0)[-1] is False
    assert look_alikes(["a", 2]) == [[["a"], 2], ["a", 2.0], ["a", "2"]]
    assert {"type": "bid", "bid": True} in wrong_versions({"type": "bid", "bid": 1})


def test_action_key_keeps_the_json_type():
    one = action_key({"type": "bid", "bid": 1})
    for other in (True, 1.0, "1", [1], None):
        assert action_key({"type": "bid", "bid": other}) != one
    assert action_key({"bid": 1, "type": "bid"}) == one  # key order does not matter
    assert action_key({"cards": [1, 2]}) != action_key({"cards": [2, 1]})
    assert action_key({"x": (1,)}) != action_key({"x": (1,)})  # not JSON: equal to nothing


@pytest.mark.parametrize(("slug", "players"), CASES)
def test_every_legal_action_is_accepted_and_no_look_alike(slug, players):
    game = all_games()[slug]
    sweep_options = getattr(checks_of(slug), "sweep_options", None)
    refused = 0
    for seed in range(GAMES_PER_CASE):
        chooser = random.Random(seed)
        options = sweep_options(players, chooser) if sweep_options else None

        def step(state, chooser=chooser):
            nonlocal refused
            if state.is_over():
                return
            seat = chooser.choice(state.to_act())
            legal = state.legal_actions(seat)
            for action in legal:
                copy = state._legal_copy(seat, action)
                assert copy == action and copy is not action, f"{action} refused"
            before = state.to_dict()
            action = chooser.choice(legal)
            keys = {action_key(a) for a in legal}
            for wrong in wrong_versions(action):
                if action_key(wrong) in keys:
                    continue  # another legal action (e.g. a bid of 1 beside a bid of "1")
                with pytest.raises(IllegalAction) as refusal:
                    state.apply(seat, wrong)
                assert str(refusal.value), f"{wrong} refused without a message"
                refused += 1
            assert state.to_dict() == before, "a refused action changed the state"

        play_randomly(game, players, seed, options, on_step=step)
    assert refused > 0


class Clumsy(fifth_game.HighCardState):
    """The fifth game with a refusal reason that trips over a number it did not expect."""

    def _explain(self, seat, action):
        return "You hold " + action["card"]  # TypeError when "card" is a number


def test_a_refusal_whose_reason_fails_still_answers_with_a_message():
    state = Clumsy(2, {"cards": 3}, 5, None)
    state._setup()
    before = state.to_dict()
    with pytest.raises(IllegalAction, match="That move is not allowed now"):
        state.apply(0, {"type": "play", "card": 7})
    assert state.to_dict() == before
    with pytest.raises(IllegalAction, match="You hold c99"):
        state.apply(0, {"type": "play", "card": "c99"})


class Hooked(fifth_game.HighCardState):
    """The fifth game checking actions directly, counting how often it lists them."""

    listed = 0
    applied: list = []

    def _apply(self, seat, action):
        Hooked.applied.append(action)
        super()._apply(seat, action)

    def _legal(self, seat):
        Hooked.listed += 1
        return super()._legal(seat)

    def _is_legal(self, seat, action):
        card = action.get("card")
        return (
            len(action) == 2
            and action["type"] == "play"
            and type(card) is str
            and card[1:].isdigit()
            and int(card[1:]) in self.hands[seat]
        )


def test_the_is_legal_hook_replaces_the_list_and_its_copy_is_private():
    state = Hooked(2, {"cards": 3}, 5, None)
    state._setup()
    card = f"c{state.hands[0][0]}"
    action = {"type": "play", "card": card}
    Hooked.listed = 0
    state.apply(0, action)
    assert Hooked.listed == 0, "apply built the legal list although the game checks directly"
    applied = Hooked.applied[-1]
    assert applied == action and applied is not action
    action["card"] = "changed"
    assert applied["card"] == card


def test_same_json_agrees_with_action_key():
    values = [1, True, 1.0, "1", [1], [True], {"a": 1}, {"a": 1.0}, {"a": [1, {"b": 0}]},
              {"a": [1, {"b": False}]}, None, 0, False]  # fmt: skip
    for a in values:
        for b in values:
            if a == b:
                assert same_json(a, b) == (action_key(a) == action_key(b)), (a, b)


class Doubled(fifth_game.HighCardState):
    """The fifth game offering one action twice: as a bool first, then as the number."""

    def _legal(self, seat):
        return [{"type": "play", "card": "c0", "n": True}, {"type": "play", "card": "c0", "n": 1}]

    def _apply(self, seat, action):
        self.last = action


def test_membership_looks_past_a_look_alike_for_the_exact_action():
    state = Doubled(2, {"cards": 3}, 5, None)
    state._setup()
    state.apply(0, {"type": "play", "card": "c0", "n": 1})
    assert type(state.last["n"]) is int
    state.apply(0, {"type": "play", "card": "c0", "n": True})
    assert state.last["n"] is True
    with pytest.raises(IllegalAction):
        state.apply(0, {"type": "play", "card": "c0", "n": 1.0})
