"""The common view block (sides, scores per seat, winners seats, prompts for every phase),
the words of every legal action (describe), the card faces and the Play board module."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from companion.games.call_the_shot.rules import CARDS, POINTS

from ..node import kit_script, run_board
from .helpers import GAME, act, duel, make_deal, new, snap

FACES = GAME.card_faces({})


def card_ids_in(value, found=None):
    found = set() if found is None else found
    if isinstance(value, dict):
        for item in value.values():
            card_ids_in(item, found)
    elif isinstance(value, list):
        for item in value:
            card_ids_in(item, found)
    elif isinstance(value, str) and value in CARDS:
        found.add(value)
    return found


def test_card_faces_name_every_card_with_its_value():
    assert set(FACES) == set(CARDS)
    assert FACES["headshot"] == {"text": "Headshot (9)", "label": "Headshot, worth 9", "colour": ""}
    assert FACES["man_of_honour"]["text"] == "Man of Honour (0)"
    assert FACES["shoot_to_wound"]["text"] == "Shoot to Wound (3)"
    assert FACES["shoot_to_kill"]["label"] == "Shoot to Kill, worth 5"
    for card, face in FACES.items():
        assert f"({POINTS[card]})" in face["text"] and str(POINTS[card]) in face["label"]
    assert GAME.card_faces() == FACES


def test_describe_says_the_card_and_the_claim():
    state = new(make_deal(["headshot"], ["coward"]))
    assert state.describe({"type": "play", "card": "headshot", "claim": "coward"}) == (
        "Play Headshot, say “Coward”"
    )
    assert state.describe({"type": "call"}) == "Call the shot"


def test_the_common_block_at_the_start():
    state = new(make_deal(challenger=1))
    view = state.view(None)
    assert view["game"] == "call_the_shot" and view["players"] == 2 and view["seat"] is None
    assert view["sides"] == [[0], [1]] and view["scores"] == [0, 0]
    assert view["winners"] == [] and view["over"] is False and view["to_act"] == [1]
    assert view["prompt"] == "Duel 1: the challenger opens."
    assert state.view(0)["prompt"] == "Wait: your opponent is to play."
    assert "Man of Honour" in state.view(1)["prompt"]
    assert "call the shot" not in state.view(1)["prompt"]


def test_prompts_through_a_duel():
    hand = ["headshot", "man_of_honour", "deadly_aim", "shoot_to_wound"]
    state = new(make_deal([*hand, "man_of_honour"], [*hand, "deadly_aim"]))
    act(state, "headshot")
    assert state.view(None)["prompt"] == "Duel 1: 1 card played."
    assert "call the shot" not in state.view(1)["prompt"]
    act(state, "headshot")
    assert state.view(0)["prompt"].endswith("or call the shot.")
    assert state.view(None)["prompt"] == "Duel 1: 2 cards played."
    act(state, "man_of_honour", "man_of_honour", "man_of_honour", "deadly_aim", "deadly_aim")
    act(state, "deadly_aim", "shoot_to_wound", "shoot_to_wound")
    assert snap(state)["hands"][0] == [] and state.to_act() == [0]
    assert state.view(0)["prompt"] == "You have no cards left: call the shot."


def test_scores_and_winners_once_over():
    state, result = duel(["headshot"], ["shoot_to_wound"], 0, shots_to_lose=1)
    assert result["shot"] == 1 and state.is_over()
    view = state.view(None)
    assert view["scores"] == [0, 1] and view["winners"] == [0] and view["over"] is True
    assert view["prompt"] == "The game is over."
    assert state.view(0)["prompt"] == "The game is over: you won."
    assert state.view(1)["prompt"] == "The game is over: you lost."
    assert state.winners() == [0] and state.scores() == [0, 1]


def test_a_tie_keeps_the_scores():
    state, result = duel(["headshot"], ["headshot"], 0)
    assert result["shot"] is None and state.view(None)["scores"] == [0, 0]
    assert state.view(None)["winners"] == [] and state.winners() == []


@pytest.mark.parametrize("seed", range(30))
def test_random_play_has_words_for_every_action_and_faces_for_every_card(seed):
    state = new(seed=seed, shots_to_lose=1 + seed % 3)
    chooser = random.Random(seed)
    kinds = set()
    while not state.is_over():
        (seat,) = state.to_act()
        for viewer in (None, 0, 1):
            view = state.view(viewer)
            assert card_ids_in(view) <= set(FACES)
            assert view["scores"] == state.shots and isinstance(view["prompt"], str)
        assert state.view(seat)["prompt"] and not state.view(None)["prompt"].startswith("Wait")
        legal = state.legal_actions(seat)
        for action in legal:
            label = state.describe(action)
            kinds.add(action["type"])
            if action["type"] == "call":
                assert label == "Call the shot"
            else:
                card, claim = GAME.card_faces()[action["card"]], FACES[action["claim"]]
                name = card["text"].rsplit(" (", 1)[0]
                said = claim["text"].rsplit(" (", 1)[0]
                assert label == f"Play {name}, say “{said}”"
        state.apply(seat, chooser.choice(legal))
    assert kinds == {"play", "call"}
    assert state.view(None)["winners"] == [1 - state.loser]
    json.dumps(state.view(None))


# -- the Play board module, under Node with a stand-in kit ------------------------------

BOARD = Path(__file__).resolve().parents[3] / "static/js/games/call_the_shot.js"

SCRIPT = kit_script(
    """
const view = input;
const env = { view, seat: 0, to_act: view.to_act };
const label = mod.optionLabel({}, "Play Headshot, say “Coward”", env, kit);
console.log(JSON.stringify({ parts: mod.board(env, names, kit), label }));
""",
    ["Ada", "Bo"],
)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")
def test_board_draws_from_the_view():
    state, _ = duel(["deadly_aim", "shoot_to_kill"], ["headshot", "man_of_honour"], 0)
    seat = state.challenger
    card = next(c for c in snap(state)["hands"][seat] if c != "man_of_honour")
    act(state, (card, "coward"), snap(state)["hands"][1 - seat][0])
    view = state.view(seat)
    result = run_board(SCRIPT, BOARD, view)
    assert result["label"] == "Say “Coward”"
    facts, table, heading, line = result["parts"]
    assert facts["facts"][0] == ["Duel", "2"]
    assert facts["facts"][1] == ["Challenger", ["Ada", "Bo"][seat]]
    assert facts["facts"][2] == ["Shots taken", "Ada 1, Bo 0 (out at 3)"]
    assert facts["facts"][3] == ["Face up", {"cards": view["face_up"]}]
    assert facts["facts"][4] == ["Face down", "2 cards"]
    assert facts["facts"][5] == ["Your plays", f"<{card}> (said <coward>)"]
    claims = dict(table["table"])
    assert claims["Shots"] == [1, 0] and claims["Cards in hand"] == view["hand_counts"]
    assert claims["Claims this duel"][seat] == "<coward>"
    assert heading["text"] == "Last duel (1)"
    assert line["text"].startswith("Ada called. Revealed: Ada: <shoot_to_kill>, doubled = 10;")
    assert "Bo: <man_of_honour> = 0" in line["text"] and line["text"].endswith(
        "Result: Ada took a shot (honour)."
    )
