"""Schema management: Flask-Migrate (Alembic) migrations, applied on start or by command.

``upgrade_schema`` is safe when several processes start at once: on PostgreSQL they queue
on an advisory lock, on SQLite on a lock file beside the database.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from flask_migrate import upgrade
from sqlalchemy import Select, event, text
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.orm import Session

from .extensions import db

MIGRATIONS = str(Path(__file__).parent / "migrations")

# Any fixed 64-bit number: serialises concurrent upgrades from several workers on PostgreSQL.
_PG_LOCK_KEY = 7_231_115_002


@contextlib.contextmanager
def _file_lock(path: str) -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # not a POSIX system: one process is the supported setup there
        yield
        return
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


# One lock per SQLite file in this process, made on first use (after gevent, if used, has
# patched ``threading``, so that a waiting writer is a paused greenlet, not a blocked hub).
_WRITE_LOCKS: dict[str, Any] = {}
_WRITE_LOCKS_GUARD = threading.Lock()
_HELD = "companion_write_lock"  # the key in Session.info while a session holds it
SQLITE_TIMEOUT = 5.0  # pysqlite's default busy timeout, in seconds


def _write_lock(database: str) -> Any:
    with _WRITE_LOCKS_GUARD:
        lock = _WRITE_LOCKS.get(database)
        if lock is None:
            lock = _WRITE_LOCKS[database] = threading.Lock()
        return lock


@event.listens_for(Session, "after_transaction_end")
def _release_write_lock(session: Session, transaction: Any) -> None:
    """The commit, rollback or close of the transaction :func:`locked` began releases
    this process's write lock of the SQLite file."""
    if transaction.parent is None and _HELD in session.info:
        session.info.pop(_HELD).release()


def _wait_for_write_lock(session: Session, engine: Any) -> None:
    """Queue behind this process's other writers on a lock of ours (woken the moment the
    writer before commits) instead of in SQLite's busy handler, which sleeps and retries
    (waits of 50–130 ms under load). Other processes still queue in the busy handler."""
    database = os.path.abspath(engine.url.database or ":memory:")
    # The same wait as the busy handler's (pysqlite's ``timeout``), so "busy" means the same.
    options = current_app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {}
    timeout = (options.get("connect_args") or {}).get("timeout", SQLITE_TIMEOUT)
    lock = _write_lock(database)
    if not lock.acquire(timeout=timeout):
        raise OperationalError(
            "BEGIN IMMEDIATE", {}, TimeoutError("another writer of this process holds the file")
        )
    session.info[_HELD] = lock


def locked(query: Select, of: Any = None) -> Any:
    """Start a fresh write transaction that holds the lock of the row ``query`` selects,
    and return that row (or None). PostgreSQL: ``SELECT … FOR UPDATE``. SQLite: the row
    lock does nothing there, so ``BEGIN IMMEDIATE`` takes the database's write lock before
    anything is read (pysqlite opens transactions lazily); before it, the writers of this
    process queue on one lock per file, released when the transaction ends (commit,
    rollback or the request's end). Nothing read before counts (the session is rolled
    back first and the row reloaded), so a check made on the row holds until the commit.
    Raises ``OperationalError`` when the lock wait times out; the caller says so in its
    own words.

    ``of`` (a mapped class): lock only that class's rows (``FOR UPDATE OF``), for a query
    that loads a collection with it in the same statement (``joinedload``, an outer join,
    whose nullable side PostgreSQL cannot lock)."""
    session = begin_write()
    query = query.with_for_update(of=of).execution_options(populate_existing=True)
    return session.execute(query).unique().scalar_one_or_none()


def begin_write() -> Session:
    """The start of :func:`locked`: a fresh write transaction (the session rolled back
    first), holding the SQLite file's write lock there; the caller then locks its row
    (``FOR UPDATE`` on PostgreSQL)."""
    db.session.rollback()
    session = db.session()
    engine = session.get_bind()
    if engine.dialect.name == "sqlite":
        _wait_for_write_lock(session, engine)
    try:
        conn = session.connection()
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql("BEGIN IMMEDIATE")
    except BaseException:
        session.rollback()
        if _HELD in session.info:  # no transaction had begun to end
            session.info.pop(_HELD).release()
        raise
    return session


def autocommit() -> None:
    """On PostgreSQL, let the session's next statements run each as its own transaction
    (autocommit: no BEGIN and COMMIT or ROLLBACK round trips) unless one is already open.
    For requests that only read (a move on a kept table writes its one statement through
    the driver itself: ``tables.saving.write_alone``); :func:`locked` rolls back first, so
    a write after it gets a transaction of its own on a connection whose isolation level
    the pool has reset."""
    session = db.session()
    if session.in_transaction() or session.get_bind().dialect.name != "postgresql":
        return
    session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})


def retry_if_disconnected(run: Any) -> Any:
    """``run()`` (the first statement of a transaction), once more on a fresh connection
    if the pooled one turned out dead (a restarted database server). Instead of the pool's
    pre-ping, a round trip on every checkout; SQLAlchemy invalidates the dead pool."""
    try:
        return run()
    except DBAPIError as error:
        if not error.connection_invalidated:
            raise
        db.session.rollback()
        return run()


def tune_sqlite(app: Flask) -> None:
    """On a SQLite file, use write-ahead logging: readers never wait for the writer, and a
    commit syncs the log instead of the whole database (``synchronous=NORMAL`` stays safe
    against corruption in WAL mode; at worst the last commits before a power cut are lost).
    Engine mode's ``BEGIN IMMEDIATE`` still serialises the writers.

    WAL is a property of the database file, switched on once (under the same lock as the
    migrations, since the switch needs the file to itself); ``synchronous`` is per
    connection."""
    with app.app_context():
        engine = db.engine
        if engine.dialect.name != "sqlite" or engine.url.database in (None, "", ":memory:"):
            return

        @event.listens_for(engine, "connect")
        def normal_sync(dbapi_connection, _record) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        database = os.path.abspath(engine.url.database)
        os.makedirs(os.path.dirname(database), exist_ok=True)
        with _file_lock(database + ".migrate-lock"), engine.connect() as conn:
            if conn.exec_driver_sql("PRAGMA journal_mode").scalar() != "wal":
                conn.exec_driver_sql("PRAGMA journal_mode=WAL")


def upgrade_schema(app: Flask) -> None:
    """Bring the database schema up to the newest migration."""
    with app.app_context():
        engine = db.engine
        if engine.dialect.name == "postgresql":
            with engine.connect() as conn:
                conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _PG_LOCK_KEY})
                try:
                    upgrade(directory=MIGRATIONS)
                finally:
                    conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _PG_LOCK_KEY})
                    conn.commit()
        elif engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:"):
            database = os.path.abspath(engine.url.database)
            os.makedirs(os.path.dirname(database), exist_ok=True)
            with _file_lock(database + ".migrate-lock"):
                upgrade(directory=MIGRATIONS)
        else:
            upgrade(directory=MIGRATIONS)


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create or upgrade the database schema to the newest migration."""
    upgrade_schema(current_app._get_current_object())
    url = db.engine.url.render_as_string(hide_password=True)
    click.echo(f"Database is up to date: {url}")
