"""A table's view costs one round trip to PostgreSQL (table and seats in one query, no
pre-ping, no BEGIN/ROLLBACK), counted in libpq's own protocol trace; and a pooled
connection that died is replaced without an error."""

from __future__ import annotations

import os
import tempfile

import psycopg
import pytest
from sqlalchemy import event

from companion.config import normalise_database_url
from companion.extensions import db

from .test_tables_api import TablePlayers

pytestmark = pytest.mark.scale


class Trace:
    """Every new pooled connection writes libpq's trace of what it sends and receives to
    one file; a round trip ends with the server's ReadyForQuery."""

    def __init__(self, app):
        self.file = tempfile.TemporaryFile("w+")  # noqa: SIM115 (closed by the fixture)
        self.statements = 0
        with app.app_context():
            db.engine.dispose()  # every connection from now on is traced

            @event.listens_for(db.engine, "connect")
            def trace(dbapi_connection, _record) -> None:
                dbapi_connection.pgconn.trace(self.file.fileno())
                dbapi_connection.pgconn.set_trace_flags(psycopg.pq.Trace.SUPPRESS_TIMESTAMPS)

            @event.listens_for(db.engine, "before_cursor_execute")
            def count(*_args) -> None:
                self.statements += 1

    def start(self) -> None:
        self.file.seek(0)
        self.file.truncate()
        self.statements = 0

    def round_trips(self) -> int:
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.seek(0)
        lines = self.file.read().splitlines()
        return sum(1 for line in lines if line.startswith("B") and "ReadyForQuery" in line)


@pytest.fixture
def pg_app(make_app, postgres_url):
    app = make_app(SQLALCHEMY_DATABASE_URI=normalise_database_url(postgres_url))
    with app.app_context():
        assert db.engine.dialect.name == "postgresql"
    return app


@pytest.fixture
def traced(pg_app):
    trace = Trace(pg_app)
    yield trace
    with pg_app.app_context():
        db.session.remove()
        db.engine.dispose()  # no traced connection left to write to a closed file
    trace.file.close()


def test_a_view_is_one_round_trip(pg_app, traced):
    table = TablePlayers(pg_app, "shoot", 4).join_all()
    trace = traced
    table.envelope(0)  # the pool's first connection (its setup is not a view's cost)
    for seat in (0, None, 3):
        trace.start()
        env = table.envelope(seat)
        assert len(env["players"]) == 4 and env["seat"] == seat
        assert trace.statements == 1
        assert trace.round_trips() == 1


def test_a_move_after_a_view_still_runs_in_one_transaction(pg_app, traced):
    """The view's autocommit connection goes back to the pool reset: a move runs in a
    transaction of its own, its row locked, committed once."""
    table = TablePlayers(pg_app, "shoot", 4).join_all()
    trace = traced
    env = table.envelope(None)
    seat = env["to_act"][0]
    action = table.envelope(seat)["legal"][0]
    trace.start()
    assert table.act(seat, action, env["version"]).status_code == 200
    trace.file.seek(0)
    sent = trace.file.read()
    assert '"BEGIN"' in sent and '"COMMIT"' in sent and "FOR UPDATE" in sent


def test_a_dead_pooled_connection_is_replaced_without_an_error(pg_app, postgres_url):
    table = TablePlayers(pg_app, "shoot", 4).join_all()
    assert table.envelope(0)["seat"] == 0
    with pg_app.app_context():
        pids = {row[0] for row in db.session.execute(db.text("SELECT pg_backend_pid()"))}
        db.session.remove()
    dsn = "host=127.0.0.1 port=5432 dbname=test"
    with psycopg.connect(dsn, autocommit=True) as admin:
        for pid in pids:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    answer = table.get(table.phones[0], f"/api/tables/{table.code}/view", table.tokens[0])
    assert answer.status_code == 200 and answer.get_json()["seat"] == 0


def test_a_move_is_four_round_trips(pg_app, traced):
    """BEGIN, the table and its seats locked and read in one statement, the snapshot's
    UPDATE and the log's INSERT in one statement (a data-modifying WITH), COMMIT: nothing
    else reaches the database (no lazy load of the seats, no read after the commit).
    Counted once psycopg has prepared the statements on the connection (its first uses
    cost one more round trip each)."""
    import random

    table = TablePlayers(pg_app, "shoot", 4).join_all()
    trace = traced
    rng = random.Random(5)
    for _ in range(8):
        table.random_move(rng)
    for _ in range(2):
        env = table.envelope(None)
        seat = env["to_act"][0]
        action = table.envelope(seat)["legal"][0]
        trace.start()
        assert table.act(seat, action, env["version"]).status_code == 200
        assert trace.round_trips() == 4
        assert trace.statements == 2  # SELECT … FOR UPDATE OF game_table; WITH … INSERT
        trace.file.seek(0)
        sent = trace.file.read()
        assert '"INSERT 0 1"' in sent and '"UPDATE 1"' not in sent  # one statement
    assert table.envelope(None)["version"] == env["version"] + 1
