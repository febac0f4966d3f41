"""Requests per second of engine mode's JSON API, next to a baseline from the same run.

    python bench/web.py [--seconds 2] [--game shoot] [--players 4] [--server]

Measured against the app's test client (no network, the whole Flask stack, a SQLite file
database as in the embedded default):

* baseline: ``GET /offline`` (a small rendered page) and ``GET`` of a static file;
* view: ``GET /api/tables/<code>/view`` with a seat token (envelope of a game in progress);
* action: the phone's round trip — fetch its view, post one random legal action
  (one locked transaction: lock, version check, apply, store snapshot + log row, commit,
  announce). A finished game is replaced by a new table.

Each figure is also printed as a ratio to the page baseline, so runs on different machines
compare. ``--server`` repeats the measurements over HTTP against a real threaded server on
127.0.0.1 (a free port; one connection per request).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import create_app  # noqa: E402
from companion.extensions import db  # noqa: E402
from companion.games import GAMES  # noqa: E402


class TestClientTransport:
    def __init__(self, app):
        self.client = app.test_client()

    def get(self, path: str, token: str | None = None) -> tuple[int, bytes]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.client.get(path, headers=headers)
        return response.status_code, response.data

    def post(self, path: str, body: dict, token: str | None = None) -> tuple[int, bytes]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.client.post(path, json=body, headers=headers)
        return response.status_code, response.data


class HttpTransport:
    def __init__(self, base: str):
        self.base = base

    def _send(self, request: urllib.request.Request) -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def get(self, path: str, token: str | None = None) -> tuple[int, bytes]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self._send(urllib.request.Request(self.base + path, headers=headers))

    def post(self, path: str, body: dict, token: str | None = None) -> tuple[int, bytes]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body).encode()
        return self._send(urllib.request.Request(self.base + path, data=data, headers=headers))


class Table:
    """A table with every seat taken, played at random one action at a time."""

    def __init__(self, transport, game: str, players: int, rng: random.Random):
        self.transport, self.game, self.players, self.rng = transport, game, players, rng
        status, body = transport.post("/api/tables", {"game": game, "players": players})
        assert status == 201, body
        self.code = json.loads(body)["code"]
        self.tokens = []
        for i in range(players):
            status, body = transport.post(f"/api/tables/{self.code}/seats", {"name": f"P{i}"})
            assert status == 201, body
            self.tokens.append(json.loads(body)["token"])

    def envelope(self, seat: int | None) -> dict:
        token = None if seat is None else self.tokens[seat]
        status, body = self.transport.get(f"/api/tables/{self.code}/view", token)
        assert status == 200, body
        return json.loads(body)

    def step(self) -> bool:
        """One phone's round trip; False when the game is over."""
        public = self.envelope(None)
        if public["over"]:
            return False
        seat = self.rng.choice(public["to_act"])
        env = self.envelope(seat)
        action = self.rng.choice(env["legal"])
        status, body = self.transport.post(
            f"/api/tables/{self.code}/actions",
            {"action": action, "version": env["version"]},
            self.tokens[seat],
        )
        assert status == 200, body
        return True


def rate(work: Callable[[], int], seconds: float) -> float:
    """Units of work per second (``work`` returns how many units it did)."""
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += work()
    return done / (time.perf_counter() - start)


def run(label: str, transport, args) -> None:
    rng = random.Random(1)
    static_path = "/static/css/app.css"

    def page() -> int:
        status, _ = transport.get("/offline")
        assert status == 200
        return 1

    def static() -> int:
        status, _ = transport.get(static_path)
        assert status == 200
        return 1

    table = Table(transport, args.game, args.players, rng)
    for _ in range(3):  # into the game, past the first deal
        table.step()
    seat = (table.envelope(None)["to_act"] or [0])[0]

    def view() -> int:
        table.envelope(seat)
        return 1

    current = {"table": Table(transport, args.game, args.players, rng)}

    def action() -> int:
        # A round trip is 3 requests: public view (whose turn), seat view, the action.
        if not current["table"].step():
            current["table"] = Table(transport, args.game, args.players, rng)
        return 1

    baseline = rate(page, args.seconds)
    figures = [
        ("baseline: GET /offline (page)", baseline),
        (f"baseline: GET {static_path} (static)", rate(static, args.seconds)),
        (f"view: GET /api/tables/<code>/view ({args.game})", rate(view, args.seconds)),
        (f"action round trip ({args.game}, 3 requests)", rate(action, args.seconds)),
    ]
    print(f"\n{label}")
    for name, value in figures:
        print(f"  {name:<52} {value:9.1f} /s   x{value / baseline:5.2f} of baseline")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--game", default=next(iter(GAMES)), choices=sorted(GAMES))
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--server", action="store_true", help="also over HTTP on 127.0.0.1")
    args = parser.parse_args()
    args.players = args.players or GAMES[args.game].min_players

    import logging

    logging.getLogger("alembic").setLevel(logging.WARNING)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "INSTANCE_PATH": folder,
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite3",
            }
        )
        print(f"engine-mode web benchmark: {args.game}, {args.players} players, SQLite file")
        run("test client (no network)", TestClientTransport(app), args)
        if args.server:
            from werkzeug.serving import make_server

            server = make_server("127.0.0.1", 0, app, threaded=True)
            thread = threading.Thread(target=server.serve_forever, daemon=True)
            thread.start()
            try:
                base = f"http://127.0.0.1:{server.server_port}"
                run(f"werkzeug threaded server at {base}", HttpTransport(base), args)
            finally:
                server.shutdown()
                server.server_close()
        with app.app_context():
            db.engine.dispose()


if __name__ == "__main__":
    main()
