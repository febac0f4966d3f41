"""PULL!'s declared spec: options of both modes (defaults, ranges, refusals, idempotent),
the sheet's boxes and the target values read from a form."""

from __future__ import annotations

import pytest

from companion.games import GAMES
from companion.games.base import IllegalAction
from companion.games.errors import SheetError
from companion.games.pull import rules
from companion.games.pull.engine import GAME
from companion.games.pull.sheet import PullSheet
from companion.games.pull.spec import SPEC
from companion.games.spec import PLAY, SCORE


def test_the_registry_finds_pull_with_its_spec():
    assert GAMES["pull"] is GAME
    assert GAME.name == "PULL!" and GAME.min_players == 2 and GAME.max_players == 4
    assert SPEC.order == 1 and SPEC.suit == ("clubs", "♣") and SPEC.round_word == "hand"
    assert "across" in SPEC.teams and not SPEC.lower_wins
    assert SPEC.anchors[0] == "components" and SPEC.anchors[-1] == "our-reading"
    assert "double" in SPEC.anchors and "fouls" in SPEC.anchors


def test_options_of_each_mode():
    play = [o.name for o in SPEC.options_for(PLAY)]
    score = [o.name for o in SPEC.options_for(SCORE)]
    assert play == ["teams", "goal", "hands", "max_hands", "targets"]
    assert score == [*play, "dealer"]
    kinds = {o.name: o.kind for o in SPEC.options}
    assert kinds == {
        "teams": "bool",
        "goal": "int",
        "hands": "int",
        "max_hands": "int",
        "targets": "data",
        "dealer": "seat",
    }
    assert SPEC.option("goal").presets == ((200, "200 points"), (400, "400 points"))
    assert (SPEC.option("goal").low, SPEC.option("goal").high) == (1, 10_000)
    assert SPEC.option("max_hands").house and SPEC.option("targets").house
    assert not SPEC.option("goal").house
    assert [SPEC.option("teams").default_value(n) for n in (2, 3, 4)] == [False, False, True]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_defaults_in_both_modes(players):
    play = GAME.check_options(players, {})
    assert play == {
        "teams": players == 4,
        "goal": 200,
        "hands": None,
        "max_hands": 100,
        "targets": {},
    }
    names = ["Ann", "Bo", "Cy", "Di"][:players]
    assert PullSheet(names).options == {**play, "dealer": 0}


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"teams": False},
        {"goal": 400},
        {"hands": 5},
        {"goal": 300, "hands": 5},
        {"goal": None, "hands": None},
        {"max_hands": 7, "hands": 7},
        {"targets": {"trap-T2": {"double": 9}, "skeet-T1": {"animal": True}}},
    ],
)
def test_checking_is_idempotent_in_both_modes(options):
    once = GAME.check_options(4, options)
    assert GAME.check_options(4, once) == once
    sheet = PullSheet(["Ann", "Bo", "Cy", "Di"], {**options, "dealer": 3}).options
    assert PullSheet(["Ann", "Bo", "Cy", "Di"], sheet).options == sheet
    assert sheet["dealer"] == 3


def test_dealer_is_a_score_sheet_option_only():
    with pytest.raises(IllegalAction, match="no option dealer"):
        GAME.check_options(2, {"dealer": 1})
    with pytest.raises(SheetError, match="First dealer"):
        PullSheet(["Ann", "Bo"], {"dealer": 2})
    with pytest.raises(SheetError, match="no option speed"):
        PullSheet(["Ann", "Bo"], {"speed": 1})
    with pytest.raises(SheetError, match="exactly 4 players"):
        PullSheet(["Ann", "Bo", "Cy"], {"teams": True})


def test_sheet_fields_name_the_boxes():
    fields = {f.name: f for f in SPEC.sheet_fields}
    assert list(fields) == ["points", "fouls", "target", "taker", "second", "took"]
    assert fields["points"].repeat == ("sides",) and fields["fouls"].repeat == ("sides",)
    assert fields["target"].kind == "choice" and fields["taker"].kind == "side"
    assert fields["target"].repeat == (rules.ROUNDS_PER_HAND, 2) == fields["taker"].repeat
    assert all(f.optional for f in fields.values())
    sheet = PullSheet(["Ann", "Bo"])
    choices = sheet.choices(fields["target"])
    assert [value for value, _ in choices] == rules.target_ids()
    assert dict(choices)["trap-T3"] == "▲ Trap target 10"
    # The phones' boxes (joined.py): a shot card per player, two targets per side.
    assert fields["second"].repeat == (rules.ROUNDS_PER_HAND, "players")
    assert fields["took"].repeat == (rules.ROUNDS_PER_HAND, "sides", 2)
    assert sheet.choices(fields["took"]) == choices
    assert [value for value, _ in sheet.choices(fields["second"])] == rules.shot_ids()


# -- the targets option from a form -----------------------------------------------------


def boxes(**changed):
    """Every target's boxes as a browser sends them: the deck's values, ticks for animals."""
    form = {}
    for row in rules.target_rows():
        form[f"double_{row['card']}"] = str(row["double"])
        if row["animal"]:
            form[f"animal_{row['card']}"] = "y"
    form.update(changed)
    return form


def test_targets_from_a_form_keep_only_the_changes():
    assert GAME.option_from_form("targets", boxes()) is None
    assert GAME.option_from_form("targets", {}) is None  # no boxes at all: no answer
    form = boxes(**{"double_trap-T2": " 9 ", "animal_skeet-T1": "y"})
    del form["animal_trap-T4"]  # unticked
    changes = GAME.option_from_form("targets", form)
    assert changes == {
        "trap-T2": {"double": 9},
        "skeet-T1": {"animal": True},
        "trap-T4": {"animal": False},
    }
    assert GAME.check_options(2, {"targets": changes})["targets"] == changes
    assert GAME.option_from_form("goal", form) is None


@pytest.mark.parametrize(
    "value, message",
    [("", "Trap target 5: enter a double value"), ("nine", "whole number"), ("1001", "from")],
)
def test_a_bad_target_box_is_refused_with_its_name(value, message):
    with pytest.raises(IllegalAction, match=message):
        GAME.option_from_form("targets", boxes(**{"double_trap-T2": value}))


# The rules page's own anchors that others link to (the "?" of a Play decision or a sheet
# box, bookmarks): each stays, beside the common ones every page has.
STABLE_ANCHORS = {
    "distracted",
    "double",
    "first-shot",
    "fouls",
    "second-shot",
    "special-cards",
    "teams",
    "trick-winner",
}


def test_the_rules_page_keeps_its_stable_anchors():
    from companion.rules.contract import COMMON_ANCHORS

    assert STABLE_ANCHORS | set(COMMON_ANCHORS) <= set(SPEC.anchors)


def test_steps_and_action_numbering():
    assert SPEC.sheet_steps  # a round is entered step by step
    assert GAME.state_class.action_ids is not None  # its own numbering of actions
