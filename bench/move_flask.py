"""Flask's share of a move POST, in CPU time: the real app called as WSGI (no server, no
socket), with the rate limits on (Redis storage unless ``--storage``) or off, and the
use case stubbed (``moves.act`` answers a kept envelope), so what is measured is Flask,
the hooks, the body's check, the limits and the answer's encoding, not the game.
``--route view`` measures a seat's view GET instead, not stubbed (it reads the table);
``--route page --path /offline`` one page (the HTML a phone opens, rendered whole: the
bench's "trivial request").

Prints the best of ``--repeats`` rounds of ``--requests`` requests, in microseconds of
``time.process_time()`` a request, and the Redis round trips of the limits on one request
(commands naming ``LIMITS:``). Run it on another tree with ``PYTHONPATH=<tree>`` to
compare (the script imports only the app's public parts).

    PYTHONPATH=. nice -n 5 .venv/bin/python bench/move_flask.py --storage redis://127.0.0.1:6379/0
"""

from __future__ import annotations

import argparse
import tempfile
import time
import uuid
from unittest import mock

import redis.connection
from werkzeug.test import EnvironBuilder


def build_app(storage: str | None, folder: str):
    from companion import create_app

    config = {
        "TESTING": True,
        "INSTANCE_PATH": folder,
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite3",
        "RATELIMIT_ENABLED": storage is not None,
        "RATELIMIT_KEY_PREFIX": f"bench{uuid.uuid4().hex[:8]}",
        "BOT_DELAY": (0.0, 0.0),
    }
    if storage:
        config["RATELIMIT_STORAGE_URI"] = storage
    return create_app(config)


def seated_table(app, game: str) -> tuple[str, str, dict]:
    """A table of three of ``game``, everyone seated: its code, the seat to act's token and
    that seat's envelope (the view also makes the process keep the table)."""
    client = app.test_client()
    made = client.post("/api/tables", json={"game": game, "players": 3}).get_json()
    code = made["code"]
    tokens = [
        client.post(f"/api/tables/{code}/seats", json={"name": f"P{i}"}).get_json()["token"]
        for i in range(3)
    ]
    seat = client.get(f"/api/tables/{code}/view").get_json()["to_act"][0]
    headers = {"Authorization": f"Bearer {tokens[seat]}"}
    env = client.get(f"/api/tables/{code}/view", headers=headers).get_json()
    return code, tokens[seat], env


def request_environ(route: str, code: str, token: str, env: dict) -> dict:
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
    if route.startswith("/"):  # a page, as a phone's browser asks for it
        builder = EnvironBuilder(path=route, headers={"Accept": "text/html"})
    elif route == "view":
        builder = EnvironBuilder(path=f"/api/tables/{code}/view", headers=headers)
    else:
        body = {"action": env["legal"][0], "version": env["version"]}
        builder = EnvironBuilder(
            path=f"/api/tables/{code}/actions", method="POST", json=body, headers=headers
        )
    builder.environ_base = {"REMOTE_ADDR": "198.51.100.7"}
    return builder.get_environ()


def call(app, environ: dict) -> int:
    """One request through the WSGI app (its body read and closed); its status."""
    status = []
    environ = dict(environ)
    environ["wsgi.input"].seek(0)
    body = app(environ, lambda s, h, e=None: status.append(s))
    for _ in body:
        pass
    getattr(body, "close", lambda: None)()
    return int(status[0].split()[0])


def limit_round_trips(app, environ: dict) -> int:
    """The commands naming the limits' keys that one request sends to Redis."""
    connection = redis.connection.AbstractConnection
    real = connection.send_packed_command
    with mock.patch.object(connection, "send_packed_command", autospec=True) as sent:
        sent.side_effect = real
        call(app, environ)
    packed = [a.args[1] for a in sent.call_args_list]
    return sum(b"LIMITS:" in b"".join(p if isinstance(p, list) else [p]) for p in packed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--storage", default="redis://127.0.0.1:6379/0", help="or 'off'")
    parser.add_argument("--route", choices=("move", "view", "page"), default="move")
    parser.add_argument("--path", default="/offline", help="with --route page: the page")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--game", help="a game's slug (by default the first registered one)")
    args = parser.parse_args()
    storage = None if args.storage == "off" else args.storage

    import companion
    from companion.games import GAMES
    from companion.tables import moves

    with tempfile.TemporaryDirectory() as folder:
        app = build_app(storage, folder)
        code, token, env = seated_table(app, args.game or next(iter(GAMES)))
        if args.route == "move":
            moves.act = lambda *_args, **_kwargs: env  # the use case stubbed
        route = args.path if args.route == "page" else args.route
        environ = request_environ(route, code, token, env)
        assert call(app, environ) == 200
        trips = limit_round_trips(app, environ) if storage and "redis" in storage else "-"
        rounds = []
        for _ in range(args.repeats):
            start = time.process_time()
            for _ in range(args.requests):
                call(app, environ)
            rounds.append((time.process_time() - start) / args.requests * 1e6)
    print(
        f"{companion.__file__}: {route}, limits {args.storage}: "
        f"best {min(rounds):.0f} us a request (rounds {', '.join(f'{r:.0f}' for r in rounds)}), "
        f"limit round trips {trips}"
    )


if __name__ == "__main__":
    main()
