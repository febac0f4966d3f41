"""PULL!'s web pages: the score sheet kept from the hands entered (quick entry or the
targets taken; every figure cross-checked against PullSheet; refused input explained next
to its box, nothing stored; stale forms refused with 409; edit and undo), the group's
target values on both new forms (``templates/games/pull/option_targets.html``, read by
``PullGame.option_from_form``), and the Play form's options.
"""

from __future__ import annotations

import re

import pytest

from companion.extensions import db
from companion.games import GAMES
from companion.games.pull import rules
from companion.models import ScoreSheet, Table

from ...web.pages import (
    add_round as add,
)
from ...web.pages import (
    input_value,
    message_at,
    messages,
    new_sheet,
    page,
    press_change,
    stored_sheet,
    visible_text,
)
from ...web.pages import (
    stored_summary as summary,
)

GAME = GAMES["pull"]
ROWS = rules.target_rows()


def value_boxes(**changes) -> dict[str, str]:
    """What a browser sends from the target values table: every double box, and the
    animal boxes that are ticked (``changes``: box name -> value, None to untick)."""
    fields = {}
    for row in ROWS:
        fields[f"double_{row['card']}"] = str(row["double"])
        if row["animal"]:
            fields[f"animal_{row['card']}"] = "y"
    fields.update(changes)
    return {key: value for key, value in fields.items() if value is not None}


# What a browser sends for the options left as they are on the new-sheet form: teams as
# the rules say for the number of players, the 200-point goal, no number of hands, the
# hand limit shown, the first player listed deals, the target values untouched.
FORM_DEFAULTS = {
    "opt_teams": "",
    "opt_goal": "200",
    "opt_goal_other": "",
    "opt_hands": "",
    "opt_max_hands": str(rules.DEFAULT_MAX_HANDS),
    "opt_dealer": "0",
    **value_boxes(),
}


@pytest.fixture
def app(make_app):
    return make_app(WTF_CSRF_ENABLED=False)


def start(client, names, **fields) -> str:
    return new_sheet(client, "pull", names, FORM_DEFAULTS | fields)


def quick_hand(position, *sides):
    """Quick entry: each side's (points, fouls)."""
    data = {"position": str(position)}
    for s, (points, fouls) in enumerate(sides):
        data[f"points-{s}"] = str(points)
        data[f"fouls-{s}"] = str(fouls)
    return data


def sheet_text(client, code) -> str:
    return visible_text(client.get(f"/score/{code}").get_data(as_text=True))


def sheet_count(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(ScoreSheet.id)))


# -- the new-sheet form ---------------------------------------------------------------------


def test_the_new_sheet_form_offers_teams_the_end_the_dealer_and_the_target_values(client):
    answer = client.get("/score/new/pull")
    html, text = answer.get_data(as_text=True), page(answer).text
    assert "Two teams (partners sit across)" in text and "The rules' default" in text
    for words in ("200 points", "400 points", "Number of hands", "First dealer"):
        assert words in text
    assert '<details class="card-values">' in html
    for row in ROWS:
        assert f'name="double_{row["card"]}"' in html
        assert f'name="animal_{row["card"]}"' in html
    row = ROWS[1]
    assert input_value(html, f"double_{row['card']}") == str(row["double"])
    house = sum(r["tags"]["double"] == "house" for r in ROWS)
    assert house and text.count("house") >= house


@pytest.mark.parametrize(
    ("names", "teams"), [(["Ann", "Bo", "Cy", "Di"], True), (["A", "B"], False)]
)
def test_teams_left_to_the_rules_follow_the_number_of_players(app, client, names, teams):
    code = start(client, names)
    _, options, _ = stored_sheet(app, code)
    assert options["teams"] is teams and options["goal"] == 200 and options["hands"] is None


def test_teams_quick_entry_foul_penalty_and_dealers(app, client):
    names = ["Ann", "Bo", "Cy", "Di"]
    code = start(client, names, opt_teams="yes", opt_dealer="3")
    _, options, _ = stored_sheet(app, code)
    assert options["teams"] is True and options["goal"] == 200 and options["dealer"] == 3
    text = sheet_text(client, code)
    assert "Two teams: Ann & Cy against Bo & Di" in text
    assert "Next: hand 1 · Di deals." in text
    hands = [((40, 3), (25, 1)), ((30, 2), (-5, 1)), ((30, 1), (10, 4))]
    for position, sides in enumerate(hands):
        assert add(client, code, quick_hand(position, *sides)).status_code == 302
    rows = stored_sheet(app, code)[2]
    assert rows[0] == {"sides": [{"points": 40, "fouls": 3}, {"points": 25, "fouls": 1}]}
    expected = summary(app, code)
    # Ann & Cy cross 5 fouls in hand 2, Bo & Di in hand 3: 20 points each.
    assert [r["sides"][0]["penalty"] for r in expected["rows"]] == [0, 20, 0]
    assert [r["sides"][1]["penalty"] for r in expected["rows"]] == [0, 0, 20]
    text = sheet_text(client, code)
    assert "Total " + " ".join(map(str, expected["side_totals"])) in text
    assert "30 pts, 2 fouls, −20 for fouls +10" in text
    # Di, Ann and Bo dealt hands 1 to 3; the deal passes left to Cy.
    assert [names[r["dealer"]] for r in expected["rows"]] == ["Di", "Ann", "Bo"]
    assert "Next: hand 4 · Cy deals." in text


def test_targets_taken_with_a_double_and_the_groups_values(app, client):
    # The group's deck: trap-T2's double value is 9, skeet-T1 is an animal.
    boxes = value_boxes(**{"double_trap-T2": "9", "animal_skeet-T1": "y"})
    code = start(client, ["Ann", "Bo", "Cy"], opt_goal="other", opt_goal_other="50", **boxes)
    _, options, _ = stored_sheet(app, code)
    assert options["goal"] == 50
    assert options["targets"] == {"trap-T2": {"double": 9}, "skeet-T1": {"animal": True}}
    text = sheet_text(client, code)
    assert "This group's card values:" in text and "Trap target 5 double 9" in text
    data = {
        "position": "0",
        # round 1: Ann takes both targets (a Double); round 2: Bo takes skeet-T1 (an animal)
        "target-0-0": "trap-T2",
        "taker-0-0": "0",
        "target-0-1": "trap-T3",
        "taker-0-1": "0",
        "target-1-0": "skeet-T1",
        "taker-1-0": "1",
    }
    response = add(client, code, data)
    assert response.status_code == 302, messages(response.get_data(as_text=True))
    assert stored_sheet(app, code)[2] == [
        {
            "sides": [
                {"rounds": [["trap-T2", "trap-T3"], []]},
                {"rounds": [[], ["skeet-T1"]]},
                {"rounds": [[], []]},
            ]
        }
    ]
    first = summary(app, code)["rows"][0]["sides"]
    assert first[0]["points"] == 9 + 15 and first[0]["doubles"] == 1
    assert first[1]["fouls"] == 1
    # The edit form shows the targets as entered, the targets fold open.
    edit = client.get(f"/score/{code}/rounds/1/edit").get_data(as_text=True)
    assert re.search(r'<option selected value="trap-T2">|<option value="trap-T2" selected>', edit)
    assert '<details class="targets-taken" open>' in edit
    # Hand 2 reaches 50: Ann wins.
    assert add(client, code, quick_hand(1, (30, 0), (0, 0), (0, 0))).status_code == 302
    assert "Winner: Ann with 54 points." in sheet_text(client, code)


@pytest.mark.parametrize(
    ("data", "where", "message"),
    [
        ({"target-0-0": "trap-T9", "taker-0-0": "0"}, "target-0-0", "choose one of those"),
        ({"target-0-0": "trap-T2", "taker-0-0": ""}, "taker-0-0", "say which side took"),
        ({"target-0-0": "", "taker-0-0": "1"}, "target-0-0", "choose the target Bo took"),
        ({"target-0-0": "trap-T2", "taker-0-0": "0", "points-0": "5"}, "points-0", "not both"),
        ({"points-0": "5", "fouls-0": "0", "points-1": "5"}, "fouls-1", "Bo: enter the fouls"),
        ({"points-0": "5", "fouls-0": "11", "points-1": "5", "fouls-1": "0"}, "fouls-0", "10"),
        ({"points-0": "x", "fouls-0": "0", "points-1": "5", "fouls-1": "0"}, "points-0", "whole"),
        ({}, "points-0", "Ann: enter the points"),
        (
            {"target-0-0": "trap-T2", "taker-0-0": "0", "target-1-0": "trap-T2", "taker-1-0": "1"},
            "target-1-0",
            "Trap target 5 is listed twice in this hand (Ann, round 1 and Bo, round 2).",
        ),
    ],
)
def test_a_bad_hand_is_refused_next_to_the_box_and_nothing_stored(
    app, client, data, where, message
):
    code = start(client, ["Ann", "Bo"])
    response = add(client, code, {"position": "0", **data})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert message in (message_at(html, where) or ""), messages(html)
    assert stored_sheet(app, code)[2] == []


@pytest.mark.parametrize(
    ("fields", "where", "message"),
    [
        ({"opt_goal": "300"}, "opt_goal", "Not a valid choice"),
        ({"opt_goal": "other"}, None, "Target score: enter the number."),
        ({"opt_goal": "other", "opt_goal_other": "0"}, "opt_goal_other", "between 1 and"),
        ({"opt_hands": "0"}, "opt_hands", "between 1 and"),
        ({"opt_hands": "30", "opt_max_hands": "20"}, None, "The hand limit can't be lower"),
        ({"opt_teams": "yes"}, None, "Team play needs exactly 4 players"),
        ({"opt_dealer": "2"}, "opt_dealer", "First dealer: choose one of the players listed."),
        ({"opt_dealer": "7"}, "opt_dealer", "Not a valid choice"),
        ({"double_trap-T2": "x"}, None, "Trap target 5: the double value must be a whole number"),
        ({"double_trap-T2": ""}, None, "Trap target 5: enter a double value"),
    ],
)
def test_bad_options_are_explained_and_store_nothing(app, client, fields, where, message):
    data = {"players-0": "Ann", "players-1": "Bo", **FORM_DEFAULTS, **fields}
    response = client.post("/score/new/pull", data=data)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    if where:
        assert message in (message_at(html, where) or ""), messages(html)
    else:
        assert any(message in m for m in messages(html)), messages(html)
    # A wrong value in the (folded) values table opens it, the values kept.
    if "double_trap-T2" in fields:
        assert '<details class="card-values" open>' in html
        assert input_value(html, "double_trap-T2") == fields["double_trap-T2"]
    assert sheet_count(app) == 0


def test_a_fixed_number_of_hands_replaces_the_goal_edit_and_undo(app, client):
    code = start(client, ["Ann", "Bo"], opt_hands="2")
    _, options, _ = stored_sheet(app, code)
    assert options["hands"] == 2 and options["goal"] is None
    text = sheet_text(client, code)
    assert "2 hands" in text and "first to" not in text
    assert "Next: hand 1 of 2 · Ann deals." in text
    add(client, code, quick_hand(0, (10, 0), (20, 0)))
    add(client, code, quick_hand(1, (30, 0), (5, 0)))
    assert "Winner: Ann with 40 points." in sheet_text(client, code)
    edit = client.get(f"/score/{code}/rounds/2/edit").get_data(as_text=True)
    assert input_value(edit, "points-0") == "30"
    response = client.post(
        f"/score/{code}/rounds/2/edit",
        data=quick_hand(1, (0, 0), (5, 0)) | {"version": input_value(edit, "version")},
    )
    assert response.status_code == 302
    assert "Winner: Bo with 25 points." in sheet_text(client, code)
    # Undo reverts the last change (the correction), then the hand before it.
    assert press_change(client, code).status_code == 302
    assert "Winner: Ann with 40 points." in sheet_text(client, code)
    assert press_change(client, code).status_code == 302
    assert len(stored_sheet(app, code)[2]) == 1
    assert "Next: hand 2 of 2 · Bo deals." in sheet_text(client, code)


def test_a_bad_edit_is_refused_and_a_stale_one_is_409(app, client):
    code = start(client, ["Ann", "Bo"])
    add(client, code, quick_hand(0, (10, 0), (20, 0)))
    edit = client.get(f"/score/{code}/rounds/1/edit").get_data(as_text=True)
    version = input_value(edit, "version")
    bad = quick_hand(0, (10, 0), (20, 12)) | {"version": version}
    answer = client.post(f"/score/{code}/rounds/1/edit", data=bad)
    assert answer.status_code == 422
    assert "10" in (message_at(answer.get_data(as_text=True), "fouls-1") or "")
    good = quick_hand(0, (15, 0), (20, 0)) | {"version": version}
    assert client.post(f"/score/{code}/rounds/1/edit", data=good).status_code == 302
    stale = quick_hand(0, (99, 0), (20, 0)) | {"version": version}
    assert client.post(f"/score/{code}/rounds/1/edit", data=stale).status_code == 409
    assert stored_sheet(app, code)[2][0]["sides"][0]["points"] == 15
    assert add(client, code, quick_hand(0, (1, 0), (1, 0))).status_code == 409
    assert len(stored_sheet(app, code)[2]) == 1


def test_hostile_names_are_text_on_the_sheet_and_in_messages(app, client):
    hostile = "<b>Cy</b>"
    code = start(client, ["Ann", hostile])
    answer = add(client, code, {"position": "0", "points-0": "5", "fouls-0": "0"})
    html = answer.get_data(as_text=True)
    assert hostile not in html and "&lt;b&gt;Cy&lt;/b&gt;" in html
    assert "<b>Cy</b>: enter the points" in (message_at(html, "points-1") or "")
    assert hostile not in client.get(f"/score/{code}").get_data(as_text=True)


# -- the new-table form (Play) ----------------------------------------------------------------


def table_post(client, data):
    return client.post("/play/pull", data=data)


def the_table(app):
    with app.app_context():
        return db.session.scalar(db.select(Table))


def table_count(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count()).select_from(Table))


def test_the_new_table_form_offers_the_play_options_and_the_target_values(client):
    answer = client.get("/play/pull")
    html, text = answer.get_data(as_text=True), page(answer).text
    for words in ("Two teams (partners sit across)", "200 points", "Number of hands"):
        assert words in text
    assert "First dealer" not in text  # score mode only
    assert '<details class="card-values">' in html
    for row in ROWS:
        assert f'name="double_{row["card"]}"' in html
        assert f'name="animal_{row["card"]}"' in html


def test_blank_options_keep_the_defaults_that_depend_on_the_players(app, client):
    assert table_post(client, {"players": "4"}).status_code == 303
    assert the_table(app).options == GAME.check_options(4, {})
    assert the_table(app).options["teams"] is True


def test_a_table_keeps_its_changed_values_and_a_fixed_number_of_hands(app, client):
    changed = [r for r in ROWS if not r["animal"]][0]
    animal = [r for r in ROWS if r["animal"]][0]
    boxes = value_boxes(
        **{
            f"double_{changed['card']}": str(changed["double"] + 4),
            f"animal_{changed['card']}": "y",
            f"animal_{animal['card']}": None,
        }
    )
    data = {"players": "3", "opt_goal": "200", "opt_hands": "4", **boxes}
    assert table_post(client, data).status_code == 303
    expected = {
        changed["card"]: {"double": changed["double"] + 4, "animal": True},
        animal["card"]: {"animal": False},
    }
    table = the_table(app)
    assert table.options["targets"] == expected
    assert table.options["hands"] == 4 and table.options["goal"] is None
    state = GAME.state_from_dict(table.state)
    assert state.options == table.options
    left = {r["card"]: r["left"] for r in ROWS}
    shown = {c.pop("card"): c for c in state.view(None)["target_changes"]}
    assert shown == {card: {"left": left[card], **change} for card, change in expected.items()}


@pytest.mark.parametrize(
    "data", [{"opt_goal": "400"}, {"opt_goal": "other", "opt_goal_other": "350"}]
)
def test_score_goals_reach_the_table(app, client, data):
    assert table_post(client, {"players": "2", **data, **value_boxes()}).status_code == 303
    options = the_table(app).options
    assert options["goal"] == int(data.get("opt_goal_other") or data["opt_goal"])
    assert options["hands"] is None and options["targets"] == {}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"double_trap-T2": "abc"}, "the double value must be a whole number"),
        ({"double_trap-T2": ""}, "enter a double value"),
        ({"double_trap-T2": "10000"}, "a double value must be from"),
        ({"opt_hands": "0"}, "Number must be between 1 and"),
        ({"opt_goal": "other", "opt_goal_other": ""}, "Target score: enter the number."),
        ({"opt_goal": "other", "opt_goal_other": "20000"}, "Number must be between 1 and"),
        ({"opt_teams": "yes"}, "Team play needs exactly 4 players"),
    ],
)
def test_a_bad_option_is_explained_and_creates_nothing(app, client, fields, message):
    data = {"players": "2", "opt_goal": "200", **value_boxes(), **fields}
    answer = table_post(client, data)
    assert answer.status_code == 422
    html = answer.get_data(as_text=True)
    assert message in page(answer).text
    # A wrong value in the (folded) values table opens it, so the message is seen.
    opened = '<details class="card-values" open>' in html
    assert opened == any(key.startswith("double_") for key in fields)
    assert table_count(app) == 0
