"""PULL!: a quick entry the deck makes impossible is refused next to its box, on the sheet
and through the pages: fouls beyond the animal targets a hand can hold, points beyond what
ten targets (values in force, doubles counted) can be worth, for one side and for all sides
together."""

from __future__ import annotations

import pytest

from companion.games.errors import SheetError
from companion.games.pull import rules
from companion.games.pull.sheet import PullSheet

from ...web.pages import message_at, messages, stored_sheet
from .test_pages import add, quick_hand, start

TABLE = rules.target_table()


def quick(points, fouls):
    return {"points": points, "fouls": fouls}


def hand(*sides):
    return {"sides": [quick(p, f) for p, f in sides]}


def test_the_most_a_hand_holds_comes_from_the_card_data():
    doubles = sorted((c["double"] for c in TABLE.values() if not c["animal"]), reverse=True)
    top = sum(doubles[:10])  # five Doubles of the best targets
    # Every target's double value is above its left value unless it is an animal, so the
    # best hand is five Doubles of the targets with the highest double values.
    assert all(c["double"] > c["left"] for c in TABLE.values() if not c["animal"])
    assert rules.hand_extremes(TABLE)[0] == (0, top)
    animals = rules.animal_count(TABLE)
    assert max(rules.hand_extremes(TABLE)) == animals == 6
    worst = sorted(c["double"] for c in TABLE.values() if c["animal"])
    assert rules.hand_extremes(TABLE)[animals][0] == sum(worst)
    # The group's values count: a Trap target 5 whose double is 60 lifts the top.
    changed = rules.target_table({"trap-T2": {"double": 60}})
    assert rules.hand_extremes(changed)[0][1] == top - min(doubles[:10]) + 60


@pytest.mark.parametrize(
    ("players", "row", "message", "player", "field"),
    [
        # A side can't take more animals than the deck has.
        (2, hand((-35, 7), (0, 0)), "Ann: 7 fouls, but only 6 animal", 0, "fouls-0"),
        # 6 + 6 fouls: only 6 animal targets in the deck.
        (2, hand((-30, 6), (-30, 6)), "the fouls add up to 12, but only 6", 1, "fouls-1"),
        # 150 + 150 + 20 points in one 3-player hand.
        (3, hand((150, 0), (150, 0), (20, 0)), "Ann: 150 points can't be taken", 0, "points-0"),
        (2, hand((9999, 0), (0, 0)), "Ann: 9999 points", 0, "points-0"),
        (2, hand((0, 0), (-9999, 6)), "Bo: -9999 points", 1, "points-1"),
        # No animal, no negative points: only animals are worth less than nothing.
        (2, hand((-5, 0), (10, 0)), "Ann: -5 points can't be taken in one hand with 0 fouls", 0,
         "points-0"),
        # One more than the best hand.
        (2, hand((119, 0), (0, 0)), "the targets allow 0 to 118", 0, "points-0"),
        # Each side alone is possible, the two together are not.
        (2, hand((100, 0), (100, 0)), "the points add up to 200", 1, "points-1"),
        (3, hand((60, 0), (0, 0), (60, 0)), "the points add up to 120", 2, "points-2"),
    ],
)  # fmt: skip
def test_an_impossible_quick_entry_is_refused_at_its_box(players, row, message, player, field):
    sheet = PullSheet(["Ann", "Bo", "Cy"][:players])
    with pytest.raises(SheetError, match=message) as error:
        sheet.add([], row)
    assert (error.value.round, error.value.player, error.value.field) == (1, player, field)


def test_the_edges_of_the_possible_are_accepted():
    sheet = PullSheet(["Ann", "Bo"])
    assert sheet.add([], hand((118, 0), (0, 0)))
    assert sheet.add([], hand((0, 0), (-60, 6)))
    assert sheet.add([], hand((59, 0), (59, 0)))
    assert sheet.add([], hand((50, 4), (0, 0)))  # 4 animals take two rounds' room
    with pytest.raises(SheetError, match="4 fouls; the targets allow -40 to 50"):
        sheet.add([], hand((51, 4), (0, 0)))


def test_a_team_sheet_checks_sides_not_players():
    sheet = PullSheet(["Ann", "Bo", "Cy", "Di"])
    with pytest.raises(SheetError, match="Hand 1: Bo & Di: 7 fouls") as error:
        sheet.add([], hand((0, 0), (-35, 7)))
    assert error.value.player is None and error.value.field == "fouls-1"


def test_the_groups_animals_and_doubles_move_the_limits():
    more_animals = PullSheet(["Ann", "Bo"], {"targets": {"trap-T1": {"animal": True}}})
    assert more_animals.add([], hand((-30, 7), (0, 0)))
    richer = PullSheet(["Ann", "Bo"], {"targets": {"trap-T2": {"double": 60}}})
    assert richer.add([], hand((160, 0), (0, 0)))
    with pytest.raises(SheetError, match="160 points"):
        PullSheet(["Ann", "Bo"]).add([], hand((160, 0), (0, 0)))


def test_an_edit_is_held_to_the_same_limits():
    sheet = PullSheet(["Ann", "Bo"])
    rows = sheet.add([], hand((30, 1), (10, 0)))
    with pytest.raises(SheetError, match="Hand 1: Ann: 150 points") as error:
        sheet.replace(rows, 0, hand((150, 1), (10, 0)))
    assert error.value.field == "points-0"


# -- through the pages ------------------------------------------------------------------------


@pytest.fixture
def app(make_app):
    return make_app(WTF_CSRF_ENABLED=False)


@pytest.mark.parametrize(
    ("names", "sides", "box", "message"),
    [
        (["Ann", "Bo"], ((-30, 6), (-30, 6)), "fouls-1", "only 6 animal targets"),
        (["Ann", "Bo", "Cy"], ((150, 0), (150, 0), (20, 0)), "points-0", "Ann: 150 points"),
        (["Ann", "Bo"], ((9999, 0), (0, 0)), "points-0", "Ann: 9999 points"),
        (["Ann", "Bo"], ((100, 0), (100, 0)), "points-1", "the points add up to 200"),
    ],
)
def test_the_round_form_refuses_an_impossible_hand_at_its_box(app, client, names, sides, box,
                                                              message):  # fmt: skip
    code = start(client, names)
    answer = add(client, code, quick_hand(0, *sides))
    assert answer.status_code == 422
    html = answer.get_data(as_text=True)
    assert message in (message_at(html, box) or ""), messages(html)
    assert stored_sheet(app, code)[2] == []
    assert add(client, code, quick_hand(0, *[(10, 0)] * len(names))).status_code == 302
