"""Who may hold a live stream, and how many.

**Stream tickets.** A browser's ``EventSource`` cannot send an ``Authorization`` header, so
the API trades a credential for a short-lived signed ticket (itsdangerous, keyed by
``SECRET_KEY``) that the page puts in the stream's address. A ticket names what it opens
(a table code, or a score sheet's watch code), in which role (``host``, ``seat`` with its
number, or ``watch`` for a spectator) and is good for ``STREAM_TICKET_SECONDS`` (60) to
*open* a stream; an open stream then lives its normal life. Checking one needs neither the
database nor Redis, so a stream without a good ticket is refused (401) before it costs a
query or a subscription. A ticket is useless for anything but opening a stream, which
carries only what every phone of that table may see.

**Limits.** Open streams are counted per client address (``STREAMS_PER_ADDRESS``) and per
table or sheet (``STREAMS_PER_TABLE``); past either a new stream is answered 429 with the
JSON error. Without ``REDIS_URL`` the counts live in this process's memory (the embedded
default is one process). With ``REDIS_URL`` they are counted across every worker process in
Redis: each open stream is a member of two sorted sets (its address's and its table's)
scored with the time it expires; its process pushes that time forward every third of
``STREAM_LIMITS_SECONDS`` (30) while the stream is open and removes it when the stream
ends, so a worker that dies without closing its streams stops counting within that time.
Acquiring is one Lua script (drop the expired, count, add), so two workers cannot both
take the last place.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from typing import Any

from flask import current_app, jsonify, request
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from . import live

log = logging.getLogger(__name__)

TICKET_SECONDS = 60
PER_ADDRESS = 200
PER_TABLE = 40


class StreamRefused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


# -- tickets --------------------------------------------------------------------------------


def _serializer(kind: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=f"stream-ticket:{kind}")


def issue(
    kind: str, target: str, role: str, seat: int | None = None, holder: str | None = None
) -> str:
    """A ticket that opens ``kind``'s (``table`` or ``sheet``) stream of ``target``.
    ``holder`` names the credential it was issued for (a mark of its token, never the
    token), so that a stream that carries its holder's own view can tell when the seat or
    the host role has passed to someone else."""
    claims = {"t": target, "r": role, "s": seat}
    if holder is not None:
        claims["h"] = holder
    return _serializer(kind).dumps(claims)


def ticket_seconds() -> int:
    return int(current_app.config.get("STREAM_TICKET_SECONDS", TICKET_SECONDS))


def check(kind: str, target: str, ticket: str | None) -> dict[str, Any]:
    """The ticket's claims when it is good for ``target``; :class:`StreamRefused` 401
    otherwise (missing, forged, expired, for another table or another kind)."""
    if not ticket:
        raise StreamRefused(
            401, "A live stream needs a ticket (?ticket=…): ask the API for one first."
        )
    if len(ticket) > 400:
        raise StreamRefused(401, "That stream ticket is not valid.")
    try:
        claims = _serializer(kind).loads(ticket, max_age=ticket_seconds())
    except SignatureExpired:
        raise StreamRefused(401, "That stream ticket has expired; ask for a new one.") from None
    except BadSignature:
        raise StreamRefused(401, "That stream ticket is not valid.") from None
    if not isinstance(claims, dict) or claims.get("t") != target:
        raise StreamRefused(401, "That stream ticket is for another table.")
    return claims


# -- limits ---------------------------------------------------------------------------------


def too_many_from_address(per_address: int) -> StreamRefused:
    return StreamRefused(
        429,
        f"Too many live streams from this address (at most {per_address}); "
        "close some pages or try again later.",
    )


def too_many_on_table(per_table: int) -> StreamRefused:
    return StreamRefused(
        429,
        f"Too many live streams on this table (at most {per_table}); "
        "this page updates by polling instead.",
    )


def unavailable() -> StreamRefused:
    return StreamRefused(
        503, "Live updates are unavailable for a moment; this page updates by polling."
    )


class Limits:
    """Open streams of this process, counted per client address and per table."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.by_address: Counter[str] = Counter()
        self.by_table: Counter[str] = Counter()

    def acquire(self, address: str, table: str, per_address: int, per_table: int) -> object:
        """Count one more stream, or :class:`StreamRefused` 429; returns what
        :meth:`release` takes back."""
        with self._lock:
            if self.by_address[address] >= per_address:
                raise too_many_from_address(per_address)
            if self.by_table[table] >= per_table:
                raise too_many_on_table(per_table)
            self.by_address[address] += 1
            self.by_table[table] += 1
        return None

    def release(self, address: str, table: str, held: object = None) -> None:
        with self._lock:
            for counter, key in ((self.by_address, address), (self.by_table, table)):
                counter[key] -= 1
                if counter[key] <= 0:
                    del counter[key]

    def open_streams(self) -> int:
        with self._lock:
            return sum(self.by_address.values())

    def close(self) -> None:
        pass


# Drop the expired members of both sets, count, add: one atomic step in Redis.
ACQUIRE = """
local now, expires, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[5]) then return 1 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[6]) then return 2 end
redis.call('ZADD', KEYS[1], expires, ARGV[4])
redis.call('ZADD', KEYS[2], expires, ARGV[4])
redis.call('EXPIRE', KEYS[1], ttl)
redis.call('EXPIRE', KEYS[2], ttl)
return 0
"""


# Push the expiry of many streams forward: KEYS are sets, ARGV the new expiry, the sets'
# time to live, then for each set the count of its members here and those members.
REFRESH = """
local expires, ttl, at = ARGV[1], tonumber(ARGV[2]), 3
for _, key in ipairs(KEYS) do
  local members = tonumber(ARGV[at])
  for i = at + 1, at + members do
    redis.call('ZADD', key, 'XX', expires, ARGV[i])
  end
  at = at + members + 1
  redis.call('EXPIRE', key, ttl)
end
return 0
"""

# Sets refreshed by one call of ``REFRESH``: a worker holding thousands of streams sends a
# few calls, each short for Redis, and lets its other greenlets run between them.
REFRESH_KEYS = 500


class RedisLimits:
    """Open streams of every process that shares this Redis (see the module's notes)."""

    def __init__(
        self,
        url: str,
        prefix: str = "companion:streams:",
        seconds: float = 30.0,
        max_connections: int = 10,
    ):
        import redis  # the "scale" extra; only needed when REDIS_URL is set

        self.prefix = prefix
        self.seconds = float(seconds)
        self._pool = redis.BlockingConnectionPool.from_url(
            url,
            max_connections=max_connections,
            timeout=5,
            decode_responses=True,
            socket_connect_timeout=5,
            socket_timeout=5,
        )
        self._redis = redis.Redis(connection_pool=self._pool)
        self._acquire = self._redis.register_script(ACQUIRE)
        self._refresh = self._redis.register_script(REFRESH)
        self._lock = threading.Lock()
        self._mine: dict[str, tuple[str, str]] = {}  # member -> (address key, table key)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pid = os.getpid()

    def _keys(self, address: str, table: str) -> tuple[str, str]:
        return f"{self.prefix}address:{address}", f"{self.prefix}table:{table}"

    def acquire(self, address: str, table: str, per_address: int, per_table: int) -> str:
        keys = self._keys(address, table)
        member = f"{os.getpid()}:{uuid.uuid4().hex}"
        now = time.time()
        ttl = max(1, int(self.seconds + 1))
        args = [now, now + self.seconds, ttl, member, per_address, per_table]
        try:
            answer = int(self._acquire(keys=list(keys), args=args))
        except Exception:  # Redis unreachable: no stream can be counted, so none opens
            log.warning("Could not count a stream in Redis", exc_info=True)
            raise unavailable() from None
        if answer == 1:
            raise too_many_from_address(per_address)
        if answer == 2:
            raise too_many_on_table(per_table)
        with self._lock:
            self._mine[member] = keys
        self._ensure_heartbeat()
        return member

    def release(self, address: str, table: str, held: object = None) -> None:
        with self._lock:
            keys = self._mine.pop(str(held), None)
        if keys is None:
            return
        try:
            with self._redis.pipeline(transaction=False) as pipe:
                for key in keys:
                    pipe.zrem(key, held)
                pipe.execute()
        except Exception:  # it expires by itself; a release must never fail a response
            log.warning("Could not give a stream's place back in Redis", exc_info=True)

    def open_streams(self) -> int:
        """The open streams of this process (the others count in Redis too)."""
        with self._lock:
            return len(self._mine)

    def counted(self, address: str, table: str) -> tuple[int, int]:
        """Live members of an address's and a table's sets, across processes."""
        now = time.time()
        keys = self._keys(address, table)
        return (
            self._redis.zcount(keys[0], now, "+inf"),
            self._redis.zcount(keys[1], now, "+inf"),
        )

    def heartbeat(self) -> None:
        """Push the expiry of this process's open streams forward: one script call per
        ``REFRESH_KEYS`` sets (a command per stream and set, as a pipeline sent before,
        cost a worker holding 2,500 streams some 7,000 commands to build every 10 s, all
        at once, while every stream of that worker waited)."""
        with self._lock:
            mine = list(self._mine.items())
        if not mine:
            return
        by_key: dict[str, list[str]] = {}
        for member, keys in mine:
            for key in keys:
                by_key.setdefault(key, []).append(member)
        expires = time.time() + self.seconds
        ttl = max(1, int(self.seconds + 1))
        keys = list(by_key)
        for start in range(0, len(keys), REFRESH_KEYS):
            chunk = keys[start : start + REFRESH_KEYS]
            args: list[Any] = [expires, ttl]
            for key in chunk:
                args += [len(by_key[key]), *by_key[key]]
            self._refresh(keys=chunk, args=args)
            time.sleep(0)  # under gevent: the worker's other greenlets run meanwhile

    def _ensure_heartbeat(self) -> None:
        with self._lock:
            if self._pid != os.getpid():  # forked after use: the parent's thread is not ours
                self._pid = os.getpid()
                self._mine.clear()
                self._thread = None
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._beat, name="companion-stream-limits", daemon=True
                )
                self._thread.start()

    def _beat(self) -> None:
        while not self._stop.wait(self.seconds / 3):
            try:
                self.heartbeat()
            except Exception:  # Redis unreachable for a moment: try again next beat
                log.warning("Could not refresh the open streams in Redis", exc_info=True)

    def close(self) -> None:
        self._stop.set()
        with self._lock:
            mine = list(self._mine)
        for member in mine:
            self.release("", "", member)
        self._redis.close()
        self._pool.disconnect()


LISTEN_BACKLOG = 2048  # as gunicorn.conf.py's; the kernel caps it (net.core.somaxconn)


def widen_listen_queue(size: int) -> None:
    """``flask run`` (the README's default command) serves with Werkzeug's development
    server, which listens with a queue of 128 connections: phones opening their streams in
    a burst (300 at once) overflow it, the kernel drops the extra connection attempts and
    each is retried by its client a second later. ``flask run`` creates the app before that
    server binds its socket, so a longer queue set here is the one it listens with. Other
    servers (gunicorn) ignore it."""
    try:
        from werkzeug.serving import BaseWSGIServer
    except ImportError:  # pragma: no cover - Werkzeug comes with Flask
        return
    if BaseWSGIServer.request_queue_size < size:
        BaseWSGIServer.request_queue_size = size


def init_app(app) -> None:
    widen_listen_queue(int(app.config.get("LISTEN_BACKLOG", LISTEN_BACKLOG)))
    url = app.config.get("REDIS_URL")
    if url:
        app.extensions["stream_limits"] = RedisLimits(
            url,
            prefix=app.config.get("STREAM_LIMITS_PREFIX", "companion:streams:"),
            seconds=float(app.config.get("STREAM_LIMITS_SECONDS", 30)),
            max_connections=int(app.config.get("REDIS_MAX_CONNECTIONS", 10)),
        )
    else:
        app.extensions["stream_limits"] = Limits()

    @app.errorhandler(StreamRefused)
    def refused(error: StreamRefused):
        response = jsonify({"error": error.message, "status": error.status})
        response.status_code = error.status
        response.headers["Cache-Control"] = "no-store"
        if error.status == 401:
            response.headers["WWW-Authenticate"] = 'Bearer realm="stream"'
        if error.status == 503:
            response.headers["Retry-After"] = str(live.RETRY_AFTER)
        return response

    @app.errorhandler(live.Unavailable)
    def broker_down(error: live.Unavailable):
        """The broker (Redis) cannot give a subscription: 503 with ``Retry-After``."""
        log.warning("A stream was refused: the live broker is unavailable (%s)", error)
        return refused(unavailable())


def limits() -> Limits | RedisLimits:
    return current_app.extensions["stream_limits"]


def admit(table_key: str) -> Callable[[], None]:
    """Count one more stream for this request's client address and ``table_key``
    (:class:`StreamRefused` 429 past a limit); returns the function that gives it back."""
    config = current_app.config
    address = request.remote_addr or "?"
    counts = limits()
    held = counts.acquire(
        address,
        table_key,
        int(config.get("STREAMS_PER_ADDRESS", PER_ADDRESS)),
        int(config.get("STREAMS_PER_TABLE", PER_TABLE)),
    )
    released = []

    def release() -> None:
        if not released:
            released.append(True)
            counts.release(address, table_key, held)

    return release
