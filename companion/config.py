"""Configuration defaults.

Everything can be overridden from the environment:

``DATABASE_URL``  SQLAlchemy URL; default SQLite file ``instance/companion.sqlite3``.
``SECRET_KEY``    session signing key; default a random key generated once and kept in
                  ``instance/secret_key`` (never a key written in the code).
``REDIS_URL``     when set, live updates go through Redis pub/sub (several workers).
``PUBLIC_URL``    the address phones use to reach the app (for join links and QR codes).
``AUTO_MIGRATE``  ``0`` turns off bringing the schema up to date on start.
``DB_POOL_SIZE``, ``DB_MAX_OVERFLOW``, ``DB_POOL_TIMEOUT``  each process's pool of
                  database connections (PostgreSQL): 20, 0 and 10 s by default.
``RATELIMIT_*``, ``PROXY_HOPS``  rate limits against abuse (see :mod:`companion.limits`).
``CONNECTIONS_PER_ADDRESS``, ``CONNECTION_TIMEOUT``  open connections a server holds per
                  client address (default 500; 0 for none; off with ``PROXY_HOPS``) and,
                  under ``flask run``, seconds a silent connection is kept (default 60).
``STREAMS_PER_ADDRESS``, ``STREAMS_PER_TABLE``  open live streams a process allows per
                  client address (default 200) and per table or sheet (default 40).
``BOT_DELAY``     a bot's pause before it moves, seconds, ``low,high`` (default ``0.8,1.5``).
``BOT_WORKER``    who plays bot seats: ``thread`` (default), ``rq`` (default with
                  ``REDIS_URL``: ``flask --app companion bots`` workers) or ``off``.
``BOT_THINKING``  seconds of bot thinking one client address may use, as a limit
                  (default ``30 per minute``; see :mod:`companion.thinking`).

``BOT_BUDGETS`` (``instance/config.py`` only) the bots' thinking per level, as
``companion.bots.BUDGETS``: ``{"normal": {"iterations": n, "seconds": s}, ...}``.

``instance/config.py`` may set the same names (``DATABASE_URL`` included); it wins over the
environment.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from . import connections, limits
from .bots import BUDGETS as BOT_BUDGETS


def normalise_database_url(url: str) -> str:
    """``postgres://`` and ``postgresql://`` URLs get SQLAlchemy's psycopg 3 driver."""
    if url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.removeprefix("postgres://")
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url.removeprefix("postgresql://")
    return url


# The database connection pool of each process, sized on purpose for gevent workers (see
# docs/architecture.md, "Connection pools"): a worker serves thousands of connections at
# once (gunicorn's worker_connections), so its pool, not the number of requests, caps its
# database connections. A request holds one only while it runs (a stream gives its back
# before it starts waiting); one that waits longer than the timeout for a free connection
# is answered 503. Workers x (size + overflow) must stay below the server's
# max_connections (PostgreSQL's default is 100).
# No overflow by default: SQLAlchemy closes an overflow connection as soon as it is given
# back, so a steady concurrency above the pool's size opened and closed a PostgreSQL
# connection (a server process) for every request: a third of the views did at 16
# clients on one gevent worker with the old 5 + 10. Above the size, requests queue for a
# kept connection instead (a paused greenlet each).
POOL_SIZE = 20  # DB_POOL_SIZE: connections kept open per process (opened as needed)
POOL_OVERFLOW = 0  # DB_MAX_OVERFLOW: more opened for a burst, closed again after it
POOL_TIMEOUT = 10  # DB_POOL_TIMEOUT: seconds a request waits for a free connection


def engine_options(uri: str, environ=os.environ) -> dict:
    """SQLAlchemy engine options for ``uri``: no pre-ping (a dead connection is retried
    once, ``database.retry_if_disconnected``), recycled before servers' idle timeouts, and
    on a database server (not SQLite, whose one-file pools SQLAlchemy chooses) a pool of the
    sizes above, each overridable from the environment."""
    options: dict = {"pool_recycle": 1800}
    if uri.startswith("sqlite"):
        return options
    options["pool_size"] = int(environ.get("DB_POOL_SIZE") or POOL_SIZE)
    options["max_overflow"] = int(environ.get("DB_MAX_OVERFLOW") or POOL_OVERFLOW)
    options["pool_timeout"] = float(environ.get("DB_POOL_TIMEOUT") or POOL_TIMEOUT)
    return options


def database_url(instance_path: str) -> str:
    url = os.environ.get("DATABASE_URL")
    if url:
        return normalise_database_url(url)
    return "sqlite:///" + str(Path(instance_path) / "companion.sqlite3")


def secret_key(instance_path: str) -> str:
    """The key from the environment, else one generated on first run and kept on disk."""
    key = os.environ.get("SECRET_KEY")
    if key:
        return key
    path = Path(instance_path) / "secret_key"
    if path.exists():
        return path.read_text().strip()
    key = secrets.token_urlsafe(48)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Create readable by the owner only; never overwrite a key another process just wrote.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as fh:
        fh.write(key)
    return key


# Text responses compressed by Flask-Compress: brotli where the browser takes it, else gzip.
# Event streams (text/event-stream) are not in the list: each event must leave at once.
COMPRESSION = {
    "COMPRESS_MIMETYPES": [
        "text/html",
        "text/css",
        "text/javascript",
        "application/javascript",
        "application/json",
        "application/manifest+json",
        "image/svg+xml",
        "text/csv",
        "text/plain",
    ],
    "COMPRESS_ALGORITHM": ["br", "gzip"],
    # Static text files are compressed once at the best level (assets.compressed_static);
    # any other streamed text response gets brotli or deflate (no gzip for streams).
    "COMPRESS_ALGORITHM_STREAMING": ["br", "deflate"],
    "COMPRESS_BR_LEVEL": 5,
    "COMPRESS_MIN_SIZE": 500,
}


def bot_delay(text: str | None) -> tuple[float, float]:
    """``"0.8,1.5"`` (or one number) as a (low, high) range of seconds."""
    if not text:
        return (0.8, 1.5)
    parts = [float(part) for part in text.split(",")]
    low, high = (parts[0], parts[0]) if len(parts) == 1 else (parts[0], parts[1])
    if not 0 <= low <= high:
        raise ValueError(f"BOT_DELAY must be low,high seconds with 0 <= low <= high: {text!r}")
    return (low, high)


def defaults(instance_path: str) -> dict:
    return {
        "SECRET_KEY": secret_key(instance_path),
        "SQLALCHEMY_DATABASE_URI": database_url(instance_path),
        # Filled in by create_app once the database URL is final (engine_options above),
        # unless a configuration sets its own.
        "SQLALCHEMY_ENGINE_OPTIONS": None,
        "REDIS_URL": os.environ.get("REDIS_URL") or None,
        "PUBLIC_URL": (os.environ.get("PUBLIC_URL") or "").rstrip("/") or None,
        # Bring the schema up to date on start (the embedded default needs no extra command).
        "AUTO_MIGRATE": os.environ.get("AUTO_MIGRATE", "1") != "0",
        "BOT_DELAY": bot_delay(os.environ.get("BOT_DELAY")),
        "BOT_WORKER": os.environ.get("BOT_WORKER") or None,
        # Seconds of bot thinking one client address may use (companion.thinking).
        "BOT_THINKING": os.environ.get("BOT_THINKING") or "30 per minute",
        # On start, queue a move for every bot that was to act when the app last stopped.
        "BOT_RESUME": True,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "MAX_CONTENT_LENGTH": 64 * 1024,
        "STREAMS_PER_ADDRESS": int(os.environ.get("STREAMS_PER_ADDRESS") or 200),
        "STREAMS_PER_TABLE": int(os.environ.get("STREAMS_PER_TABLE") or 40),
        # Open connections per client address in `flask run` (companion.connections).
        "CONNECTIONS_PER_ADDRESS": connections.per_address(os.environ),
        "CONNECTION_TIMEOUT": float(os.environ.get("CONNECTION_TIMEOUT") or connections.TIMEOUT),
        "WTF_CSRF_TIME_LIMIT": None,
        **limits.settings(os.environ),
        **COMPRESSION,
        # Bots' thinking per level: sampled worlds and a cap in seconds (companion.bots).
        "BOT_BUDGETS": {level: dict(budget) for level, budget in BOT_BUDGETS.items()},
    }
