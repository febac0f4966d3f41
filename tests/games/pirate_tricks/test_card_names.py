"""A group's own score cards: their names and texts go through the shared cleaner
(companion/names.py), in score mode's form and in Play mode's API, and nothing is stored
when one is refused."""

from __future__ import annotations

import json

import pytest

from companion.extensions import db
from companion.games.errors import IllegalAction
from companion.games.pirate_tricks import rules
from companion.models import ScoreSheet, Table

EFFECTS = [{"kind": "per_captured", "filter": {"suits": "R"}, "loon": 2}]
HOSTILE = ["Gold\x00Rush", "Gold\x07", "\u202eGold", "\u3164", "\u2800", "\u200d"]


def card(name="Gold Rush", text=None) -> dict:
    raw = {"id": "gold_rush", "name": name, "effects": EFFECTS}
    if text is not None:
        raw["text"] = text
    return {"capture": [raw]}


@pytest.mark.parametrize("bad", HOSTILE)
def test_a_hostile_card_name_or_text_is_refused(bad):
    with pytest.raises(IllegalAction, match="Capture card"):
        rules.load_catalog(card(name=bad))
    with pytest.raises(IllegalAction, match="the text"):
        control = any(ord(c) < 32 or c == "\u202e" for c in bad)
        rules.load_catalog(card(text=f"Two loon {bad}" if control else bad))


def test_a_fine_card_is_kept_cleaned():
    catalog = rules.load_catalog(card(name="  Gold   Rush ", text=" Two  loon "))
    found = next(c for c in catalog["capture"] if c["id"] == "gold_rush")
    assert (found["name"], found["text"]) == ("Gold Rush", "Two loon")


@pytest.fixture
def app(make_app):
    return make_app(WTF_CSRF_ENABLED=False)


@pytest.mark.parametrize("bad", ["Gold\x07", "\u202eGold", "\u3164"])
def test_both_modes_refuse_and_store_nothing(app, bad):
    client = app.test_client()
    answer = client.post(
        "/api/tables",
        json={"game": "pirate_tricks", "players": 3, "options": {"catalog": card(name=bad)}},
    )
    assert answer.status_code in (400, 422)
    assert "Capture card" in answer.get_json()["error"]
    data = {"players-0": "Ann", "players-1": "Bo", "players-2": "Cy", "opt_rounds": "0"}
    answer = client.post(
        "/score/new/pirate_tricks", data=data | {"catalog_changes": json.dumps(card(text=bad))}
    )
    assert answer.status_code == 422
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(ScoreSheet.id))) == 0
        assert db.session.scalar(db.select(db.func.count(Table.id))) == 0
