"""Call the Shot on a sheet the players joined (issue 28): a duel is one open step, the
challenger (any phone) and each player's own "were you shot?" box; the answers become the
row the keeper's form stores. Pure: no database, no web."""

from __future__ import annotations

import pytest

from companion.games import GAMES
from companion.games.errors import SheetError
from companion.scorekeeper import boxes


def sheet():
    return GAMES["call_the_shot"].sheet(["Ada", "Bo"])


def test_a_duel_is_one_step_each_player_owning_their_own_box():
    made = sheet()
    step = made.open_step([], {})
    assert (step.name, step.sealed) == ("duel", False)
    assert made.open_step(["duel"], {}) is None
    owners = {key: made.box_owner(step, key) for key in made.step_keys(step)}
    assert owners == {"challenger": None, "hit-0": (0,), "hit-1": (1,)}
    boxes.may_enter(made, step, "challenger", 1)  # the table's: any phone
    with pytest.raises(boxes.BoxRefused):
        boxes.may_enter(made, step, "hit-0", 1)


@pytest.mark.parametrize(
    ("hits", "shot"), [(("yes", "no"), 0), (("no", "yes"), 1), (("no", "no"), None)]
)
def test_the_answers_become_who_was_shot(hits, shot):
    form = {"challenger": "1", "hit-0": hits[0], "hit-1": hits[1]}
    assert sheet().read(form) == {"challenger": 1, "shot": shot}


def test_both_shot_or_an_answer_missing_is_refused():
    with pytest.raises(SheetError, match="only the duel's loser"):
        sheet().read({"challenger": "0", "hit-0": "yes", "hit-1": "yes"})
    with pytest.raises(SheetError, match="Bo: say whether you were shot") as refused:
        sheet().read({"challenger": "0", "hit-0": "yes", "hit-1": ""})
    assert refused.value.field == "hit-1"


def test_the_keepers_form_is_read_as_before():
    assert sheet().read({"challenger": "0", "shot": "none"}) == {"challenger": 0, "shot": None}
