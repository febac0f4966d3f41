"""Call the Shot spec: the declared game and its one option, checked in both modes by the
one option checker."""

from __future__ import annotations

import pytest

from companion.games import GAMES
from companion.games.call_the_shot.sheet import CallTheShotSheet
from companion.games.call_the_shot.spec import SPEC
from companion.games.errors import IllegalAction, SheetError
from companion.games.spec import PLAY, SCORE, check_options

from .helpers import GAME


def test_declared_game():
    assert GAME.spec is SPEC and GAMES["call_the_shot"] is GAME
    assert (SPEC.slug, SPEC.name, SPEC.min_players, SPEC.max_players) == (
        "call_the_shot",
        "Call the Shot",
        2,
        2,
    )
    assert (SPEC.round_word, SPEC.score_word, SPEC.lower_wins, SPEC.teams) == (
        "duel",
        "Shots taken",
        True,
        "",
    )
    assert SPEC.suit == ("hearts", "♥") and SPEC.order == 4
    assert SPEC.anchors[0] == "components" and SPEC.anchors[-1] == "our-reading"
    assert len(set(SPEC.anchors)) == len(SPEC.anchors)
    assert (GAME.name, GAME.min_players, GAME.max_players) == ("Call the Shot", 2, 2)
    assert GAME.sheet_class is CallTheShotSheet and GAME.state_class.spec is SPEC
    assert [f.name for f in SPEC.sheet_fields] == ["challenger", "shot", "hit"]


def test_the_one_option_in_both_modes():
    for mode in (PLAY, SCORE):
        assert [o.name for o in SPEC.options_for(mode)] == ["shots_to_lose"]
    option = SPEC.option("shots_to_lose")
    assert (option.kind, option.default, option.low, option.high) == ("int", 3, 1, 9)
    assert option.house and option.label and "3" in option.help


def test_defaults_in_both_modes():
    assert GAME.check_options(2, {}) == {"shots_to_lose": 3}
    assert GAME.check_options(2, None) == {"shots_to_lose": 3}
    assert CallTheShotSheet(["Ada", "Bo"]).options == {"shots_to_lose": 3}


@pytest.mark.parametrize("mode", [PLAY, SCORE])
@pytest.mark.parametrize("shots", [1, 5, 9])
def test_the_range_and_idempotence(mode, shots):
    checked = check_options(SPEC, 2, {"shots_to_lose": shots}, mode)
    assert checked == {"shots_to_lose": shots}
    assert check_options(SPEC, 2, checked, mode) == checked


@pytest.mark.parametrize("mode", [PLAY, SCORE])
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"shots_to_lose": 0}, "Shots that lose the game must be from 1 to 9"),
        ({"shots_to_lose": 10}, "from 1 to 9"),
        ({"shots_to_lose": "3"}, "whole number"),
        ({"shots_to_lose": 2.5}, "whole number"),
        ({"shots_to_lose": True}, "whole number"),
        ({"shots_to_lose": None}, "a value is needed"),
        ({"rounds": 3}, "Call the Shot has no option rounds"),
        ([1], "Options must be an object"),
    ],
)
def test_refused(mode, options, message):
    with pytest.raises(IllegalAction, match=message):
        check_options(SPEC, 2, options, mode)


def test_refused_by_the_engine_and_the_sheet():
    with pytest.raises(IllegalAction, match="from 1 to 9"):
        GAME.new_state(2, {"shots_to_lose": 0}, seed=1)
    with pytest.raises(SheetError, match="no option speed"):
        CallTheShotSheet(["Ada", "Bo"], {"speed": 1})
    with pytest.raises(IllegalAction, match="exactly 2 players"):
        GAME.new_state(3, {}, seed=1)


def test_stored_options_are_checked_again_unchanged():
    state = GAME.new_state(2, {"shots_to_lose": 4}, seed=7)
    assert GAME.check_options(2, state.options) == state.options == {"shots_to_lose": 4}
    assert GAME.replay(state).options == state.options


# The rules page's own anchors that others link to (the "?" of a Play decision or a sheet
# box, bookmarks): each stays, beside the common ones every page has.
STABLE_ANCHORS = {
    "call",
    "claim",
    "coward",
    "deadly-aim",
    "duel",
    "equal-values",
    "man-of-honour",
    "special-cards",
}


def test_the_rules_page_keeps_its_stable_anchors():
    from companion.rules.contract import COMMON_ANCHORS

    assert STABLE_ANCHORS | set(COMMON_ANCHORS) <= set(SPEC.anchors)


def test_steps_and_action_numbering():
    assert not SPEC.sheet_steps  # a duel is one step already
    assert GAME.state_class.action_ids is not None  # its own numbering of actions
