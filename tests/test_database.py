"""Migrations and models, on SQLite and on PostgreSQL."""

from __future__ import annotations

import multiprocessing
import queue
import traceback

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect, select

from companion import create_app
from companion.database import MIGRATIONS
from companion.extensions import db
from companion.models import Action, ScoreEntry, ScoreSheet, Seat, Table

from .conftest import dispose

TABLES = {"score_sheet", "score_entry", "game_table", "seat", "action"}


def head_revision() -> str:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", MIGRATIONS)
    return ScriptDirectory.from_config(cfg).get_current_head()


def schema_state(app) -> tuple[str | None, list]:
    """(current revision, differences between the models and the live schema)."""
    with app.app_context(), db.engine.connect() as conn:
        context = MigrationContext.configure(conn)
        return context.get_current_revision(), compare_metadata(context, db.metadata)


def round_trip(app) -> None:
    with app.app_context():
        sheet = ScoreSheet(code="S1", game="shoot", players=["Ann", "Bo"], options={"x": 1})
        sheet.entries.append(ScoreEntry(position=0, facts={"bids": [1, 2]}))
        table = Table(
            code="ABCD",
            game="pull",
            players=2,
            options={},
            seed=2**40,
            deal=None,
            state={"phase": "play"},
            host_token_hash="h" * 64,
        )
        table.seats.append(Seat(index=0, name="Ann", token_hash="a" * 64))
        table.actions.append(Action(version=1, seat=0, action={"type": "play", "card": "AS"}))
        db.session.add_all([sheet, table])
        db.session.commit()
        db.session.expunge_all()

        loaded = db.session.scalars(select(Table).where(Table.code == "ABCD")).one()
        assert loaded.seed == 2**40
        assert loaded.state == {"phase": "play"}
        assert loaded.version == 0
        assert [s.name for s in loaded.seats] == ["Ann"]
        assert loaded.actions[0].action == {"type": "play", "card": "AS"}
        assert loaded.created_at is not None
        sheet = db.session.scalars(select(ScoreSheet)).one()
        assert sheet.players == ["Ann", "Bo"]
        assert sheet.entries[0].facts == {"bids": [1, 2]}

        db.session.delete(loaded)
        db.session.commit()
        assert db.session.scalars(select(Seat)).all() == []
        assert db.session.scalars(select(Action)).all() == []


def test_schema_is_at_the_newest_migration_on_start(app):
    revision, differences = schema_state(app)
    assert revision == head_revision()
    # The first migration creates exactly what the models describe.
    assert differences == []


def test_sqlite_file_uses_write_ahead_logging(app):
    with app.app_context(), db.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL


def test_models_round_trip_on_sqlite(app):
    round_trip(app)


def test_migrations_downgrade_and_upgrade_again(app):
    with app.app_context():
        downgrade(directory=MIGRATIONS, revision="base")
        assert not TABLES & set(inspect(db.engine).get_table_names())
        upgrade(directory=MIGRATIONS)
    assert schema_state(app) == (head_revision(), [])


@pytest.fixture
def started():
    """Apps a test created itself; their connections are closed afterwards."""
    apps: list = []
    yield apps
    for app in apps:
        dispose(app)


def _worker(settings: dict, barrier, failures) -> None:
    """One worker process: its imports done, it waits for the others, then starts the app
    (which migrates the database if nobody has) and reports a failure with its place."""
    barrier.wait(120)
    try:
        dispose(create_app(settings))
    except BaseException:
        failures.put(traceback.format_exc())


def start_together(settings_of: list[dict]) -> list[str]:
    """Start one app per settings, each in its own process and all at the same moment, as
    a server's worker processes start; returns the failures (tracebacks, exit codes).
    Processes, not threads: CPython 3.11 can fail threads that compile at once (every app
    compiles its URL rules) with "AST constructor recursion depth mismatch", a race in the
    interpreter that has nothing to do with the locking under test, and workers are
    processes anyway."""
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(len(settings_of))
    failures = context.Queue()
    processes = [
        context.Process(target=_worker, args=(settings, barrier, failures))
        for settings in settings_of
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(180)
    found = [f"a worker's exit code: {p.exitcode}" for p in processes if p.exitcode != 0]
    while True:
        try:
            found.append(failures.get(timeout=1))
        except queue.Empty:
            return found


@pytest.mark.scale
def test_postgresql_from_database_url(postgres_url, tmp_path, monkeypatch, started):
    monkeypatch.setenv("DATABASE_URL", postgres_url)
    monkeypatch.delenv("AUTO_MIGRATE", raising=False)
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path)})
    started.append(app)
    with app.app_context():
        assert db.engine.dialect.name == "postgresql"
        assert set(inspect(db.engine).get_table_names()) >= TABLES
    assert schema_state(app) == (head_revision(), [])
    round_trip(app)


@pytest.mark.scale
def test_postgresql_workers_starting_together_migrate_once(
    postgres_url, tmp_path, monkeypatch, started
):
    monkeypatch.setenv("DATABASE_URL", postgres_url)  # the workers inherit it
    workers = [{"TESTING": True, "INSTANCE_PATH": str(tmp_path / str(n))} for n in range(3)]
    assert start_together(workers) == []
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "after")})
    started.append(app)
    assert schema_state(app) == (head_revision(), [])


@pytest.mark.parametrize("workers", [3])
def test_sqlite_workers_starting_together_migrate_once(make_app, workers, tmp_path):
    settings = {
        "TESTING": True,
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'workers.sqlite3'}",
        "RATELIMIT_ENABLED": False,
    }
    assert start_together([settings] * workers) == []
    app = make_app(SQLALCHEMY_DATABASE_URI=settings["SQLALCHEMY_DATABASE_URI"])
    assert schema_state(app) == (head_revision(), [])
