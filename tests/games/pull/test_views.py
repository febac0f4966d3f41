"""PULL!'s common view block (sides, scores per seat, winners as seats, prompt), the
action names (describe) and the card faces."""

from __future__ import annotations

import json
import random

import pytest

from companion.games.pull import rules
from companion.games.pull.engine import FIRST, GAME, SECOND

from .helpers import new, saved, second, shoot

FACES = GAME.card_faces()


def play_out(state, chooser):
    while not state.is_over():
        seat = chooser.choice(state.to_act())
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
    return state


def test_a_team_game_shows_both_partners_scores_and_names_both_winners():
    state = play_out(GAME.new_state(4, {"hands": 1}, seed=3), random.Random(3))
    view = state.view(None)
    assert view["sides"] == [[0, 2], [1, 3]]
    a, b = state.totals
    assert view["scores"] == [a, b, a, b]  # seats 2 and 3 have a score too
    assert view["side_scores"] == [a, b]
    best = 0 if a > b else 1
    assert view["winners"] == [[0, 2], [1, 3]][best]  # both partners won
    assert view["winning_sides"] == [best]
    assert view["over"] and view["to_act"] == [] and view["prompt"] == "The game is over."
    assert state.winners() == view["winners"]


def test_individuals_are_one_seat_sides():
    state = GAME.new_state(3, seed=2)
    view = state.view(1)
    assert view["sides"] == [[0], [1], [2]] and view["scores"] == [0, 0, 0]
    assert view["winners"] == [] and view["players"] == 3 and view["game"] == "pull"
    assert view["seat"] == 1 and view["side"] == 1


def test_prompts_for_each_phase():
    # Seat 1 holds a trap card: its first shot must follow suit.
    state = new(3, {1: ["trap-7"], 2: []}, ["trap-T2", "skeet-T3"])
    assert state.phase == FIRST and state.to_act() == [1]
    assert (
        state.prompt(1)
        == "First shot: you hold a Skeet or Trap card: shoot one at the target of its suit."
    )
    assert state.prompt(0) == "Wait: another player is shooting."
    assert state.prompt(None) == "Hand 1, round 1: first shots."
    shoot(state, 1, "trap-7", 0)
    assert state.prompt(2).startswith("First shot: you hold no Skeet or Trap card")
    for seat in (2, 0):
        card = state.legal_actions(seat)[0]
        state.apply(seat, card)
    assert state.phase == SECOND
    assert state.prompt(1) == (
        "Second shot: pick a card for the Skeet target 10; all picks are shown together."
    )
    assert state.prompt(None) == "Hand 1, round 1: second shots."
    second(state, 1, saved(state)["hands"][1][0])
    assert state.prompt(1) == "Wait: the other second shots are still coming."


def test_two_players_take_second_shots_face_up_in_turn():
    state = new(2, {0: ["skeet-2"], 1: ["trap-3"]}, ["trap-T2", "skeet-T3"], dealer=1)
    shoot(state, 0, "skeet-2", 1)
    shoot(state, 1, "trap-3", 0)
    assert state.prompt(0) == "Second shot: pick a card; it goes on the Trap target 5."
    assert state.prompt(1) == "Wait: another player is shooting."


def test_describe_names_shots_and_targets():
    state = new(2, {0: ["trap-7"]}, ["trap-T2", "skeet-T3"], dealer=1)
    action = {"type": "shoot", "card": "trap-7", "target": 0}
    assert action in state.legal_actions(0)
    assert state.describe(action) == "Shoot Trap 7 at Trap target 5"
    assert state.describe({"type": "second", "card": "trap-7"}) == "Second shot: Trap 7"


def test_card_faces_cover_every_card_with_suit_symbols():
    assert len(FACES) == 72
    assert set(FACES) == set(rules.shot_ids()) | set(rules.target_ids())
    assert FACES["trap-7"] == {"text": "▲ Trap 7", "label": "Trap 7", "colour": "trap"}
    assert FACES["skeet-T4"] == {
        "text": "● Skeet target -5",
        "label": "Skeet target -5",
        "colour": "skeet",
    }
    suits = rules.suits()
    for card, face in FACES.items():
        suit = card.split("-")[0]
        assert face["text"].startswith(suits[suit]["symbol"] + " " + suits[suit]["name"])
    assert len({face["text"] for face in FACES.values()}) == 72


def card_ids(value, found):
    if isinstance(value, dict):
        for item in value.values():
            card_ids(item, found)
    elif isinstance(value, list):
        for item in value:
            card_ids(item, found)
    elif isinstance(value, str) and (rules.is_shot(value) or rules.is_target(value)):
        found.add(value)
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_play_every_action_described_and_every_card_has_a_face(players):
    chooser = random.Random(players)
    seen: dict[str, set] = {}
    state = GAME.new_state(players, {"hands": 2}, seed=players)
    cards: set[str] = set()
    while not state.is_over():
        for seat in [None, *range(players)]:
            view = state.view(seat)
            card_ids(view, cards)
            assert isinstance(view["prompt"], str)
            if seat is not None and seat in view["to_act"]:
                assert view["prompt"].startswith(("First shot:", "Second shot:"))
            elif seat is not None:
                assert view["prompt"].startswith("Wait:")
        seat = chooser.choice(state.to_act())
        for action in state.legal_actions(seat):
            seen.setdefault(action["type"], set()).add(state.describe(action))
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
    assert set(seen) == {"shoot", "second"}
    assert all(label.startswith("Shoot ") and " at " in label for label in seen["shoot"])
    assert all(label.startswith("Second shot: ") for label in seen["second"])
    assert cards and cards <= set(FACES)
    json.dumps(state.view(None))


def test_an_old_snapshot_with_sides_stored_still_loads():
    state = GAME.new_state(4, seed=9)
    saved = state.to_dict()
    saved["state"]["sides"] = [[0, 2], [1, 3]]  # as saved before the common view block
    again = GAME.state_from_dict(saved)
    assert again.sides() == [[0, 2], [1, 3]]
    assert again.view(0)["scores"] == [0, 0, 0, 0]


def test_blocked_first_shots_say_why_for_the_own_hand_only():
    state = new(3, {1: ["trap-7"], 2: []}, ["trap-T2", "skeet-T3"])
    blocked = state.blocked(1)
    hand = saved(state)["hands"][1]
    suits = {"trap", "skeet"}
    assert set(blocked) == {c for c in hand if rules.shot_suit(c) not in suits}
    assert blocked, "the filler cards match neither target"
    card = next(iter(blocked))
    why = blocked[card]
    assert why["anchor"] == "first-shot" and why["anchor"] in GAME.spec.anchors
    assert rules.shot_name(card) in why["reason"] and "Skeet or Trap" in why["reason"]
    assert state.blocked(0) == {} and state.blocked(None) == {}
    assert state.view(None)["doing"] == "to shoot"


def test_the_first_shot_prompt_says_an_before_a_vowel():
    start = GAME.new_state(3, seed=1)
    for targets in (["incomer-T1", "skeet-T2"], ["trap-T1", "skeet-T2"]):
        snapshot = start.to_dict()
        snapshot["state"]["targets"] = targets
        suits = {t.split("-")[0] for t in targets}
        seat = start.to_act()[0]
        snapshot["state"]["hands"][seat] = [f"{sorted(suits)[0]}-3"]
        state = GAME.state_from_dict(snapshot)
        prompt = state.prompt(seat)
        article = "an" if sorted(suits)[0][0] in "aeiou" else "a"
        assert prompt.startswith(f"First shot: you hold {article} "), prompt
