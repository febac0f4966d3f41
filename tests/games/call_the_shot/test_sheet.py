"""The score-mode sheet: duel facts in, shots, next challenger and loser out."""

import copy
import random

import pytest

from companion.games.call_the_shot.sheet import CallTheShotSheet
from companion.games.errors import SheetError

from .helpers import GAME, new

NAMES = ["Ada", "Bo"]


def sheet(**options):
    return CallTheShotSheet(NAMES, options or None)


def rows(*facts):
    return [{"challenger": c, "shot": s} for c, s in facts]


def test_an_empty_sheet():
    assert sheet().summary([]) == {
        "players": NAMES,
        "sides": [[0], [1]],
        "side_names": NAMES,
        "totals": [0, 0],
        "rows": [],
        "running": [],
        "start": [0, 0],
        "over": False,
        "winners": [],
        "next": {"duel": 1, "challenger": None, "defaults": {}},
        "shots_to_lose": 3,
        "loser": None,
    }


def test_the_game_makes_the_sheet():
    made = GAME.sheet(NAMES, {"shots_to_lose": 2})
    assert isinstance(made, CallTheShotSheet) and made.options == {"shots_to_lose": 2}


def test_shots_are_counted_and_the_challenger_alternates():
    totals = sheet().summary(rows((1, 0), (0, None), (1, 1), (0, 0)))
    assert totals["totals"] == [2, 1]
    assert totals["next"] == {"duel": 5, "challenger": 1, "defaults": {"challenger": 1}}
    assert [d["shots"] for d in totals["rows"]] == [[1, 0], [1, 0], [1, 1], [2, 1]]
    assert [d["duel"] for d in totals["rows"]] == [1, 2, 3, 4]
    assert totals["rows"][1] == {"duel": 2, "challenger": 0, "shot": None, "shots": [1, 0]}
    assert not totals["over"] and totals["loser"] is None and totals["winners"] == []


def test_a_tie_shoots_nobody_but_the_challenger_still_changes():
    totals = sheet().summary(rows((0, None)))
    assert totals["totals"] == [0, 0] and totals["next"]["defaults"] == {"challenger": 1}


def test_the_first_to_three_shots_loses_and_the_other_wins():
    facts = rows((0, 1), (1, 1), (0, 0), (1, 1))
    totals = sheet().summary(facts)
    assert totals["totals"] == [1, 3]
    assert (totals["over"], totals["loser"], totals["winners"]) == (True, 1, [0])
    assert totals["next"] is None
    assert not sheet().summary(facts[:3])["over"]


def test_shots_to_lose_is_an_option():
    facts = rows((0, 0), (1, 0))
    assert sheet(shots_to_lose=2).summary(facts)["loser"] == 0
    assert sheet(shots_to_lose=2).summary(facts)["winners"] == [1]
    assert sheet().summary(facts)["loser"] is None
    with pytest.raises(SheetError, match="from 1 to 9"):
        sheet(shots_to_lose=12)


def test_exactly_two_named_players():
    with pytest.raises(SheetError, match="exactly 2 players"):
        CallTheShotSheet(["Ada", "Bo", "Cy"])
    with pytest.raises(SheetError, match="names"):
        CallTheShotSheet("Ada")


def test_add_replace_and_delete_return_new_rows():
    facts = rows((0, 1), (1, None))
    added = sheet().add(facts, {"challenger": 0, "shot": 0})
    assert added == rows((0, 1), (1, None), (0, 0))
    assert sheet().replace(added, 1, {"challenger": 1, "shot": 1}) == rows((0, 1), (1, 1), (0, 0))
    assert sheet().delete(added, 2) == facts
    assert facts == rows((0, 1), (1, None))


@pytest.mark.parametrize(
    ("entry", "message", "player", "field"),
    [
        ({"challenger": 2, "shot": None}, "challenger must be Ada or Bo", None, "challenger"),
        ({"challenger": True, "shot": None}, "challenger must be Ada or Bo", None, "challenger"),
        ({"challenger": "0", "shot": None}, "challenger must be Ada or Bo", None, "challenger"),
        ({"challenger": 0, "shot": 2}, "shot must be Ada, Bo or nobody", None, "shot"),
        ({"challenger": 0, "shot": False}, "shot must be Ada, Bo or nobody", None, "shot"),
        ({"challenger": 0}, "who was shot", None, "shot"),
        ({"shot": 0}, "who challenged", None, "challenger"),
        ({"challenger": 0, "shot": 0, "winner": 1}, "not \\['winner'\\]", None, None),
        (["challenger", 0], "who challenged and who was shot", None, None),
        ({"challenger": 1, "shot": 0}, "Bo challenged duel 2, so Ada challenges", 1, "challenger"),
    ],
)
def test_a_bad_entry_is_refused_and_nothing_is_stored(entry, message, player, field):
    facts = rows((0, 1), (1, None))
    before = copy.deepcopy(facts)
    with pytest.raises(SheetError, match=f"Duel 3: .*{message}") as caught:
        sheet().add(facts, entry)
    assert (caught.value.round, caught.value.player, caught.value.field) == (3, player, field)
    assert "player 1" not in caught.value.message and "player 2" not in caught.value.message
    assert facts == before


def test_no_duel_after_the_game_is_over():
    facts = rows((0, 1), (1, 1), (0, 1))
    with pytest.raises(SheetError, match="Duel 4: the game already ended in duel 3") as caught:
        sheet().add(facts, {"challenger": 1, "shot": 0})
    assert "Bo took shot number 3" in caught.value.message
    assert (caught.value.round, caught.value.player) == (4, 1)
    with pytest.raises(SheetError, match="already ended in duel 2"):
        sheet(shots_to_lose=2).replace(facts, 0, {"challenger": 0, "shot": 1})


def test_an_edit_or_delete_that_breaks_the_alternation_is_refused():
    facts = rows((0, 1), (1, None), (0, 0))
    with pytest.raises(SheetError, match="Duel 2: Ada challenged duel 1"):
        sheet().replace(facts, 1, {"challenger": 0, "shot": None})
    with pytest.raises(SheetError, match="Duel 2: Ada challenged duel 1"):
        sheet().delete(facts, 1)
    assert sheet().delete(facts, 0) == rows((1, None), (0, 0))  # the first one is free


@pytest.mark.parametrize("index", [-1, 3, True, "0"])
def test_no_such_duel(index):
    with pytest.raises(SheetError, match="There is no such duel on this sheet"):
        sheet().delete(rows((0, 1), (1, None), (0, 0)), index)


def test_a_corrupt_sheet_is_refused():
    with pytest.raises(SheetError, match="list of rounds"):
        sheet().summary({"challenger": 0})
    with pytest.raises(SheetError, match="Duel 2") as caught:
        sheet().summary(rows((0, 1), (0, 1)))
    assert caught.value.round == 2


# -- the round form -----------------------------------------------------------------------


def test_the_form_boxes_and_choices():
    made = sheet()
    challenger, shot, hit = made.spec.sheet_fields
    assert (challenger.name, challenger.kind, shot.name, shot.kind) == (
        "challenger",
        "seat",
        "shot",
        "choice",
    )
    assert made.choices(shot) == [("0", "Ada"), ("1", "Bo"), ("none", "Nobody (a tie)")]
    assert made.choices(challenger) == []
    # Each phone's own "were you shot?" (on a sheet the players joined).
    assert (hit.repeat, hit.optional) == (("players",), True)
    assert [value for value, _ in made.choices(hit)] == ["yes", "no"]


@pytest.mark.parametrize(
    ("form", "facts"),
    [
        ({"challenger": "0", "shot": "1"}, {"challenger": 0, "shot": 1}),
        ({"challenger": "1", "shot": "0"}, {"challenger": 1, "shot": 0}),
        ({"challenger": "1", "shot": "none"}, {"challenger": 1, "shot": None}),
    ],
)
def test_read_and_values_of_round_trip(form, facts):
    made = sheet()
    assert made.read(form) == facts
    values = made.values_of(facts)
    assert values == {"challenger": facts["challenger"], "shot": form["shot"]}
    assert made.facts_from_values(values) == facts


@pytest.mark.parametrize(
    ("form", "field"),
    [
        ({"shot": "1"}, "challenger"),
        ({"challenger": "2", "shot": "1"}, "challenger"),
        ({"challenger": "x", "shot": "1"}, "challenger"),
        ({"challenger": "0"}, "shot"),
        ({"challenger": "0", "shot": "2"}, "shot"),
        ({"challenger": "0", "shot": "nobody"}, "shot"),
    ],
)
def test_a_bad_form_names_the_box(form, field):
    with pytest.raises(SheetError) as caught:
        sheet().read(form)
    assert caught.value.field == field


@pytest.mark.parametrize("seed", range(10))
def test_the_sheet_agrees_with_the_engine(seed):
    state = new(seed=seed, shots_to_lose=1 + seed % 4)
    chooser = random.Random(seed)
    while not state.is_over():
        (seat,) = state.to_act()
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
    facts = [{"challenger": r["challenger"], "shot": r["shot"]} for r in state.results]
    totals = GAME.sheet(NAMES, state.options).summary(facts)
    assert totals["totals"] == state.scores()
    assert totals["loser"] == state.loser and totals["over"]
    assert totals["winners"] == state.winners()
