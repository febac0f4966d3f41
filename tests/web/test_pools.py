"""Connection pools sized on purpose: each process's database pool has the documented
size (from the environment if set), a request that finds every connection busy past the
pool's timeout is answered 503 (JSON under /api/), and under gevent's monkey-patching a
database wait pauses only its greenlet."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion import config
from companion.config import normalise_database_url
from companion.extensions import db

from .test_tables_api import TablePlayers

ROOT = Path(__file__).resolve().parents[2]


def test_a_database_server_gets_the_pool_sizes_and_sqlite_keeps_its_own():
    pg = "postgresql+psycopg://db/companion"
    assert config.engine_options(pg, {}) == {
        "pool_recycle": 1800,
        "pool_size": config.POOL_SIZE,
        "max_overflow": config.POOL_OVERFLOW,
        "pool_timeout": config.POOL_TIMEOUT,
    }
    environ = {"DB_POOL_SIZE": "3", "DB_MAX_OVERFLOW": "0", "DB_POOL_TIMEOUT": "2.5"}
    options = config.engine_options(pg, environ)
    assert (options["pool_size"], options["max_overflow"], options["pool_timeout"]) == (3, 0, 2.5)
    assert config.engine_options("sqlite:///x.sqlite3", environ) == {"pool_recycle": 1800}


@pytest.mark.scale
def test_the_app_pool_on_postgresql_has_those_sizes(make_app, postgres_url, monkeypatch):
    monkeypatch.setenv("DB_POOL_SIZE", "7")
    app = make_app(SQLALCHEMY_DATABASE_URI=normalise_database_url(postgres_url))
    with app.app_context():
        pool = db.engine.pool
        assert pool.size() == 7
        assert pool._max_overflow == config.POOL_OVERFLOW
        assert pool.timeout() == config.POOL_TIMEOUT


def test_a_request_that_finds_every_connection_busy_gets_503(make_app):
    options = {"pool_size": 1, "max_overflow": 0, "pool_timeout": 0.05}
    app = make_app(SQLALCHEMY_ENGINE_OPTIONS=options)
    table = TablePlayers(app, "shoot", 4).join_all()
    with app.app_context():
        held = db.engine.connect()  # the pool's only connection
        try:
            answer = table.get(table.phones[0], f"/api/tables/{table.code}/view", table.tokens[0])
        finally:
            held.close()
    assert answer.status_code == 503
    assert answer.get_json()["status"] == 503
    assert answer.headers["Retry-After"] == "1"
    # The connection back in the pool, the same request is served.
    again = table.get(table.phones[0], f"/api/tables/{table.code}/view", table.tokens[0])
    assert again.status_code == 200


GEVENT_PROBE = """
from gevent import monkey

monkey.patch_all()

import json, sys

import gevent
import psycopg.waiting
from sqlalchemy import text

from companion import create_app
from companion.extensions import db

app = create_app({
    "TESTING": True,
    "INSTANCE_PATH": sys.argv[2],
    "SQLALCHEMY_DATABASE_URI": sys.argv[1],
    "RATELIMIT_ENABLED": False,
    "BOT_WORKER": "off",
    "BOT_RESUME": False,
})
order = []

def slow():
    with app.app_context():
        order.append("query sent")
        db.session.execute(text("SELECT pg_sleep(0.5)"))
        order.append("query answered")
        db.session.remove()

def other():
    order.append("another greenlet ran")

first = gevent.spawn(slow)
gevent.sleep(0.05)  # the query is on its way
second = gevent.spawn(other)
gevent.joinall([first, second])
print(json.dumps({"wait": psycopg.waiting.wait.__name__, "order": order}))
"""


@pytest.mark.scale
def test_under_gevent_a_database_wait_pauses_only_its_greenlet(postgres_url, tmp_path):
    pytest.importorskip("gevent")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for name in ("DATABASE_URL", "REDIS_URL"):
        env.pop(name, None)
    url = normalise_database_url(postgres_url)
    probe = textwrap.dedent(GEVENT_PROBE)
    done = subprocess.run(
        [sys.executable, "-c", probe, url, str(tmp_path / "instance")],
        capture_output=True, text=True, env=env, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["wait"] != "wait_c"  # psycopg's C wait would block the whole worker
    assert found["order"] == ["query sent", "another greenlet ran", "query answered"]
