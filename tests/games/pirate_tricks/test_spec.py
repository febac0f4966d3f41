"""Pirate Tricks' declared spec: the options of both modes checked once, the sheet's boxes."""

from __future__ import annotations

import pytest

from companion.games import GAMES
from companion.games.errors import IllegalAction, SheetError
from companion.games.pirate_tricks import rules
from companion.games.pirate_tricks.sheet import PirateTricksSheet
from companion.games.pirate_tricks.spec import COUNT_BOXES, SPEC
from companion.games.spec import PLAY, SCORE, check_options

GAME = GAMES["pirate_tricks"]
NAMES = ["Ann", "Bo", "Cy"]
OWN = {
    "capture": [
        {
            "id": "mustel_bounty",
            "name": "Mustel Bounty",
            "effects": [{"kind": "per_captured", "filter": {"suits": "B"}, "loon": 3}],
        }
    ]
}


def test_the_spec_declares_the_game():
    assert (SPEC.slug, SPEC.name, SPEC.min_players, SPEC.max_players) == (
        "pirate_tricks",
        "Pirate Tricks",
        3,
        5,
    )
    assert (SPEC.order, SPEC.suit, SPEC.round_word, SPEC.teams, SPEC.lower_wins) == (
        2,
        ("diamonds", "♦"),
        "round",
        "",
        False,
    )
    assert GAME.spec is SPEC and GAME.name == "Pirate Tricks" and GAME.max_players == 5
    assert "auction" in SPEC.anchors and SPEC.anchors[-1] == "our-reading"
    assert [o.name for o in SPEC.options_for(PLAY)] == ["rounds", "catalog"]
    assert [o.name for o in SPEC.options_for(SCORE)] == ["rounds", "catalog"]
    rounds, catalog = SPEC.options
    assert (rounds.kind, rounds.default, [v for v, _ in rounds.choices]) == ("choice", 3, [3, 4, 5])
    assert (catalog.kind, catalog.optional, catalog.house) == ("data", True, True)


def test_the_sheet_fields():
    fields = {f.name: f for f in SPEC.sheet_fields}
    assert [f.name for f in SPEC.sheet_fields if f.stage == "choose"] == [
        "recruitment",
        "treasure",
        "capture",
    ]
    assert fields["recruitment"].repeat == (2,)
    for name in ("bid", "row_loon", "crew", "prediction", "tricks"):
        assert fields[name].repeat == ("players",)
    assert fields["count"].repeat == (COUNT_BOXES, "players") and fields["count"].optional
    assert fields["prediction"].optional and not fields["tricks"].optional
    assert (fields["row_loon"].kind, fields["treasure"].kind) == ("bool", "choice")


@pytest.mark.parametrize("mode", [PLAY, SCORE])
def test_defaults_and_idempotence(mode):
    checked = check_options(SPEC, 3, {}, mode)
    assert checked == {"rounds": 3, "catalog": None}
    assert check_options(SPEC, 3, checked, mode) == checked
    own = check_options(SPEC, 4, {"rounds": 5, "catalog": OWN}, mode)
    assert own == {"rounds": 5, "catalog": OWN} and own["catalog"] is not OWN
    assert check_options(SPEC, 4, own, mode) == own


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rounds": 2}, "Rounds: one of 3 rounds, 4 rounds, 5 rounds"),
        ({"rounds": 6}, "Rounds: one of"),
        ({"rounds": "3"}, "Rounds: one of"),
        ({"rounds": True}, "Rounds: one of"),
        ({"speed": 1}, "has no option speed"),
        ({"catalog": "nope"}, "must be an object"),
        ({"catalog": {"remove": ["nope"]}}, "no score card 'nope'"),
        ({"catalog": {"treasure": [{"id": "x"}]}}, "name must be"),
    ],
)
def test_bad_options_are_refused_in_both_modes(options, message):
    with pytest.raises(IllegalAction, match=message):
        GAME.check_options(3, options)
    with pytest.raises(SheetError, match=message):
        PirateTricksSheet(NAMES, options)


def test_a_catalog_keeping_too_few_cards_is_refused():
    few = {"remove": [c["id"] for c in rules.load_catalog()["treasure"][:3]]}
    with pytest.raises(IllegalAction, match="treasure deck needs at least 5"):
        GAME.check_options(3, {"catalog": few})


def test_player_counts():
    for players in (2, 6):
        with pytest.raises(IllegalAction, match="3 to 5 players"):
            GAME.new_state(players, seed=1)
        with pytest.raises(SheetError, match="3 to 5 players"):
            PirateTricksSheet(["x"] * players)


# The rules page's own anchors that others link to (the "?" of a Play decision or a sheet
# box, bookmarks): each stays, beside the common ones every page has.
STABLE_ANCHORS = {
    "auction",
    "ditch",
    "follow-suit",
    "payouts",
    "predictions",
    "recruitment",
    "round-setup",
    "special-cards",
    "ties",
    "top-up",
    "trick-winner",
    "tricks",
    "trump",
}


def test_the_rules_page_keeps_its_stable_anchors():
    from companion.rules.contract import COMMON_ANCHORS

    assert STABLE_ANCHORS | set(COMMON_ANCHORS) <= set(SPEC.anchors)


def test_steps_and_action_numbering():
    assert SPEC.sheet_steps  # a round is entered step by step
    assert GAME.state_class.action_ids is not None  # its own numbering of actions
