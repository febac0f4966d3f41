"""PULL!'s sheet protocol: players named in messages, round/player/field on every error,
the round form's boxes read into the stored facts and back."""

from __future__ import annotations

import random

import pytest

from companion.games.errors import SheetError
from companion.games.pull import rules
from companion.games.pull.engine import GAME
from companion.games.pull.sheet import PullSheet
from companion.games.spec import form_values

TEAM = PullSheet(["Ann", "Bo", "Cy", "Di"])
DUO = PullSheet(["Ann", "Bo"])


def test_sides_are_named_by_their_players():
    assert TEAM.sides() == [[0, 2], [1, 3]] and TEAM.side_names() == ["Ann & Cy", "Bo & Di"]
    assert GAME.sheet(["Ann", "Bo", "Cy"]).side_names() == ["Ann", "Bo", "Cy"]


@pytest.mark.parametrize(
    "sheet, side, message, player, field",
    [
        (DUO, {"points": "5", "fouls": 0}, "Hand 1: Bo: points must be", 1, "points-1"),
        (DUO, {"points": 5, "fouls": 12}, "Hand 1: Bo: fouls must be", 1, "fouls-1"),
        (TEAM, {"points": 5, "fouls": -1}, "Hand 1: Bo & Di: fouls", None, "fouls-1"),
        (DUO, {"rounds": [[], ["trap-T9"]]}, "Bo, round 2: 'trap-T9'", 1, "target-1-0"),
    ],
)
def test_errors_name_the_players_the_hand_and_the_box(sheet, side, message, player, field):
    row = {"sides": [{"points": 0, "fouls": 0}, side]}
    with pytest.raises(SheetError, match=message) as error:
        sheet.add([], row)
    assert (error.value.round, error.value.player, error.value.field) == (1, player, field)
    assert "player 2" not in str(error.value)


def test_a_target_taken_twice_points_at_the_second_box():
    row = {"sides": [{"rounds": [["trap-T3"]]}, {"rounds": [["skeet-T1"], ["trap-T3"]]}]}
    with pytest.raises(SheetError, match=r"Ann, round 1 and Bo, round 2") as error:
        DUO.add([{"sides": [{"points": 0, "fouls": 0}] * 2}], row)
    assert error.value.round == 2 and error.value.field == "target-1-0"
    row = {"sides": [{"rounds": [["trap-T1", "trap-T2"]]}, {"rounds": [["skeet-T1"]]}]}
    with pytest.raises(SheetError, match="more than two") as error:
        DUO.add([], row)
    assert error.value.field == "target-0-1"


def test_a_hand_after_the_end_is_refused_with_its_number():
    short = PullSheet(DUO.names, {"goal": 100})
    rows = short.add([], {"sides": [{"points": 100, "fouls": 0}, {"points": 0, "fouls": 0}]})
    with pytest.raises(SheetError, match="already ended") as error:
        short.add(rows, {"sides": [{"points": 0, "fouls": 0}] * 2})
    assert error.value.round == 2


def test_read_quick_entry_from_a_form():
    form = {"points-0": "35", "fouls-0": "1", "points-1": "-5", "fouls-1": "1"}
    facts = TEAM.read(form)
    assert facts == {"sides": [{"points": 35, "fouls": 1}, {"points": -5, "fouls": 1}]}
    assert TEAM.add([], facts)[0] == facts


def test_read_targets_taken_from_a_form():
    form = {
        "target-0-0": "trap-T3",
        "taker-0-0": "0",
        "target-0-1": "skeet-T2",
        "taker-0-1": "0",
        "target-2-0": "tower-T4",
        "taker-2-0": "1",
    }
    facts = TEAM.read(form)
    assert facts == {
        "sides": [
            {"rounds": [["trap-T3", "skeet-T2"], [], []]},
            {"rounds": [[], [], ["tower-T4"]]},
        ]
    }
    summary = TEAM.summary([facts])
    assert summary["rows"][0]["sides"][0]["doubles"] == 1
    assert summary["rows"][0]["sides"][1]["fouls"] == 1


@pytest.mark.parametrize(
    "form, field, message",
    [
        ({"points-0": "5", "fouls-0": "0", "points-1": "5"}, "fouls-1", "Bo: enter the fouls"),
        ({"points-0": "x"}, "points-0", "whole number"),
        ({"fouls-1": "11"}, "fouls-1", "from 0 to 10"),
        ({"target-1-1": "trap-T9", "taker-1-1": "0"}, "target-1-1", "choose one"),
        ({"target-1-1": "trap-T1"}, "taker-1-1", "Round 2: say which side took Trap target 0"),
        ({"taker-3-0": "1"}, "target-3-0", "Round 4: choose the target Bo took"),
        ({"taker-3-0": "2"}, "taker-3-0", "choose one"),
        ({"points-0": "5", "target-0-0": "trap-T1", "taker-0-0": "0"}, "points-0", "not both"),
    ],
)
def test_a_bad_form_names_the_box(form, field, message):
    with pytest.raises(SheetError, match=message) as error:
        DUO.read(form)
    assert error.value.field == field


def test_values_of_round_trips_through_the_form():
    rows = []
    chooser = random.Random(5)
    targets = rules.target_ids()
    for _ in range(30):
        if chooser.random() < 0.4:
            fouls = [chooser.randint(0, 3) for _ in range(2)]  # a hand holds 6 animals
            facts = {
                "sides": [
                    {"points": chooser.randint(-5 * f, 15 - 5 * f), "fouls": f} for f in fouls
                ]
            }
        else:
            picks = chooser.sample(targets, 10)
            sides = [[[] for _ in range(5)] for _ in range(2)]
            for r in range(5):
                for slot in range(chooser.randint(0, 2)):
                    sides[chooser.randrange(2)][r].append(picks[2 * r + slot])
            last = max((r + 1 for s in sides for r, got in enumerate(s) if got), default=0)
            facts = {"sides": [{"rounds": s[:last]} for s in sides]}
        if all("rounds" in s for s in facts["sides"]) and not any(
            got for s in facts["sides"] for got in s["rounds"]
        ):
            continue  # no target and no points: not a hand a form can send
        values = TEAM.values_of(facts)
        assert TEAM.facts_from_values(values) == facts
        assert TEAM.read(form_values(TEAM.spec.sheet_fields, values)) == facts
        rows = [facts]
        assert TEAM.check(rows) == rows
