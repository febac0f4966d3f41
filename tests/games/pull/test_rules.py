"""PULL! pure rules: winning a target, fouls, game end, options."""

from __future__ import annotations

import random

import pytest

from companion.games.base import IllegalAction
from companion.games.pull import deck, rules
from companion.games.pull.engine import GAME

SOLO = [0, 1, 2, 3]  # each seat its own side
TEAMS = [0, 1, 0, 1]


def test_distracted_example_left_a_1_cancels_the_8_and_the_6_wins():
    # Target of the trap suit; shots: 8, 1, 6, 3 from four players on their own.
    shots = [[0, "skeet-8"], [1, "tower-1"], [2, "crosser-6"], [3, "looper-3"]]
    result = deck.resolve_target("trap-T3", shots, SOLO)
    assert result["cancelled"] == ["skeet-8"]
    assert result["seat"] == 2 and result["card"] == "crosser-6"
    assert result["side"] == 2 and not result["void"]


def test_without_the_1_the_8_would_have_won():
    shots = [[0, "skeet-8"], [1, "tower-2"], [2, "crosser-6"]]
    assert deck.resolve_target("trap-T3", shots, SOLO)["seat"] == 0


def test_distracted_example_right_two_7s_and_the_matching_one_wins():
    shots = [[0, "skeet-7"], [1, "trap-7"], [2, "tower-5"], [3, "looper-2"]]
    result = deck.resolve_target("trap-T1", shots, SOLO)
    assert result["card"] == "trap-7" and result["side"] == 1
    # The order shots were placed in does not matter.
    result = deck.resolve_target("trap-T1", list(reversed(shots)), SOLO)
    assert result["card"] == "trap-7"


def test_a_distraction_cancels_every_8_wherever_it_was_played():
    for order in ([0, 1, 2], [2, 1, 0], [1, 0, 2]):
        cards = ["skeet-8", "trap-8", "tower-1"]
        shots = [[seat, cards[seat]] for seat in order]
        result = deck.resolve_target("trap-T2", shots, SOLO)
        assert sorted(result["cancelled"]) == ["skeet-8", "trap-8"]
        # Our reading: only the 1 is left, so the 1 takes the target.
        assert result["card"] == "tower-1" and result["seat"] == 2


def test_8s_without_a_1_stand():
    shots = [[0, "skeet-8"], [1, "trap-8"]]
    result = deck.resolve_target("trap-T2", shots, SOLO)
    assert result["cancelled"] == [] and result["card"] == "trap-8"


def test_a_tie_between_opponents_with_no_matching_shot_is_void():
    shots = [[0, "skeet-6"], [1, "tower-6"], [2, "crosser-2"]]
    result = deck.resolve_target("trap-T2", shots, SOLO)
    assert result["void"] and result["side"] is None and result["seat"] is None


def test_a_tie_between_partners_still_wins_for_their_side():
    shots = [[0, "skeet-6"], [1, "tower-2"], [2, "crosser-6"], [3, "looper-5"]]
    result = deck.resolve_target("trap-T2", shots, TEAMS)
    assert not result["void"] and result["side"] == 0
    # The same tie between opponents voids it.
    result = deck.resolve_target("trap-T2", shots, SOLO)
    assert result["void"]


def test_a_tie_among_a_matching_shot_and_partners_goes_to_the_matching_shot():
    shots = [[0, "skeet-6"], [1, "trap-6"], [2, "crosser-6"], [3, "looper-5"]]
    result = deck.resolve_target("trap-T2", shots, TEAMS)
    assert result["side"] == 1 and result["card"] == "trap-6"


def test_a_matching_lower_shot_does_not_beat_a_higher_one():
    shots = [[0, "skeet-6"], [1, "trap-5"]]
    assert deck.resolve_target("trap-T2", shots, SOLO)["seat"] == 0


@pytest.mark.parametrize(
    "before, after, penalty",
    [(0, 4, 0), (4, 5, 20), (3, 6, 20), (5, 9, 0), (9, 10, 20), (4, 10, 40), (0, 15, 60)],
)
def test_each_5th_foul_costs_20(before, after, penalty):
    assert rules.foul_penalty(before, after) == penalty


def test_pile_points_use_double_values_and_count_animals_as_fouls():
    table = rules.target_table()
    pile = [
        {"card": "trap-T3", "double": True},
        {"card": "skeet-T4", "double": True},
        {"card": "tower-T2", "double": False},
        {"card": "looper-T4", "double": False},
    ]
    points, fouls = rules.pile_points(pile, table)
    expected = (
        table["trap-T3"]["double"]
        + table["skeet-T4"]["double"]
        + table["tower-T2"]["left"]
        + table["looper-T4"]["left"]
    )
    assert points == expected
    assert fouls == 2


def options(**kw):
    return GAME.check_options(2, kw)


def test_game_ends_once_a_side_reaches_the_goal_with_a_clear_leader():
    opts = options(goal=200)
    assert not rules.game_over([199, 150], 5, opts)
    assert rules.game_over([200, 150], 5, opts)
    assert rules.game_over([210, 230], 5, opts)  # the other side is higher: it wins
    assert not rules.game_over([210, 210], 5, opts)  # a tie plays one more hand
    assert rules.winners([210, 230]) == [1]


def test_fixed_number_of_hands():
    opts = options(hands=3)
    assert not rules.game_over([500, 0], 2, opts)
    assert rules.game_over([5, 0], 3, opts)
    assert not rules.game_over([5, 5], 3, opts)
    assert rules.game_over([5, 6], 4, opts)


def test_the_safety_stop_ends_even_a_tie():
    opts = options(goal=200, max_hands=4)
    assert not rules.game_over([10, 10], 3, opts)
    assert rules.game_over([10, 10], 4, opts)
    assert rules.winners([10, 10]) == [0, 1]


def test_option_defaults():
    assert GAME.check_options(4, {}) == {
        "teams": True,
        "goal": 200,
        "hands": None,
        "max_hands": 100,
        "targets": {},
    }
    assert GAME.check_options(3, {})["teams"] is False
    assert GAME.check_options(2, {})["teams"] is False
    assert GAME.check_options(4, {"teams": False})["teams"] is False
    assert GAME.check_options(2, {"goal": 400})["goal"] == 400
    assert GAME.check_options(2, {"hands": 6})["goal"] is None


def test_a_number_of_hands_replaces_the_goal():
    # With defaults filled in, goal is always there; hands, when set, takes its place.
    assert GAME.check_options(4, {"goal": 200, "hands": 3})["goal"] is None
    assert GAME.check_options(4, {"goal": 400, "hands": 3})["hands"] == 3
    # Neither given (or both cleared): the target score of the rulebook.
    assert GAME.check_options(4, {"goal": None, "hands": None})["goal"] == 200
    assert GAME.check_options(4, {"targets": None})["targets"] == {}


@pytest.mark.parametrize(
    "players, opts, message",
    [
        (3, {"teams": True}, "exactly 4 players"),
        (4, {"teams": "yes"}, "true or false"),
        (4, {"goal": 0}, "Target score"),
        (4, {"goal": 10_001}, "Target score"),
        (4, {"goal": "200"}, "Target score"),
        (4, {"hands": 0}, "Number of hands"),
        (4, {"hands": True}, "Number of hands"),
        (4, {"hands": 10, "max_hands": 5}, "hand limit"),
        (4, {"max_hands": 0}, "Hand limit"),
        (4, {"speed": 2}, "no option speed"),
        (4, {"dealer": 1}, "no option dealer"),  # a score-sheet option only
        (4, {"targets": {"trap-T2": {"left": 1}}}, "printed in the rulebook"),
        (4, ["teams"], "must be an object"),
    ],
)
def test_bad_options_are_refused(players, opts, message):
    with pytest.raises(IllegalAction, match=message):
        GAME.check_options(players, opts)


@pytest.mark.parametrize(
    "players, opts",
    [
        (4, {}),
        (2, {"hands": 3}),
        (4, {"goal": 400, "hands": 3}),
        (3, {"goal": 50, "targets": {"trap-T1": {"double": 1}}}),
    ],
)
def test_check_options_is_idempotent(players, opts):
    once = GAME.check_options(players, opts)
    assert GAME.check_options(players, once) == once
    sheet_once = GAME.sheet(["A", "B", "C", "D"][:players], opts).options
    assert GAME.sheet(["A", "B", "C", "D"][:players], sheet_once).options == sheet_once


def test_resolution_does_not_depend_on_the_order_of_shots():
    chooser = random.Random(7)
    cards = rules.shot_ids()
    for _ in range(500):
        players = chooser.choice([2, 3, 4])
        side_of = chooser.choice([SOLO, TEAMS]) if players == 4 else SOLO
        picks = chooser.sample(cards, players)
        shots = [[seat, card] for seat, card in enumerate(picks)]
        target = chooser.choice(rules.target_ids())
        result = deck.resolve_target(target, shots, side_of)
        chooser.shuffle(shots)
        again = deck.resolve_target(target, shots, side_of)
        assert (again["side"], again["void"]) == (result["side"], result["void"])
        # (Between partners tied for the win, the seat named is the one that shot first.)
        assert sorted(again["cancelled"]) == sorted(result["cancelled"])
        if result["card"] is not None:
            live = [c for c in picks if c not in result["cancelled"]]
            assert rules.shot_value(result["card"]) == max(map(rules.shot_value, live))
