"""PULL! engine: scenario tests from explicit deals, one rule clause at a time."""

from __future__ import annotations

import json
import random

import pytest

from companion.games.base import IllegalAction
from companion.games.cards import rng, shuffled
from companion.games.pull import rules
from companion.games.pull.engine import FIRST, GAME, OVER, SECOND

from .helpers import make_deal, new, saved, second, shoot

ALL_ANIMALS = {card: {"animal": True} for card in rules.target_ids()}


def play_random_until(state, stop, chooser=None):
    chooser = chooser or random.Random(0)
    while not state.is_over() and not stop(state):
        seat = chooser.choice(state.to_act())
        state.apply(seat, chooser.choice(state.legal_actions(seat)))


def refused(state, seat, action, message):
    before = state.to_dict()
    with pytest.raises(IllegalAction, match=message):
        state.apply(seat, action)
    assert state.to_dict() == before


# -- setup and the deal ---------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_deal_gives_10_shots_each_one_at_a_time_from_the_dealers_left(players):
    state = GAME.new_state(players, seed=99)
    assert state.dealer == 0
    assert [len(hand) for hand in saved(state)["hands"]] == [10] * players
    held = [card for hand in saved(state)["hands"] for card in hand]
    assert len(set(held)) == 10 * players
    assert len(saved(state)["unused"]) == 48 - 10 * players
    assert set(held) | set(saved(state)["unused"]) == set(rules.shot_ids())
    deck = shuffled(rules.shot_ids(), rng(state.seed, "shots", 1))
    for i, card in enumerate(deck[: 10 * players]):
        assert card in saved(state)["hands"][(1 + i) % players]  # first card to the dealer's left


def test_four_players_play_as_teams_across_the_table_by_default():
    state = GAME.new_state(4, seed=1)
    assert state.sides() == [[0, 2], [1, 3]]
    assert state.side_of == [0, 1, 0, 1]
    solo = GAME.new_state(4, {"teams": False}, seed=1)
    assert solo.sides() == [[0], [1], [2], [3]]
    assert len(GAME.new_state(3, seed=1).sides()) == 3
    with pytest.raises(IllegalAction, match="exactly 4 players"):
        GAME.new_state(2, {"teams": True}, seed=1)


def test_the_dealer_flips_two_targets_and_the_player_on_the_left_shoots_first():
    state = new(3, dealer=1, targets=["trap-T1", "skeet-T2"])
    assert saved(state)["targets"] == ["trap-T1", "skeet-T2"]
    assert state.holder == 2
    assert state.to_act() == [2]
    assert state.phase == FIRST


def test_each_round_the_holder_flips_the_next_two_and_passes_left_for_5_rounds():
    order = rules.target_ids()[::-1]
    state = GAME.new_state(3, seed=4, deal=make_deal(3, {}, order, dealer=2))
    seen = []
    chooser = random.Random(3)
    while state.hand_no == 1 and not state.is_over():
        if state.phase == FIRST and not any(saved(state)["shots"]):
            targets = saved(state)["targets"]
            seen.append((state.round_no, targets, state.holder, state.to_act()))
        seat = chooser.choice(state.to_act())
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
    assert [r for r, *_ in seen] == [1, 2, 3, 4, 5]
    for number, targets, holder, movers in seen:
        assert targets == order[2 * (number - 1) : 2 * number]
        assert holder == (2 + number) % 3
        assert movers == [holder]
    # The deal passed to the left for hand 2.
    assert state.hand_no == 2 and state.dealer == 0 and state.holder == 1


def test_the_deal_and_the_first_player_pass_left_every_hand():
    state = GAME.new_state(3, {"hands": 4}, seed=8)
    starts = []

    def note(s):
        if s.phase == FIRST and s.round_no == 1 and not any(saved(s)["shots"]):
            starts.append((s.hand_no, s.dealer, s.to_act()))

    chooser = random.Random(1)
    note(state)
    while not state.is_over():
        seat = chooser.choice(state.to_act())
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
        if starts[-1][0] != state.hand_no:
            note(state)
    for hand, dealer, movers in starts:
        assert dealer == (hand - 1) % 3
        assert movers == [(dealer + 1) % 3]
    assert [h["dealer"] for h in state.history][:4] == [0, 1, 2, 0]


# -- first shots ----------------------------------------------------------------------


def test_team_play_order_alternates_between_the_teams():
    state = new(4, dealer=3)
    shooters = []
    chooser = random.Random(5)
    while state.phase == FIRST:
        (seat,) = state.to_act()
        shooters.append(seat)
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
    assert shooters == [0, 1, 2, 3]
    assert [state.side_of[s] for s in shooters] == [0, 1, 0, 1]


def test_the_first_shot_must_match_the_suit_of_its_target():
    # Seat 1 shoots first; it holds a trap card, targets are trap and skeet.
    state = new(2, cards={1: ["trap-3", "looper-8"]}, targets=["trap-T2", "skeet-T2"])
    assert state.legal_actions(1) == [{"type": "shoot", "card": "trap-3", "target": 0}]
    refused(state, 1, {"type": "shoot", "card": "trap-3", "target": 1}, "match the target")
    refused(state, 1, {"type": "shoot", "card": "looper-8", "target": 0}, "match the target")
    refused(state, 1, {"type": "shoot", "card": "looper-8", "target": 1}, "match the target")
    shoot(state, 1, "trap-3", 0)
    assert saved(state)["shots"][0] == [[1, "trap-3"]]


def test_holding_both_suits_allows_either_matching_target():
    state = new(2, cards={1: ["trap-3", "skeet-5"]}, targets=["trap-T2", "skeet-T2"])
    assert state.legal_actions(1) == [
        {"type": "shoot", "card": "trap-3", "target": 0},
        {"type": "shoot", "card": "skeet-5", "target": 1},
    ]


def test_two_targets_of_one_suit_take_a_matching_shot_on_either():
    state = new(2, cards={1: ["trap-3"]}, targets=["trap-T2", "trap-T3"])
    assert state.legal_actions(1) == [
        {"type": "shoot", "card": "trap-3", "target": 0},
        {"type": "shoot", "card": "trap-3", "target": 1},
    ]


def test_without_either_suit_any_card_goes_on_either_target():
    state = new(2, targets=["trap-T2", "skeet-T2"])
    hand = saved(state)["hands"][1]
    assert not any(rules.shot_suit(c) in ("trap", "skeet") for c in hand)
    legal = state.legal_actions(1)
    assert len(legal) == 20
    assert {(a["card"], a["target"]) for a in legal} == {(c, t) for c in hand for t in (0, 1)}


def test_illegal_first_shots_are_refused_with_a_reason_and_change_nothing():
    state = new(3, cards={1: ["looper-4"], 2: ["looper-5"]})
    refused(state, 1, {"type": "shoot", "card": "looper-5", "target": 0}, "don't hold")
    refused(state, 1, {"type": "shoot", "card": "looper-4", "target": 2}, "target 0 or target 1")
    refused(state, 1, {"type": "second", "card": "looper-4"}, "first shot")
    refused(state, 1, {"type": "shoot", "card": "looper-4", "target": 0, "x": 1}, "just a")
    refused(state, 2, {"type": "shoot", "card": "looper-5", "target": 0}, "not your turn")
    refused(state, 7, {"type": "shoot", "card": "looper-4", "target": 0}, "no seat")
    refused(state, 1, "shoot", "must be an object")


# -- second shots ---------------------------------------------------------------------


def first_shots(state, plan):
    for seat, card, target in plan:
        assert state.to_act() == [seat]
        shoot(state, seat, card, target)


def test_sealed_second_shots_are_picked_together_hidden_then_revealed():
    hands = {1: ["looper-4", "looper-6"], 2: ["crosser-4", "crosser-6"], 0: ["incomer-2"]}
    hands[0].append("incomer-7")
    state = new(3, cards=hands)
    first_shots(state, [(1, "looper-4", 0), (2, "crosser-4", 1), (0, "incomer-2", 0)])
    assert state.phase == SECOND
    assert state.to_act() == [0, 1, 2]
    second(state, 2, "crosser-6")
    assert state.to_act() == [0, 1]
    for seat in (None, 0, 1):
        view = state.view(seat)
        assert "crosser-6" not in json.dumps(view)
        assert view["picked"] == [False, False, True]
    mine = state.view(2)
    assert mine["my_second"] == "crosser-6" and "crosser-6" not in mine["hand"]
    # A pick is final.
    refused(state, 2, {"type": "second", "card": saved(state)["hands"][2][0]}, "already picked")
    second(state, 1, "looper-6")
    second(state, 0, "incomer-7")
    # All revealed at once; each on the target the player did not shoot first.
    last = state.view(None)["last_round"]
    on = [sorted(card for _, card in t["shots"]) for t in last["targets"]]
    assert on[0] == ["crosser-6", "incomer-2", "looper-4"]
    assert on[1] == ["crosser-4", "incomer-7", "looper-6"]
    assert state.round_no == 2 and state.phase == FIRST


def test_two_players_take_turns_for_second_shots_face_up():
    state = new(2, cards={1: ["looper-4", "looper-6"], 0: ["crosser-2", "crosser-7"]})
    first_shots(state, [(1, "looper-4", 1), (0, "crosser-2", 0)])
    assert state.phase == SECOND
    assert state.to_act() == [1]  # the round's first player shoots first again
    refused(state, 0, {"type": "second", "card": "crosser-7"}, "not your turn")
    second(state, 1, "looper-6")
    table = state.view(0)["targets"]
    assert [s["card"] for s in table[0]["shots"]] == ["crosser-2", "looper-6"]
    assert table[0]["shots"][1]["second"] is True
    assert state.to_act() == [0]
    second(state, 0, "crosser-7")
    assert state.round_no == 2
    # Round 2 starts with the other player, who also starts the second shots.
    assert state.to_act() == [0]


def test_a_second_shot_need_not_match_its_target_even_when_it_could():
    hands = {1: ["trap-3", "skeet-5", "looper-6"], 0: ["crosser-2", "crosser-7"]}
    state = new(2, cards=hands, targets=["trap-T2", "skeet-T2"])
    first_shots(state, [(1, "trap-3", 0), (0, "crosser-2", 0)])
    # Seat 1's second shot goes on the skeet target; it holds skeet-5 but may play anything.
    hand = saved(state)["hands"][1]
    assert state.legal_actions(1) == [{"type": "second", "card": c} for c in hand]
    second(state, 1, "looper-6")
    assert saved(state)["shots"][1] == [[1, "looper-6"]]


def test_a_second_shot_names_only_its_card():
    state = new(2, cards={1: ["looper-4", "looper-6"], 0: ["crosser-2", "crosser-7"]})
    first_shots(state, [(1, "looper-4", 1), (0, "crosser-2", 0)])
    refused(state, 1, {"type": "second", "card": "looper-6", "target": 1}, "by itself")
    refused(state, 1, {"type": "shoot", "card": "looper-6", "target": 0}, "second shot")
    refused(state, 1, {"type": "second", "card": "crosser-7"}, "don't hold")


# -- winning targets ------------------------------------------------------------------


def test_distracted_example_in_play():
    hands = {1: ["looper-8", "tower-8"], 2: ["crosser-1", "crosser-3"], 0: ["incomer-6"]}
    hands[0].append("incomer-4")
    state = new(3, cards=hands)
    first_shots(state, [(1, "looper-8", 0), (2, "crosser-1", 0), (0, "incomer-6", 0)])
    for seat, card in ((1, "tower-8"), (2, "crosser-3"), (0, "incomer-4")):
        second(state, seat, card)
    result = state.last_round["targets"][0]
    assert result["cancelled"] == ["looper-8"]
    assert result["seat"] == 0 and result["winning_shot"] == "incomer-6"
    assert result["card"] == "trap-T2"
    assert state.piles[0][0]["card"] == "trap-T2"
    # The 1 distracts only its own target: the 8 on the other target stands.
    other = state.last_round["targets"][1]
    assert other["cancelled"] == [] and other["winning_shot"] == "tower-8"


def test_matching_suit_breaks_a_tie_in_play():
    hands = {1: ["trap-7", "looper-2"], 0: ["incomer-7", "incomer-3"]}
    state = new(2, cards=hands, targets=["trap-T3", "skeet-T1"])
    first_shots(state, [(1, "trap-7", 0), (0, "incomer-7", 0)])
    second(state, 1, "looper-2")
    second(state, 0, "incomer-3")
    assert [e["card"] for e in state.piles[1]] == ["trap-T3"]
    assert [e["card"] for e in state.piles[0]] == ["skeet-T1"]
    assert not any(e["double"] for pile in state.piles for e in pile)


def test_a_void_tie_is_discarded_and_nobody_scores_it():
    hands = {1: ["looper-6", "looper-2"], 0: ["crosser-6", "crosser-3"]}
    state = new(2, cards=hands, targets=["trap-T3", "skeet-T2"])
    first_shots(state, [(1, "looper-6", 0), (0, "crosser-6", 0)])
    second(state, 1, "looper-2")
    second(state, 0, "crosser-3")
    assert state.void == ["trap-T3"]
    assert state.last_round["targets"][0]["void"] is True
    assert state.piles == [[{"card": "skeet-T2", "double": False, "round": 1}], []]


def test_a_double_scores_both_targets_at_their_double_values():
    hands = {1: ["looper-8", "looper-7"], 0: ["crosser-2", "crosser-3"]}
    state = new(2, cards=hands, targets=["trap-T3", "skeet-T2"], options={"hands": 1})
    first_shots(state, [(1, "looper-8", 0), (0, "crosser-2", 0)])
    second(state, 1, "looper-7")
    second(state, 0, "crosser-3")
    assert state.last_round["double"] == 1
    table = rules.target_table()
    expected = table["trap-T3"]["double"] + table["skeet-T2"]["double"]
    assert expected != table["trap-T3"]["left"] + table["skeet-T2"]["left"]
    view = state.view(None)
    assert view["hand_points"] == [0, expected]
    assert view["doubles"] == [0, 1]
    assert all(e["double"] for e in view["piles"][1])
    # At the end of the hand the recorded points follow the piles, doubles included.
    play_random_until(state, lambda s: False)
    for side, pile in enumerate(state.piles):
        points = sum(table[e["card"]]["double" if e["double"] else "left"] for e in pile)
        assert state.history[0]["points"][side] == points
    assert state.history[0]["doubles"][1] >= 1


def test_a_group_double_value_is_used_when_it_changes_the_deck():
    hands = {1: ["looper-8", "looper-7"], 0: ["crosser-2", "crosser-3"]}
    state = GAME.new_state(
        2,
        {"targets": {"trap-T3": {"double": 40}}},
        seed=3,
        deal=make_deal(2, hands, ["trap-T3", "skeet-T2"]),
    )
    first_shots(state, [(1, "looper-8", 0), (0, "crosser-2", 0)])
    second(state, 1, "looper-7")
    second(state, 0, "crosser-3")
    assert state.view(1)["hand_points"][1] == 40 + rules.target_table()["skeet-T2"]["double"]


def four_player_round(shots, options=None):
    """One round of 4 players on trap-T3 / trap-T2 from seat 1 on: ``shots`` maps a seat to
    its (first card, target, second card); the second goes on the other target."""
    hands = {seat: [first, then] for seat, (first, _, then) in shots.items()}
    state = new(4, cards=hands, targets=["trap-T3", "trap-T2"], options=options)
    first_shots(state, [(seat, shots[seat][0], shots[seat][1]) for seat in (1, 2, 3, 0)])
    for seat in (1, 2, 3, 0):
        second(state, seat, shots[seat][2])
    return state


# Seat 1 takes trap-T3 with an 8, seat 3 takes trap-T2 with an 8.
ONE_EACH_FOR_1_AND_3 = {
    1: ("looper-8", 0, "looper-2"),
    2: ("crosser-3", 0, "crosser-4"),
    3: ("incomer-2", 0, "incomer-8"),
    0: ("tower-5", 1, "tower-6"),
}


def test_partners_taking_one_target_each_score_a_team_double():
    state = four_player_round(ONE_EACH_FOR_1_AND_3)
    assert state.last_round["targets"][0]["seat"] == 1
    assert state.last_round["targets"][1]["seat"] == 3
    assert state.last_round["double"] == 1
    assert [e["double"] for e in state.piles[1]] == [True, True]


def test_in_individual_play_only_one_player_taking_both_targets_is_a_double():
    state = four_player_round(ONE_EACH_FOR_1_AND_3, options={"teams": False})
    assert state.last_round["double"] is None
    assert state.piles == [
        [],
        [{"card": "trap-T3", "double": False, "round": 1}],
        [],
        [{"card": "trap-T2", "double": False, "round": 1}],
    ]


def test_a_tie_between_partners_is_not_void():
    state = four_player_round(
        {
            1: ("looper-7", 0, "looper-2"),
            2: ("crosser-3", 0, "crosser-4"),
            3: ("incomer-7", 0, "incomer-3"),
            0: ("tower-5", 1, "tower-6"),
        }
    )
    assert state.void == []
    assert state.piles[1][0]["card"] == "trap-T3"


# -- fouls ----------------------------------------------------------------------------


def sweeping_deal(targets):
    """Seat 0 holds every 8 and four 7s; seat 1 only 2s to 6s: seat 0 takes everything."""
    strong = [f"{s}-8" for s in rules.suits()] + [f"{s}-7" for s in list(rules.suits())[:4]]
    weak = [f"{s}-{v}" for v in (2, 3, 4, 5, 6) for s in ("trap", "skeet")]
    return make_deal(2, {0: strong, 1: weak}, targets, dealer=1)


def test_the_5th_and_10th_fouls_each_cost_20():
    state = GAME.new_state(
        2, {"targets": ALL_ANIMALS, "hands": 1}, seed=2, deal=sweeping_deal(rules.target_ids())
    )
    play_random_until(state, lambda s: False)
    record = state.history[0]
    assert record["fouls"] == [10, 0]
    assert record["penalties"] == [40, 0]
    table = rules.target_table(state.options["targets"])
    doubled = sum(table[t]["double"] for t in rules.target_ids()[:10])
    assert record["points"][0] == doubled
    assert state.totals[0] == doubled - 40


def test_a_foul_that_brings_the_running_count_to_5_costs_20():
    order = ["trap-T4"] + [t for t in rules.target_ids() if not t.endswith("T4")]
    state = GAME.new_state(2, {"hands": 1}, seed=2, deal=sweeping_deal(order))
    state.fouls = [4, 0]  # as if 4 fouls had been taken in earlier hands
    play_random_until(state, lambda s: False)
    assert state.history[0]["fouls"] == [1, 0]
    assert state.history[0]["penalties"] == [20, 0]
    assert state.fouls == [5, 0]
    # The same hand from 0 fouls costs nothing.
    fresh = GAME.new_state(2, {"hands": 1}, seed=2, deal=sweeping_deal(order))
    play_random_until(fresh, lambda s: False)
    assert fresh.history[0]["penalties"] == [0, 0]
    assert fresh.totals[0] == state.totals[0] + 20


def test_an_animal_is_a_foul_even_in_a_double():
    state = GAME.new_state(2, {"hands": 1}, seed=2, deal=sweeping_deal(["trap-T4", "skeet-T4"]))
    play_random_until(state, lambda s: s.round_no > 1)
    assert state.view(None)["fouls"] == [2, 0]
    assert [e["double"] for e in state.piles[0]] == [True, True]


# -- game end and scores --------------------------------------------------------------


def first_clear_end(history, reached):
    for record in history:
        totals = record["totals"]
        if reached(record) and totals.count(max(totals)) == 1:
            return record["hand"]
    return None


def test_fixed_hands_end_and_a_tie_plays_one_more_hand():
    ties = 0
    for seed in range(150):
        state = GAME.new_state(2, {"hands": 1}, seed=seed)
        play_random_until(state, lambda s: False, random.Random(seed))
        hand = first_clear_end(state.history, lambda r: r["hand"] >= 1)
        assert hand == len(state.history)
        first = state.history[0]["totals"]
        if first[0] == first[1]:
            ties += 1
            assert len(state.history) >= 2
        assert state.winning_sides() == [max(range(2), key=lambda s: state.totals[s])]
    assert ties > 0  # the tie rule was exercised


def test_the_game_ends_after_the_hand_that_reaches_the_goal():
    for seed in range(30):
        state = GAME.new_state(3, {"goal": 25}, seed=seed)
        play_random_until(state, lambda s: False, random.Random(seed))
        hand = first_clear_end(state.history, lambda r: max(r["totals"]) >= 25)
        assert hand == len(state.history)
        assert state.phase == OVER and state.to_act() == []


def test_the_safety_stop_ends_the_game():
    state = GAME.new_state(2, {"max_hands": 2}, seed=1)
    play_random_until(state, lambda s: False)
    assert len(state.history) == 2 and state.is_over()


def test_partners_share_the_team_score():
    state = GAME.new_state(4, {"hands": 2}, seed=6)
    play_random_until(state, lambda s: False)
    assert state.scores() == [state.totals[0], state.totals[1]] * 2
    solo = GAME.new_state(3, {"hands": 1}, seed=6)
    play_random_until(solo, lambda s: False)
    assert solo.scores() == solo.totals


def test_after_the_game_nothing_more_is_accepted():
    state = GAME.new_state(2, {"hands": 1}, seed=6)
    play_random_until(state, lambda s: False)
    assert state.legal_actions(0) == []
    refused(state, 0, {"type": "second", "card": "trap-1"}, "game is over")


# -- views ----------------------------------------------------------------------------


def test_views_show_only_what_a_seat_may_see():
    state = GAME.new_state(4, seed=77)
    for seat in range(4):
        view = state.view(seat)
        text = json.dumps(view)
        assert view["hand"] == saved(state)["hands"][seat]
        partner = (seat + 2) % 4
        assert not any(f'"{c}"' in text for c in saved(state)["hands"][partner])
        assert not any(f'"{c}"' in text for c in saved(state)["unused"])
        assert not any(f'"{c}"' in text for c in saved(state)["target_deck"])
    table = state.view(None)
    assert "hand" not in table and "my_second" not in table
    assert table["holder"] == 1 and table["dealer"] == 0
    assert [t["card"] for t in table["targets"]] == saved(state)["targets"]
    assert table["hand_sizes"] == [10, 10, 10, 10]
    assert table["sides"] == [[0, 2], [1, 3]]


def test_views_carry_the_target_values_in_force_and_the_tables_changes():
    changes = {"trap-T2": {"double": 9}, "skeet-T1": {"animal": True}}
    first = ["trap-T2", "skeet-T1"]  # the top of the target deck: face up first
    deal = {"targets": first + [t for t in rules.target_ids() if t not in first][:8]}
    state = GAME.new_state(2, {"targets": changes}, seed=3, deal=deal)
    plain = GAME.new_state(2, seed=3, deal=deal)
    assert sorted(saved(state)["targets"]) == ["skeet-T1", "trap-T2"]
    for seat in (None, 0, 1):
        view = state.view(seat)
        assert view["target_changes"] == [
            {"card": "skeet-T1", "left": rules.target_table()["skeet-T1"]["left"], "animal": True},
            {"card": "trap-T2", "left": rules.target_table()["trap-T2"]["left"], "double": 9},
        ]
        shown = {t["card"]: t for t in view["targets"]}
        assert shown["trap-T2"]["double"] == 9 and shown["trap-T2"]["tags"]["double"] == "table"
        assert shown["trap-T2"]["animal"] is False
        assert shown["trap-T2"]["tags"]["animal"] == "house"
        assert shown["trap-T2"]["tags"]["left"] == "seed"
        assert shown["skeet-T1"]["animal"] is True
        assert shown["skeet-T1"]["tags"]["animal"] == "table"
        assert shown["skeet-T1"]["tags"]["double"] == "house"
        unchanged = {t["card"]: t for t in plain.view(seat)["targets"]}
        assert plain.view(seat)["target_changes"] == []
        assert unchanged["trap-T2"]["double"] != 9
        assert unchanged["trap-T2"]["tags"]["double"] == "house"
        assert unchanged["skeet-T1"]["animal"] is False


# -- explicit deals -------------------------------------------------------------------


@pytest.mark.parametrize(
    "deal, message",
    [
        ({"dealer": 5}, "dealer must be a seat"),
        ({"hands": [["trap-1"] * 10]}, "one hand for each"),
        ({"hands": [["trap-1"], ["trap-2"]]}, "10 shot cards"),
        ({"hands": [[f"trap-{v}" for v in range(1, 9)] + ["x", "y"], []]}, "not a shot card"),
        ({"targets": ["trap-T1"]}, "10 to 24"),
        ({"targets": ["trap-T1"] * 10}, "twice"),
        ({"targets": ["trap-1"] * 10}, "not a target card"),
        ({"shuffle": 1}, "no shuffle"),
    ],
)
def test_bad_deals_are_refused(deal, message):
    with pytest.raises(IllegalAction, match=message):
        GAME.new_state(2, seed=1, deal=deal)


def test_a_card_dealt_twice_is_refused():
    hands = [[f"trap-{v}" for v in range(1, 9)] + ["skeet-1", "skeet-2"]] * 2
    with pytest.raises(IllegalAction, match="dealt twice"):
        GAME.new_state(2, seed=1, deal={"hands": hands})
