"""Call the Shot's web pages: the score sheet kept from who challenged and who was shot
(cross-checked against CallTheShotSheet; the next challenger prefilled; refused duels
explained next to their box with nothing stored; stale forms refused with 409; edit,
delete and undo), and the Play form's option."""

from __future__ import annotations

import json
import re

import pytest

from companion.extensions import db
from companion.games import GAMES
from companion.games.call_the_shot.sheet import CallTheShotSheet
from companion.models import ScoreSheet, Table

from ...web.pages import (
    add_round as add,
)
from ...web.pages import (
    change_offered,
    delete_round,
    input_value,
    message_at,
    messages,
    new_sheet,
    page,
    press_change,
    stored_sheet,
    visible_text,
)

SPEC = GAMES["call_the_shot"].spec

# What a browser sends for the option left as it is on the new-sheet form: the rulebook's 3.
FORM_DEFAULTS = {"opt_shots_to_lose": "3"}


@pytest.fixture
def app(make_app):
    return make_app(WTF_CSRF_ENABLED=False)


def start(client, names, **fields) -> str:
    return new_sheet(client, "call_the_shot", names, FORM_DEFAULTS | fields)


def duel(challenger, shot, position):
    return {"position": str(position), "challenger": str(challenger), "shot": str(shot)}


def checked(html: str, name: str) -> list[str]:
    """The values of the ticked radio buttons named ``name``."""
    boxes = re.findall(rf'<input[^>]*name="{name}"[^>]*>', html)
    return [re.search(r'value="([^"]*)"', b).group(1) for b in boxes if " checked" in b]


# -- the new-sheet form ---------------------------------------------------------------------


def test_the_new_sheet_form_has_two_name_boxes_and_the_shots_that_lose(app, client):
    answer = client.get("/score/new/call_the_shot")
    html, text = answer.get_data(as_text=True), page(answer).text
    assert 'name="players-1"' in html and 'name="players-2"' not in html
    assert "Shots that lose the game" in text and "3 (the rulebook)" in text
    assert checked(html, "opt_shots_to_lose") == ["3"]
    # A third name posted by hand is not read.
    code = start(client, ["A", "B", "C"])
    assert stored_sheet(app, code)[:2] == (["A", "B"], {"shots_to_lose": 3})


def test_another_number_of_shots(app, client):
    code = start(client, ["Ann", "Bo"], opt_shots_to_lose="other", opt_shots_to_lose_other="5")
    assert stored_sheet(app, code)[1] == {"shots_to_lose": 5}
    text = visible_text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "The first player to be shot 5 times loses." in text
    assert "Shots taken: Ann 0 of 5 · Bo 0 of 5" in text


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"opt_shots_to_lose": "other"}, "Shots that lose the game: enter the number."),
        ({"opt_shots_to_lose": "other", "opt_shots_to_lose_other": "12"}, "between 1 and 9"),
        ({"opt_shots_to_lose": "other", "opt_shots_to_lose_other": "x"}, "whole number"),
    ],
)
def test_a_bad_number_of_shots_is_explained_and_stores_nothing(app, client, fields, words):
    data = {"players-0": "Ann", "players-1": "Bo", **fields}
    answer = client.post("/score/new/call_the_shot", data=data)
    assert answer.status_code == 422
    found = messages(answer.get_data(as_text=True))
    assert any(words in m for m in found), found
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(ScoreSheet.id))) == 0


# -- duels ------------------------------------------------------------------------------------


def test_duels_shots_and_the_loser(app, client):
    code = start(client, ["Ann", "Bo"], opt_shots_to_lose="other", opt_shots_to_lose_other="2")
    html = client.get(f"/score/{code}").get_data(as_text=True)
    assert "Next: duel 1 · toss for who challenges first." in visible_text(html)
    assert checked(html, "challenger") == []
    assert add(client, code, duel(1, 0, 0)).status_code == 302
    # The next challenger is prefilled: Ann (seat 0).
    html = client.get(f"/score/{code}").get_data(as_text=True)
    assert checked(html, "challenger") == ["0"] and checked(html, "shot") == []
    assert "Next: duel 2 · Ann challenges." in visible_text(html)
    assert add(client, code, duel(0, "none", 1)).status_code == 302
    assert add(client, code, duel(1, 0, 2)).status_code == 302
    names, options, rows = stored_sheet(app, code)
    assert rows == [
        {"challenger": 1, "shot": 0},
        {"challenger": 0, "shot": None},
        {"challenger": 1, "shot": 0},
    ]
    expected = CallTheShotSheet(names, options).summary(rows)
    assert expected["over"] and expected["winners"] == [1] and expected["totals"] == [2, 0]
    html = client.get(f"/score/{code}").get_data(as_text=True)
    text = visible_text(html)
    assert "Winner: Bo — Ann was shot 2 times." in text
    assert "Shots taken 2 0" in text
    assert "1 +1 1 0 Bo challenged · shot: Ann Edit duel 1 Delete duel 1" in text
    assert "2 1 0 Ann challenged · shot: nobody (tie) Edit duel 2 Delete duel 2" in text
    assert f'action="/score/{code}/rounds' not in html
    late = add(client, code, duel(0, 1, 3))
    assert late.status_code == 422
    assert any("the game already ended in duel 3" in m for m in messages(late.get_data(True)))
    assert len(stored_sheet(app, code)[2]) == 3


def test_the_challenger_must_alternate(app, client):
    code = start(client, ["Ann", "Bo"])
    add(client, code, duel(0, 1, 0))
    response = add(client, code, duel(0, 1, 1))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    # Next to the box, with the players named.
    assert message_at(html, "challenger") == (
        "Duel 2: Ann challenged duel 1, so Bo challenges this one."
    )
    assert checked(html, "shot") == ["1"]  # what was ticked stays ticked
    assert len(stored_sheet(app, code)[2]) == 1


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ({"challenger": "1"}, "shot", "Who was shot?: enter a value."),
        ({"challenger": "1", "shot": "7"}, "shot", "Who was shot?: choose one of those listed."),
        ({"challenger": "2", "shot": "0"}, "challenger", "choose one of those listed"),
    ],
)
def test_a_duel_with_a_missing_or_unknown_answer_is_refused(app, client, data, field, words):
    code = start(client, ["Ann", "Bo"])
    add(client, code, duel(0, 1, 0))
    response = add(client, code, {"position": "1", **data})
    assert response.status_code == 422
    assert words in (message_at(response.get_data(as_text=True), field) or "")
    assert len(stored_sheet(app, code)[2]) == 1


def test_a_delete_in_the_middle_is_refused_an_edit_works_undo_and_stale_forms(app, client):
    code = start(client, ["Ann", "Bo"])
    for position, (challenger, shot) in enumerate([(0, 1), (1, 1), (0, "none")]):
        assert add(client, code, duel(challenger, shot, position)).status_code == 302
    # Deleting duel 2 would leave Ann challenging twice in a row.
    response = delete_round(client, code, 2)
    assert response.status_code == 422
    assert "can't be deleted" in visible_text(response.get_data(as_text=True))
    assert len(stored_sheet(app, code)[2]) == 3
    # The edit form shows the stored duel.
    edit = client.get(f"/score/{code}/rounds/2/edit").get_data(as_text=True)
    assert checked(edit, "challenger") == ["1"] and checked(edit, "shot") == ["1"]
    version = input_value(edit, "version")
    data = duel(1, 0, 1) | {"version": version}
    assert client.post(f"/score/{code}/rounds/2/edit", data=data).status_code == 302
    assert stored_sheet(app, code)[2][1] == {"challenger": 1, "shot": 0}
    assert "Shots taken 1 1" in visible_text(client.get(f"/score/{code}").get_data(as_text=True))
    # The same form again is stale: refused, the duel as it is now shown.
    stale = client.post(
        f"/score/{code}/rounds/2/edit", data=duel(1, "none", 1) | {"version": version}
    )
    assert stale.status_code == 409
    assert any("changed on another phone" in m for m in messages(stale.get_data(True)))
    assert checked(stale.get_data(as_text=True), "shot") == ["0"]
    assert stored_sheet(app, code)[2][1] == {"challenger": 1, "shot": 0}
    # A second phone still showing two duels adds its "duel 3": refused.
    assert add(client, code, duel(0, 1, 2)).status_code == 409
    # Undo reverts the last change (the correction); the same undo again changes nothing.
    html = client.get(f"/score/{code}").get_data(as_text=True)
    assert change_offered(html, code)[0] == "duel 2 corrected"
    undo = {"change": change_offered(html, code)[1]}
    assert client.post(f"/score/{code}/undo", data=undo).status_code == 302
    assert stored_sheet(app, code)[2][1] == {"challenger": 1, "shot": 1}
    assert client.post(f"/score/{code}/undo", data=undo).status_code == 409
    assert len(stored_sheet(app, code)[2]) == 3
    # The next undo takes duel 3 off.
    assert press_change(client, code).status_code == 302
    assert len(stored_sheet(app, code)[2]) == 2
    # The next challenger follows the duels that are left.
    assert checked(client.get(f"/score/{code}").get_data(as_text=True), "challenger") == ["0"]


def test_hostile_names_are_shown_as_text(client):
    evil = '<b onclick="x()">Ann</b>'
    code = start(client, [evil, "Bo"])
    add(client, code, duel(0, 0, 0))
    pages = [
        client.get(f"/score/{code}"),
        client.get(f"/score/{code}/rounds/1/edit"),
        client.get(f"/score/{code}/rounds/1/delete"),
        add(client, code, duel(0, 1, 1)),  # refused: the message names the player
    ]
    for response in pages:
        html = response.get_data(as_text=True)
        assert "<b onclick" not in html
        assert "&lt;b onclick=" in html


# -- Play: the new-table form -----------------------------------------------------------------


def test_the_new_table_form_offers_two_players_and_the_shots_that_lose(client):
    answer = client.get("/play/call_the_shot")
    html, text = answer.get_data(as_text=True), page(answer).text
    assert "Shots that lose the game" in text and "3 (the rulebook)" in text
    assert re.findall(r'<option[^>]*value="(\d+)"', html) == ["2"]


@pytest.mark.parametrize(
    ("fields", "shots"),
    [
        ({}, 3),
        ({"opt_shots_to_lose": "3"}, 3),
        ({"opt_shots_to_lose": "other", "opt_shots_to_lose_other": "1"}, 1),
    ],
)
def test_a_table_starts_with_the_shots_chosen(app, client, fields, shots):
    answer = client.post("/play/call_the_shot", data={"players": "2", **fields})
    assert answer.status_code == 303, page(answer).text
    with app.app_context():
        table = db.session.scalar(db.select(Table))
        assert table.options == {"shots_to_lose": shots}


def test_a_bad_number_of_shots_creates_no_table(app, client):
    fields = {"players": "2", "opt_shots_to_lose": "other", "opt_shots_to_lose_other": "0"}
    answer = client.post("/play/call_the_shot", data=fields)
    assert answer.status_code == 422
    assert "between 1 and 9" in page(answer).text
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Table)) == 0


def test_the_play_pages_embed_the_card_faces_and_the_board_module(app, client):
    answer = client.post("/play/call_the_shot", data={"players": "2"})
    code = answer.headers["Location"].split("/t/", 1)[1].split("#", 1)[0]
    faces = GAMES["call_the_shot"].card_faces({"shots_to_lose": 3})
    for url in (f"/t/{code}", f"/t/{code}/seat"):
        parsed = page(client.get(url))
        assert len(parsed.data_blocks) == 2  # the import map, then the card faces
        assert json.loads(parsed.data_blocks[1]) == faces
        assert any(
            "js/games/call_the_shot.js" in (a.get("data-board") or "") for _, a in parsed.tags
        )
