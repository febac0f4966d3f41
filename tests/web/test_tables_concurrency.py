"""Two phones acting at once never lose or double an action: every accepted action is
exactly one log row and one version step, on a file SQLite database (``BEGIN IMMEDIATE``)
and on PostgreSQL (``SELECT … FOR UPDATE``)."""

from __future__ import annotations

import random
import threading

import pytest

from companion.config import normalise_database_url
from companion.extensions import db
from companion.models import Action

from .test_tables_api import TablePlayers, replayed_from_log


def race(app, game: str, players: int, moves_each: int) -> None:
    table = TablePlayers(app, game, players).join_all()
    accepted: list[list] = [[] for _ in range(players)]
    errors: list[BaseException] = []
    start = threading.Barrier(players)

    def phone(seat: int) -> None:
        rng = random.Random(seat)
        client = app.test_client()
        auth = {"Authorization": f"Bearer {table.tokens[seat]}"}
        url = f"/api/tables/{table.code}"
        try:
            start.wait(10)
            tries = 0
            while len(accepted[seat]) < moves_each and tries < 400:
                tries += 1
                env = client.get(url + "/view", headers=auth).get_json()
                if env["over"]:
                    return
                if not env["legal"]:
                    continue
                action = rng.choice(env["legal"])
                answer = client.post(
                    url + "/actions",
                    json={"action": action, "version": env["version"]},
                    headers=auth,
                )
                if answer.status_code == 200:
                    accepted[seat].append((answer.get_json()["version"], action))
                else:
                    assert answer.status_code in (409, 422), answer.get_json()
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=phone, args=(seat,)) for seat in range(players)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors, errors
    done = sorted(v for seat_moves in accepted for v, _ in seat_moves)
    assert len(done) >= players  # the race really happened
    start_version = players  # one version per join
    # Every accepted answer got its own version, and no version is missing or doubled.
    assert done == list(range(start_version + 1, start_version + 1 + len(done)))
    with app.app_context():
        table_row = db.session.scalar(
            db.select(Action.table_id).order_by(Action.id.desc()).limit(1)
        )
        rows = db.session.scalars(
            db.select(Action).where(Action.table_id == table_row).order_by(Action.version)
        ).all()
    assert [row.version for row in rows] == done
    by_version = {v: a for seat_moves in accepted for v, a in seat_moves}
    assert [row.action for row in rows] == [by_version[row.version] for row in rows]
    state = table.state()
    assert len(state.log) == len(done)
    assert replayed_from_log(app, table.code) == table.row().state


def double_tap(app) -> None:
    """The same phone sends the same move twice at once: exactly one is accepted."""
    table = TablePlayers(app, "shoot", 3).join_all()
    env = table.envelope(0)
    results: list[int] = []
    gate = threading.Barrier(2)

    def send() -> None:
        client = app.test_client()
        gate.wait(10)
        answer = client.post(
            f"/api/tables/{table.code}/actions",
            json={"action": env["legal"][0], "version": env["version"]},
            headers={"Authorization": f"Bearer {table.tokens[0]}"},
        )
        results.append(answer.status_code)

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(results) == [200, 409]
    assert len(table.state().log) == 1


def test_phones_racing_on_a_file_sqlite_database(make_app):
    app = make_app()
    race(app, "shoot", 4, moves_each=6)  # sealed bids: four phones act at once


def test_a_double_tap_is_applied_once_on_sqlite(make_app):
    double_tap(make_app())


@pytest.mark.scale
def test_phones_racing_on_postgresql(make_app, postgres_url):
    app = make_app(SQLALCHEMY_DATABASE_URI=normalise_database_url(postgres_url))
    with app.app_context():
        assert db.engine.dialect.name == "postgresql"
    race(app, "shoot", 4, moves_each=6)
    double_tap(app)


def test_a_table_locked_too_long_answers_503_and_changes_nothing(make_app, tmp_path):
    """Another writer holds the SQLite file's write lock past the lock wait: the action is
    refused with 503 (try again), nothing is stored, and the same move then goes through."""
    import sqlite3

    app = make_app(SQLALCHEMY_ENGINE_OPTIONS={"connect_args": {"timeout": 0.2}})
    table = TablePlayers(app, "call_the_shot").join_all()
    seat = table.envelope(None)["to_act"][0]
    env = table.envelope(seat)
    before = table.snapshot()
    other = sqlite3.connect(tmp_path / "test.sqlite3", isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        busy = table.act(seat, env["legal"][0], env["version"])
        other.execute("ROLLBACK")
    finally:
        other.close()
    assert busy.status_code == 503 and "busy" in busy.get_json()["error"]
    assert table.snapshot() == before
    assert table.act(seat, env["legal"][0], env["version"]).status_code == 200
