"""Names (companion/names.py): one cleaner for Play mode's seats (the API, the join and
solo forms) and score mode's sheets. Invisible names and bot-like names are refused with
a message, and nothing is stored."""

from __future__ import annotations

import pytest

from companion.extensions import db
from companion.models import ScoreSheet, Seat, Table
from companion.names import BadName, bot_like, clean_name

from .test_score_changes import SLUG, text_of

INVISIBLE = ["\u200d", "\u3164", "\u115f", "\u034f", "\u2800", "\u3164\u3164", " \u2800 ", "..."]
CONTROL = ["Ann\x00", "Ann\x07", "\u202eevil", "a\u2066b"]
BOTS = [
    "Bot",
    "bot",
    "Bot (easy)",
    "BOT (EASY)",
    "Bot 3 (strong)",
    "B0T (normal)",
    "ＢＯＴ",
    "Cat (easy)",
    "Robin · bot",
]
FINE = [
    "Ann",
    "Botond",
    "Abbot",
    "Zoë",
    "海賊",
    "🏴\u200d☠️ Jack",
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",
]


@pytest.mark.parametrize("name", INVISIBLE + CONTROL + BOTS)
def test_the_cleaner_refuses(name):
    with pytest.raises(BadName):
        clean_name(name)


@pytest.mark.parametrize("name", FINE)
def test_the_cleaner_keeps_real_names(name):
    assert clean_name(name) == name
    assert not bot_like(name)


@pytest.fixture
def app(make_app, database):
    return make_app(WTF_CSRF_ENABLED=False, SQLALCHEMY_DATABASE_URI=database)


def counts(app) -> tuple[int, int, int]:
    with app.app_context():
        count = db.func.count
        return (
            db.session.scalar(db.select(count(Seat.id))),
            db.session.scalar(db.select(count(Table.id))),
            db.session.scalar(db.select(count(ScoreSheet.id))),
        )


# Every name the issue (25, item 7) saw accepted, in both modes.
SEEN = ["\u200d", "\u3164", "\u115f", "\u034f", "\u2800", "Bot (easy)", "BOT (EASY)"]


@pytest.mark.parametrize("name", SEEN)
def test_play_mode_refuses_the_name_everywhere_it_enters(app, client, name):
    body = client.post("/api/tables", json={"game": "shoot", "players": 3}).get_json()
    code, host = body["code"], body["host_token"]
    before = counts(app)
    answer = client.post(f"/api/tables/{code}/seats", json={"name": name})
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert "shows" in error or "bots" in error
    # A seat taken by a phone, then asked for under that name.
    ann = client.post(f"/api/tables/{code}/seats", json={"name": "Ann", "seat": 0}).get_json()
    before = counts(app)
    asked = client.post(f"/api/tables/{code}/seats/0/requests", json={"name": name})
    assert asked.status_code == 400, asked.get_json()
    assert counts(app) == before
    # Solo: the form answers with the message and starts nothing.
    answer = client.post("/play/shoot/solo", data={"name": name, "level": "easy"})
    assert answer.status_code == 422
    assert "shows" in text_of(answer) or "bots" in text_of(answer)
    assert counts(app) == before
    assert ann["seat"] == 0 and host


@pytest.mark.parametrize("name", SEEN)
def test_score_mode_refuses_the_name(high_card, app, client, name):
    data = {"players-0": "Ada", "players-1": name, "opt_cards": "3", "opt_target": "99"}
    answer = client.post(f"/score/new/{SLUG}", data=data)
    assert answer.status_code == 422
    assert "shows" in text_of(answer) or "bots" in text_of(answer)
    assert counts(app)[2] == 0


def test_a_bot_still_gets_its_own_name(app, client):
    answer = client.post("/play/shoot/solo", data={"name": "Ann", "level": "easy", "players": "3"})
    assert answer.status_code == 303
    with app.app_context():
        names = sorted(db.session.scalars(db.select(Seat.name)))
    assert names == ["Ann", "Juno · bot", "Milo · bot"]
