"""The score-mode sheet: duel facts in, shots, next challenger and loser out."""

import copy
import random

import pytest

from companion.games.base import IllegalAction
from companion.games.call_the_shot import sheet

from .helpers import new


def rows(*facts):
    return [{"challenger": c, "shot": s} for c, s in facts]


def test_an_empty_sheet():
    assert sheet.summary([]) == {
        "duels": [],
        "shots": [0, 0],
        "shots_to_lose": 3,
        "next_challenger": None,
        "over": False,
        "loser": None,
        "winner": None,
    }


def test_shots_are_counted_and_the_challenger_alternates():
    totals = sheet.summary(rows((1, 0), (0, None), (1, 1), (0, 0)))
    assert totals["shots"] == [2, 1]
    assert totals["next_challenger"] == 1
    assert [d["shots"] for d in totals["duels"]] == [[1, 0], [1, 0], [1, 1], [2, 1]]
    assert [d["duel"] for d in totals["duels"]] == [1, 2, 3, 4]
    assert not totals["over"] and totals["loser"] is None


def test_a_tie_shoots_nobody_but_the_challenger_still_changes():
    totals = sheet.summary(rows((0, None)))
    assert totals["shots"] == [0, 0] and totals["next_challenger"] == 1


def test_the_first_to_three_shots_loses():
    facts = rows((0, 1), (1, 1), (0, 0), (1, 1))
    totals = sheet.summary(facts)
    assert totals["shots"] == [1, 3]
    assert (totals["over"], totals["loser"], totals["winner"]) == (True, 1, 0)
    assert totals["next_challenger"] is None
    assert not sheet.summary(facts[:3])["over"]


def test_shots_to_lose_is_an_option():
    facts = rows((0, 0), (1, 0))
    assert sheet.summary(facts, {"shots_to_lose": 2})["loser"] == 0
    assert sheet.summary(facts)["loser"] is None
    with pytest.raises(IllegalAction, match="from 1 to 9"):
        sheet.summary(facts, {"shots_to_lose": 12})


def test_add_replace_and_delete_return_new_rows():
    facts = rows((0, 1), (1, None))
    added = sheet.add(facts, {"challenger": 0, "shot": 0})
    assert added == rows((0, 1), (1, None), (0, 0))
    assert sheet.replace(added, 1, {"challenger": 1, "shot": 1}) == rows((0, 1), (1, 1), (0, 0))
    assert sheet.delete(added, 2) == facts
    assert facts == rows((0, 1), (1, None))


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"challenger": 2, "shot": None}, "challenger must be player 1 or player 2"),
        ({"challenger": True, "shot": None}, "challenger must be player 1 or player 2"),
        ({"challenger": "0", "shot": None}, "challenger must be player 1 or player 2"),
        ({"challenger": 0, "shot": 2}, "shot must be player 1, player 2 or nobody"),
        ({"challenger": 0, "shot": False}, "shot must be player 1, player 2 or nobody"),
        ({"challenger": 0}, "who was shot"),
        ({"shot": 0}, "who challenged"),
        ({"challenger": 0, "shot": 0, "winner": 1}, "not \\['winner'\\]"),
        (["challenger", 0], "who challenged and who was shot"),
        ({"challenger": 1, "shot": 0}, "player 2 challenged duel 2, so player 1 challenges"),
    ],
)
def test_a_bad_entry_is_refused_and_nothing_is_stored(entry, message):
    facts = rows((0, 1), (1, None))
    before = copy.deepcopy(facts)
    with pytest.raises(IllegalAction, match=f"Duel 3: .*{message}"):
        sheet.add(facts, entry)
    assert facts == before


def test_no_duel_after_the_game_is_over():
    facts = rows((0, 1), (1, 1), (0, 1))
    with pytest.raises(IllegalAction, match="Duel 4: the game already ended in duel 3"):
        sheet.add(facts, {"challenger": 1, "shot": 0})
    with pytest.raises(IllegalAction, match="already ended in duel 2"):
        sheet.replace(facts, 0, {"challenger": 0, "shot": 1}, {"shots_to_lose": 2})


def test_an_edit_or_delete_that_breaks_the_alternation_is_refused():
    facts = rows((0, 1), (1, None), (0, 0))
    with pytest.raises(IllegalAction, match="Duel 2: player 1 challenged duel 1"):
        sheet.replace(facts, 1, {"challenger": 0, "shot": None})
    with pytest.raises(IllegalAction, match="Duel 2: player 1 challenged duel 1"):
        sheet.delete(facts, 1)
    assert sheet.delete(facts, 0) == rows((1, None), (0, 0))  # the first one is free


@pytest.mark.parametrize("index", [-1, 3, True, "0"])
def test_no_such_duel(index):
    with pytest.raises(IllegalAction, match="no such duel"):
        sheet.delete(rows((0, 1), (1, None), (0, 0)), index)


def test_a_corrupt_sheet_is_refused():
    with pytest.raises(IllegalAction, match="list of duels"):
        sheet.summary({"challenger": 0})
    with pytest.raises(IllegalAction, match="Duel 2"):
        sheet.summary(rows((0, 1), (0, 1)))


@pytest.mark.parametrize("seed", range(10))
def test_the_sheet_agrees_with_the_engine(seed):
    state = new(seed=seed, shots_to_lose=1 + seed % 4)
    chooser = random.Random(seed)
    while not state.is_over():
        (seat,) = state.to_act()
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
    facts = [{"challenger": r["challenger"], "shot": r["shot"]} for r in state.results]
    totals = sheet.summary(facts, state.options)
    assert totals["shots"] == state.scores()
    assert totals["loser"] == state.loser and totals["over"]
