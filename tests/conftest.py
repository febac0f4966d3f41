"""Shared fixtures.

``app``, ``client``, ``runner``: an app on a fresh SQLite database in a temporary
instance folder (schema brought up by the migrations, as on a real start).
``make_app(**config)``: the same with extra config, for tests that need their own.

Services: ``postgres_url``, ``redis_url`` and ``chromium`` skip their test when the service
is not there, unless ``REQUIRE_SERVICES=1`` (as ``.ci/run`` sets), which turns that skip
into a failure, so CI can never pass by silently skipping them.
"""

from __future__ import annotations

import os
import shutil
import socket
import uuid
from pathlib import Path

import pytest

from companion import create_app
from companion.extensions import db

from .browser import CHROMIUM

POSTGRES_HOST, POSTGRES_PORT, POSTGRES_DB = "127.0.0.1", 5432, "test"
REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379


def services_required() -> bool:
    return os.environ.get("REQUIRE_SERVICES") == "1"


def unavailable(reason: str) -> None:
    """Skip the test, or fail it when REQUIRE_SERVICES=1."""
    if services_required():
        pytest.fail(f"required service unavailable: {reason}", pytrace=False)
    pytest.skip(reason)


def port_open(host: str, port: int, timeout: float = 1.0) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


@pytest.fixture
def make_app(tmp_path, monkeypatch):
    # The developer's own settings must not leak into the tests.
    for name in ("DATABASE_URL", "SECRET_KEY", "REDIS_URL", "PUBLIC_URL", "AUTO_MIGRATE"):
        monkeypatch.delenv(name, raising=False)

    made = []

    def make(**config):
        settings = {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite3'}",
            # Off unless a test of the limits turns them on (tests/web/test_limits.py).
            "RATELIMIT_ENABLED": False,
            "BOT_DELAY": (0.0, 0.0),  # bots move at once in tests
        }
        settings.update(config)
        made.append(create_app(settings))
        return made[-1]

    yield make
    for app in made:
        dispose(app)


def dispose(app) -> None:
    """Close the app's pooled database connections (no ResourceWarning, no open session
    left on a PostgreSQL schema that is about to be dropped), after stopping its bots."""
    from companion.tables import bots

    bots.stop(app)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def high_card():
    """The test-only fifth game (``tests/fifth_game.py``) registered for one test."""
    from . import fifth_game

    game = fifth_game.install()
    yield game
    fifth_game.uninstall()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def postgres_url():
    """A SQLAlchemy URL for the local PostgreSQL ``test`` database, confined to a fresh
    schema of its own (dropped afterwards), so tests never see each other's tables."""
    try:
        import psycopg
    except ImportError:
        unavailable("psycopg is not installed (pip install -e '.[test]')")
    if not port_open(POSTGRES_HOST, POSTGRES_PORT):
        unavailable(f"PostgreSQL is not listening on {POSTGRES_HOST}:{POSTGRES_PORT}")
    schema = f"t_{uuid.uuid4().hex[:12]}"
    dsn = f"host={POSTGRES_HOST} port={POSTGRES_PORT} dbname={POSTGRES_DB}"
    try:
        with psycopg.connect(dsn, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
    except psycopg.OperationalError as error:
        unavailable(f"cannot use PostgreSQL database {POSTGRES_DB!r}: {error}")
    yield (
        f"postgresql://{POSTGRES_HOST}:{POSTGRES_PORT}/{POSTGRES_DB}"
        f"?options=-csearch_path%3D{schema}"
    )
    with psycopg.connect(dsn, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def redis_url():
    try:
        import redis
    except ImportError:
        unavailable("redis is not installed (pip install -e '.[test]')")
    url = f"redis://{REDIS_HOST}:{REDIS_PORT}/0"
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2)
        client.ping()
        client.close()
    except redis.RedisError as error:
        unavailable(f"Redis is not reachable at {REDIS_HOST}:{REDIS_PORT}: {error}")
    return url


@pytest.fixture(scope="session")
def chromium():
    """Path of Debian's Chromium (Playwright drives it; it never downloads a browser)."""
    path = shutil.which(CHROMIUM) or (CHROMIUM if Path(CHROMIUM).exists() else None)
    if not path:
        unavailable(f"Chromium not found at {CHROMIUM} (apt-get install chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        unavailable("playwright is not installed (pip install -e '.[test]')")
    return path


@pytest.fixture
def browser(chromium):
    """Debian's Chromium, launched through Playwright with the settings in tests/browser.py;
    every page a test opens is checked by axe-core (tests/axe.py)."""
    from playwright.sync_api import sync_playwright

    from .axe import AXE, Watch, axe_source
    from .browser import launch

    source = axe_source()
    if source is None and services_required():
        pytest.fail(f"required tool unavailable: axe-core not found at {AXE}", pytrace=False)
    with sync_playwright() as playwright:
        browser = launch(playwright, chromium)
        # axe-core checks every page the test opens (tests/axe.py).
        watch = Watch(browser, source)
        yield browser
        try:
            watch.finish()
        finally:
            watch.stop()
            browser.close()


@pytest.fixture
def serve(make_app):
    """``serve(**config)``: an app made with ``config``, served on 127.0.0.1 in a thread
    (tests/browser.py's Server) and stopped after the test."""
    from .browser import Server

    running = []

    def start(**config):
        running.append(Server(make_app(**config)))
        return running[-1]

    yield start
    for server in running:
        server.stop()


@pytest.fixture
def server(serve):
    """The app as the browser tests of Play mode want it: served like production (not in
    testing mode), its event streams sending a keep-alive every second. A test module that
    needs other settings defines its own ``server`` with ``serve``."""
    return serve(TESTING=False, TABLES_SSE_KEEPALIVE=1)


@pytest.fixture
def base_url(serve):
    """The address of the app (default test config) served on 127.0.0.1 in a thread."""
    return serve().url
