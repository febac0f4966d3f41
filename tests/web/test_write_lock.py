"""SQLite writers of one process queue on a lock of ours before ``BEGIN IMMEDIATE``
(companion.database.locked), released when their transaction ends."""

from __future__ import annotations

import os
import threading

from sqlalchemy import event, select

from companion import database
from companion.extensions import db
from companion.models import Table

from .test_tables_api import TablePlayers


def begins_by_thread(app) -> dict[int, int]:
    """How many ``BEGIN IMMEDIATE`` each thread sent to the database."""
    counts: dict[int, int] = {}
    with app.app_context():

        @event.listens_for(db.engine, "before_cursor_execute")
        def count(conn, cursor, statement, *args) -> None:
            if statement.startswith("BEGIN IMMEDIATE"):
                ident = threading.get_ident()
                counts[ident] = counts.get(ident, 0) + 1

    return counts


def hold_the_table(app, code: str, holding: threading.Event, done: threading.Event) -> None:
    """Another request of this process: locks the table and keeps it until ``done``."""
    with app.app_context():
        database.locked(select(Table).where(Table.code == code))
        holding.set()
        done.wait(10)
        db.session.commit()


def file_lock(tmp_path):
    return database._write_lock(os.path.abspath(tmp_path / "test.sqlite3"))


def test_a_second_writer_waits_on_our_lock_not_in_sqlite(make_app, tmp_path):
    app = make_app()
    table = TablePlayers(app, "call_the_shot").join_all()
    seat = table.envelope(None)["to_act"][0]
    env = table.envelope(seat)
    begins = begins_by_thread(app)
    holding, done = threading.Event(), threading.Event()
    holder = threading.Thread(target=hold_the_table, args=(app, table.code, holding, done))
    holder.start()
    assert holding.wait(10)
    assert file_lock(tmp_path).locked()
    answers = []
    mover = threading.Thread(
        target=lambda: answers.append(table.act(seat, env["legal"][0], env["version"]))
    )
    mover.start()
    mover.join(0.5)
    # The mover is waiting, and it never reached SQLite: only the holder began.
    assert mover.is_alive() and answers == []
    assert list(begins.values()) == [1]
    done.set()
    holder.join(10)
    mover.join(10)
    assert answers[0].status_code == 200
    assert sorted(begins.values()) == [1, 1]
    assert not file_lock(tmp_path).locked()


def test_a_writer_that_waits_too_long_is_told_the_table_is_busy(make_app, tmp_path):
    app = make_app(SQLALCHEMY_ENGINE_OPTIONS={"connect_args": {"timeout": 0.2}})
    table = TablePlayers(app, "call_the_shot").join_all()
    seat = table.envelope(None)["to_act"][0]
    env = table.envelope(seat)
    before = table.snapshot()
    holding, done = threading.Event(), threading.Event()
    holder = threading.Thread(target=hold_the_table, args=(app, table.code, holding, done))
    holder.start()
    assert holding.wait(10)
    try:
        busy = table.act(seat, env["legal"][0], env["version"])
    finally:
        done.set()
        holder.join(10)
    assert busy.status_code == 503 and "busy" in busy.get_json()["error"]
    assert table.snapshot() == before
    assert table.act(seat, env["legal"][0], env["version"]).status_code == 200


def test_a_refused_change_and_a_request_that_ends_uncommitted_release_the_lock(make_app, tmp_path):
    app = make_app(SQLALCHEMY_ENGINE_OPTIONS={"connect_args": {"timeout": 0.2}})
    table = TablePlayers(app, "call_the_shot").join_all()
    env = table.envelope(None)
    idle = next(s for s in range(table.players) if s not in env["to_act"])
    assert table.act(idle, {"type": "nonsense"}, env["version"]).status_code == 422
    assert not file_lock(tmp_path).locked()
    with app.app_context():
        database.locked(select(Table).where(Table.code == table.code))
        assert file_lock(tmp_path).locked()
    # The app context's end removed the session, rolling the transaction back.
    assert not file_lock(tmp_path).locked()
    seat = env["to_act"][0]
    assert table.act(seat, table.envelope(seat)["legal"][0], env["version"]).status_code == 200
