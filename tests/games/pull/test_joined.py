"""PULL! on a sheet the players joined (issue 28, :mod:`companion.games.pull.joined`):
the steps of a hand on the phones, each side's targets turned into the round form's
slots, and the check of the second shots. Pure: no database, no web."""

from __future__ import annotations

import pytest

from companion.games import GAMES
from companion.games.errors import SheetError
from companion.scorekeeper import boxes

NAMES = ["Ada", "Bea", "Cy", "Di"]


def sheet(players=4, teams=True):
    return GAMES["pull"].sheet(NAMES[:players], {"teams": teams} if players == 4 else {})


def test_three_or_four_players_seal_their_seconds_round_by_round():
    made = sheet()
    done: list[str] = []
    names = []
    while (step := made.open_step(done, {})) is not None:
        names.append((step.name, step.sealed, step.owner))
        done.append(step.name)
    assert names == [
        pair
        for r in range(1, 6)
        for pair in ((f"shots-{r}", True, "each"), (f"targets-{r}", False, "side"))
    ]
    assert made.step_keys(made.step_named("shots-2")) == [f"second-1-{p}" for p in range(4)]


def test_two_players_shoot_their_seconds_in_turn_so_nothing_is_sealed():
    made = sheet(2)
    assert made.open_step([], {}).name == "targets-1"
    assert made.step_named("shots-1") is None
    assert not any(made.step_named(f"targets-{r}").sealed for r in range(1, 6))


def test_a_round_the_keeper_saved_with_the_step_form_is_done():
    made = sheet()
    assert made.open_step(["round-1"], {}).name == "shots-2"
    assert made.next_step(["shots-1", "targets-1"]).name == "round-2"
    assert made.step_named("round-3").boxes == ("target-2", "taker-2")


def test_a_sides_target_boxes_belong_to_its_players():
    made = sheet()
    step = made.step_named("targets-1")
    owners = {key: made.box_owner(step, key) for key in made.step_keys(step)}
    assert owners == {
        "took-0-0-0": (0, 2),
        "took-0-0-1": (0, 2),
        "took-0-1-0": (1, 3),
        "took-0-1-1": (1, 3),
    }
    with pytest.raises(boxes.BoxRefused) as refused:
        boxes.may_enter(made, step, "took-0-0-0", 1)
    assert refused.value.status == 403
    boxes.may_enter(made, step, "took-0-0-0", 2)  # Ada's partner
    boxes.may_enter(made, step, "took-0-1-1", boxes.KEEPER)
    assert made.box_label(step, "took-0-1-1") == "Bea & Di: a second target (a Double) taken"


def test_the_sides_targets_become_the_round_forms_slots_and_the_same_hand():
    made = sheet()
    phones = {"took-0-1-0": "trap-T2", "took-0-1-1": "skeet-T2", "took-2-0-1": "tower-T4"}
    phones |= {"second-0-0": "trap-8"}
    keeper = {
        "target-0-0": "trap-T2",
        "taker-0-0": "1",
        "target-0-1": "skeet-T2",
        "taker-0-1": "1",
        "target-2-0": "tower-T4",
        "taker-2-0": "0",
    }
    assert made.read(phones) == made.read(keeper)
    assert made.read(phones) == {
        "sides": [{"rounds": [[], [], ["tower-T4"]]}, {"rounds": [["trap-T2", "skeet-T2"], [], []]}]
    }


def test_more_than_two_targets_in_a_round_is_refused_at_the_box_too_many():
    made = sheet(3)
    form = {"took-1-0-0": "trap-T2", "took-1-1-0": "skeet-T2", "took-1-2-1": "tower-T4"}
    with pytest.raises(SheetError) as refused:
        made.read(form)
    assert refused.value.field == "took-1-2-1"
    assert "only two targets fly in a round" in refused.value.message


def test_a_shot_card_is_a_second_once_a_hand():
    made = sheet()
    made.check_step([], {"second-0-0": "trap-8", "second-1-0": "trap-7"}, ["shots-1", "shots-2"])
    with pytest.raises(SheetError) as refused:
        boxes_ = {"second-0-0": "trap-8", "second-1-2": "trap-8"}
        made.check_step([], boxes_, ["shots-1", "shots-2"])
    assert refused.value.field == "second-1-2"
    assert "Trap 8 was already a second shot in round 1" in refused.value.message


def test_a_target_both_sides_claim_is_refused_when_they_are_checked_together():
    made = sheet()
    with pytest.raises(SheetError, match="listed twice"):
        made.check_step([], {"took-0-0-0": "trap-T2", "took-0-1-0": "trap-T2"}, ["targets-1"])
