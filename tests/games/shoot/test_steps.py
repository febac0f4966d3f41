"""Shoot! entered in the table's rhythm: each deal's bids saved when they are shouted (the
page reloaded in between), then the tricks, which add the deal; a saved step corrected;
bad bids refused at their box with nothing saved; a stale step form refused (409)."""

from __future__ import annotations

import pytest

from companion.games import GAMES

from ...web.pages import input_value, message_at, messages, new_sheet, stored_sheet, visible_text
from ...web.steps import pending, post_step

FORM_DEFAULTS = {"opt_schedule": "0", "opt_dealer": "0"}
NAMES = ["Ada", "Bea", "Cy"]
DEALS = [
    ([3, 3, 4], [3, 3, 4]),  # 10 cards, all exact
    ([2, 0, 4], [5, 0, 4]),  # 9 cards
]


@pytest.fixture
def app(make_app):
    return make_app(WTF_CSRF_ENABLED=False)


def step(client, code, name, values, html):
    return post_step(client, code, name, {f"{name}-{i}": v for i, v in enumerate(values)}, html)


def test_bids_first_then_tricks_adds_each_deal(app, client):
    code = new_sheet(client, "shoot", NAMES, FORM_DEFAULTS)
    html = client.get(f"/score/{code}").get_data(as_text=True)
    assert "Deal 1: enter the bids — Ada deals, 10 cards each" in visible_text(html)
    # Steppers start from 0: every bid box of the step is prefilled.
    assert [input_value(html, f"step-bids-{i}") for i in range(3)] == ["0", "0", "0"]
    for number, (bids, tricks) in enumerate(DEALS, start=1):
        saved = step(client, code, "bids", bids, html)
        assert saved.status_code == 302
        assert stored_sheet(app, code)[2] == [
            {"bids": b, "tricks": t} for b, t in DEALS[: number - 1]
        ]
        assert pending(app, code)["boxes"] == {f"bids-{i}": str(b) for i, b in enumerate(bids)}
        html = client.get(f"/score/{code}").get_data(as_text=True)  # the page reloaded
        text = visible_text(html)
        assert f"Deal {number}: enter the tricks" in text
        assert "Bids: Ada " + str(bids[0]) in text
        added = step(client, code, "tricks", tricks, html)
        assert added.status_code == 302, messages(added.get_data(as_text=True))
        html = client.get(f"/score/{code}").get_data(as_text=True)
        assert pending(app, code) is None
    rows = stored_sheet(app, code)[2]
    assert rows == [{"bids": b, "tricks": t} for b, t in DEALS]
    keeper = GAMES["shoot"].sheet(NAMES, stored_sheet(app, code)[1])
    # 3 tricks + 5 exact; 5 tricks - 5 missed (bid 2); and so on.
    assert keeper.summary(rows)["totals"] == [8 + 0, 8 + 5, 9 + 9]
    assert "Deal 3: enter the bids — Cy deals, 8 cards each" in visible_text(html)


def test_a_saved_step_is_corrected_and_a_bad_one_changes_nothing(app, client):
    code = new_sheet(client, "shoot", NAMES, FORM_DEFAULTS)
    html = client.get(f"/score/{code}").get_data(as_text=True)
    step(client, code, "bids", [1, 2, 3], html)
    html = client.get(f"/score/{code}?step=bids").get_data(as_text=True)
    assert input_value(html, "step-bids-2") == "3"  # the saved bids, to correct
    refused = step(client, code, "bids", [1, 11, 3], html)
    assert refused.status_code == 422
    assert message_at(refused.get_data(as_text=True), "step-bids-1") == (
        "Deal 1: Bea's bid must be from 0 to 10 (each hand has 10 cards)."
    )
    assert pending(app, code)["boxes"]["bids-1"] == "2"
    assert step(client, code, "bids", [1, 2, 4], html).status_code == 302
    assert pending(app, code)["done"] == ["bids"]
    assert pending(app, code)["boxes"]["bids-2"] == "4"
    html = client.get(f"/score/{code}").get_data(as_text=True)
    refused = step(client, code, "tricks", [3, 3, 3], html)
    assert refused.status_code == 422
    assert any(
        "the tricks add up to 9, but 10" in m for m in messages(refused.get_data(as_text=True))
    )
    assert stored_sheet(app, code)[2] == []


def test_a_stale_step_form_is_refused(app, client):
    code = new_sheet(client, "shoot", NAMES, FORM_DEFAULTS)
    html = client.get(f"/score/{code}").get_data(as_text=True)
    assert step(client, code, "bids", [1, 2, 3], html).status_code == 302
    # A second phone still showing the empty deal sends other bids.
    late = step(client, code, "bids", [0, 0, 0], html)
    assert late.status_code == 409
    assert "changed on another phone" in " ".join(messages(late.get_data(as_text=True)))
    assert pending(app, code)["boxes"]["bids-2"] == "3"


def test_a_round_in_progress_can_be_cleared(app, client):
    code = new_sheet(client, "shoot", NAMES, FORM_DEFAULTS)
    html = client.get(f"/score/{code}").get_data(as_text=True)
    step(client, code, "bids", [1, 2, 3], html)
    assert client.post(f"/score/{code}/steps", data={}).status_code == 302
    assert pending(app, code) is None
    assert "Deal 1: enter the bids" in visible_text(
        client.get(f"/score/{code}").get_data(as_text=True)
    )


def test_steps_of_an_unknown_name_or_after_the_end_are_refused(app, client):
    code = new_sheet(
        client,
        "shoot",
        NAMES,
        {**FORM_DEFAULTS, "opt_schedule": "other", "opt_schedule_other": "1"},
    )
    html = client.get(f"/score/{code}").get_data(as_text=True)
    assert step(client, code, "guesses", [0, 0, 0], html).status_code == 404
    step(client, code, "bids", [1, 0, 0], html)
    html = client.get(f"/score/{code}").get_data(as_text=True)
    assert step(client, code, "tricks", [1, 0, 0], html).status_code == 302
    late = step(client, code, "bids", [0, 0, 0], html)
    assert late.status_code == 409
    assert "This game is over" in late.get_data(as_text=True)
    assert len(stored_sheet(app, code)[2]) == 1


def test_steps_on_postgresql(make_app, postgres_url):
    """The round in progress stored and read back on PostgreSQL (the migration's JSON
    column), then completed."""
    from companion.config import normalise_database_url

    app = make_app(
        SQLALCHEMY_DATABASE_URI=normalise_database_url(postgres_url), WTF_CSRF_ENABLED=False
    )
    client = app.test_client()
    code = new_sheet(client, "shoot", NAMES, FORM_DEFAULTS)
    html = client.get(f"/score/{code}").get_data(as_text=True)
    assert step(client, code, "bids", [3, 3, 4], html).status_code == 302
    assert pending(app, code) == {
        "position": 0,
        "done": ["bids"],
        "boxes": {"bids-0": "3", "bids-1": "3", "bids-2": "4"},
    }
    html = client.get(f"/score/{code}").get_data(as_text=True)
    assert step(client, code, "tricks", [3, 3, 4], html).status_code == 302
    assert pending(app, code) is None
    assert stored_sheet(app, code)[2] == [{"bids": [3, 3, 4], "tricks": [3, 3, 4]}]
