"""Shoot! common view block: sides, scores per seat, winners as seats, prompts, action
names and card faces."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest

from companion.games.cards import standard_deck

from ..node import kit_script, run_board
from .helpers import GAME, SCRIPT_PLAYS, bid_all, play, scripted

COMMON = (
    "game", "seat", "players", "sides", "scores", "winners", "over",
    "to_act", "doing", "prompt",
)  # fmt: skip


def test_common_block_in_every_view():
    state = scripted()
    for seat in (None, 0, 1, 2):
        view = state.view(seat)
        assert all(key in view for key in COMMON)
        assert view["game"] == "shoot" and view["seat"] == seat and view["players"] == 3
        assert view["sides"] == [[0], [1], [2]]
        assert view["scores"] == [0, 0, 0] and view["winners"] == [] and not view["over"]
        assert view["to_act"] == [0, 1, 2]


def test_scores_per_seat_and_winners_as_seats():
    state = scripted()
    bid_all(state, [1, 0, 1])  # points 6, -3, 6
    play(state, SCRIPT_PLAYS)
    view = state.view(None)
    assert view["scores"] == [6, -3, 6] == state.scores()
    assert view["winners"] == [0, 2] and view["over"]
    assert view["prompt"] == "The game is over."


def test_prompts_while_bidding():
    state = scripted()
    assert state.prompt(0) == "Bid: how many tricks will you take? (0–4)"
    assert state.prompt(None) == "Deal 1 of 1: 0 of 3 bids are in."
    state.apply(0, {"type": "bid", "bid": 2})
    assert state.prompt(0).startswith("Your bid of 2 is in: you may change it")
    assert state.prompt(1) == "Bid: how many tricks will you take? (0–4)"
    assert state.prompt(None) == "Deal 1 of 1: 1 of 3 bids are in."
    assert "2" not in state.view(1)["prompt"], "another seat's sealed bid stays hidden"


def test_prompts_while_playing():
    state = scripted()
    bid_all(state, [1, 1, 1])
    assert state.prompt(1) == "Lead: play any card (♦ is trump)."
    assert state.prompt(0) == "Wait: another player is to lead."
    assert state.prompt(None) == "Deal 1 of 1: trick 1 of 4."
    play(state, [(1, "KH")])
    assert state.prompt(2) == "K♥ led — follow ♥: play a heart."
    assert state.prompt(0) == "K♥ led."
    assert state.prompt(None) == "Deal 1 of 1: trick 1 of 4, K♥ led."
    play(state, SCRIPT_PLAYS[1:8])  # trick 3: KS led, 5S followed; seat 1 holds no spade
    assert state.prompt(1) == "K♠ led — no ♠ in your hand: play a trump or any card (♦ is trump)."
    assert state.prompt(None) == "Deal 1 of 1: trick 3 of 4, K♠ led."


def test_doing_tells_bidding_from_playing():
    state = scripted()
    assert state.view(None)["doing"] == "to bid"
    bid_all(state, [1, 1, 1])
    assert state.view(0)["doing"] == "to play"
    play(state, SCRIPT_PLAYS)
    assert state.view(None)["doing"] == ""


def test_blocked_cards_say_why_for_the_own_hand_only():
    state = scripted()
    assert state.blocked(1) == {}, "while bidding the hand is only to look at"
    bid_all(state, [1, 1, 1])
    play(state, [(1, "KH")])
    # Seat 2 holds 4H: its other cards are blocked by the follow-suit rule.
    blocked = state.blocked(2)
    assert set(blocked) == {"AS", "AC", "KS"}
    why = blocked["AS"]
    assert why["anchor"] == "follow-suit" and why["anchor"] in GAME.spec.anchors
    assert "K♥ was led" in why["reason"] and "follow suit" in why["reason"]
    assert "ace of spades" in why["reason"].lower()
    assert state.blocked(0) == {} and state.blocked(None) == {}, "only the seat to act"
    play(state, SCRIPT_PLAYS[1:8])
    assert state.blocked(1) == {}, "no spade in hand: every card may be played"


def test_describe_each_action():
    state = scripted()
    assert state.describe({"type": "bid", "bid": 3}) == "Bid 3"
    assert state.describe({"type": "play", "card": "7D"}) == "Play 7♦"
    assert state.describe({"type": "play", "card": "TS"}) == "Play 10♠"
    assert state.describe({"type": "play", "card": "QH"}) == "Play Q♥"


def test_card_faces_cover_the_pack():
    faces = GAME.card_faces()
    assert set(faces) == set(standard_deck()) and len(faces) == 52
    assert faces["7D"] == {"text": "7♦", "label": "7 of diamonds", "colour": "red"}
    assert faces["TS"] == {"text": "10♠", "label": "10 of spades", "colour": "black"}
    assert faces["QH"] == {"text": "Q♥", "label": "queen of hearts", "colour": "red"}
    assert faces["AC"]["colour"] == "black"


CARD = re.compile(r"^[2-9TJQKA][CDHS]$")


def cards_in(value, found):
    if isinstance(value, dict):
        for item in value.values():
            cards_in(item, found)
    elif isinstance(value, list):
        for item in value:
            cards_in(item, found)
    elif isinstance(value, str) and CARD.match(value):
        found.add(value)
    return found


@pytest.mark.parametrize("seed", range(6))
def test_random_play_describes_every_action_and_faces_every_card(seed):
    faces = GAME.card_faces()
    chooser = random.Random(seed)
    players = 2 + seed % 4
    state = GAME.new_state(players, {"schedule": [4, 2, 1]}, seed=seed)
    kinds = set()
    while not state.is_over():
        for seat in [None, *range(players)]:
            view = state.view(seat)
            assert cards_in(view, set()) <= set(faces)
            assert isinstance(view["prompt"], str)
            if seat is not None and seat in state.to_act():
                assert view["prompt"] and not view["prompt"].startswith("Wait")
        seat = chooser.choice(state.to_act())
        legal = state.legal_actions(seat)
        for action in legal:
            label = state.describe(action)
            kinds.add(action["type"])
            if action["type"] == "play":
                assert label == f"Play {faces[action['card']]['text']}"
            else:
                assert label == f"Bid {action['bid']}"
        state.apply(seat, chooser.choice(legal))
    assert kinds == {"bid", "play"}
    json.dumps(state.view(None))


# -- the Play board module, under Node with a stand-in kit ------------------------------

BOARD = Path(__file__).resolve().parents[3] / "static/js/games/shoot.js"

BODY = """
const view = input;
const env = { view, seat: 0, to_act: view.to_act };
console.log(JSON.stringify(mod.board(env, names, kit)));
"""
SCRIPT = kit_script(BODY, ["Ada", "Bo", "Cy"], bracket_cards=False)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")
def test_board_draws_from_the_view():
    state = scripted()
    bid_all(state, [1, 2, 0])
    play(state, SCRIPT_PLAYS[:4])
    facts, table, heading, plays = run_board(SCRIPT, BOARD, state.view(0))
    assert facts["facts"][0] == ["Deal", "1 of 1 (4 cards)"]
    assert facts["facts"][1] == ["Trump", {"card": "2D"}]
    assert facts["facts"][2] == ["Dealer", "Ada"]
    assert facts["facts"][3] == ["Bids", "3 for 4 tricks"]
    assert dict(table["table"]) == {
        "Bid": [1, 2, 0],
        "Tricks": [1, 0, 0],
        "Cards": [2, 3, 3],
        "Score": [0, 0, 0],
    }
    assert heading["text"] == "This trick: 2C led" and plays == {"plays": [[0, "2C"]]}


IN_PLAY = kit_script(
    BODY.replace(
        "console.log(JSON.stringify(mod.board(env, names, kit)));",
        "kit.split = true;\n"
        "console.log(JSON.stringify("
        "{ inPlay: mod.inPlay(env, [], kit), board: mod.board(env, [], kit) }));",
    ),
    ["Ada", "Bo", "Cy"],
    bracket_cards=False,
)


def node_in_play(view):
    return run_board(IN_PLAY, BOARD, view)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")
def test_in_play_shows_trump_bids_and_the_led_card_and_the_board_leaves_them_out():
    assert "kit.split = true" in IN_PLAY
    state = scripted()
    state.apply(0, {"type": "bid", "bid": 2})
    out = node_in_play(state.view(0))
    line = out["inPlay"][0]
    assert line["kids"][:2] == ["Trump ", {"card": "2D"}] and " · your bid 2" in line["kids"]
    assert len(out["inPlay"]) == 1, "no trick yet"
    bid_all(state, [2, 1, 0])
    play(state, [(1, "KH")])
    out = node_in_play(state.view(2))
    line, heading, plays = out["inPlay"]
    assert " · bids 3 for 4 tricks" in line["kids"] and " · you took 0" in line["kids"]
    assert heading["text"] == "This trick: KH led" and plays == {"plays": [[1, "KH"]]}
    assert len(out["board"]) == 2, "split: the trick is drawn above the hand, not again"
