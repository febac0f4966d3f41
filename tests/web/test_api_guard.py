"""Hostile bodies on every POST route of the JSON API: wrong types, deep nesting, unknown
fields, huge bodies. Each is answered 400 (413 for the huge one) with the API's JSON error,
and the table is left exactly as it was."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion.extensions import db
from companion.games import GAMES
from companion.models import Ticket
from companion.tables import guard

from .test_tables_api import TablePlayers

DEEP = "[" * 10_000 + "]" * 10_000

# What each declared field is sent instead of a value of its type.
WRONG = {
    guard.whole: [True, False, 1.5, 1.0, "3", [], {}, None],
    guard.optional_whole: [True, 1.5, 1.0, "3", [], {}],
    guard.text: [True, 1.5, 3, [], {}, None],
    guard.optional_text: [True, 1.5, 3, [], {}],
    guard.obj: [True, 1.5, 3, "3", []],
    guard.optional_obj: [True, 1.5, 3, "3", []],
    guard.optional_levels: [True, 1.5, 3, "3", {}, [3], [True], [["easy"]]],
    guard.options: [True, 1.5, 3, "3", []],
    guard.action: [
        True,
        1.5,
        3,
        "3",
        [],
        {"type": "bid", "bid": True},
        {"type": "bid", "bid": 1.0},
        {"type": "bid", "bid": None},
    ],
}


def legal_actions_of_random_games(slug: str, games: int = 2):
    """Every legal action offered along a few random games at each player count."""
    game = GAMES[slug]
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(games):
            state = game.new_state(players, {}, seed=seed)
            rng = random.Random(seed)
            for _ in range(5_000):
                if state.is_over():
                    break
                seat = rng.choice(state.to_act())
                legal = state.legal_actions(seat)
                yield from legal
                state.apply(seat, rng.choice(legal))


def scalars(value: Any):
    if isinstance(value, dict):
        for item in value.values():
            yield from scalars(item)
    elif isinstance(value, list):
        for item in value:
            yield from scalars(item)
    else:
        yield value


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_no_legal_action_of_any_game_holds_a_bool_a_float_or_null(slug):
    """The guard refuses booleans, fractions and null inside an action: no game offers one,
    so no legal move is ever refused by it."""
    seen = 0
    for action in legal_actions_of_random_games(slug):
        for value in scalars(action):
            assert isinstance(value, str) or guard.is_whole(value), (slug, action)
        guard.action("action", action, {})  # accepted as it is
        seen += 1
    assert seen > 50


def test_every_post_route_of_the_api_declares_its_fields(app):
    posts = {
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/") and "POST" in (rule.methods or ())
    }
    assert posts == set(guard.FIELDS)


@pytest.fixture
def seated(app):
    """A Shoot! table of three, all seated and the game started, with one pending request
    for a seat (so every route has something to act on)."""
    table = TablePlayers(app, "shoot", 3).join_all()
    asker = app.test_client()
    asked = table.post(asker, f"/api/tables/{table.code}/seats/1/requests", {"name": "Zed"})
    assert asked.status_code == 201
    table.request_id = asked.get_json()["request"]["id"]
    return table


def urls(app, table) -> dict[str, str]:
    """A real URL for every POST route of the API, on ``table``."""
    out = {}
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/") or "POST" not in (rule.methods or ()):
            continue
        values = {"code": table.code, "seat": 0, "request_id": table.request_id}
        values["answer"] = "approve"
        with app.test_request_context():
            from flask import url_for

            args = {k: v for k, v in values.items() if k in rule.arguments}
            out[rule.endpoint] = url_for(rule.endpoint, **args)
    return out


def everything(app, table) -> tuple:
    with app.app_context():
        tickets = db.session.scalar(db.select(db.func.count()).select_from(Ticket))
    return table.snapshot(), tickets


def bodies_for(endpoint: str) -> list[tuple[str, str]]:
    """(description, raw JSON) of the hostile bodies for one route."""
    out = [
        ("deep", DEEP),
        ("deep inside an object", '{"version": ' + DEEP + "}"),
        ("a list", "[]"),
        ("text", '"3"'),
        ("a number", "1.5"),
        ("true", "true"),
        ("null", "null"),
        ("broken", '{"version": '),
        ("unknown field", json.dumps({"param": True})),
    ]
    valid = {
        "game": "shoot",
        "players": 3,
        "name": "Zed",
        "version": 0,
        "ticket": "x" * 43,
        "action": {"type": "bid", "bid": 1},
    }
    for name, check in guard.FIELDS[endpoint].items():
        for wrong in WRONG[check]:
            body = {k: valid[k] for k in guard.FIELDS[endpoint] if k in valid}
            body[name] = wrong
            out.append((f"{name}={wrong!r}", json.dumps(body)))
    return out


def test_every_api_route_refuses_hostile_bodies_and_changes_nothing(app, seated):
    routes = urls(app, seated)
    tokens = {"host": seated.host_token, "seat": seated.tokens[0]}
    before = everything(app, seated)
    tried = 0
    for endpoint, url in sorted(routes.items()):
        for description, raw in bodies_for(endpoint):
            for token in tokens.values():
                answer = seated.host.post(
                    url,
                    data=raw,
                    content_type="application/json",
                    headers={"Authorization": f"Bearer {token}"},
                )
                where = f"{endpoint} {description}"
                assert answer.status_code == 400, (where, answer.get_data(as_text=True))
                body = answer.get_json()
                assert set(body) == {"error", "status"} and body["status"] == 400, where
                assert body["error"], where
                tried += 1
    assert tried > 200
    assert everything(app, seated) == before


def test_a_bid_of_true_or_one_point_oh_is_refused_where_one_is_legal(seated):
    seat = seated.envelope(None)["to_act"][0]
    env = seated.envelope(seat)
    legal = next(a for a in env["legal"] if any(guard.is_whole(v) for v in a.values()))
    key = next(k for k, v in legal.items() if guard.is_whole(v))
    before = seated.snapshot()
    for fake in (True, float(legal[key])):
        answer = seated.act(seat, {**legal, key: fake}, env["version"])
        assert answer.status_code == 400
        assert "whole numbers" in answer.get_json()["error"]
    assert seated.snapshot() == before
    assert seated.act(seat, legal, env["version"]).status_code == 200


@pytest.mark.parametrize(
    "game, options, words",
    [
        ("shoot", {"chips": 1}, "true or false"),
        ("shoot", {"schedule": [3, 2.0, 1]}, "whole numbers"),
        ("shoot", {"dealer": True}, "whole number"),
        ("pull", {"goal": "200"}, "whole number"),
        ("pull", {"goal": 200.0}, "whole number"),
    ],
)
def test_options_of_the_wrong_type_are_400(client, game, options, words):
    body = {"game": game, "players": GAMES[game].min_players, "options": options}
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 400
    assert words in answer.get_json()["error"]


def test_nesting_is_counted_outside_strings_only():
    assert not guard.too_deep(b'{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}')
    assert not guard.too_deep(json.dumps({"a": '\\"[[[[' * 50}).encode())
    assert guard.too_deep(b"[" * 17 + b"]" * 17)
    assert not guard.too_deep(b"[" * 16 + b"]" * 16)


def test_a_body_over_the_size_limit_is_413_json(app, seated):
    url = f"/api/tables/{seated.code}/seats"
    raw = json.dumps({"name": "x" * (app.config["MAX_CONTENT_LENGTH"] + 10)})
    answer = seated.host.post(url, data=raw, content_type="application/json")
    assert answer.status_code == 413
    assert set(answer.get_json()) == {"error", "status"}
