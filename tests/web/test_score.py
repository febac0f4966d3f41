"""Score mode pages: sheets for Shoot!, Call the Shot and PULL! kept from the facts entered.

Every figure a page shows is cross-checked against the game's pure sheet module; refused
input must show a message next to the form and store nothing.
"""

from __future__ import annotations

import re
from html import unescape

import pytest

from companion.extensions import db
from companion.games.call_the_shot import sheet as cts_sheet
from companion.games.pirate_tricks import sheet as pirate_sheet
from companion.games.shoot import sheet as shoot_sheet
from companion.models import ScoreSheet

# What a browser sends for the options left as they are on the new-sheet form.
FORM_DEFAULTS = {
    "shoot": {"schedule": "down", "dealer": "0"},
    "call_the_shot": {"shots_to_lose": "3"},
    "pirate_tricks": {"rounds": "3"},
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


def test_new_sheet_stores_trimmed_names_and_checked_options(app, client):
    code = new_sheet(client, "shoot", ["  Ann  ", "Bo   Lee", "", "Cy", ""], dealer=2)
    players, options, rows = stored(app, code)
    assert players == ["Ann", "Bo Lee", "Cy"]
    assert options == shoot_sheet.check_options(3, {"dealer": 2})
    assert rows == []
    html = client.get(f"/score/{code}").get_data(as_text=True)
    assert "Next: deal 1 of 10 · 10 cards each · Cy deals." in text(html)


def test_up_and_down_schedule_and_chips(app, client):
    code = new_sheet(client, "shoot", ["Ann", "Bo"], schedule="updown", chips="y")
    _, options, _ = stored(app, code)
    assert options["schedule"] == [*range(1, 11), *range(9, 0, -1)]
    assert options["chips"] is True
    page = text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "19 deals" in page and "1 card each" in page and "Chips — pot 100" in page


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


# -- Shoot! ---------------------------------------------------------------------------------

SHOOT_DEALS = [
    ([3, 3, 4], [3, 3, 4]),  # 10 cards, all exact
    ([2, 0, 4], [5, 0, 4]),  # 9 cards
    ([1, 1, 1], [0, 8, 0]),  # 8 cards
]


def test_shoot_totals_dealers_and_hand_sizes_match_the_sheet(app, client):
    names = ["Ann", "Bo", "Cy"]
    code = new_sheet(client, "shoot", names, dealer=1)
    for position, (bids, tricks) in enumerate(SHOOT_DEALS):
        response = add(client, code, shoot_deal(bids, tricks, position))
        assert response.status_code == 302
    _, options, rows = stored(app, code)
    assert rows == [{"bids": b, "tricks": t} for b, t in SHOOT_DEALS]
    expected = shoot_sheet.summary(3, options, rows, names)
    page = text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "Total " + " ".join(map(str, expected["totals"])) in page
    for row in expected["rows"]:
        cells = " ".join(
            f"bid {b}, took {t} {p:+d} {total}"
            for b, t, p, total in zip(
                row["bids"], row["tricks"], row["points"], row["totals"], strict=True
            )
        )
        dealt = f"{row['cards']} cards · {names[row['dealer']]} dealt"
        assert (
            f"{row['deal']} {dealt} Edit deal {row['deal']} Delete deal {row['deal']} {cells}"
            in (page)
        )
    nxt = expected["next"]
    assert f"Next: deal 4 of 10 · {nxt['cards']} cards each · {names[nxt['dealer']]} deals." in page


def test_shoot_game_over_shows_winner_and_no_entry_form(app, client):
    code = new_sheet(client, "shoot", ["Ann", "Bo"])
    with app.app_context():
        sheet = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == code))
        sheet.options = shoot_sheet.check_options(2, {"schedule": [2, 1]})
        db.session.commit()
    assert add(client, code, shoot_deal([1, 1], [1, 1], 0)).status_code == 302
    assert add(client, code, shoot_deal([0, 1], [0, 1], 1)).status_code == 302
    html = client.get(f"/score/{code}").get_data(as_text=True)
    # Ann 6 + 5 = 11, Bo 6 + 6 = 12
    assert "Winner: Bo with 12 points." in text(html)
    assert f'action="/score/{code}/rounds' not in html
    late = add(client, code, shoot_deal([0, 1], [0, 1], 2))
    assert late.status_code == 422
    assert "This game has only 2 deals." in errors(late.get_data(as_text=True))
    assert len(stored(app, code)[2]) == 2


@pytest.mark.parametrize(
    ("bids", "tricks", "field", "message"),
    [
        ([3, 3, 4], [3, 3, 3], None, "Deal 1: the tricks add up to 9, but 10 tricks were played."),
        ([11, 3, 4], [3, 3, 4], "bids-0", "Ann's bid must be a whole number from 0 to 10"),
        ([3, -1, 4], [3, 3, 4], "bids-1", "Bo's bid must be a whole number from 0 to 10"),
        ([3, 3, 4], [3, 3, 12], "tricks-2", "Cy's tricks must be a whole number from 0 to 10"),
        (["x", 3, 4], [3, 3, 4], "bids-0", "Enter a whole number."),
        ([3, 3, 4], [3, "", 4], "tricks-1", "Enter a whole number."),
    ],
)
def test_shoot_bad_deal_refused_next_to_the_field_nothing_stored(
    app, client, bids, tricks, field, message
):
    code = new_sheet(client, "shoot", ["Ann", "Bo", "Cy"])
    response = add(client, code, shoot_deal(bids, tricks, 0))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    if field:
        assert message in field_error(html, field)
        assert f'id="{field}"' in html and 'aria-invalid="true"' in html
    else:
        assert message in errors(html)
    assert stored(app, code)[2] == []
    # What was typed is still in the form, to be corrected.
    assert f'value="{bids[2]}"' in html


def test_stale_delete_refused(app, client):
    code = new_sheet(client, "shoot", ["Ann", "Bo", "Cy"])
    add(client, code, shoot_deal([3, 3, 4], [3, 3, 4], 0))
    confirm = client.get(f"/score/{code}/rounds/1/delete").get_data(as_text=True)
    edit = client.get(f"/score/{code}/rounds/1/edit").get_data(as_text=True)
    data = shoot_deal([3, 3, 3], [3, 3, 4], 0) | {"version": hidden(edit, "version")}
    assert client.post(f"/score/{code}/rounds/1/edit", data=data).status_code == 302
    # The confirmation was shown before the correction: refused, the round is kept.
    data = {"position": "0", "version": hidden(confirm, "version")}
    response = client.post(f"/score/{code}/rounds/1/delete", data=data)
    assert response.status_code == 409
    assert "changed on another phone" in text(response.get_data(as_text=True))
    assert stored(app, code)[2] == [{"bids": [3, 3, 3], "tricks": [3, 3, 4]}]


def test_shoot_edit_delete_undo(app, client):
    names = ["Ann", "Bo", "Cy"]
    code = new_sheet(client, "shoot", names)
    for position, (bids, tricks) in enumerate(SHOOT_DEALS):
        add(client, code, shoot_deal(bids, tricks, position))
    # Edit deal 2: the form shows the stored facts and carries position and version.
    edit = client.get(f"/score/{code}/rounds/2/edit").get_data(as_text=True)
    assert hidden(edit, "bids-0") == "2" and hidden(edit, "tricks-0") == "5"
    version = hidden(edit, "version")
    data = shoot_deal([5, 0, 4], [5, 0, 4], 1) | {"version": version}
    response = client.post(f"/score/{code}/rounds/2/edit", data=data)
    assert response.status_code == 302
    rows = stored(app, code)[2]
    assert rows[1] == {"bids": [5, 0, 4], "tricks": [5, 0, 4]}
    page = text(client.get(f"/score/{code}").get_data(as_text=True))
    totals = shoot_sheet.summary(3, stored(app, code)[1], rows)["totals"]
    assert "Total " + " ".join(map(str, totals)) in page
    # The old form is now stale: refused, and the current facts are shown.
    stale = client.post(
        f"/score/{code}/rounds/2/edit",
        data=shoot_deal([2, 0, 4], [5, 0, 4], 1) | {"version": version},
    )
    assert stale.status_code == 409
    assert any("changed on another phone" in m for m in errors(stale.get_data(as_text=True)))
    assert hidden(stale.get_data(as_text=True), "bids-0") == "5"
    assert stored(app, code)[2][1] == {"bids": [5, 0, 4], "tricks": [5, 0, 4]}
    # An edit the rules refuse stores nothing.
    bad = client.post(
        f"/score/{code}/rounds/2/edit",
        data=shoot_deal([5, 0, 4], [5, 0, 3], 1)
        | {"version": hidden(stale.get_data(as_text=True), "version")},
    )
    assert bad.status_code == 422
    assert "Deal 2: the tricks add up to 8, but 9 tricks were played." in errors(
        bad.get_data(as_text=True)
    )
    assert stored(app, code)[2][1] == {"bids": [5, 0, 4], "tricks": [5, 0, 4]}
    # Deleting deal 1 would move a 9-card deal into the 10-card slot: refused with the reason.
    response = delete(client, code, 1)
    assert response.status_code == 422
    assert "the tricks add up to" in text(response.get_data(as_text=True))
    assert len(stored(app, code)[2]) == 3
    # Deleting the last deal works.
    assert delete(client, code, 3).status_code == 302
    assert len(stored(app, code)[2]) == 2
    # Undo takes the last deal off; a stale undo form removes nothing.
    sheet_html = client.get(f"/score/{code}").get_data(as_text=True)
    undo = {"position": "1", "version": versions(sheet_html)[-1]}
    assert client.post(f"/score/{code}/undo", data=undo).status_code == 302
    assert stored(app, code)[2] == [{"bids": [3, 3, 4], "tricks": [3, 3, 4]}]
    assert client.post(f"/score/{code}/undo", data=undo).status_code == 303
    assert len(stored(app, code)[2]) == 1
    followed = client.get(f"/score/{code}").get_data(as_text=True)
    assert "nothing was undone" in followed


def test_shoot_add_from_a_stale_page_refused(app, client):
    code = new_sheet(client, "shoot", ["Ann", "Bo", "Cy"])
    assert add(client, code, shoot_deal([3, 3, 4], [3, 3, 4], 0)).status_code == 302
    # A second phone still showing the empty sheet sends its deal 1: refused, not stored
    # as deal 2.
    response = add(client, code, shoot_deal([3, 3, 4], [3, 3, 4], 0))
    assert response.status_code == 409
    assert any("changed on another phone" in m for m in errors(response.get_data(as_text=True)))
    assert len(stored(app, code)[2]) == 1


# -- Call the Shot --------------------------------------------------------------------------


def duel(challenger, shot, position):
    return {"position": str(position), "challenger": str(challenger), "shot": str(shot)}


def test_call_the_shot_duels_shots_and_loser(app, client):
    code = new_sheet(client, "call_the_shot", ["Ann", "Bo"], shots_to_lose=2)
    html = client.get(f"/score/{code}").get_data(as_text=True)
    assert "toss for who challenges first" in text(html)
    assert add(client, code, duel(1, 0, 0)).status_code == 302
    # The next challenger is prefilled: Ann (seat 0).
    html = client.get(f"/score/{code}").get_data(as_text=True)
    assert re.search(r'<input checked[^>]*name="challenger"[^>]*value="0"', html) or re.search(
        r'<input[^>]*name="challenger"[^>]*value="0"[^>]*checked', html
    )
    assert "Ann challenges" in text(html)
    assert add(client, code, duel(0, "none", 1)).status_code == 302
    assert add(client, code, duel(1, 0, 2)).status_code == 302
    _, options, rows = stored(app, code)
    assert rows == [
        {"challenger": 1, "shot": 0},
        {"challenger": 0, "shot": None},
        {"challenger": 1, "shot": 0},
    ]
    expected = cts_sheet.summary(rows, options)
    assert expected["over"] and expected["winner"] == 1
    page = text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "Winner: Bo — Ann was shot 2 times." in page
    assert "Shots taken 2 0" in page
    assert "2 Edit duel 2 Delete duel 2 Ann nobody (tie) 1 0" in page


def test_call_the_shot_challenger_must_alternate(app, client):
    code = new_sheet(client, "call_the_shot", ["Ann", "Bo"])
    add(client, code, duel(0, 1, 0))
    response = add(client, code, duel(0, 1, 1))
    assert response.status_code == 422
    message = field_error(response.get_data(as_text=True), "challenger")
    # The sheet module numbers the players; the page names them.
    assert message == "Duel 2: Ann challenged duel 1, so Bo challenges this one."
    assert len(stored(app, code)[2]) == 1
    missing = add(client, code, {"position": "1", "challenger": "1"})
    assert missing.status_code == 422 and len(stored(app, code)[2]) == 1
    unknown = add(client, code, duel(1, 7, 1))
    assert unknown.status_code == 422 and len(stored(app, code)[2]) == 1


def test_call_the_shot_delete_in_the_middle_refused_edit_works(app, client):
    code = new_sheet(client, "call_the_shot", ["Ann", "Bo"])
    for position, (challenger, shot) in enumerate([(0, 1), (1, 1), (0, "none")]):
        add(client, code, duel(challenger, shot, position))
    response = delete(client, code, 2)
    assert response.status_code == 422
    assert "can't be deleted" in text(response.get_data(as_text=True))
    assert len(stored(app, code)[2]) == 3
    edit = client.get(f"/score/{code}/rounds/2/edit").get_data(as_text=True)
    response = client.post(
        f"/score/{code}/rounds/2/edit",
        data=duel(1, 0, 1) | {"version": hidden(edit, "version")},
    )
    assert response.status_code == 302
    assert stored(app, code)[2][1] == {"challenger": 1, "shot": 0}
    assert "Shots taken 1 1" in text(client.get(f"/score/{code}").get_data(as_text=True))


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


# -- Pirate Tricks --------------------------------------------------------------------------

PIRATE_NAMES = ["Ann", "Bo", "Cy"]
PIRATE_CARDS = {
    "recruitment_1": "gang_of_three",
    "recruitment_2": "partners_in_crime",
    "treasure": "rich_rewards",
    "capture": "mustel_bounty",
}


def pirate_round(position, players, cards=PIRATE_CARDS):
    """Form data: ``players`` is a list of dicts (bid, recruitment, tricks, row, counts...)."""
    data = {"position": str(position), **cards}
    for p, facts in enumerate(players):
        data[f"bids-{p}"] = str(facts["bid"])
        data[f"recruitments-{p}"] = str(facts.get("recruitment", 0))
        data[f"tricks-{p}"] = str(facts["tricks"])
        if facts.get("row"):
            data[f"row_loons-{p}"] = "y"
        if "prediction" in facts:
            data[f"predictions-{p}"] = str(facts["prediction"])
        for k, count in enumerate(facts.get("counts", [])):
            data[f"count_{k}-{p}"] = str(count)
    return data


FIRST_ROUND = [
    {"bid": 3, "recruitment": 2, "tricks": 4, "counts": [2]},
    {"bid": 0, "row": True, "tricks": 3, "counts": [0]},  # took the row with 2 loon on it
    {"bid": 1, "recruitment": 5, "tricks": 3, "counts": [1]},
]


def test_pirate_tricks_cards_first_then_each_players_facts(app, client):
    code = new_sheet(client, "pirate_tricks", PIRATE_NAMES, rounds=4)
    assert stored(app, code)[1] == {"rounds": 4}
    html = client.get(f"/score/{code}").get_data(as_text=True)
    # Step 1 (a GET form, no JavaScript needed): the four score cards, no player boxes yet.
    assert 'name="recruitment_1"' in html and 'name="bids-0"' not in html
    cards = PIRATE_CARDS | {"treasure": "tempt_fortune", "capture": "green_gold"}
    step2 = client.get(f"/score/{code}", query_string=cards).get_data(as_text=True)
    page = text(step2)
    assert 'name="bids-2"' in step2 and 'name="predictions-0"' in step2
    # Green Gold counts two things; each gets its own box per player.
    assert "Green cards taken" in page and "Green cards numbered 18 or more taken" in page
    assert 'name="count_1-2"' in step2 and 'name="count_2-0"' not in step2
    plain = client.get(f"/score/{code}", query_string=PIRATE_CARDS).get_data(as_text=True)
    assert 'name="predictions-0"' not in plain and "Blue cards taken" in text(plain)


def test_pirate_tricks_ledger_matches_the_sheet(app, client):
    code = new_sheet(client, "pirate_tricks", PIRATE_NAMES)
    response = add(client, code, pirate_round(0, FIRST_ROUND))
    assert response.status_code == 302, errors(response.get_data(as_text=True))
    _, options, rows = stored(app, code)
    # Only Bo ticked the row box: it stays with Bo, not shifted onto Ann.
    assert [p["row_loon"] for p in rows[0]["players"]] == [0, 2, 0]
    assert rows[0]["players"][0]["counts"] == {"mustel_bounty": [2]}
    expected = pirate_sheet.summary(3, options, rows, PIRATE_NAMES)
    assert expected["loon"] == [21, 20, 23]  # as worked out by hand in the sheet's tests
    page = text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "Loon 21 20 23" in page
    assert "bid 0, row +2, recruits +0, 3 tricks, treasure +6, capture +0 20" in page
    assert "Next: round 2 of 3." in page
    assert "Already drawn in other rounds: Gang of Three, Mustel Bounty" in page


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({2: {"tricks": 2}}, None, "Round 1: the tricks add up to 9, but 10 tricks are played."),
        ({0: {"bid": 13}}, "bids-0", "Round 1: Ann: bid 13 loon but had only 12."),
        ({1: {"bid": 2}}, None, "somebody's bid is 0"),
        ({2: {"counts": [10]}}, "count_0-2", "from 0 to 9"),
        ({0: {"tricks": "x"}}, "tricks-0", "Enter a whole number."),
    ],
)
def test_pirate_tricks_bad_round_refused_nothing_stored(app, client, change, field, message):
    code = new_sheet(client, "pirate_tricks", PIRATE_NAMES)
    players = [dict(facts) for facts in FIRST_ROUND]
    for p, fields in change.items():
        players[p].update(fields)
    response = add(client, code, pirate_round(0, players))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    if field:
        assert message in (field_error(html, field) or ""), errors(html)
    else:
        assert any(message in m for m in errors(html)), errors(html)
    assert stored(app, code)[2] == []


def test_pirate_tricks_prediction_and_unknown_card_refused(app, client):
    code = new_sheet(client, "pirate_tricks", PIRATE_NAMES)
    cards = PIRATE_CARDS | {"treasure": "tempt_fortune"}
    response = add(client, code, pirate_round(0, FIRST_ROUND, cards))
    assert response.status_code == 422
    assert "a prediction card is in play: enter the prediction" in field_error(
        response.get_data(as_text=True), "predictions-0"
    )
    bad = add(client, code, pirate_round(0, FIRST_ROUND, PIRATE_CARDS | {"capture": "nope"}))
    assert bad.status_code == 422
    assert any("'nope' is not a capture card" in m for m in errors(bad.get_data(as_text=True)))
    assert stored(app, code)[2] == []
    predicted = [dict(f, prediction=f["tricks"]) for f in FIRST_ROUND]
    assert add(client, code, pirate_round(0, predicted, cards)).status_code == 302
    assert [p["prediction"] for p in stored(app, code)[2][0]["players"]] == [4, 3, 3]


def test_pirate_tricks_edit_change_cards_undo_and_winner(app, client):
    code = new_sheet(client, "pirate_tricks", PIRATE_NAMES)
    add(client, code, pirate_round(0, FIRST_ROUND))
    edit = client.get(f"/score/{code}/rounds/1/edit").get_data(as_text=True)
    assert hidden(edit, "bids-0") == "3" and hidden(edit, "count_0-0") == "2"
    assert 'name="row_loons-1" type="checkbox" value="y" checked' in edit or re.search(
        r'<input checked[^>]*name="row_loons-1"', edit
    )
    # Change the capture card on the edit page: the counts now belong to Crimson Haul.
    changed = PIRATE_CARDS | {"capture": "crimson_haul"}
    step2 = client.get(f"/score/{code}/rounds/1/edit", query_string=changed).get_data(as_text=True)
    assert "Red cards taken" in text(step2) and hidden(step2, "capture") == "crimson_haul"
    players = [dict(f, counts=[c]) for f, c in zip(FIRST_ROUND, [0, 3, 0], strict=True)]
    response = client.post(
        f"/score/{code}/rounds/1/edit",
        data=pirate_round(0, players, changed) | {"version": hidden(step2, "version")},
    )
    assert response.status_code == 302, errors(response.get_data(as_text=True))
    _, options, rows = stored(app, code)
    assert rows[0]["cards"]["capture"] == "crimson_haul"
    loon = pirate_sheet.summary(3, options, rows)["loon"]
    assert "Loon " + " ".join(map(str, loon)) in text(client.get(f"/score/{code}").get_data(True))
    # Two more rounds with fresh cards end the game.
    second = {
        "recruitment_1": "gang_of_two",
        "recruitment_2": "beringa_backing",
        "treasure": "bountiful_booty",
        "capture": "mustel_bounty",
    }
    third = {
        "recruitment_1": "gang_of_four",
        "recruitment_2": "blood_brothers",
        "treasure": "lions_share",
        "capture": "top_brass",
    }
    plain = [{"bid": b, "tricks": t, "counts": [0]} for b, t in ((0, 5), (1, 3), (2, 2))]
    assert add(client, code, pirate_round(1, plain, second)).status_code == 302
    # Undo the last round, then enter it again.
    sheet_html = client.get(f"/score/{code}").get_data(as_text=True)
    undo = {"position": "1", "version": versions(sheet_html)[-1]}
    assert client.post(f"/score/{code}/undo", data=undo).status_code == 302
    assert len(stored(app, code)[2]) == 1
    assert add(client, code, pirate_round(1, plain, second)).status_code == 302
    assert add(client, code, pirate_round(2, plain, third)).status_code == 302
    _, options, rows = stored(app, code)
    expected = pirate_sheet.summary(3, options, rows, PIRATE_NAMES)
    assert expected["over"]
    page = text(client.get(f"/score/{code}").get_data(as_text=True))
    best = expected["loon"][expected["winners"][0]]
    who = ", ".join(PIRATE_NAMES[w] for w in expected["winners"])
    assert f"{who} with {best} loon." in page
    assert "Enter round" not in page


def test_pirate_tricks_needs_three_players(app, client):
    data = {"players-0": "Ann", "players-1": "Bo", "rounds": "3"}
    response = client.post("/score/new/pirate_tricks", data=data)
    assert response.status_code == 422
    assert "Enter at least 3 player names." in errors(response.get_data(as_text=True))


# -- PostgreSQL -----------------------------------------------------------------------------


def test_a_sheet_on_postgresql(make_app, postgres_url):
    """The same pages on PostgreSQL (row locks, JSON facts updated in place)."""
    from companion.config import normalise_database_url

    app = make_app(
        SQLALCHEMY_DATABASE_URI=normalise_database_url(postgres_url), WTF_CSRF_ENABLED=False
    )
    client = app.test_client()
    code = new_sheet(client, "shoot", ["Ann", "Bo", "Cy"])
    for position, (bids, tricks) in enumerate(SHOOT_DEALS):
        assert add(client, code, shoot_deal(bids, tricks, position)).status_code == 302
    edit = client.get(f"/score/{code}/rounds/1/edit").get_data(as_text=True)
    data = shoot_deal([0, 3, 4], [3, 3, 4], 0) | {"version": hidden(edit, "version")}
    assert client.post(f"/score/{code}/rounds/1/edit", data=data).status_code == 302
    assert delete(client, code, 3).status_code == 302
    _, options, rows = stored(app, code)
    assert rows == [
        {"bids": [0, 3, 4], "tricks": [3, 3, 4]},
        {"bids": [2, 0, 4], "tricks": [5, 0, 4]},
    ]
    totals = shoot_sheet.summary(3, options, rows)["totals"]
    page = text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "Total " + " ".join(map(str, totals)) in page
