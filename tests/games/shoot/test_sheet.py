"""Shoot! score sheet: facts in (bids and tricks per deal), totals, dealer and winners out."""

from __future__ import annotations

import random

import pytest

from companion.games.base import IllegalAction
from companion.games.shoot import rules, sheet
from companion.games.shoot.sheet import SheetError, ShootSheet

from .helpers import GAME

# Three players, first dealer seat 2, schedule 3, 2, 1.
OPTIONS = {"schedule": [3, 2, 1], "dealer": 2}
DEALS = [
    {"bids": [1, 0, 2], "tricks": [1, 0, 2]},  # all exact: 6, 5, 7
    {"bids": [1, 1, 1], "tricks": [2, 0, 0]},  # all missed: -3, -5, -5
    {"bids": [0, 1, 0], "tricks": [0, 0, 1]},  # 5, -5, -4
]


def test_scores_totals_dealers_hand_sizes():
    result = sheet.summary(3, OPTIONS, DEALS)
    assert [row["points"] for row in result["rows"]] == [[6, 5, 7], [-3, -5, -5], [5, -5, -4]]
    assert [row["totals"] for row in result["rows"]] == [[6, 5, 7], [3, 0, 2], [8, -5, -2]]
    assert [row["dealer"] for row in result["rows"]] == [2, 0, 1]
    assert [row["cards"] for row in result["rows"]] == [3, 2, 1]
    assert result["totals"] == [8, -5, -2]
    assert result["over"] and result["winners"] == [0]
    assert result["next"] is None


def test_next_deal_after_each_entry():
    for done in range(3):
        result = sheet.summary(3, OPTIONS, DEALS[:done])
        assert result["next"] == {
            "deal": done + 1,
            "cards": [3, 2, 1][done],
            "dealer": (2 + done) % 3,
        }
        assert not result["over"] and result["winners"] is None


def test_default_schedule_and_dealer():
    result = sheet.summary(4, None, [])
    assert result["schedule"] == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    assert result["next"] == {"deal": 1, "cards": 10, "dealer": 0}


def test_tied_players_share_the_win():
    deals = [{"bids": [1, 1], "tricks": [1, 1]}]  # 6 each
    result = sheet.summary(2, {"schedule": [2]}, deals)
    assert result["winners"] == [0, 1]


@pytest.mark.parametrize(
    ("facts", "message", "player", "field"),
    [
        (
            {"bids": [4, 0, 0], "tricks": [1, 1, 1]},
            "Player 1's bid must be a whole number from 0 to 3",
            0,
            "bids",
        ),
        ({"bids": [0, -1, 0], "tricks": [1, 1, 1]}, "Player 2's bid", 1, "bids"),
        ({"bids": [0, 0, True], "tricks": [1, 1, 1]}, "Player 3's bid", 2, "bids"),
        ({"bids": [0, 0, 0], "tricks": [1, 1, 4]}, "Player 3's tricks must be", 2, "tricks"),
        (
            {"bids": [0, 0, 0], "tricks": [1, 1, 0]},
            "the tricks add up to 2, but 3 tricks were played",
            None,
            "tricks",
        ),
        ({"bids": [0, 0, 0], "tricks": [3, 1, 0]}, "the tricks add up to 4", None, "tricks"),
        (
            {"bids": [0, 0], "tricks": [1, 1, 1]},
            "enter the bid of each of the 3 players",
            None,
            "bids",
        ),
        ({"bids": [0, 0, 0]}, "enter the tricks of each", None, "tricks"),
        ([1, 2, 3], "enter the bids and the tricks", None, None),
    ],
)
def test_bad_deal_refused_saying_which(facts, message, player, field):
    with pytest.raises(SheetError, match=message) as error:
        sheet.validate_deal(3, OPTIONS, 0, facts)
    assert str(error.value).startswith("Deal 1: ") and error.value.round == 1
    assert error.value.player == player and error.value.field == field
    assert isinstance(error.value, IllegalAction)


def test_names_in_messages():
    with pytest.raises(SheetError, match="Deal 2: Bea's bid must be a whole number from 0 to 2"):
        sheet.validate_deal(
            3, OPTIONS, 1, {"bids": [0, 3, 0], "tricks": [2, 0, 0]}, ["Al", "Bea", "Cy"]
        )


def test_one_card_deal_message_is_singular():
    with pytest.raises(SheetError, match="but 1 trick was played"):
        sheet.validate_deal(3, OPTIONS, 2, {"bids": [0, 0, 0], "tricks": [0, 0, 0]})


def test_add_stores_nothing_when_refused():
    deals = [dict(d) for d in DEALS[:1]]
    before = [dict(d) for d in deals]
    with pytest.raises(SheetError, match="Deal 2"):
        sheet.add(3, OPTIONS, deals, {"bids": [0, 0, 0], "tricks": [1, 0, 0]})
    assert deals == before
    added = sheet.add(3, OPTIONS, deals, DEALS[1])
    assert added == DEALS[:2] and deals == before


def test_replace_and_delete():
    fixed = sheet.replace(3, OPTIONS, DEALS, 1, {"bids": [2, 0, 0], "tricks": [2, 0, 0]})
    assert sheet.summary(3, OPTIONS, fixed)["rows"][1]["points"] == [7, 5, 5]
    assert sheet.delete(3, OPTIONS, DEALS, 2) == DEALS[:2]
    # deleting the first deal moves a 2-card deal into the 3-card slot: refused
    with pytest.raises(SheetError, match="Deal 1: the tricks add up to 2"):
        sheet.delete(3, OPTIONS, DEALS, 0)
    with pytest.raises(SheetError, match="no such deal"):
        sheet.replace(3, OPTIONS, DEALS, 3, DEALS[0])
    with pytest.raises(SheetError, match="no such deal"):
        sheet.delete(3, OPTIONS, DEALS, -1)


def test_too_many_deals_refused():
    with pytest.raises(SheetError, match="only 3 deals"):
        sheet.add(3, OPTIONS, DEALS, DEALS[2])
    with pytest.raises(SheetError, match="only 3 deals"):
        sheet.summary(3, OPTIONS, [*DEALS, DEALS[2]])


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (1, None, "2 to 5 players"),
        (6, None, "2 to 5 players"),
        (3, {"dealer": 3}, "first dealer"),
        (3, {"schedule": [18]}, "turn up for trump"),
        (3, {"chips": 1}, "chips option"),
        (3, {"colour": "red"}, "no option colour"),
    ],
)
def test_bad_settings_refused(players, options, message):
    with pytest.raises(IllegalAction, match=message):
        sheet.summary(players, options, [])


def test_check_options_idempotent():
    once = sheet.check_options(4, {"schedule": [1, 2], "chips": True, "dealer": 3})
    assert sheet.check_options(4, once) == once
    assert sheet.check_options(2) == {
        "schedule": rules.default_schedule(),
        "chips": False,
        "dealer": 0,
    }


def test_chips_on_the_sheet():
    result = sheet.summary(3, {**OPTIONS, "chips": True}, DEALS[:1])
    assert result["rows"][0]["chips"] == {"pot": 150 - 18, "stacks": [-44, -45, -43], "top_ups": 0}
    assert result["chips"]["shared"] is None
    final = sheet.summary(3, {**OPTIONS, "chips": True}, DEALS)
    # pot: 132, then +13 (deal 2: all negative) = 145, then +9 -5 (deal 3) = 149;
    # shared 49 each, 2 left
    assert final["chips"]["pot"] == 2 and final["chips"]["shared"] == 49
    assert final["chips"]["pot"] + sum(final["chips"]["stacks"]) == 0


def test_class_interface_with_names():
    book = ShootSheet(["Al", "Bea"], [1], first_dealer=1)
    assert book.deal_info(0) == {"deal": 1, "cards": 1, "dealer": 1}
    result = book.summary([{"bids": [0, 1], "tricks": [0, 1]}])
    assert result["players"] == ["Al", "Bea"] and result["winners"] == [1]


@pytest.mark.parametrize("seed", range(12))
def test_sheet_agrees_with_engine(seed):
    """The same deals entered on the sheet give the engine's scores, dealers and chips."""
    players = 2 + seed % 4
    chooser = random.Random(seed)
    options = {"schedule": [3, 5, 1, 2], "chips": seed % 2 == 0}
    state = GAME.new_state(players, options, seed=seed)
    while not state.is_over():
        seat = chooser.choice(state.to_act())
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
    facts = [{"bids": r["bids"], "tricks": r["tricks"]} for r in state.results]
    result = sheet.summary(players, {**options, "dealer": state.results[0]["dealer"]}, facts)
    assert result["totals"] == state.scores()
    assert result["winners"] == state.winners
    assert [row["dealer"] for row in result["rows"]] == [r["dealer"] for r in state.results]
    if options["chips"]:
        assert result["chips"] == state.chips
