"""Redis down on the scaled set-up (companion/live.py, companion/streams.py): a change that
was stored answers success (its announcement is dropped with a log line); a stream answers
503 with Retry-After, never 500. Tried with a Redis URL on a closed loopback port, and with
a Redis server of the test's own stopped mid-way."""

from __future__ import annotations

import logging
import shutil
import socket
import subprocess
import time
import uuid

import pytest

from companion.extensions import db
from companion.models import ScoreSheet

from .phones import Phones
from .test_score_changes import add, new_sheet, rows
from .test_tables_api import TablePlayers, events_url


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def scaled_app(make_app, database: str, redis_url: str):
    return make_app(
        SQLALCHEMY_DATABASE_URI=database,
        REDIS_URL=redis_url,
        STREAM_LIMITS_PREFIX=f"test-{uuid.uuid4().hex[:8]}:",
        WTF_CSRF_ENABLED=False,
        RATELIMIT_ENABLED=True,  # its storage is the same Redis: it counts in memory
        TABLES_SSE_KEEPALIVE=0.05,
        TABLES_SSE_SECONDS=30,
    )


def close(app) -> None:
    app.extensions["live"].close()
    app.extensions["stream_limits"].close()


def watch_url(app, client, code: str) -> str:
    with app.app_context():
        sheet = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == code))
        watch = sheet.watch_code
    answer = client.get(f"/score/watch/{watch}/ticket")
    assert answer.status_code == 200
    return answer.get_json()["events_url"]


def assert_503(answer) -> None:
    assert answer.status_code == 503, answer.get_data(as_text=True)
    assert int(answer.headers["Retry-After"]) > 0
    assert "unavailable" in answer.get_json()["error"]
    answer.close()


def assert_changes_stored_and_streams_503(app, table: TablePlayers, code: str, client) -> None:
    # Play mode: a seat taken (announced after its commit) answers success and is kept.
    answer = table.join(1, "Zed")
    assert answer.status_code == 201, answer.get_json()
    view = table.get(table.host, f"/api/tables/{table.code}/view").get_json()
    assert view["players"][1] == "Zed"
    assert_503(table.host.get(events_url(table), buffered=False))
    # Score mode: a round added (announced after its commit) answers success and is kept.
    before = len(rows(app, code))
    assert add(client, code, [3, 0], before).status_code == 302
    assert len(rows(app, code)) == before + 1
    assert_503(client.get(watch_url(app, client, code), buffered=False))
    assert_every_other_change_and_stream(app)


def assert_every_other_change_and_stream(app) -> None:
    """The other changes that announce themselves (a Play move, a phone's score box) and
    the other streams (a seat's, a score phone's, the keeper's panel): no 500."""
    table = TablePlayers(app, "shoot", 3).join_all()
    moved = table.act(0, table.envelope(0)["legal"][0])  # a bid: every seat may bid
    assert moved.status_code == 200, moved.get_json()
    assert table.envelope(None)["version"] == moved.get_json()["version"]
    assert_503(table.host.get(events_url(table, table.tokens[0]), buffered=False))
    phones = Phones.start(
        app, "shoot", ["Ada", "Bea"], {"opt_schedule": "0", "opt_dealer": "0"}, (0, 1)
    )
    assert phones.enter(0, "bids-0", 2).status_code == 200
    assert phones.view(0)["step"]["boxes"]
    ticket = phones.client().get(f"/score/join/{phones.join}/ticket", headers=phones.auth(0))
    assert ticket.status_code == 200, ticket.get_json()
    assert_503(phones.client().get(ticket.get_json()["events_url"], buffered=False))
    panel = phones.keeper.get(f"/score/{phones.code}/phones/ticket")
    assert panel.status_code == 200, panel.get_data(as_text=True)
    assert_503(phones.keeper.get(panel.get_json()["events_url"], buffered=False))


class Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def test_a_redis_url_that_answers_nothing(high_card, make_app, database):
    app = scaled_app(make_app, database, f"redis://127.0.0.1:{free_port()}/0")
    kept = Kept()  # the migrations' logging set-up replaced the root's handlers: listen here
    logging.getLogger("companion.live").addHandler(kept)
    try:
        client = app.test_client()
        table = TablePlayers(app, "shoot", 3)
        table.join(0, "Ann")
        code = new_sheet(client, ["Ada", "Bo"])
        assert_changes_stored_and_streams_503(app, table, code, client)
        # A solo table (its bots' jobs cannot be queued) still starts.
        solo = client.post("/play/shoot/solo", data={"name": "Ann", "level": "easy"})
        assert solo.status_code == 303
        assert any("dropped" in message for message in kept.messages)
    finally:
        logging.getLogger("companion.live").removeHandler(kept)
        close(app)


@pytest.fixture
def own_redis():
    """A Redis server of this test's own, on a free loopback port (never the shared one):
    the test stops it."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed")
    port = free_port()
    server = subprocess.Popen(
        [binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
    yield server, f"redis://127.0.0.1:{port}/0"
    if server.poll() is None:
        server.terminate()
    server.wait(10)


def test_redis_stopped_mid_way(high_card, make_app, database, own_redis):
    server, url = own_redis
    app = scaled_app(make_app, database, url)
    try:
        client = app.test_client()
        table = TablePlayers(app, "shoot", 3)
        table.join(0, "Ann")
        code = new_sheet(client, ["Ada", "Bo"])
        # With Redis up, a stream opens and carries its first event.
        stream = table.host.get(events_url(table), buffered=False)
        assert stream.status_code == 200
        chunks = iter(stream.response)
        assert "event: version" in next(chunks).decode() + next(chunks).decode()
        server.terminate()
        server.wait(10)
        # The open stream ends (the broker lost Redis): the phone reconnects and refetches.
        started = time.monotonic()
        b"".join(chunks)
        stream.close()
        assert time.monotonic() - started < 10
        assert_changes_stored_and_streams_503(app, table, code, client)
    finally:
        close(app)
