"""Shoot!'s web pages: the score sheet kept from the bids and tricks entered (every figure
cross-checked against ShootSheet; refused input explained next to its box, nothing
stored; stale forms refused with 409; edit, delete and undo), and the Play form's options.
"""

from __future__ import annotations

import pytest

from companion.extensions import db
from companion.games import GAMES
from companion.games.shoot.spec import UP_AND_DOWN
from companion.games.spec import SCORE, check_options
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
from ...web.pages import (
    stored_summary as summary,
)

SPEC = GAMES["shoot"].spec

# What a browser sends for the options left as they are on the new-sheet form: the first
# schedule preset (10 down to 1), the first player listed deals, no chips (unticked).
FORM_DEFAULTS = {"opt_schedule": "0", "opt_dealer": "0"}

DEALS = [
    ([3, 3, 4], [3, 3, 4]),  # 10 cards, all exact
    ([2, 0, 4], [5, 0, 4]),  # 9 cards
    ([1, 1, 1], [0, 8, 0]),  # 8 cards
]


@pytest.fixture
def app(make_app):
    return make_app(WTF_CSRF_ENABLED=False)


def start(client, names, **fields) -> str:
    return new_sheet(client, "shoot", names, FORM_DEFAULTS | fields)


def deal(bids, tricks, position):
    data = {"position": str(position)}
    data.update({f"bids-{i}": str(b) for i, b in enumerate(bids)})
    data.update({f"tricks-{i}": str(t) for i, t in enumerate(tricks)})
    return data


def set_schedule(app, code, schedule):
    with app.app_context():
        sheet = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == code))
        sheet.options = check_options(SPEC, 2, {"schedule": schedule}, SCORE)
        db.session.commit()


# -- the new-sheet form ---------------------------------------------------------------------


def test_the_new_sheet_form_offers_the_schedules_chips_and_the_first_dealer(client):
    answer = client.get("/score/new/shoot")
    html, text = answer.get_data(as_text=True), page(answer).text
    for words in ("10 cards down to 1 (10 deals)", "1 card up to 10 and back down to 1"):
        assert words in text
    assert "Play for chips" in text and "First dealer" in text
    assert 'name="players-4"' in html and 'name="players-5"' not in html
    assert 'name="opt_dealer"' in html and "the 5th player listed" in text


def test_names_trimmed_options_checked_and_the_first_dealer_shown(app, client):
    code = start(client, ["  Ann  ", "Bo   Lee", "", "Cy", ""], opt_dealer="2")
    players, options, rows = stored_sheet(app, code)
    assert players == ["Ann", "Bo Lee", "Cy"]
    assert options == check_options(SPEC, 3, {"dealer": 2}, SCORE)
    assert rows == []
    text = visible_text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "Next: deal 1 of 10 · 10 cards each · Cy deals." in text


def test_up_and_down_schedule_and_chips(app, client):
    code = start(client, ["Ann", "Bo"], opt_schedule="1", opt_chips="y")
    _, options, _ = stored_sheet(app, code)
    assert options["schedule"] == UP_AND_DOWN and options["chips"] is True
    text = visible_text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "19 deals" in text and "1 card each" in text and "Chips — pot 100" in text


def test_a_schedule_of_its_own(app, client):
    code = start(client, ["Ann", "Bo"], opt_schedule="other", opt_schedule_other="3, 2,1")
    assert stored_sheet(app, code)[1]["schedule"] == [3, 2, 1]
    text = visible_text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "3 deals (3, 2, 1 cards)" in text


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"opt_schedule": "other", "opt_schedule_other": ""}, "Hand sizes: write the numbers."),
        ({"opt_schedule": "other", "opt_schedule_other": "3, x"}, "whole numbers separated"),
        ({"opt_schedule": "other", "opt_schedule_other": "20"}, "each hand holds 1 to 17 cards"),
        ({"opt_dealer": "3"}, "First dealer: choose one of the players listed."),
    ],
)
def test_bad_options_are_explained_and_store_nothing(app, client, fields, words):
    data = {"players-0": "Ann", "players-1": "Bo", "players-2": "Cy", **FORM_DEFAULTS, **fields}
    answer = client.post("/score/new/shoot", data=data)
    assert answer.status_code == 422
    assert any(words in m for m in messages(answer.get_data(as_text=True))), messages(
        answer.get_data(as_text=True)
    )
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(ScoreSheet.id))) == 0


# -- deals ------------------------------------------------------------------------------------


def test_totals_dealers_and_hand_sizes_match_the_sheet(app, client):
    names = ["Ann", "Bo", "Cy"]
    code = start(client, names, opt_dealer="1")
    for position, (bids, tricks) in enumerate(DEALS):
        assert add(client, code, deal(bids, tricks, position)).status_code == 302
    _, _, rows = stored_sheet(app, code)
    assert rows == [{"bids": b, "tricks": t} for b, t in DEALS]
    expected = summary(app, code)
    text = visible_text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "Total " + " ".join(map(str, expected["totals"])) in text
    for row in expected["rows"]:
        cells = " ".join(
            f"bid {b}, took {t} {p:+d} {total}"
            for b, t, p, total in zip(
                row["bids"], row["tricks"], row["points"], row["totals"], strict=True
            )
        )
        dealt = f"{row['cards']} cards · {names[row['dealer']]} dealt"
        number = row["deal"]
        # The grid: the number (a tap opens the rest), the cells, then the detail line.
        assert f"{number} {cells} {dealt} Edit deal {number} Delete deal {number}" in text
    nxt = expected["next"]
    assert f"Next: deal 4 of 10 · {nxt['cards']} cards each · {names[nxt['dealer']]} deals." in (
        text
    )
    # The form of the next deal says its hand size and bounds its boxes by it.
    html = client.get(f"/score/{code}").get_data(as_text=True)
    assert "7 cards each, Bo deals. Bids are 0 to 7; the tricks must add up to 7." in (
        visible_text(html)
    )
    assert 'data-tricks-total="7"' in html and 'max="7"' in html


def test_game_over_shows_the_winner_and_no_entry_form(app, client):
    code = start(client, ["Ann", "Bo"])
    set_schedule(app, code, [2, 1])
    assert add(client, code, deal([1, 1], [1, 1], 0)).status_code == 302
    assert add(client, code, deal([0, 1], [0, 1], 1)).status_code == 302
    html = client.get(f"/score/{code}").get_data(as_text=True)
    # Ann 6 + 5 = 11, Bo 6 + 6 = 12
    assert "Winner: Bo with 12 points." in visible_text(html)
    assert f'action="/score/{code}/rounds' not in html
    late = add(client, code, deal([0, 1], [0, 1], 2))
    assert late.status_code == 422
    assert "This game has only 2 deals." in messages(late.get_data(as_text=True))
    assert len(stored_sheet(app, code)[2]) == 2


def test_a_shared_win_names_both(app, client):
    code = start(client, ["Ann", "Bo"])
    set_schedule(app, code, [2])
    assert add(client, code, deal([1, 1], [1, 1], 0)).status_code == 302  # 6 each
    text = visible_text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "Shared win: Ann, Bo with 6 points." in text


@pytest.mark.parametrize(
    ("bids", "tricks", "field", "message"),
    [
        ([3, 3, 4], [3, 3, 3], None, "Deal 1: the tricks add up to 9, but 10 tricks were played."),
        ([11, 3, 4], [3, 3, 4], "bids-0", "Ann's bid must be a whole number from 0 to 10"),
        ([3, -1, 4], [3, 3, 4], "bids-1", "Bo's bid must be a whole number from 0 to 10"),
        ([3, 3, 4], [3, 3, 12], "tricks-2", "Cy's tricks must be a whole number from 0 to 10"),
        (["x", 3, 4], [3, 3, 4], "bids-0", "Ann's bid: enter a whole number."),
        ([3, 3, 4], [3, "", 4], "tricks-1", "Enter Bo's tricks."),
    ],
)
def test_a_bad_deal_is_refused_next_to_the_box_and_nothing_stored(
    app, client, bids, tricks, field, message
):
    code = start(client, ["Ann", "Bo", "Cy"])
    response = add(client, code, deal(bids, tricks, 0))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    if field:
        assert message in (message_at(html, field) or "")
        assert f'id="{field}"' in html and 'aria-invalid="true"' in html
    else:
        assert message in messages(html)
    assert stored_sheet(app, code)[2] == []
    # What was typed is still in the form, to be corrected.
    assert input_value(html, "bids-2") == str(bids[2])
    assert input_value(html, "tricks-0") == str(tricks[0])


def test_a_stale_delete_is_refused(app, client):
    code = start(client, ["Ann", "Bo", "Cy"])
    add(client, code, deal([3, 3, 4], [3, 3, 4], 0))
    confirm = client.get(f"/score/{code}/rounds/1/delete").get_data(as_text=True)
    edit = client.get(f"/score/{code}/rounds/1/edit").get_data(as_text=True)
    data = deal([3, 3, 3], [3, 3, 4], 0) | {"version": input_value(edit, "version")}
    assert client.post(f"/score/{code}/rounds/1/edit", data=data).status_code == 302
    # The confirmation was shown before the correction: refused, the round is kept.
    data = {"position": "0", "version": input_value(confirm, "version")}
    response = client.post(f"/score/{code}/rounds/1/delete", data=data)
    assert response.status_code == 409
    assert "changed on another phone" in visible_text(response.get_data(as_text=True))
    assert stored_sheet(app, code)[2] == [{"bids": [3, 3, 3], "tricks": [3, 3, 4]}]


def test_edit_delete_and_undo(app, client):
    code = start(client, ["Ann", "Bo", "Cy"])
    for position, (bids, tricks) in enumerate(DEALS):
        add(client, code, deal(bids, tricks, position))
    # Edit deal 2: the form shows the stored facts and carries position and version.
    edit = client.get(f"/score/{code}/rounds/2/edit").get_data(as_text=True)
    assert input_value(edit, "bids-0") == "2" and input_value(edit, "tricks-0") == "5"
    assert "9 cards each, Bo deals." in visible_text(edit)
    version = input_value(edit, "version")
    data = deal([5, 0, 4], [5, 0, 4], 1) | {"version": version}
    assert client.post(f"/score/{code}/rounds/2/edit", data=data).status_code == 302
    rows = stored_sheet(app, code)[2]
    assert rows[1] == {"bids": [5, 0, 4], "tricks": [5, 0, 4]}
    text = visible_text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "Total " + " ".join(map(str, summary(app, code)["totals"])) in text
    # The old form is now stale: refused, and the current facts are shown.
    stale = client.post(
        f"/score/{code}/rounds/2/edit", data=deal([2, 0, 4], [5, 0, 4], 1) | {"version": version}
    )
    assert stale.status_code == 409
    stale_html = stale.get_data(as_text=True)
    assert any("changed on another phone" in m for m in messages(stale_html))
    assert input_value(stale_html, "bids-0") == "5"
    assert stored_sheet(app, code)[2][1] == {"bids": [5, 0, 4], "tricks": [5, 0, 4]}
    # An edit the rules refuse stores nothing.
    bad = client.post(
        f"/score/{code}/rounds/2/edit",
        data=deal([5, 0, 4], [5, 0, 3], 1) | {"version": input_value(stale_html, "version")},
    )
    assert bad.status_code == 422
    assert "Deal 2: the tricks add up to 8, but 9 tricks were played." in messages(
        bad.get_data(as_text=True)
    )
    assert stored_sheet(app, code)[2][1] == {"bids": [5, 0, 4], "tricks": [5, 0, 4]}
    # Deleting deal 1 would move a 9-card deal into the 10-card slot: refused with the reason.
    response = delete_round(client, code, 1)
    assert response.status_code == 422
    assert "the tricks add up to" in visible_text(response.get_data(as_text=True))
    assert len(stored_sheet(app, code)[2]) == 3
    # Deleting the last deal works.
    assert delete_round(client, code, 3).status_code == 302
    assert len(stored_sheet(app, code)[2]) == 2
    # Undo reverts the last change (the deletion): deal 3 is back; the same undo form
    # again, now stale, changes nothing.
    sheet_html = client.get(f"/score/{code}").get_data(as_text=True)
    assert change_offered(sheet_html, code)[0] == "deal 3 deleted"
    undo = {"change": change_offered(sheet_html, code)[1]}
    assert client.post(f"/score/{code}/undo", data=undo).status_code == 302
    assert stored_sheet(app, code)[2][2] == {"bids": [1, 1, 1], "tricks": [0, 8, 0]}
    assert "Undone: deal 3 deleted." in visible_text(
        client.get(f"/score/{code}").get_data(as_text=True)
    )
    stale = client.post(f"/score/{code}/undo", data=undo)
    assert stale.status_code == 409
    assert "nothing was undone" in visible_text(stale.get_data(as_text=True))
    assert len(stored_sheet(app, code)[2]) == 3
    # The next undo takes the correction of deal 2 back.
    assert press_change(client, code).status_code == 302
    assert stored_sheet(app, code)[2][1] == {"bids": [2, 0, 4], "tricks": [5, 0, 4]}


def test_an_add_from_a_stale_page_is_refused(app, client):
    code = start(client, ["Ann", "Bo", "Cy"])
    assert add(client, code, deal([3, 3, 4], [3, 3, 4], 0)).status_code == 302
    # A second phone still showing the empty sheet sends its deal 1: refused, not stored
    # as deal 2.
    response = add(client, code, deal([3, 3, 4], [3, 3, 4], 0))
    assert response.status_code == 409
    assert any("changed on another phone" in m for m in messages(response.get_data(as_text=True)))
    assert len(stored_sheet(app, code)[2]) == 1


def test_a_hostile_name_is_shown_as_text_everywhere(client):
    evil = '<script>alert(1)</script>"'[:24]
    code = start(client, [evil, "Bo"])
    add(client, code, deal([5, 5], [5, 5], 0))
    pages = [
        client.get(f"/score/{code}"),
        client.get("/score"),
        client.get(f"/score/{code}/rounds/1/edit"),
        client.get(f"/score/{code}/rounds/1/delete"),
        add(client, code, deal([0, 0], [0, 0], 1)),  # refused: the message names the player
    ]
    for response in pages:
        html = response.get_data(as_text=True)
        assert "<script>alert" not in html
        assert "&lt;script&gt;alert(1)" in html


def test_a_sheet_on_postgresql(make_app, postgres_url):
    """The same pages on PostgreSQL (row locks, JSON facts updated in place)."""
    from companion.config import normalise_database_url

    app = make_app(
        SQLALCHEMY_DATABASE_URI=normalise_database_url(postgres_url), WTF_CSRF_ENABLED=False
    )
    client = app.test_client()
    code = start(client, ["Ann", "Bo", "Cy"])
    for position, (bids, tricks) in enumerate(DEALS):
        assert add(client, code, deal(bids, tricks, position)).status_code == 302
    edit = client.get(f"/score/{code}/rounds/1/edit").get_data(as_text=True)
    data = deal([0, 3, 4], [3, 3, 4], 0) | {"version": input_value(edit, "version")}
    assert client.post(f"/score/{code}/rounds/1/edit", data=data).status_code == 302
    assert delete_round(client, code, 3).status_code == 302
    assert stored_sheet(app, code)[2] == [
        {"bids": [0, 3, 4], "tricks": [3, 3, 4]},
        {"bids": [2, 0, 4], "tricks": [5, 0, 4]},
    ]
    text = visible_text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "Total " + " ".join(map(str, summary(app, code)["totals"])) in text


# -- Play: the new-table form -----------------------------------------------------------------


def test_the_new_table_form_offers_the_play_options(client):
    answer = client.get("/play/shoot")
    html, text = answer.get_data(as_text=True), page(answer).text
    assert "10 cards down to 1 (10 deals)" in text and "Play for chips" in text
    assert "The rules' default" in text
    assert "opt_dealer" not in html  # a score-mode option only


@pytest.mark.parametrize(
    ("fields", "options"),
    [
        ({}, {"schedule": list(range(10, 0, -1)), "chips": False}),
        ({"opt_schedule": "1", "opt_chips": "yes"}, {"schedule": UP_AND_DOWN, "chips": True}),
        ({"opt_schedule": "other", "opt_schedule_other": "3,2,1"}, {"schedule": [3, 2, 1]}),
    ],
)
def test_a_table_starts_with_the_options_chosen(app, client, fields, options):
    answer = client.post("/play/shoot", data={"players": "3", **fields})
    assert answer.status_code == 303, page(answer).text
    with app.app_context():
        table = db.session.scalar(db.select(Table))
        assert table.players == 3
        assert {k: table.options[k] for k in options} == options


def test_a_schedule_the_engine_refuses_is_explained_on_the_form(app, client):
    answer = client.post(
        "/play/shoot", data={"players": "5", "opt_schedule": "other", "opt_schedule_other": "11"}
    )
    assert answer.status_code == 422
    assert "with 5 players each hand holds 1 to 10 cards" in page(answer).text
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Table)) == 0
