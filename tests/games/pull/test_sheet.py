"""PULL! score sheet: facts per hand in, points, fouls, penalties, totals and the end out."""

from __future__ import annotations

import copy
import random

import pytest

from companion.games.base import IllegalAction
from companion.games.errors import SheetError
from companion.games.pull import rules
from companion.games.pull.engine import GAME
from companion.games.pull.sheet import PullSheet

TABLE = rules.target_table()
NAMES = ["Ann", "Bo", "Cy", "Di"]


def make(players, options=None):
    return PullSheet(NAMES[:players], options)


def summary(players, options, rows):
    return make(players, options).summary(rows)


def quick(points, fouls):
    return {"points": points, "fouls": fouls}


def rounds(*taken):
    return {"rounds": [list(t) for t in taken]}


def test_targets_taken_score_left_values_and_a_round_with_both_is_a_double():
    row = {
        "sides": [
            rounds(["trap-T3", "skeet-T2"], ["tower-T3"]),
            rounds([], ["looper-T1"], ["crosser-T4"]),
        ]
    }
    result = summary(2, {}, [row])
    mine, theirs = result["rows"][0]["sides"]
    double = TABLE["trap-T3"]["double"] + TABLE["skeet-T2"]["double"]
    assert mine["points"] == double + TABLE["tower-T3"]["left"]
    assert mine["doubles"] == 1
    assert theirs["points"] == TABLE["looper-T1"]["left"] + TABLE["crosser-T4"]["left"]
    assert theirs["doubles"] == 0
    assert theirs["fouls"] == 1 and mine["fouls"] == 0
    assert result["side_totals"] == [mine["points"], theirs["points"]]


def test_an_animal_in_a_double_is_a_foul_at_its_double_value():
    row = {"sides": [rounds(["trap-T4", "skeet-T3"]), rounds()]}
    side = summary(2, {}, [row])["rows"][0]["sides"][0]
    assert side["fouls"] == 1
    assert side["points"] == TABLE["trap-T4"]["double"] + TABLE["skeet-T3"]["double"]


def test_the_5th_and_10th_fouls_cost_20_across_hands():
    rows = [
        {"sides": [quick(30, 3), quick(10, 0)]},
        {"sides": [quick(20, 2), quick(10, 4)]},  # side 0 reaches 5
        {"sides": [quick(30, 4), quick(10, 1)]},  # side 0 at 9, side 1 reaches 5
        {"sides": [quick(30, 1), quick(10, 0)]},  # side 0 reaches 10
    ]
    result = summary(2, {}, rows)
    penalties = [[s["penalty"] for s in h["sides"]] for h in result["rows"]]
    assert penalties == [[0, 0], [20, 0], [0, 20], [20, 0]]
    assert [h["sides"][0]["foul_total"] for h in result["rows"]] == [3, 5, 9, 10]
    assert result["side_totals"] == [110 - 40, 40 - 20]
    assert result["fouls"] == [10, 5]


def test_crossing_two_multiples_in_one_hand_costs_40():
    result = summary(2, {}, [{"sides": [quick(-20, 4), quick(0, 0)]}] * 1)
    assert result["side_totals"] == [-20, 0]
    result = summary(
        2, {}, [{"sides": [quick(-20, 4), quick(0, 0)]}, {"sides": [quick(-30, 6), quick(0, 0)]}]
    )
    assert result["rows"][1]["sides"][0]["penalty"] == 40


def test_running_totals_dealer_and_next_dealer():
    rows = [{"sides": [quick(10, 0), quick(5, 0), quick(0, 0)]}] * 4
    result = summary(3, {"dealer": 2}, rows)
    assert [h["dealer"] for h in result["rows"]] == [2, 0, 1, 2]
    assert [h["sides"][0]["total"] for h in result["rows"]] == [10, 20, 30, 40]
    assert result["next_dealer"] == 0
    assert not result["over"]


def test_team_sheet_has_two_sides():
    result = summary(4, {}, [{"sides": [quick(10, 0), quick(5, 0)]}])
    assert result["sides"] == [[0, 2], [1, 3]]
    assert result["side_names"] == ["Ann & Cy", "Bo & Di"]
    assert result["totals"] == [10, 5, 10, 5]  # per seat: partners show the side's total
    with pytest.raises(IllegalAction, match="each of the 4 sides"):
        summary(4, {"teams": False}, [{"sides": [quick(10, 0), quick(5, 0)]}])


def test_the_game_ends_by_the_chosen_target_and_a_tie_plays_on():
    hand = [{"sides": [quick(60, 0), quick(50, 0)]}]
    rows = [*hand * 2, {"sides": [quick(30, 0), quick(80, 0)]}, *hand]
    result = summary(2, {}, rows)  # 210 to 230
    assert result["over"] and result["winning_sides"] == [1] and result["next_dealer"] is None
    assert not summary(2, {"goal": 400}, rows)["over"]
    tied = [{"sides": [quick(50, 0), quick(50, 0)]}] * 4
    assert not summary(2, {}, tied)["over"]
    assert summary(2, {}, [*tied, {"sides": [quick(0, 0), quick(5, 0)]}])["winning_sides"] == [1]


def test_a_fixed_number_of_hands():
    rows = [{"sides": [quick(5, 0), quick(0, 0)]}] * 3
    assert not summary(2, {"hands": 4}, rows)["over"]
    assert summary(2, {"hands": 3}, rows)["over"]


def test_no_hand_after_the_end():
    rows = [{"sides": [quick(100, 0), quick(0, 0)]}]
    with pytest.raises(IllegalAction, match="already ended after hand 1"):
        make(2, {"goal": 100}).add(rows, {"sides": [quick(5, 0), quick(0, 0)]})


def test_group_changes_to_house_values_apply_on_the_sheet():
    row = {"sides": [rounds(["trap-T2"]), rounds(["skeet-T1"])]}
    opts = {"targets": {"trap-T2": {"animal": True}, "skeet-T1": {"double": 50}}}
    side = summary(2, opts, [row])["rows"][0]["sides"]
    assert side[0]["fouls"] == 1 and side[1]["points"] == 0
    row = {"sides": [rounds(), rounds(["skeet-T1", "skeet-T2"])]}
    assert summary(2, opts, [row])["side_totals"][1] == 50 + TABLE["skeet-T2"]["double"]
    with pytest.raises(IllegalAction, match="printed in the rulebook"):
        summary(2, {"targets": {"trap-T2": {"left": 9}}}, [])


def test_mixed_quick_and_detailed_entries():
    row = {"sides": [quick(17, 1), rounds(["trap-T3"])]}
    result = summary(2, {}, [row])
    assert result["side_totals"] == [17, 10]
    assert result["rows"][0]["sides"][0]["quick"] is True


@pytest.mark.parametrize(
    "row, message",
    [
        ({"sides": [rounds(["trap-T3"], ["trap-T3"]), rounds()]}, "Trap target 10 is listed twice"),
        ({"sides": [rounds(["trap-T3"]), rounds([], ["trap-T3"])]}, "listed twice"),
        ({"sides": [rounds(["trap-T9"]), rounds()]}, "'trap-T9' is not a target"),
        ({"sides": [rounds(["trap-T1", "trap-T2", "trap-T3"]), rounds()]}, "only two targets"),
        ({"sides": [rounds(["trap-T1", "trap-T2"]), rounds(["skeet-T1"])]}, "more than two"),
        ({"sides": [rounds(*[[]] * 6), rounds()]}, "at most 5 rounds"),
        ({"sides": [quick(5, 0)]}, "each of the 2 sides"),
        ({"sides": [quick("5", 0), quick(0, 0)]}, "points must be a whole number"),
        ({"sides": [quick(5, -1), quick(0, 0)]}, "fouls must be a whole number"),
        ({"sides": [quick(5, 11), quick(0, 0)]}, "fouls must be a whole number"),
        ({"sides": [{"points": 5}, quick(0, 0)]}, "either"),
        ({"sides": [{"rounds": "trap-T1"}, quick(0, 0)]}, "at most 5 rounds"),
        ({"hand": 1}, "one entry per side"),
        ("five", "one entry per side"),
    ],
)
def test_bad_hands_are_refused_with_a_clear_message(row, message):
    rows = [{"sides": [quick(5, 0), quick(0, 0)]}]
    before = copy.deepcopy(rows)
    with pytest.raises(SheetError, match=message) as error:
        make(2).add(rows, row)
    assert str(error.value).startswith("Hand 2:")
    assert error.value.round == 2
    assert rows == before


def test_replace_and_delete_recompute_everything():
    rows = [{"sides": [quick(10, 4), quick(0, 0)]}, {"sides": [quick(10, 1), quick(0, 0)]}]
    assert summary(2, {}, rows)["side_totals"][0] == 0
    rows = make(2).replace(rows, 0, {"sides": [quick(10, 3), quick(0, 0)]})
    assert summary(2, {}, rows)["side_totals"][0] == 20
    rows = make(2).delete(rows, 0)
    assert summary(2, {}, rows)["side_totals"] == [10, 0]
    with pytest.raises(IllegalAction, match="no such hand"):
        make(2).delete(rows, 3)


def test_sheet_options():
    assert make(4).options["dealer"] == 0
    assert make(3, {"dealer": 2, "goal": 300}).options["goal"] == 300
    once = make(4, {"dealer": 3, "targets": {"trap-T1": {"animal": True}}}).options
    assert make(4, once).options == once
    with pytest.raises(SheetError, match="First dealer"):
        make(2, {"dealer": 2})
    with pytest.raises(SheetError, match="2 to 4 players"):
        PullSheet(["A", "B", "C", "D", "E"])


def test_the_sheet_agrees_with_the_engine_on_random_games():
    """Entering an engine game's piles on the sheet gives the engine's totals and ending."""
    for seed in range(40):
        players = 2 + seed % 3
        opts = {"goal": 60} if seed % 2 else {"hands": 2}
        state = GAME.new_state(players, opts, seed=seed)
        chooser = random.Random(seed)
        by_hand: dict[int, dict] = {}
        seen = None
        while not state.is_over():
            seat = chooser.choice(state.to_act())
            state.apply(seat, chooser.choice(state.legal_actions(seat)))
            last = state.last_round
            if last and (last["hand"], last["round"]) != seen:
                seen = (last["hand"], last["round"])
                by_hand[last["hand"]] = piles_row(state, by_hand.get(last["hand"]))
        rows = [by_hand[hand] for hand in sorted(by_hand)]
        result = summary(players, opts, rows)
        assert result["side_totals"] == state.totals
        assert result["totals"] == state.scores()
        assert result["winners"] == state.winners()
        assert result["fouls"] == state.fouls
        assert result["over"] and result["winning_sides"] == state.winning_sides()
        assert [h["dealer"] for h in result["rows"]] == [h["dealer"] for h in state.history]


def piles_row(state, row):
    """The sheet row of the hand so far, rebuilt from the engine's round results."""
    sides = len(state.sides())
    row = row or {"sides": [{"rounds": [[] for _ in range(5)]} for _ in range(sides)]}
    last = state.last_round
    number = last["round"] - 1
    for side in range(sides):
        row["sides"][side]["rounds"][number] = [
            t["card"] for t in last["targets"] if t["side"] == side
        ]
    return row
