"""The least a move can cost on the README's scaled line: a WSGI app with no framework
and no game, doing only what every move of engine mode must do there.

``bench/move_floor.py`` serves it with the project's ``gunicorn.conf.py`` (the same
gevent workers, two of them), PostgreSQL and Redis, and drives it as ``bench/web.py``
drives the real app. Per move (``POST /move/<table>``):

* one statement on PostgreSQL through psycopg (autocommit): the table's row gets its new
  state (a 3 KB text, as a Shoot! state is) and version, and the action is logged, in one
  round trip (the real move needs at least that: it writes the state and the log);
* one Redis ``PUBLISH`` of the event, every seat's ready line in it (5.4 KB, as the real
  message is);
* a 2.5 KB JSON answer (a seat's envelope is about that).

Per worker, one listener (a greenlet, as the app's is under gevent) receives every
message and hands each stream of that table held by its worker the seat's line, read out
of the message once; each stream (``GET /stream/<table>/<seat>``) writes it. A stream is
a generator answer, as the app's ``live.event_stream``, with a ping after 15 s of
silence. Nothing else: no routing beyond a split of the path, no session, no limits, no
CSRF, no content negotiation, no check of the move. The figure it gives is a floor, not
an estimate: the real app does all of this and more.
"""

from __future__ import annotations

import os
import queue
import threading

import orjson
import psycopg
import redis

PREFIX = "floor:"
STATE = "s" * 3000
ANSWER = orjson.dumps({"version": 0, "view": {"hand": "h" * 2400}})
SEAT_LINE = "x" * 1000  # every seat's ready line; 5 of them and the public part: 5.4 KB
PUBLIC = "p" * 400

_redis = redis.Redis.from_url(os.environ["REDIS_URL"])
_connections: queue.SimpleQueue = queue.SimpleQueue()
_held: dict[str, dict[int, list[queue.SimpleQueue]]] = {}
_lock = threading.Lock()
_listener: list[threading.Thread] = []

MOVE = """
WITH moved AS (
    UPDATE floor_table SET state = %(state)s, version = version + 1
    WHERE code = %(code)s RETURNING version
)
INSERT INTO floor_action (code, version, action)
SELECT %(code)s, version, %(action)s FROM moved RETURNING version
"""


def _database():
    try:
        return _connections.get_nowait()
    except queue.Empty:
        return psycopg.connect(os.environ["DATABASE_URL"], autocommit=True)


def _listen() -> None:
    pubsub = redis.Redis.from_url(os.environ["REDIS_URL"]).pubsub(ignore_subscribe_messages=True)
    pubsub.psubscribe(PREFIX + "*")
    for message in pubsub.listen():
        if message["type"] != "pmessage":
            continue
        code = message["channel"][len(PREFIX) :].decode()
        with _lock:
            seats = {seat: list(boxes) for seat, boxes in _held.get(code, {}).items()}
        if not seats:
            continue
        event = orjson.loads(message["data"])
        for seat, boxes in seats.items():
            line = f"event: table\ndata: {event['lines'][seat]}\n\n".encode()
            for box in boxes:
                box.put(line)


def _ensure_listener() -> None:
    with _lock:
        if not _listener:
            thread = threading.Thread(target=_listen, daemon=True)
            thread.start()
            _listener.append(thread)


def move(code: str, environ) -> tuple[str, list, list[bytes]]:
    length = int(environ.get("CONTENT_LENGTH") or 0)
    action = environ["wsgi.input"].read(length).decode()
    conn = _database()
    try:
        params = {"state": STATE, "code": code, "action": action}
        version = conn.execute(MOVE, params).fetchone()[0]
    finally:
        _connections.put(conn)
    lines = [f'{{"version":{version},"seat":{seat},"mine":"{SEAT_LINE}"}}' for seat in range(5)]
    event = orjson.dumps({"version": version, "public": PUBLIC, "lines": lines})
    _redis.publish(PREFIX + code, event)
    headers = [("Content-Type", "application/json"), ("Content-Length", str(len(ANSWER)))]
    return "200 OK", headers, [ANSWER]


def stream(code: str, seat: int):
    _ensure_listener()
    box: queue.SimpleQueue = queue.SimpleQueue()
    with _lock:
        _held.setdefault(code, {}).setdefault(seat, []).append(box)

    def body():
        try:
            yield b"retry: 2000\n\nevent: table\ndata: {}\n\n"
            while True:
                try:
                    yield box.get(timeout=15)
                except queue.Empty:
                    yield b"event: ping\ndata: 15\n\n"
        finally:
            with _lock:
                _held[code][seat].remove(box)

    headers = [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")]
    return "200 OK", headers, body()


def app(environ, start_response):
    parts = environ["PATH_INFO"].strip("/").split("/")
    if parts[0] == "move" and environ["REQUEST_METHOD"] == "POST":
        status, headers, body = move(parts[1], environ)
    elif parts[0] == "stream":
        status, headers, body = stream(parts[1], int(parts[2]))
    else:
        status, headers, body = "404 Not Found", [("Content-Length", "0")], []
    start_response(status, headers)
    return body
