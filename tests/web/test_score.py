"""Score mode pages: sheets for Shoot!, Call the Shot and PULL! kept from the facts entered.

Every figure a page shows is cross-checked against the game's pure sheet module; refused
input must show a message next to the form and store nothing.
"""

from __future__ import annotations

import re
from html import unescape

import pytest

from companion.extensions import db
from companion.games.pull import sheet as pull_sheet
from companion.models import ScoreSheet
from companion.pull_form import pull_targets


def pull_value_fields() -> dict[str, str]:
    """The target-value boxes as a browser sends them untouched (checked boxes only)."""
    fields = {}
    for target in pull_targets():
        fields[f"double_{target['id']}"] = str(target["double"])
        if target["animal"]:
            fields[f"animal_{target['id']}"] = "y"
    return fields


# What a browser sends for the options left as they are on the new-sheet form.
FORM_DEFAULTS = {
    "shoot": {"schedule": "down", "dealer": "0"},
    "call_the_shot": {"shots_to_lose": "3"},
    "pull": {"play": "solo", "goal": "200", "dealer": "0", **pull_value_fields()},
}


def new_sheet(client, game: str, names: list[str], **fields) -> str:
    """Start a sheet through the form; return its code."""
    data = {f"players-{i}": name for i, name in enumerate(names)}
    data.update(FORM_DEFAULTS[game])
    data.update({key: str(value) for key, value in fields.items()})
    response = client.post(f"/score/new/{game}", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    location = response.headers["Location"]
    assert location.startswith("/score/")
    return location.rsplit("/", 1)[1]


def stored(app, code: str) -> tuple[list[str], dict, list[dict]]:
    """(players, options, facts of each round) as stored in the database."""
    with app.app_context():
        sheet = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == code))
        return list(sheet.players), dict(sheet.options), [e.facts for e in sheet.entries]


def versions(html: str) -> list[str]:
    """The hidden version fields of a page, in order."""
    return re.findall(r'name="version"[^>]*value="([^"]*)"', html) or re.findall(
        r'value="([^"]*)"[^>]*name="version"', html
    )


def hidden(html: str, name: str) -> str:
    match = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)
    assert match, name
    value = re.search(r'value="([^"]*)"', match.group(0))
    return unescape(value.group(1)) if value else ""


def errors(html: str) -> list[str]:
    """Every message shown next to a field or at the top of a form."""
    found = re.findall(r'<p class="field-error"[^>]*>(.*?)</p>', html, re.S)
    block = re.search(r'<div class="form-errors"[^>]*>(.*?)</div>', html, re.S)
    if block:
        found += re.findall(r"<p>(.*?)</p>", block.group(1), re.S)
    return [unescape(" ".join(message.split())) for message in found]


def field_error(html: str, field_id: str) -> str | None:
    match = re.search(rf'<p class="field-error" id="{re.escape(field_id)}-error">(.*?)</p>', html)
    return unescape(match.group(1)) if match else None


def text(html: str) -> str:
    """Visible text of a page, whitespace collapsed (tags dropped, entities decoded)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(" ".join(re.sub(r"<[^>]+>", " ", html).split()))


@pytest.fixture
def app(make_app):
    """The app with CSRF off for the form tests (one test below turns it back on)."""
    return make_app(WTF_CSRF_ENABLED=False)


def shoot_deal(bids, tricks, position):
    data = {"position": str(position)}
    data.update({f"bids-{i}": str(b) for i, b in enumerate(bids)})
    data.update({f"tricks-{i}": str(t) for i, t in enumerate(tricks)})
    return data


def add(client, code, data):
    return client.post(f"/score/{code}/rounds", data=data)


def delete(client, code, number):
    """Open round ``number``'s delete confirmation, then confirm it."""
    confirm = client.get(f"/score/{code}/rounds/{number}/delete").get_data(as_text=True)
    return client.post(
        f"/score/{code}/rounds/{number}/delete",
        data={"position": str(number - 1), "version": hidden(confirm, "version")},
    )


# -- choosing a game, starting a sheet ------------------------------------------------------


SCORE_GAMES = {"shoot", "call_the_shot", "pull", "pirate_tricks"}


def test_index_offers_every_game_with_a_score_mode(client):
    html = client.get("/score").get_data(as_text=True)
    assert set(re.findall(r'href="/score/new/([^"]+)"', html)) == SCORE_GAMES
    assert client.get("/score/new/nonsense").status_code == 404


def test_home_links_score_mode_of_each_game(client):
    html = client.get("/").get_data(as_text=True)
    links = set(re.findall(r'href="(/score/new/[^"]+)"', html))
    assert links == {f"/score/new/{slug}" for slug in SCORE_GAMES}
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
    data = {f"players-{i}": name for i, name in enumerate(names)}
    response = client.post("/score/new/shoot", data=data)
    assert response.status_code == 422
    assert any(message in m for m in errors(response.get_data(as_text=True)))
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(ScoreSheet.id))) == 0


def test_only_as_many_name_boxes_as_the_game_has_players(app, client):
    # Call the Shot has two name boxes; a third name posted by hand is not read.
    form = client.get("/score/new/call_the_shot").get_data(as_text=True)
    assert 'name="players-1"' in form and 'name="players-2"' not in form
    data = {"players-0": "A", "players-1": "B", "players-2": "C", "shots_to_lose": "3"}
    code = new_sheet(client, "call_the_shot", ["A", "B", "C"], shots_to_lose=3)
    assert stored(app, code)[0] == ["A", "B"]
    assert data


def test_hostile_name_is_shown_as_text_everywhere(client):
    evil = '<script>alert(1)</script>"'[:24]
    code = new_sheet(client, "shoot", [evil, "Bo"])
    add(client, code, shoot_deal([5, 5], [5, 5], 0))
    pages = [
        client.get(f"/score/{code}"),
        client.get("/score"),
        client.get(f"/score/{code}/rounds/1/edit"),
        client.get(f"/score/{code}/rounds/1/delete"),
        add(client, code, shoot_deal([0, 0], [0, 0], 1)),  # refused: message names Ann
    ]
    for response in pages:
        html = response.get_data(as_text=True)
        assert "<script>alert" not in html
        assert "&lt;script&gt;alert(1)" in html


def test_unknown_sheet_and_round_are_404(client):
    assert client.get("/score/NOSUCH").status_code == 404
    assert client.post("/score/NOSUCH/rounds", data={}).status_code == 404
    assert client.post("/score/NOSUCH/undo", data={}).status_code == 404
    code = new_sheet(client, "call_the_shot", ["Ann", "Bo"])
    assert client.get(f"/score/{code}/rounds/1/edit").status_code == 404
    assert client.get(f"/score/{code}/rounds/0/delete").status_code == 404
    assert client.get(f"/score/{code.lower()}").status_code == 200


def test_open_by_code_and_recent_sheets(client):
    code = new_sheet(client, "call_the_shot", ["Ann", "Bo"])
    response = client.get("/score", query_string={"code": f" {code.lower()} "})
    assert response.status_code == 302 and response.headers["Location"] == f"/score/{code}"
    missing = client.get("/score", query_string={"code": "ZZZZZZ"})
    assert missing.status_code == 404
    assert "There is no score sheet with that code." in errors(missing.get_data(as_text=True))
    listing = text(client.get("/score").get_data(as_text=True))
    assert f"Call the Shot {code} Ann, Bo 0 rounds" in listing


def test_recent_sheets_are_only_this_phones(app, client):
    code = new_sheet(client, "call_the_shot", ["Ann", "Bo"])
    stranger = app.test_client()
    assert code not in stranger.get("/score").get_data(as_text=True)
    stranger.get(f"/score/{code}")  # opening a sheet by its code keeps it in the list
    assert code in stranger.get("/score").get_data(as_text=True)


# -- CSRF -----------------------------------------------------------------------------------


def test_posts_without_a_csrf_token_are_refused(make_app):
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    response = client.post("/score/new/shoot", data={"players-0": "A", "players-1": "B"})
    assert response.status_code == 400
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(ScoreSheet.id))) == 0
    # With the token from the form it works.
    form = client.get("/score/new/shoot").get_data(as_text=True)
    token = hidden(form, "csrf_token")
    data = {"players-0": "A", "players-1": "B", "schedule": "down", "dealer": "0"}
    response = client.post("/score/new/shoot", data=data | {"csrf_token": token})
    assert response.status_code == 302
    code = response.headers["Location"].rsplit("/", 1)[1]
    bare = add(client, code, shoot_deal([5, 5], [5, 5], 0))
    assert bare.status_code == 400
    with app.app_context():
        sheet = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == code))
        assert sheet.entries == []
    sheet_html = client.get(f"/score/{code}").get_data(as_text=True)
    ok = add(
        client,
        code,
        shoot_deal([5, 5], [5, 5], 0) | {"csrf_token": hidden(sheet_html, "csrf_token")},
    )
    assert ok.status_code == 302


# -- PULL! ----------------------------------------------------------------------------------


def quick_hand(position, *sides):
    data = {"position": str(position)}
    for s, (points, fouls) in enumerate(sides):
        data[f"points_{s}"] = str(points)
        data[f"fouls_{s}"] = str(fouls)
    return data


def test_pull_teams_quick_entry_foul_penalty_and_dealers(app, client):
    names = ["Ann", "Bo", "Cy", "Di"]
    code = new_sheet(client, "pull", names, play="teams", dealer=3)
    players, options, _ = stored(app, code)
    assert options["teams"] is True and options["goal"] == 200 and options["dealer"] == 3
    page = text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "Two teams: Ann & Cy against Bo & Di" in page
    assert "Next: hand 1 · Di deals." in page
    hands = [((40, 3), (25, 1)), ((30, 2), (-5, 0)), ((60, 1), (15, 4))]
    for position, sides in enumerate(hands):
        assert add(client, code, quick_hand(position, *sides)).status_code == 302
    rows = stored(app, code)[2]
    assert rows[0] == {"sides": [{"points": 40, "fouls": 3}, {"points": 25, "fouls": 1}]}
    expected = pull_sheet.summary(4, options, rows)
    # Ann & Cy cross 5 fouls in hand 2, Bo & Di in hand 3: 20 points each.
    assert [h["sides"][0]["penalty"] for h in expected["hands"]] == [0, 20, 0]
    assert [h["sides"][1]["penalty"] for h in expected["hands"]] == [0, 0, 20]
    page = text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "Total " + " ".join(map(str, expected["totals"])) in page
    assert "30 pts, 2 fouls, −20 for fouls +10" in page
    # Di, Ann and Bo dealt hands 1 to 3; the deal passes left to Cy.
    assert [names[h["dealer"]] for h in expected["hands"]] == ["Di", "Ann", "Bo"]
    assert "Next: hand 4 · Cy deals." in page


def test_pull_targets_taken_with_a_double_and_house_values(app, client):
    names = ["Ann", "Bo", "Cy"]
    # The group's deck: trap-T2's double value is 9, skeet-T1 is an animal.
    fields = {"double_trap-T2": 9, "animal_skeet-T1": "y"}
    code = new_sheet(client, "pull", names, goal="custom", custom_goal=50, **fields)
    _, options, _ = stored(app, code)
    assert options["goal"] == 50
    assert options["targets"] == {"trap-T2": {"double": 9}, "skeet-T1": {"animal": True}}
    page = text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "This group's card values:" in page and "Trap 5 double 9" in page
    data = {
        "position": "0",
        # round 1: Ann takes both targets (a Double); round 2: Bo takes skeet-T1 (an animal)
        "target_1_0": "trap-T2",
        "taker_1_0": "0",
        "target_1_1": "trap-T3",
        "taker_1_1": "0",
        "target_2_0": "skeet-T1",
        "taker_2_0": "1",
    }
    response = add(client, code, data)
    assert response.status_code == 302, errors(response.get_data(as_text=True))
    rows = stored(app, code)[2]
    assert rows == [
        {
            "sides": [
                {"rounds": [["trap-T2", "trap-T3"], []]},
                {"rounds": [[], ["skeet-T1"]]},
                {"rounds": [[], []]},
            ]
        }
    ]
    expected = pull_sheet.summary(3, options, rows)
    first = expected["hands"][0]["sides"]
    assert first[0]["points"] == 9 + 15 and first[0]["doubles"] == 1
    assert first[1]["fouls"] == 1
    # The edit form shows the targets as entered.
    edit = client.get(f"/score/{code}/rounds/1/edit").get_data(as_text=True)
    assert re.search(r'<option selected value="trap-T2">|<option value="trap-T2" selected>', edit)
    # Hand 2 reaches 50: Ann wins.
    assert add(client, code, quick_hand(1, (30, 0), (0, 0), (0, 0))).status_code == 302
    page = text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "Winner: Ann with 54 points." in page


@pytest.mark.parametrize(
    ("data", "where", "message"),
    [
        ({"target_1_0": "trap-T9", "taker_1_0": "0"}, None, "'trap-T9' is not a target card"),
        ({"target_1_0": "trap-T2", "taker_1_0": ""}, "taker_1_0", "Say which side took"),
        ({"target_1_0": "", "taker_1_0": "1"}, "target_1_0", "Choose the target"),
        (
            {"target_1_0": "trap-T2", "taker_1_0": "0", "points_0": "5"},
            None,
            "not both",
        ),
        ({"points_0": "5", "fouls_0": "0", "points_1": "5"}, "fouls_1", "Enter the fouls"),
        ({"points_0": "5", "fouls_0": "11", "points_1": "5", "fouls_1": "0"}, "fouls_0", "10"),
        ({}, "points_0", "Enter the points"),
        (
            {"target_1_0": "trap-T2", "taker_1_0": "0", "target_2_0": "trap-T2", "taker_2_0": "1"},
            None,
            "trap-T2 is listed twice in this hand (Ann, round 1 and Bo, round 2).",
        ),
    ],
)
def test_pull_bad_hand_refused_nothing_stored(app, client, data, where, message):
    code = new_sheet(client, "pull", ["Ann", "Bo"])
    response = add(client, code, {"position": "0", **data})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    if where:
        assert message in field_error(html, where)
    else:
        assert any(message in m for m in errors(html)), errors(html)
    assert stored(app, code)[2] == []


@pytest.mark.parametrize(
    ("fields", "where", "message"),
    [
        ({"goal": "300"}, "goal", "Not a valid choice"),
        ({"goal": "custom"}, "custom_goal", "Enter the target score"),
        ({"goal": "hands"}, "hands", "Enter the number of hands"),
        ({"play": "teams"}, None, "Team play needs exactly 4 players"),
        ({"dealer": "2"}, "dealer", "Choose one of the players listed as the first dealer."),
        ({"dealer": "7"}, "dealer", "Not a valid choice"),
        ({"double_trap-T2": "x"}, "double_trap-T2", "Enter a whole number."),
    ],
)
def test_pull_bad_options_refused(app, client, fields, where, message):
    data = {"players-0": "Ann", "players-1": "Bo", **FORM_DEFAULTS["pull"], **fields}
    response = client.post("/score/new/pull", data=data)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    if where:
        assert message in (field_error(html, where) or ""), errors(html)
    else:
        assert any(message in m for m in errors(html)), errors(html)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(ScoreSheet.id))) == 0


def test_pull_fixed_number_of_hands_edit_and_undo(app, client):
    code = new_sheet(client, "pull", ["Ann", "Bo"], goal="hands", hands=2)
    _, options, _ = stored(app, code)
    assert options["hands"] == 2 and options["goal"] is None
    assert "Next: hand 1 of 2 · Ann deals." in text(
        client.get(f"/score/{code}").get_data(as_text=True)
    )
    add(client, code, quick_hand(0, (10, 0), (20, 0)))
    add(client, code, quick_hand(1, (30, 0), (5, 0)))
    page = text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "Winner: Ann with 40 points." in page
    edit = client.get(f"/score/{code}/rounds/2/edit").get_data(as_text=True)
    assert hidden(edit, "points_0") == "30"
    response = client.post(
        f"/score/{code}/rounds/2/edit",
        data=quick_hand(1, (0, 0), (5, 0)) | {"version": hidden(edit, "version")},
    )
    assert response.status_code == 302
    page = text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "Winner: Bo with 25 points." in page
    sheet_html = client.get(f"/score/{code}").get_data(as_text=True)
    undo = {"position": "1", "version": versions(sheet_html)[-1]}
    assert client.post(f"/score/{code}/undo", data=undo).status_code == 302
    assert len(stored(app, code)[2]) == 1
    assert "Next: hand 2 of 2 · Bo deals." in text(
        client.get(f"/score/{code}").get_data(as_text=True)
    )
