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

from .test_tables_api import TablePlayers, replayed_from_log

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

    def sent_statements(self) -> int:
        """Statements sent, as libpq's trace shows them (a Query, or an Execute of the
        extended protocol), however the app sent them (SQLAlchemy or the driver)."""
        self.file.flush()
        self.file.seek(0)
        lines = self.file.read().splitlines()
        return sum(1 for line in lines if line.split("\t")[0] == "F" and _sends(line))

    def round_trips(self) -> int:
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.seek(0)
        lines = self.file.read().splitlines()
        return sum(1 for line in lines if line.startswith("B") and "ReadyForQuery" in line)


def _sends(line: str) -> bool:
    parts = line.split("\t")
    return len(parts) > 2 and parts[2] in ("Query", "Execute")


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


def test_a_move_on_the_kept_table_survives_a_dead_pooled_connection(pg_app):
    """The one-statement move runs on a pooled connection of the engine's own (not the
    session's): a dead one is replaced and the move stored once."""
    table = TablePlayers(pg_app, "shoot", 4).join_all()
    played(table, 3)
    seat, action, version = first_legal(table)
    with pg_app.app_context():
        with db.engine.connect() as conn:
            pid = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
        db.session.remove()
    with psycopg.connect("host=127.0.0.1 port=5432 dbname=test", autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    rows = table.snapshot()[2]
    answer = table.act(seat, action, version)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["version"] == version + 1
    assert table.snapshot()[2] == rows + 1
    assert replayed_from_log(pg_app, table.code) == table.row().state


def played(table: TablePlayers, moves: int = 8) -> None:
    """A few seeded moves first, so that psycopg has prepared the hot statements on the
    connection (their first uses cost one more round trip each)."""
    import random

    rng = random.Random(5)
    for _ in range(moves):
        table.random_move(rng)


def first_legal(table: TablePlayers) -> tuple[int, dict, int]:
    """The first seat to act, its first legal action and the version it saw (this view
    also makes the process keep the table at that version)."""
    env = table.envelope(None)
    seat = env["to_act"][0]
    return seat, table.envelope(seat)["legal"][0], env["version"]


def test_a_move_on_the_kept_table_is_one_round_trip(pg_app, traced):
    """The process keeps the table at its current version (the phones' views just read
    it): the move is one statement in autocommit, the snapshot's UPDATE (only if the
    table is still at that version) and the log's INSERT from the row it returns. No
    BEGIN, no lock, no COMMIT round trip."""
    table = TablePlayers(pg_app, "shoot", 4).join_all()
    played(table)
    for _ in range(2):
        seat, action, version = first_legal(table)
        rows = table.snapshot()[2]
        traced.start()
        answer = table.act(seat, action, version)
        assert answer.status_code == 200, answer.get_json()
        assert traced.round_trips() == 1
        assert traced.sent_statements() == 1  # sent by the driver itself, not SQLAlchemy
        traced.file.seek(0)
        sent = traced.file.read()
        assert table.snapshot()[2] == rows + 1  # the log's row
        assert '"BEGIN"' not in sent and '"COMMIT"' not in sent and "FOR UPDATE" not in sent
        assert answer.get_json()["version"] == version + 1
        assert table.envelope(seat) == answer.get_json()
    assert replayed_from_log(pg_app, table.code) == table.row().state


def test_a_move_with_nothing_kept_is_five_round_trips(pg_app, traced):
    """Nothing kept in this process (another worker served the views): BEGIN, the table's
    row locked and read, its seats read by a statement of their own once the lock is held
    (so that a change that waited for the lock sees the seats the one before it left:
    ``store.lock_table``), the snapshot's UPDATE and the log's INSERT in one statement (a
    data-modifying WITH), COMMIT; nothing else reaches the database (no read after the
    commit)."""
    table = TablePlayers(pg_app, "shoot", 4).join_all()
    for move in range(10):  # the first 8 prepare the statements of this way
        seat, action, version = first_legal(table)
        pg_app.extensions["tables"].clear()
        if move < 8:
            assert table.act(seat, action, version).status_code == 200
            continue
        traced.start()
        assert table.act(seat, action, version).status_code == 200
        assert traced.round_trips() == 5
        assert traced.statements == 3  # SELECT … FOR UPDATE; SELECT … FROM seat; WITH … INSERT
        traced.file.seek(0)
        sent = traced.file.read()
        assert '"INSERT 0 1"' in sent and '"UPDATE 1"' not in sent  # one statement
        assert '"BEGIN"' in sent and '"COMMIT"' in sent
    assert table.envelope(None)["version"] == version + 1


def keep_older(app, table: TablePlayers, facts) -> None:
    """Make the process keep ``facts`` (an older version) as if another worker had moved
    since: its own copy is now behind the database."""
    tables = app.extensions["tables"]
    tables.clear()
    tables.put(table.code, facts)


def test_a_move_on_an_old_copy_writes_nothing_and_is_answered_from_the_table(pg_app):
    """Another worker moved since this process kept the table: the one statement finds
    the table at another version and writes nothing; the move then goes the locked way,
    on the table as it is. A phone that saw the older version gets 409 with the current
    one (nothing doubled, nothing lost); a phone that saw the current one has its move
    made."""
    table = TablePlayers(pg_app, "shoot", 4).join_all()
    played(table, 4)
    seat, action, version = first_legal(table)
    older = pg_app.extensions["tables"].peek(table.code)
    assert older.version == version
    assert table.act(seat, action, version).status_code == 200  # "the other worker"
    after = table.snapshot()

    keep_older(pg_app, table, older)
    late = table.act(seat, action, version)
    assert late.status_code == 409 and late.get_json()["version"] == version + 1
    assert table.snapshot() == after

    keep_older(pg_app, table, older)
    seat, action, current = first_legal(table)
    keep_older(pg_app, table, older)
    assert current == version + 1
    answer = table.act(seat, action, current)
    assert answer.status_code == 200 and answer.get_json()["version"] == current + 1
    assert table.snapshot()[2] == after[2] + 1  # one more log row
    assert replayed_from_log(pg_app, table.code) == table.row().state


def test_refused_and_last_moves_on_the_kept_table_go_the_locked_way(pg_app):
    """A refusal found on the kept copy is answered from the table as it is (the locked
    way, which refuses it again, writing nothing), and the move that ends the game is
    stored the locked way too, with its record of the finished game."""
    import random

    from companion.models import GameRecord

    table = TablePlayers(pg_app, "call_the_shot").join_all()
    seat, _action, version = first_legal(table)
    before = table.snapshot()
    refused = table.act(seat, {"type": "no such move"}, version)
    assert refused.status_code == 422
    assert table.snapshot() == before
    rng = random.Random(3)
    while not table.envelope(None)["over"]:
        table.random_move(rng)
    with pg_app.app_context():
        records = db.session.scalars(db.select(GameRecord).where(GameRecord.code == table.code))
        assert len(records.all()) == 1
    assert replayed_from_log(pg_app, table.code) == table.row().state


def test_a_move_inside_an_open_transaction_goes_the_locked_way(pg_app):
    """Called with a transaction already open, a move on the kept table must not write
    inside it (the caller might never commit, while the phones were told): it goes the
    locked way, which commits."""
    from companion.tables import moves

    table = TablePlayers(pg_app, "shoot", 4).join_all()
    seat, action, version = first_legal(table)
    with pg_app.app_context():
        db.session.execute(db.text("SELECT 1"))  # the session's transaction begins
        answer = moves.act(table.code, table.tokens[seat], action, version)
        db.session.remove()  # rolls back whatever was left open
    assert answer["version"] == version + 1
    assert table.envelope(None)["version"] == version + 1
    assert replayed_from_log(pg_app, table.code) == table.row().state
