"""Shoot! spec: the declared options of both modes, checked by the one option checker."""

from __future__ import annotations

import pytest

from companion.games.errors import IllegalAction
from companion.games.shoot import rules
from companion.games.shoot.sheet import ShootSheet
from companion.games.shoot.spec import SPEC, TEN_DOWN, UP_AND_DOWN
from companion.games.spec import PLAY, SCORE, check_options

from .helpers import GAME


def test_declared_game():
    assert GAME.spec is SPEC
    assert (SPEC.slug, SPEC.name, SPEC.min_players, SPEC.max_players) == ("shoot", "Shoot!", 2, 5)
    assert (SPEC.round_word, SPEC.score_word, SPEC.lower_wins, SPEC.teams) == (
        "deal",
        "Score",
        False,
        "",
    )
    assert SPEC.suit == ("spades", "♠") and SPEC.order == 3
    assert SPEC.anchors[0] == "components" and SPEC.anchors[-1] == "our-reading"
    assert (GAME.name, GAME.min_players, GAME.max_players) == ("Shoot!", 2, 5)


def test_options_of_each_mode():
    assert [o.name for o in SPEC.options_for(PLAY)] == ["schedule", "chips"]
    assert [o.name for o in SPEC.options_for(SCORE)] == ["schedule", "chips", "dealer"]
    kinds = {o.name: o.kind for o in SPEC.options}
    assert kinds == {"schedule": "ints", "chips": "bool", "dealer": "seat"}
    schedule = SPEC.option("schedule")
    assert [value for value, _ in schedule.presets] == [TEN_DOWN, UP_AND_DOWN]
    assert [*range(1, 11), *range(9, 0, -1)] == UP_AND_DOWN
    assert schedule.house and not SPEC.option("chips").house


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_defaults_in_both_modes(players):
    play = GAME.check_options(players, {})
    assert play == {"schedule": rules.default_schedule(), "chips": False}
    names = [f"P{i}" for i in range(players)]
    assert ShootSheet(names).options == {**play, "dealer": 0}


@pytest.mark.parametrize("preset", [TEN_DOWN, UP_AND_DOWN])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_preset_fits_every_player_count(preset, players):
    assert GAME.check_options(players, {"schedule": preset})["schedule"] == preset


@pytest.mark.parametrize(
    ("mode", "options", "message"),
    [
        (PLAY, {"dealer": 1}, "no option dealer"),  # the first dealer is drawn in Play
        (PLAY, {"speed": 1}, "no option speed"),
        (SCORE, {"speed": 1}, "no option speed"),
        (SCORE, {"dealer": 5}, "First dealer must be from 0 to 3"),
        (SCORE, {"dealer": True}, "First dealer must be a whole number"),
        (PLAY, {"chips": "yes"}, "Play for chips: on or off"),
        (SCORE, {"schedule": "10"}, "Hand sizes: a list of whole numbers"),
        (PLAY, {"schedule": [13]}, "each hand holds 1 to 12 cards"),
        (SCORE, {"schedule": [1] * 31}, "at most 30 deals"),
    ],
)
def test_refused(mode, options, message):
    with pytest.raises(IllegalAction, match=message):
        check_options(SPEC, 4, options, mode)


@pytest.mark.parametrize(
    ("mode", "options"),
    [
        (PLAY, {}),
        (PLAY, {"chips": True, "schedule": UP_AND_DOWN}),
        (SCORE, {}),
        (SCORE, {"schedule": [3, 1], "chips": True, "dealer": 2}),
    ],
)
def test_checking_is_idempotent(mode, options):
    once = check_options(SPEC, 3, options, mode)
    assert check_options(SPEC, 3, once, mode) == once
    assert once is not options


# The rules page's own anchors that others link to (the "?" of a Play decision or a sheet
# box, bookmarks): each stays, beside the common ones every page has.
STABLE_ANCHORS = {"bidding", "chips", "deal", "follow-suit", "schedule", "trick-winner", "trump"}


def test_the_rules_page_keeps_its_stable_anchors():
    from companion.rules.contract import COMMON_ANCHORS

    assert STABLE_ANCHORS | set(COMMON_ANCHORS) <= set(SPEC.anchors)


def test_steps_and_action_numbering():
    assert SPEC.sheet_steps  # a round is entered step by step
    assert GAME.state_class.action_ids is not None  # its own numbering of actions
