"""The Pirate Tricks bot: its easy choices, its worked-out loon, its sampled worlds."""

from __future__ import annotations

import random

from companion.bots import bot_for, decide
from companion.games import GAMES
from companion.games.pirate_tricks import bot as pt_bot
from companion.games.pirate_tricks import rules
from companion.games.pirate_tricks.engine import BID, DITCH, PLAY, PREDICT

GAME = GAMES["pirate_tricks"]
BOT = bot_for(GAME)


def states(players, seed):
    """Every state met while easy bots play a 3-round game, with the seat to act."""
    state = GAME.new_state(players, {"rounds": 3}, seed=seed)
    rng = random.Random(seed)
    while not state.is_over():
        seat = state.to_act()[0]
        yield state, seat
        view, legal = state.view(seat), state.legal_actions(seat)
        state.apply(seat, decide(GAME, view, legal, "easy", rng))


def test_loon_behind_the_screens_is_worked_out_from_the_open_payments():
    checked = 0
    for state, seat in states(4, 3):
        assert pt_bot.loon_of(state.view(seat)) == state.loon
        checked += 1
    assert checked > 100


def test_samples_keep_shown_cards_in_hand_and_taken_cards_out():
    rng = random.Random(5)
    seen_play = 0
    for state, seat in states(5, 8):
        if state.phase != PLAY or rng.random() < 0.7:
            continue
        view = state.view(seat)
        world = GAME.state_from_dict(BOT.sample(view, rng))
        for per_card in view["recruitment"]:
            for s, entry in enumerate(per_card):
                unplayed = set(entry["cards"]) - {c for p in view["won"] for c in p}
                unplayed -= {c for _, c in view["trick"]["plays"]}
                assert unplayed <= set(world.hand_of(s))
        taken = {c for pile in view["won"] for c in pile}
        assert not taken & {c for s in range(world.players) for c in world.hand_of(s)}
        seen_play += 1
    assert seen_play


def test_easy_reveals_its_highest_card_and_ditches_two_of_its_cards():
    met = set()
    for state, seat in states(3, 1):
        view, legal = state.view(seat), state.legal_actions(seat)
        action = BOT.easy(view, legal, random.Random(1))
        assert action in legal
        if action["type"] == "reveal":
            assert action["card"] == max(view["hand"], key=rules.reveal_key)
        met.add(action["type"])
    assert {"bid", "ditch", "play"} <= met


def test_easy_bids_more_for_a_row_of_high_reds():
    hand = ["B9", "G10", "B11", "G12", "B13"]
    rows = [
        {"up": ["R20", "R19", "R18", "R17", "G20"], "owner": None, "loon": 0},
        {"up": ["B10", "G11", "B12", "G9", "B14"], "owner": None, "loon": 0},
        {"up": ["G13", "B15", "G14", "B16", "G15"], "owner": None, "loon": 0},
    ]
    cards = GAME.new_state(3, None, seed=1).view(0)["score_cards"]
    assert pt_bot.easy_bid(hand, rows, 0, 12, cards, 3) > 0
    assert pt_bot.easy_bid(hand, rows, 1, 12, cards, 3) == 0
    assert pt_bot.easy_bid(hand, rows, 0, 12, cards, 3) <= 12 * pt_bot.BID_CAP


def test_easy_follows_with_the_cheapest_winner_when_last():
    cards = {
        "treasure": {"effects": [{"kind": "per_trick", "loon": 2}]},
        "capture": {"effects": []},
    }
    trick = [[1, "G10"], [2, "G12"]]
    card = pt_bot.play_card(["G14", "G19", "B9"], ["G14", "G19"], trick, 3, True, set(), cards)
    assert card == "G14"
    # a seat that wants no more tricks plays under
    card = pt_bot.play_card(["G11", "G19", "B9"], ["G11", "G19"], trick, 3, False, set(), cards)
    assert card == "G11"


def test_search_candidates_are_legal_and_keep_the_easy_choice():
    phases = set()
    for state, seat in states(4, 2):
        if state.phase not in (BID, DITCH, PREDICT):
            continue
        view, legal = state.view(seat), state.legal_actions(seat)
        few = BOT.candidates(view, legal, random.Random(1))
        assert few and all(a in legal for a in few)
        assert BOT.easy(view, legal, random.Random(1)) in few
        if state.phase == DITCH:
            assert len(few) <= 6 < len(legal)
        phases.add(state.phase)
    assert {BID, DITCH} <= phases
