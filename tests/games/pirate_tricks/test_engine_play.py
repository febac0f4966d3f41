"""Pirate Tricks engine: recruitment, tricks, settlement, top-up, rounds, winners, views."""

from __future__ import annotations

import random

import pytest

from companion.games import GAMES
from companion.games.pirate_tricks import deck, rules
from tests.games.pirate_tricks.helpers import saved
from tests.games.pirate_tricks.test_engine import (
    PLAIN,
    all_views_safe,
    ditch,
    new,
    play_out,
    refused,
    take_own_rows,
)

GAME = GAMES["pirate_tricks"]

# Three players, 9-20 of each suit. Each seat takes its own row (seat s takes row s), so
# these are its 12 cards: 5 in hand, 5 face up, 2 face down.
TRICK_CARDS = {
    0: ["G15", "G16", "G17", "G18", "G19", "G20", "B9", "R15", "R16", "R17", "R18", "R19"],
    1: ["G9", "G10", "G11", "G12", "G13", "G14", "R9", "R10", "R11", "R12", "R13", "R14"],
    2: ["B10", "B11", "B12", "B13", "B14", "B15", "B16", "B17", "B18", "B19", "B20", "R20"],
}
TRICK_DITCH = {0: ["R18", "R19"], 1: ["G14", "R14"], 2: ["B10", "B11"]}


def play(state, seat, card):
    state.apply(seat, {"type": "play", "card": card})


def trick_state():
    state = new(3, TRICK_CARDS)
    take_own_rows(state)  # seats 0 and 1 pay 1; seat 2 gets the last row free
    ditch(state, TRICK_DITCH)
    return state


def test_recruitment_scores_the_ten_card_hands_after_the_ditch():
    state = trick_state()
    # Beringa Backing: +1 per odd green; Even Keel: +1 per even blue.
    # Seat 0 shows G15 G17 G19; seat 1 G9 G11 G13; seat 2 its even blues B12..B20.
    assert state.loon == [12 - 1 + 3, 12 - 1 + 3, 12 + 5]
    shown = state.view(None)["recruitment"]
    assert [e["cards"] for e in shown[0]] == [["G15", "G17", "G19"], ["G9", "G11", "G13"], []]
    assert [e["cards"] for e in shown[1]] == [[], [], ["B12", "B14", "B16", "B18", "B20"]]
    assert [e["loon"] for e in shown[1]] == [0, 0, 5]
    all_views_safe(state)


def test_recruitment_rulebook_example_both_cards_use_the_same_cards():
    # 13, 14, 15 red and 13 green: Gang of Three pays for the run, Partners in Crime for the
    # two 13s. G15 and B15 would make a second pair, but they are ditched.
    cards = ["R13", "R14", "R15", "G13", "G9", "G11", "B16", "B18", "B20", "G17", "G15", "B15"]
    score = {**PLAIN, "recruitment": ["gang_of_three", "partners_in_crime"]}
    state = new(3, {0: cards}, score=score)
    take_own_rows(state)
    ditch(state, {0: ["G15", "B15"]})
    gang, partners = saved(state)["recruitment"]
    assert gang[0] == {"loon": 3, "cards": ["R13", "R14", "R15"], "groups": [["R13", "R14", "R15"]]}
    assert partners[0]["loon"] == 2 and sorted(partners[0]["cards"]) == ["G13", "R13"]
    assert state.loon[0] == 12 - 1 + 3 + 2
    for seat in (1, 2):  # the other seats are scored the same way
        expected = sum(
            deck.recruitment_loon(c, saved(state)["hands"][seat])
            for c in state.view(None)["score_cards"]["recruitment"]
        )
        assert state.loon[seat] == 12 - (seat == 1) + expected


def test_trick_rules_follow_suit_red_trumps_winner_leads():
    state = trick_state()
    assert state.phase == "play" and state.to_act() == [0]  # the Go First holder leads
    refused(state, 1, {"type": "play", "card": "G9"}, "seat 1's turn")
    # trick 1: green led; seat 1 must follow; seat 2 has no green and may play anything
    play(state, 0, "G20")
    assert state.view(None)["trick"]["winning"] == 0
    refused(state, 1, {"type": "play", "card": "R9"}, "follow suit", "green")
    refused(state, 1, {"type": "play", "card": "B9"}, "in your hand")
    play(state, 1, "G9")
    assert {a["card"] for a in state.legal_actions(2)} == set(saved(state)["hands"][2])
    play(state, 2, "B20")  # a higher number of another suit does not win
    assert state.tricks == [1, 0, 0] and state.to_act() == [0]
    assert state.view(2)["last_trick"]["winner"] == 0
    # trick 2: blue led; seat 1 has no blue and trumps with its lowest red
    play(state, 0, "B9")
    play(state, 1, "R9")
    assert state.view(None)["trick"]["winning"] == 1
    refused(state, 2, {"type": "play", "card": "R20"}, "follow suit", "blue")
    play(state, 2, "B19")
    assert state.tricks == [1, 1, 0] and state.to_act() == [1]
    # trick 3: red may be led; the highest red wins
    play(state, 1, "R10")
    assert state.legal_actions(2) == [{"type": "play", "card": "R20"}]
    play(state, 2, "R20")
    assert [a["card"] for a in state.legal_actions(0)] == ["R15", "R16", "R17"]
    play(state, 0, "R15")
    assert state.tricks == [1, 1, 1] and state.to_act() == [2]
    view = state.view(None)
    assert view["last_trick"] == {
        "leader": 1,
        "plays": [[1, "R10"], [2, "R20"], [0, "R15"]],
        "winner": 2,
    }
    assert view["trick"]["plays"] == [] and view["tricks"] == [1, 1, 1]
    all_views_safe(state)


def play_round_tracking(state):
    """Play the round (first legal card), counting blue cards per trick winner."""
    blues, tricks = [0] * state.players, [0] * state.players
    start = state.round
    while state.round == start and not state.is_over():
        seat = state.to_act()[0]
        trick = [list(p) for p in saved(state)["trick"]]
        card = state.legal_actions(seat)[0]["card"]
        play(state, seat, card)
        if len(trick) == state.players - 1:
            plays = [*trick, [seat, card]]
            reds = [p for p in plays if p[1][0] == "R"]
            led = plays[0][1][0]
            pool = reds or [p for p in plays if p[1][0] == led]
            winner = max(pool, key=lambda p: int(p[1][1:]))[0]
            tricks[winner] += 1
            blues[winner] += sum(p[1][0] == "B" for p in plays)
    return tricks, blues


def test_treasure_and_capture_are_settled_after_the_tenth_trick():
    state = trick_state()
    before = list(state.loon)
    tricks, blues = play_round_tracking(state)
    assert sum(tricks) == 10
    # Rich Rewards: 2 loon a trick; Mustel Bounty: 1 loon a blue card taken.
    expected = [before[s] + 2 * tricks[s] + blues[s] for s in range(3)]
    assert state.round == 2 and state.loon == expected
    record = state.history[0]
    assert record["tricks"] == tricks
    assert record["treasure"] == [2 * t for t in tricks]
    assert record["capture"] == blues
    assert record["paid"] == [a - b for a, b in zip(expected, before, strict=True)]
    # the new round is dealt at once: 5 cards in hand, rows out, auction on row 0
    assert all(len(h) == 5 for h in saved(state)["hands"]) and state.phase == "bid"
    assert state.view(None)["trick"] is None and state.view(None)["tricks"] == [0, 0, 0]
    all_views_safe(state)


NOTHING = {
    "id": "no_treasure",
    "name": "No Treasure",
    "effects": [{"kind": "per_trick", "loon": 0}],
}
CURSED = {
    "id": "all_cursed",
    "name": "All Cursed",
    "effects": [{"kind": "per_captured", "filter": {}, "loon": -1}],
}


def test_a_debt_takes_all_you_have_and_later_rounds_top_up_to_five():
    options = {"catalog": {"treasure": [NOTHING], "capture": [CURSED]}}
    score = {**PLAIN, "treasure": "no_treasure", "capture": "all_cursed"}
    state = new(3, TRICK_CARDS, score=score, options=options)
    take_own_rows(state)
    ditch(state, TRICK_DITCH)
    state.loon = [1, 0, 30]  # as if the round had gone badly for seats 0 and 1
    before = list(state.loon)
    tricks, _ = play_round_tracking(state)
    record = state.history[0]
    owed = record["capture"]
    assert owed == [-state.players * t for t in tricks]  # every card taken costs 1
    assert any(owed[s] < -before[s] for s in range(3)), "the deal must put someone in debt"
    after = [max(0, before[s] + owed[s]) for s in range(3)]
    assert record["paid"] == [after[s] - before[s] for s in range(3)]
    # round 2: anyone under 5 is brought up to 5, the others keep theirs
    assert state.round == 2
    assert state.loon == [max(5, x) for x in after]
    assert state.top_ups == [max(0, 5 - x) for x in after]
    assert state.loon[2] == after[2] > 5


def test_predictions_reach_the_settlement():
    score = {**PLAIN, "treasure": "tempt_fortune"}
    state = new(3, TRICK_CARDS, score=score)
    take_own_rows(state)
    ditch(state, TRICK_DITCH)
    for seat, n in ((0, 4), (1, 3), (2, 3)):
        state.apply(seat, {"type": "predict", "tricks": n})
    tricks, _ = play_round_tracking(state)
    effect = next(e for e in state_card(score["treasure"])["effects"])
    expected = [
        effect["hit"] if p == t else effect["miss"] + effect["per_off"] * abs(p - t)
        for p, t in zip([4, 3, 3], tricks, strict=True)
    ]
    assert state.history[0]["predictions"] == [4, 3, 3]
    assert state.history[0]["treasure"] == expected


def state_card(card_id):
    return next(c for c in GAME.catalog()["treasure"] if c["id"] == card_id)


def test_bountiful_booty_ties_all_collect_rulebook_example():
    # Four players; two take 3 tricks each, two take 2: 6, 6, 4, 4 and nobody is third.
    nothing = {
        "id": "no_capture",
        "name": "No Capture",
        "effects": [{"kind": "per_captured", "filter": {}, "loon": 0}],
    }
    options = {"catalog": {"capture": [nothing]}}
    score = {**PLAIN, "treasure": "bountiful_booty", "capture": "no_capture"}
    base = GAME.new_state(4, options, seed=1, deal={"score_cards": score})
    take_own_rows(base)
    ditch(base)
    start = base.to_dict()
    for attempt in range(500):
        state = GAME.state_from_dict(start)
        chooser = random.Random(attempt)
        before = list(state.loon)
        while state.round == 1:
            seat = state.to_act()[0]
            state.apply(seat, chooser.choice(state.legal_actions(seat)))
        record = state.history[0]
        if sorted(record["tricks"]) == [2, 2, 3, 3]:
            break
    else:
        pytest.fail("no 3-3-2-2 round found")
    pay = [6 if t == 3 else 4 for t in record["tricks"]]
    assert record["treasure"] == pay and record["paid"] == pay
    assert state.loon == [b + p for b, p in zip(before, pay, strict=True)]


# -- rounds and the end of the game ---------------------------------------------------------


@pytest.mark.parametrize("rounds", [3, 4, 5])
def test_the_game_lasts_the_chosen_number_of_rounds(rounds):
    state = play_out(GAME.new_state(4, {"rounds": rounds}, seed=rounds))
    assert state.is_over() and state.round == rounds and len(state.history) == rounds
    assert state.to_act() == [] and state.legal_actions(0) == []
    refused(state, 0, {"type": "bid", "loon": 0}, "over")
    assert state.scores() == state.loon
    view = state.view(None)
    assert view["over"] and view["loon"] == state.loon
    assert view["winners"] == [s for s in range(4) if state.loon[s] == max(state.loon)]


def test_default_game_is_three_rounds():
    assert play_out(GAME.new_state(3, seed=2)).round == 3


def test_tied_players_share_the_win():
    state = play_out(GAME.new_state(3, seed=4))
    state.loon = [20, 7, 20]
    assert state.winners() == [0, 2]
    assert state.view(1)["winners"] == [0, 2]
    state.loon = [3, 21, 20]
    assert state.winners() == [1]


def test_other_players_loon_is_hidden_until_the_game_ends():
    state = GAME.new_state(3, seed=8)
    chooser = random.Random(1)
    while not state.is_over():
        for seat in range(3):
            loon = state.view(seat)["loon"]
            assert loon[seat] == state.loon[seat]
            assert [x for s, x in enumerate(loon) if s != seat] == [None, None]
        assert state.view(None)["loon"] == [None, None, None]
        seat = chooser.choice(state.to_act())
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
    assert state.view(1)["loon"] == state.loon


def test_views_never_leak_through_a_whole_game():
    for seed in range(3):
        state = GAME.new_state(3 + seed, seed=seed)
        chooser = random.Random(seed)
        while not state.is_over():
            all_views_safe(state)
            seat = chooser.choice(state.to_act())
            state.apply(seat, chooser.choice(state.legal_actions(seat)))
        all_views_safe(state)


def test_replay_and_round_trip_of_a_scripted_game():
    state = trick_state()
    play_round_tracking(state)
    assert GAME.replay(state).to_dict() == state.to_dict()
    assert GAME.state_from_dict(state.to_dict()).to_dict() == state.to_dict()


def test_blocked_cards_say_why_with_the_follow_suit_anchor():
    state = trick_state()
    assert state.view(None)["doing"] == "to play"
    assert state.blocked(0) == {}, "the leader may lead any card"
    play(state, 0, "G20")
    blocked = state.blocked(1)
    assert set(blocked) == {c for c in saved(state)["hands"][1] if rules.suit(c) != "G"}
    assert blocked, "seat 1 holds reds beside its greens"
    card, why = next(iter(blocked.items()))
    assert why["anchor"] == "follow-suit" and why["anchor"] in GAME.spec.anchors
    assert "Green 20 was led" in why["reason"] and "follow suit" in why["reason"]
    assert state.blocked(2) == {} and state.blocked(None) == {}, "only the seat to act"
