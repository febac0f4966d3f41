"""Shoot! score sheet: facts in (bids and tricks per deal), totals, dealer and winners out."""

from __future__ import annotations

import random

import pytest

from companion.games.base import IllegalAction
from companion.games.errors import SheetError
from companion.games.shoot import rules
from companion.games.shoot.sheet import ShootSheet

from .helpers import GAME

NAMES = ["Al", "Bea", "Cy"]
# Three players, first dealer seat 2, schedule 3, 2, 1.
OPTIONS = {"schedule": [3, 2, 1], "dealer": 2}
DEALS = [
    {"bids": [1, 0, 2], "tricks": [1, 0, 2]},  # all exact: 6, 5, 7
    {"bids": [1, 1, 1], "tricks": [2, 0, 0]},  # all missed: -3, -5, -5
    {"bids": [0, 1, 0], "tricks": [0, 0, 1]},  # 5, -5, -4
]


def book(names=NAMES, options=OPTIONS):
    return ShootSheet(names, options)


def test_the_game_gives_its_sheet():
    assert isinstance(GAME.sheet(NAMES, OPTIONS), ShootSheet)


def test_scores_totals_dealers_hand_sizes():
    result = book().summary(DEALS)
    assert [row["points"] for row in result["rows"]] == [[6, 5, 7], [-3, -5, -5], [5, -5, -4]]
    assert [row["totals"] for row in result["rows"]] == [[6, 5, 7], [3, 0, 2], [8, -5, -2]]
    assert [row["dealer"] for row in result["rows"]] == [2, 0, 1]
    assert [row["cards"] for row in result["rows"]] == [3, 2, 1]
    assert result["totals"] == [8, -5, -2]
    assert result["over"] and result["winners"] == [0]
    assert result["next"] is None


def test_summary_opens_with_the_common_block():
    result = book().summary(DEALS[:1])
    assert result["players"] == NAMES
    assert result["sides"] == [[0], [1], [2]]
    assert result["side_names"] == NAMES
    assert result["schedule"] == [3, 2, 1] and result["bonus"] == rules.BONUS
    assert result["chips"] is None


def test_next_deal_after_each_entry():
    for done in range(3):
        result = book().summary(DEALS[:done])
        assert result["next"] == {
            "deal": done + 1,
            "cards": [3, 2, 1][done],
            "dealer": (2 + done) % 3,
        }
        assert not result["over"] and result["winners"] == []


def test_default_schedule_and_dealer():
    result = book(["A", "B", "C", "D"], None).summary([])
    assert result["schedule"] == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    assert result["next"] == {"deal": 1, "cards": 10, "dealer": 0}


def test_tied_players_share_the_win():
    deals = [{"bids": [1, 1], "tricks": [1, 1]}]  # 6 each
    result = book(["Al", "Bea"], {"schedule": [2]}).summary(deals)
    assert result["winners"] == [0, 1]


@pytest.mark.parametrize(
    ("facts", "message", "player", "field"),
    [
        (
            {"bids": [4, 0, 0], "tricks": [1, 1, 1]},
            "Al's bid must be a whole number from 0 to 3",
            0,
            "bids",
        ),
        ({"bids": [0, -1, 0], "tricks": [1, 1, 1]}, "Bea's bid", 1, "bids"),
        ({"bids": [0, 0, True], "tricks": [1, 1, 1]}, "Cy's bid", 2, "bids"),
        ({"bids": [0, 0, 0], "tricks": [1, 1, 4]}, "Cy's tricks must be", 2, "tricks"),
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
        book().check_row(0, facts, [])
    assert str(error.value).startswith("Deal 1: ") and error.value.round == 1
    assert error.value.player == player and error.value.field == field
    assert isinstance(error.value, IllegalAction)
    assert "Player " not in str(error.value)


def test_names_in_messages_and_round_of_a_later_deal():
    with pytest.raises(
        SheetError, match="Deal 2: Bea's bid must be a whole number from 0 to 2"
    ) as e:
        book().add(DEALS[:1], {"bids": [0, 3, 0], "tricks": [2, 0, 0]})
    assert (e.value.round, e.value.player, e.value.field) == (2, 1, "bids")


def test_one_card_deal_message_is_singular():
    with pytest.raises(SheetError, match="but 1 trick was played"):
        book().check_row(2, {"bids": [0, 0, 0], "tricks": [0, 0, 0]}, DEALS[:2])


def test_add_stores_nothing_when_refused():
    deals = [dict(d) for d in DEALS[:1]]
    before = [dict(d) for d in deals]
    with pytest.raises(SheetError, match="Deal 2"):
        book().add(deals, {"bids": [0, 0, 0], "tricks": [1, 0, 0]})
    assert deals == before
    added = book().add(deals, DEALS[1])
    assert added == DEALS[:2] and deals == before


def test_replace_and_delete():
    sheet = book()
    fixed = sheet.replace(DEALS, 1, {"bids": [2, 0, 0], "tricks": [2, 0, 0]})
    assert sheet.summary(fixed)["rows"][1]["points"] == [7, 5, 5]
    assert sheet.delete(DEALS, 2) == DEALS[:2]
    # deleting the first deal moves a 2-card deal into the 3-card slot: refused
    with pytest.raises(SheetError, match="Deal 1: the tricks add up to 2"):
        sheet.delete(DEALS, 0)
    with pytest.raises(SheetError, match="no such deal"):
        sheet.replace(DEALS, 3, DEALS[0])
    with pytest.raises(SheetError, match="no such deal"):
        sheet.delete(DEALS, -1)


def test_too_many_deals_refused():
    with pytest.raises(SheetError, match="only 3 deals") as error:
        book().add(DEALS, DEALS[2])
    assert error.value.round == 4
    with pytest.raises(SheetError, match="only 3 deals"):
        book().summary([*DEALS, DEALS[2]])


@pytest.mark.parametrize(
    ("names", "options", "message"),
    [
        (["Al"], None, "2 to 5 players"),
        (["A", "B", "C", "D", "E", "F"], None, "2 to 5 players"),
        (NAMES, {"dealer": 3}, "First dealer must be from 0 to 2"),
        (NAMES, {"schedule": [18]}, "turn up for trump"),
        (NAMES, {"chips": 1}, "Play for chips: on or off"),
        (NAMES, {"colour": "red"}, "no option colour"),
    ],
)
def test_bad_settings_refused(names, options, message):
    with pytest.raises(SheetError, match=message):
        ShootSheet(names, options)


def test_options_checked_idempotently():
    once = ShootSheet(["A", "B", "C", "D"], {"schedule": [1, 2], "chips": True, "dealer": 3})
    again = ShootSheet(["A", "B", "C", "D"], once.options)
    assert again.options == once.options
    assert ShootSheet(["A", "B"]).options == {
        "schedule": rules.default_schedule(),
        "chips": False,
        "dealer": 0,
    }


def test_chips_on_the_sheet():
    sheet = book(options={**OPTIONS, "chips": True})
    result = sheet.summary(DEALS[:1])
    assert result["rows"][0]["chips"] == {"pot": 150 - 18, "stacks": [-44, -45, -43], "top_ups": 0}
    assert result["chips"]["shared"] is None
    final = sheet.summary(DEALS)
    # pot: 132, then +13 (deal 2: all negative) = 145, then +9 -5 (deal 3) = 149;
    # shared 49 each, 2 left
    assert final["chips"]["pot"] == 2 and final["chips"]["shared"] == 49
    assert final["chips"]["pot"] + sum(final["chips"]["stacks"]) == 0


def test_deal_info():
    sheet = ShootSheet(["Al", "Bea"], {"schedule": [1], "dealer": 1})
    assert sheet.deal_info(0) == {"deal": 1, "cards": 1, "dealer": 1}
    result = sheet.summary([{"bids": [0, 1], "tricks": [0, 1]}])
    assert result["players"] == ["Al", "Bea"] and result["winners"] == [1]


# -- the round form ---------------------------------------------------------------------


def form_of(bids, tricks):
    form = {f"bids-{p}": str(b) for p, b in enumerate(bids)}
    form.update({f"tricks-{p}": str(t) for p, t in enumerate(tricks)})
    return form


def test_read_a_form_and_values_round_trip():
    sheet = book()
    facts = sheet.read(form_of([1, 0, 2], [1, 0, 2]))
    assert facts == DEALS[0]
    assert sheet.values_of(facts) == DEALS[0]
    assert sheet.facts_from_values(sheet.values_of(DEALS[1])) == DEALS[1]
    assert sheet.add([], facts) == [DEALS[0]]


@pytest.mark.parametrize(
    ("change", "key"),
    [({"bids-1": ""}, "bids-1"), ({"tricks-2": "x"}, "tricks-2"), ({"bids-0": "1.5"}, "bids-0")],
)
def test_read_refuses_a_bad_box_naming_it(change, key):
    form = {**form_of([1, 0, 2], [1, 0, 2]), **change}
    with pytest.raises(SheetError) as error:
        book().read(form)
    assert error.value.field == key
    assert error.value.player == int(key[-1])
    assert book().names[int(key[-1])] in error.value.message


def test_the_range_of_a_box_is_the_deals_hand_size():
    # read types the boxes; the deal's own hand size bounds them when the deal is added.
    sheet = book()
    facts = sheet.read(form_of([-1, 0, 2], [1, 0, 2]))
    with pytest.raises(SheetError) as error:
        sheet.add([], facts)
    assert (error.value.field, error.value.player) == ("bids", 0)


def test_spec_fields_are_the_stored_facts():
    fields = {f.name: f for f in GAME.spec.sheet_fields}
    assert list(fields) == ["bids", "tricks"]
    for f in fields.values():
        assert f.kind == "int" and f.repeat == ("players",) and f.low == 0
        assert f.high == rules.max_hand(2)


# -- the sheet agrees with the engine ---------------------------------------------------


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
    names = [f"P{i}" for i in range(players)]
    sheet = ShootSheet(names, {**options, "dealer": state.results[0]["dealer"]})
    result = sheet.summary(facts)
    assert result["totals"] == state.scores()
    assert result["winners"] == state.winners()
    assert [row["dealer"] for row in result["rows"]] == [r["dealer"] for r in state.results]
    if options["chips"]:
        assert result["chips"] == state.chips
