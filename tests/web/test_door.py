"""The door check (companion/door.py): a control character in a path, a code, a token or
a ticket is a 404/400 on every database, never a 500 (PostgreSQL refuses a NUL in text).
Every route of the app is tried, enumerated from its URL map."""

from __future__ import annotations

import pytest
from werkzeug.routing import AnyConverter, IntegerConverter

from .test_tables_api import TablePlayers

BAD = ["\x00", "AB\x00CD", "\x01", "\x1b[2J", "\x7f", "ABC\nDE"]


@pytest.fixture
def door_app(make_app, database):
    return make_app(SQLALCHEMY_DATABASE_URI=database)


def hostile_urls(app, known: str):
    """(method, url) for every route that takes a text argument, each text argument in
    turn holding a control character (the others the ``known`` table's code)."""
    adapter = app.url_map.bind("localhost")
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        fixed = {}  # arguments whose converter takes no text: a value it accepts
        for name, converter in rule._converters.items():
            if isinstance(converter, IntegerConverter):
                fixed[name] = 0
            elif isinstance(converter, AnyConverter):
                fixed[name] = sorted(converter.items)[0]
        texts = [name for name in rule.arguments if name not in fixed]
        for hostile in texts:
            for bad in BAD:
                values = {
                    name: fixed.get(name, bad if name == hostile else known)
                    for name in rule.arguments
                }
                url = adapter.build(rule.endpoint, values, force_external=False)
                for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
                    yield method, url


def test_every_route_refuses_a_control_character_in_its_address(door_app):
    table = TablePlayers(door_app, "shoot", 3).join_all()
    client = door_app.test_client()
    auth = {"Authorization": f"Bearer {table.tokens[0]}"}
    tried = set()
    for method, url in hostile_urls(door_app, table.code):
        tried.add(url.split("/")[1])
        answer = client.open(url, method=method, json={}, headers=auth)
        assert answer.status_code == 404, (method, url, answer.status_code)
    # The routes of both modes and the API were among them.
    assert {"t", "api", "score"} <= tried
    # Nothing changed at the table.
    assert table.get(client, f"/api/tables/{table.code}/view").status_code == 200


@pytest.mark.parametrize("bad", BAD)
def test_a_control_character_in_a_query_token_or_body_is_400(door_app, bad):
    table = TablePlayers(door_app, "shoot", 3)
    client = door_app.test_client()
    for url, name in (
        ("/join", "code"),
        ("/score", "code"),
        (f"/api/tables/{table.code}/view", "x"),
    ):
        answer = client.get(url, query_string={name: bad})
        assert answer.status_code == 400, url
        assert "control character" in answer.get_data(as_text=True)
    view = f"/api/tables/{table.code}/view"
    if "\n" not in bad:  # a header cannot hold a line break at all
        token = f"Bearer {table.host_token}{bad}"
        answer = client.get(view, environ_overrides={"HTTP_AUTHORIZATION": token})
        assert answer.status_code == 400
        assert answer.get_json()["error"] == "The token holds a control character."
    if "\x00" in bad:
        answer = client.post(f"/api/tables/{table.code}/seats", json={"name": f"Ann{bad}"})
        assert answer.status_code == 400
        assert "NUL" in answer.get_json()["error"]
        answer = client.post(f"/api/tables/{table.code}/claim", json={"ticket": bad})
        assert answer.status_code == 400
        answer = client.post("/score/new/shoot", data={"player-0": bad})
        assert answer.status_code == 400
    # Nothing was seated.
    assert client.get(view).get_json()["players"] == [None, None, None]


def test_text_that_only_names_a_nul_is_not_refused(door_app):
    """A JSON text holding a backslash then "u0000" is not a NUL: it reaches its field's
    own check."""
    table = TablePlayers(door_app, "shoot", 3)
    answer = door_app.test_client().post(
        f"/api/tables/{table.code}/seats", json={"name": "\\u0000"}
    )
    assert answer.status_code == 201, answer.get_json()
