"""Score mode, the pages every game shares: the index and the home page's links, starting a
sheet (bad and hostile names, only as many name boxes as the game seats), 404s, opening a
sheet by its code, the recent sheets of this phone, CSRF, and one sheet on PostgreSQL.

The sheets here are the test-only fifth game's ("High card", ``tests/fifth_game.py``): the
generic layer must carry a game it has never seen. Each game's own pages are tested in
``tests/games/<slug>/test_pages.py``.
"""

from __future__ import annotations

import re

import pytest

from companion.extensions import db
from companion.games import GAMES
from companion.games.spec import SCORE
from companion.models import ScoreSheet

from .. import fifth_game
from .pages import (
    change_offered,
    delete_round,
    input_value,
    messages,
    new_sheet,
    press_change,
    stored_sheet,
    visible_text,
)

SLUG = fifth_game.SLUG
# The options as a browser sends them; the target is high, so no sheet here ends.
OPTIONS = {"opt_cards": "3", "opt_target": "99"}


def score_games() -> set[str]:
    """Every registered game whose spec offers score mode (the fixture has registered the
    test-only fifth games by the time a test asks)."""
    return {slug for slug, game in GAMES.items() if SCORE in game.spec.modes}


@pytest.fixture
def app(make_app, high_card):
    """The app with CSRF off for the form tests (the CSRF test turns it back on)."""
    return make_app(WTF_CSRF_ENABLED=False)


def start(client, names: list[str]) -> str:
    return new_sheet(client, SLUG, names, OPTIONS)


def hand(tricks: list[int], position: int) -> dict[str, str]:
    return {f"tricks-{i}": str(n) for i, n in enumerate(tricks)} | {"position": str(position)}


def add(client, code: str, data: dict[str, str]):
    return client.post(f"/score/{code}/rounds", data=data)


def sheet_count(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(ScoreSheet.id)))


# -- choosing a game, starting a sheet ------------------------------------------------------


def test_index_offers_every_game_with_a_score_mode(client):
    html = client.get("/score").get_data(as_text=True)
    assert set(re.findall(r'href="/score/new/([^"]+)"', html)) == score_games()
    assert {SLUG, fifth_game.LEAD_SPEC.slug} <= score_games()  # the fixture's games count
    assert client.get("/score/new/nonsense").status_code == 404


def test_home_links_score_mode_of_each_game(client):
    html = client.get("/").get_data(as_text=True)
    links = set(re.findall(r'href="(/score/new/[^"]+)"', html))
    assert links == {f"/score/new/{slug}" for slug in score_games()}
    for link in links:
        assert client.get(link).status_code == 200


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["Ann"], "at least 2 player names"),
        (["Ann", "  "], "at least 2 player names"),
        (["Ann", "ann"], "Two players are called ann"),
        (["Ann", "x" * 25], "at most 24 characters"),
    ],
)
def test_bad_player_names_refused(app, client, names, message):
    data = {f"players-{i}": name for i, name in enumerate(names)} | OPTIONS
    response = client.post(f"/score/new/{SLUG}", data=data)
    assert response.status_code == 422
    assert any(message in m for m in messages(response.get_data(as_text=True)))
    assert sheet_count(app) == 0


def test_only_as_many_name_boxes_as_the_game_has_players(app, client):
    # High card seats at most 4: four name boxes; a fifth name posted by hand is not read.
    form = client.get(f"/score/new/{SLUG}").get_data(as_text=True)
    assert 'name="players-3"' in form and 'name="players-4"' not in form
    code = start(client, ["A", "B", "C", "D", "E"])
    assert stored_sheet(app, code)[0] == ["A", "B", "C", "D"]


def test_hostile_name_is_shown_as_text_everywhere(client):
    evil = '<script>alert(1)</script>"'[:24]
    code = start(client, [evil, "Bo"])
    assert add(client, code, hand([2, 1], 0)).status_code == 302
    refused = add(client, code, hand(["x", 3], 1))  # the message names the player
    assert refused.status_code == 422
    pages = [
        client.get(f"/score/{code}"),
        client.get("/score"),
        client.get(f"/score/{code}/rounds/1/edit"),
        client.get(f"/score/{code}/rounds/1/delete"),
        refused,
    ]
    for response in pages:
        html = response.get_data(as_text=True)
        assert "<script>alert" not in html
        assert "&lt;script&gt;alert(1)" in html


def test_unknown_sheet_and_round_are_404(client):
    assert client.get("/score/NOSUCH").status_code == 404
    assert client.post("/score/NOSUCH/rounds", data={}).status_code == 404
    assert client.post("/score/NOSUCH/undo", data={"change": "1"}).status_code == 404
    assert client.post("/score/NOSUCH/redo", data={"change": "1"}).status_code == 404
    code = start(client, ["Ann", "Bo"])
    assert client.get(f"/score/{code}/rounds/1/edit").status_code == 404
    assert client.get(f"/score/{code}/rounds/0/delete").status_code == 404
    assert client.get(f"/score/{code.lower()}").status_code == 200


def test_open_by_code_and_recent_sheets(client):
    code = start(client, ["Ann", "Bo"])
    response = client.get("/score", query_string={"code": f" {code.lower()} "})
    assert response.status_code == 302 and response.headers["Location"] == f"/score/{code}"
    missing = client.get("/score", query_string={"code": "ZZZZZZ"})
    assert missing.status_code == 404
    assert "There is no score sheet with that code." in messages(missing.get_data(as_text=True))
    listing = visible_text(client.get("/score").get_data(as_text=True))
    word = fifth_game.GAME.spec.round_word
    assert f"High card {code} Ann, Bo 0 {word}s" in listing


def test_recent_sheets_are_only_this_phones(app, client):
    code = start(client, ["Ann", "Bo"])
    stranger = app.test_client()
    assert code not in stranger.get("/score").get_data(as_text=True)
    stranger.get(f"/score/{code}")  # opening a sheet by its code keeps it in the list
    assert code in stranger.get("/score").get_data(as_text=True)


# -- CSRF -----------------------------------------------------------------------------------


def test_posts_without_a_csrf_token_are_refused(make_app, high_card):
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    names = {"players-0": "A", "players-1": "B"} | OPTIONS
    response = client.post(f"/score/new/{SLUG}", data=names)
    assert response.status_code == 400
    assert sheet_count(app) == 0
    # With the token from the form it works.
    form = client.get(f"/score/new/{SLUG}").get_data(as_text=True)
    token = {"csrf_token": input_value(form, "csrf_token")}
    response = client.post(f"/score/new/{SLUG}", data=names | token)
    assert response.status_code == 302
    code = response.headers["Location"].rsplit("/", 1)[1]
    assert add(client, code, hand([2, 1], 0)).status_code == 400
    assert stored_sheet(app, code)[2] == []
    sheet_html = client.get(f"/score/{code}").get_data(as_text=True)
    token = {"csrf_token": input_value(sheet_html, "csrf_token")}
    assert add(client, code, hand([2, 1], 0) | token).status_code == 302
    # The undo form needs the token too.
    change = change_offered(client.get(f"/score/{code}").get_data(as_text=True), code)[1]
    assert client.post(f"/score/{code}/undo", data={"change": change}).status_code == 400
    assert stored_sheet(app, code)[2] == [{"tricks": [2, 1]}]
    answer = client.post(f"/score/{code}/undo", data={"change": change} | token)
    assert answer.status_code == 302
    assert stored_sheet(app, code)[2] == []


# -- PostgreSQL -----------------------------------------------------------------------------


def test_a_sheet_on_postgresql(make_app, postgres_url, high_card):
    """The same pages on PostgreSQL (row locks, JSON facts updated in place)."""
    from companion.config import normalise_database_url

    app = make_app(
        SQLALCHEMY_DATABASE_URI=normalise_database_url(postgres_url), WTF_CSRF_ENABLED=False
    )
    client = app.test_client()
    code = start(client, ["Ann", "Bo", "Cy"])
    for position, tricks in enumerate(([1, 1, 1], [3, 0, 0], [0, 2, 1])):
        assert add(client, code, hand(tricks, position)).status_code == 302
    edit = client.get(f"/score/{code}/rounds/1/edit").get_data(as_text=True)
    data = hand([0, 3, 0], 0) | {"version": input_value(edit, "version")}
    assert client.post(f"/score/{code}/rounds/1/edit", data=data).status_code == 302
    assert delete_round(client, code, 3).status_code == 302
    assert stored_sheet(app, code)[2] == [{"tricks": [0, 3, 0]}, {"tricks": [3, 0, 0]}]
    assert "Total 3 3 0" in visible_text(client.get(f"/score/{code}").get_data(as_text=True))
    assert press_change(client, code).status_code == 302  # the deletion undone
    assert stored_sheet(app, code)[2][2] == {"tricks": [0, 2, 1]}
