"""Entries sent again (issue 27): a phone keeps each entry until the server answers and
sends it with its id as the Idempotency-Key. An entry whose answer was lost and that is
sent again is recognised — answered as saved, never "changed on another phone", never
stored twice — for a whole round, a step and a correction; an entry kept on a phone while
another phone added rounds is added after them (every entry kept, the log shows both). The
retry racing its first send is tested on SQLite and PostgreSQL."""

from __future__ import annotations

from functools import partial

import pytest

from companion.extensions import db
from companion.models import ScoreRequest

from .steps import pending
from .test_score_changes import add, at_once, changes, edit, new_sheet, race_app, rows  # noqa: F401

KEY = {"Idempotency-Key": "000001764641234567-abc123"}


@pytest.fixture
def app(make_app, high_card):
    return make_app(WTF_CSRF_ENABLED=False)


def add_kept(client, code, tricks, position, key=KEY):
    data = {f"tricks-{i}": str(n) for i, n in enumerate(tricks)} | {"position": str(position)}
    return client.post(f"/score/{code}/rounds", data=data, headers=key)


def test_a_round_sent_again_is_recognised_not_a_conflict(app, client):
    code = new_sheet(client, ["Ada", "Bo"])
    first = add_kept(client, code, [2, 1], 0)
    assert first.status_code == 302
    again = add_kept(client, code, [2, 1], 0)  # the answer was lost: sent again
    assert again.status_code == 302
    assert again.headers["Location"] == first.headers["Location"]
    page = client.get(again.headers["Location"]).get_data(as_text=True)
    assert "changed on another phone" not in page
    assert rows(app, code) == [{"tricks": [2, 1]}]
    assert changes(app, code) == [("hand 1 added", False)]


def test_without_a_key_a_stale_round_is_still_refused(app, client):
    code = new_sheet(client, ["Ada", "Bo"])
    assert add(client, code, [2, 1], 0).status_code == 302
    assert add(client, code, [2, 1], 0).status_code == 409
    assert rows(app, code) == [{"tricks": [2, 1]}]


def test_a_kept_round_is_added_after_another_phones(app, client):
    code = new_sheet(client, ["Ada", "Bo"])
    other = app.test_client()
    assert add(other, code, [3, 0], 0).status_code == 302  # the phone that stayed online
    kept = add_kept(client, code, [1, 2], 0)  # made offline, for what was then round 1
    assert kept.status_code == 302
    assert rows(app, code) == [{"tricks": [3, 0]}, {"tricks": [1, 2]}]
    assert changes(app, code) == [("hand 1 added", False), ("hand 2 added", False)]


def test_a_correction_sent_again_is_recognised(app, client):
    code = new_sheet(client, ["Ada", "Bo"])
    assert add(client, code, [2, 1], 0).status_code == 302
    data = {"tricks-0": "0", "tricks-1": "3", "position": "0"}
    from companion.scorekeeper.rounds import fingerprint

    data["version"] = fingerprint(0, {"tricks": [2, 1]})
    path = f"/score/{code}/rounds/1/edit"
    assert client.post(path, data=data, headers=KEY).status_code == 302
    again = client.post(path, data=data, headers=KEY)  # its version is stale now
    assert again.status_code == 302
    assert rows(app, code) == [{"tricks": [0, 3]}]
    assert changes(app, code) == [("hand 1 added", False), ("hand 1 corrected", False)]


def test_a_step_sent_again_is_recognised(make_app, client):
    from .test_score_changes import new_sheet as make

    app = make_app(WTF_CSRF_ENABLED=False)
    client = app.test_client()
    code = make(client, ["Ann", "Bo", "Cy"], game="shoot", opt_schedule="0", opt_dealer="0")
    html = client.get(f"/score/{code}").get_data(as_text=True)
    from .pages import input_value

    data = {
        "step-position": input_value(html, "step-position"),
        "step-version": input_value(html, "step-version"),
        **{f"step-bids-{i}": "1" for i in range(3)},
    }
    assert client.post(f"/score/{code}/steps/bids", data=data, headers=KEY).status_code == 302
    again = client.post(f"/score/{code}/steps/bids", data=data, headers=KEY)
    assert again.status_code == 302
    assert "changed on another phone" not in client.get(again.headers["Location"]).get_data(
        as_text=True
    )
    assert pending(app, code)["done"] == ["bids"]


@pytest.mark.parametrize("header", ["short", "x" * 65, "has space in it", "ünïcode-key-1"])
def test_a_key_that_is_not_one_is_refused_and_changes_nothing(app, client, header):
    code = new_sheet(client, ["Ada", "Bo"])
    sent = add_kept(client, code, [2, 1], 0, {"Idempotency-Key": header.encode().decode("latin-1")})
    assert sent.status_code == 400
    assert "not one this app makes" in sent.get_data(as_text=True)
    assert rows(app, code) == []
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(ScoreRequest.id))) == 0


def kept_status(client, code, key) -> int:
    return add_kept(client, code, [2, 1], 0, key).status_code


def test_a_retry_racing_its_first_send_adds_the_round_once(race_app):  # noqa: F811
    app = race_app
    client = app.test_client()
    for attempt in range(5):
        code = new_sheet(client, ["Ada", "Bo"])
        key = {"Idempotency-Key": f"race-{attempt:04d}-abcdef"}
        phones = [app.test_client() for _ in range(6)]
        answers = at_once([partial(kept_status, p, code, key) for p in phones])
        assert answers == [302] * 6, answers
        assert rows(app, code) == [{"tricks": [2, 1]}]
        assert changes(app, code) == [("hand 1 added", False)]
