"""Live-update broker: tell every listener on a channel that something changed.

Engine mode publishes on a table's channel after each accepted action; each open
server-sent-events stream subscribes to it and tells its phone what changed.

Two implementations with one interface:

* :class:`InProcessBroker` (default): fan-out in this process's memory. Right for the
  embedded default (one process, several threads).
* :class:`RedisBroker` (when ``REDIS_URL`` is set): Redis pub/sub, so that several worker
  processes, or machines, see each other's messages. Each process holds **one** Redis
  subscription (a pattern over every channel of the app) read by one listener thread
  (a greenlet under gevent), which hands each message to the local subscriptions of its
  channel. A subscription costs no Redis connection and no thread of its own; publishing
  borrows a connection from a pool of ``REDIS_MAX_CONNECTIONS``.

Messages are strings (callers encode JSON themselves). Delivery is at most once, to the
subscriptions open when the message is published: a subscriber must refetch state after
subscribing rather than rely on having seen every message. :meth:`Broker.subscribe` returns
only once the subscription is live, so a message published after it returns is delivered.
If the Redis connection drops, every local subscription is ended (its stream closes and the
phone reconnects and refetches), so a message lost in the gap is never silently missed.

Usage, inside an app context::

    from companion import live

    live.publish(f"table:{code}", str(version))
    with live.subscribe(f"table:{code}") as sub:
        for message in sub.listen(timeout=15):   # None after 15 s of silence
            ...
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import TypeVar

from flask import Flask, Response, current_app, request

log = logging.getLogger(__name__)

T = TypeVar("T")

KEEP = 64  # messages a slow subscription may fall behind before the oldest are dropped


class Subscription:
    """One listener on one channel. Close it (or use ``with``) when done."""

    channel: str

    def get(self, timeout: float | None = None) -> str | None:
        """The next message, or ``None`` if none arrives within ``timeout`` seconds (or the
        subscription is closed)."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def listen(self, timeout: float) -> Iterator[str | None]:
        """Messages as they come; ``None`` after each ``timeout`` seconds of silence
        (a chance to send a keep-alive). Ends when the subscription is closed."""
        while not self.closed:
            yield self.get(timeout)

    @property
    def closed(self) -> bool:
        raise NotImplementedError

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Unavailable(Exception):
    """The broker cannot take a subscription now (Redis unreachable): a stream is answered
    503 with ``Retry-After`` (see :mod:`companion.streams`), and the phone polls meanwhile."""


RETRY_AFTER = 5  # seconds a refused stream is told to wait


class Broker:
    # Whether a message reaches other processes (and so must carry what they cannot share).
    crosses_processes = False
    _arrival_hooks: tuple[Callable[[str, str], None], ...] = ()

    def on_arrival(self, hook: Callable[[str, str], None]) -> None:
        """Call ``hook(channel, message)`` for each message from another process that a
        subscription of this process follows, before any of them is woken (the tables
        keep the facts a message carries at once: a move that reaches this process right
        after finds its table's copy up to date). A hook that fails is logged."""
        self._arrival_hooks = (*self._arrival_hooks, hook)

    def arrived(self, channel: str, message: str) -> None:
        for hook in self._arrival_hooks:
            try:
                hook(channel, message)
            except Exception:  # the message is still delivered
                log.exception("an arrival hook failed on %s", channel)

    def publish(self, channel: str, message: str) -> None:
        raise NotImplementedError

    def subscribe(self, channel: str) -> Subscription:
        raise NotImplementedError

    def close(self) -> None:
        pass


class _Mailbox(Subscription):
    """A subscription fed by its process's fan-out: a queue to wait on. ``queue.SimpleQueue``
    is the C one under threads and gevent's own under gevent (its monkey-patching replaces
    it): a wait is one call, where a condition's wait with a timeout took a lock, a
    waiter's lock and a timer of Python code, for every event of every stream."""

    def __init__(self, fanout: _Fanout, channel: str):
        self.channel = channel
        self._fanout = fanout
        self._items: queue.SimpleQueue = queue.SimpleQueue()
        self._closed = False

    def put(self, message: str) -> None:
        if self._items.qsize() >= KEEP:  # a reader that fell behind loses the oldest
            with contextlib.suppress(queue.Empty):
                self._items.get_nowait()
        self._items.put(message)

    def get(self, timeout: float | None = None) -> str | None:
        if self._closed:
            return None
        try:
            message = self._items.get(timeout=None if timeout is None else max(timeout, 0.0))
        except queue.Empty:
            return None
        if message is _CLOSED:
            self._items.put(_CLOSED)  # for any other reader
            return None
        return message

    def end(self) -> None:
        """Closed by the broker (its connection dropped): wakes a waiting reader."""
        if not self._closed:
            self._closed = True
            self._items.put(_CLOSED)

    def close(self) -> None:
        self.end()
        self._fanout.remove(self)

    @property
    def closed(self) -> bool:
        return self._closed


_CLOSED = object()  # put in a mailbox when it closes: its waiting reader wakes


class _Fanout:
    """The subscriptions of this process, by channel."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._channels: dict[str, set[_Mailbox]] = {}

    def add(self, channel: str) -> _Mailbox:
        box = _Mailbox(self, channel)
        with self._lock:
            self._channels.setdefault(channel, set()).add(box)
        return box

    def remove(self, box: _Mailbox) -> None:
        with self._lock:
            boxes = self._channels.get(box.channel)
            if boxes is not None:
                boxes.discard(box)
                if not boxes:
                    del self._channels[box.channel]

    def deliver(self, channel: str, message: str) -> int:
        with self._lock:
            boxes = list(self._channels.get(channel, ()))
        for box in boxes:
            box.put(message)
        return len(boxes)

    def count(self, channel: str | None = None) -> int:
        with self._lock:
            if channel is not None:
                return len(self._channels.get(channel, ()))
            return sum(len(boxes) for boxes in self._channels.values())

    def end_all(self) -> None:
        with self._lock:
            boxes = [box for group in self._channels.values() for box in group]
            self._channels.clear()
        for box in boxes:
            box.end()


# -- in process ---------------------------------------------------------------------------


class InProcessBroker(Broker):
    """Thread-safe fan-out to the subscriptions of this process."""

    def __init__(self) -> None:
        self._fanout = _Fanout()

    def publish(self, channel: str, message: str) -> None:
        self._fanout.deliver(channel, message)

    def subscribe(self, channel: str) -> Subscription:
        return self._fanout.add(channel)

    def subscriber_count(self, channel: str | None = None) -> int:
        return self._fanout.count(channel)


# -- Redis --------------------------------------------------------------------------------


class RedisBroker(Broker):
    """Redis pub/sub with one pattern subscription per process. Channel names get a prefix
    so several apps may share one Redis."""

    crosses_processes = True

    def __init__(
        self,
        url: str,
        prefix: str = "companion:",
        connect_timeout: float = 5.0,
        max_connections: int = 10,
    ):
        import redis  # the "scale" extra; only needed when REDIS_URL is set

        self.prefix = prefix
        self._url = url
        self._connect_timeout = connect_timeout
        # Publishing borrows a connection for one command: a small pool, sized on purpose,
        # that waits (up to 5 s) for a free connection rather than opening more.
        self._pool = redis.BlockingConnectionPool.from_url(
            url,
            max_connections=max_connections,
            timeout=5,
            decode_responses=True,
            socket_connect_timeout=connect_timeout,
            socket_timeout=5,
        )
        self._redis = redis.Redis(connection_pool=self._pool)
        self._fanout = _Fanout()
        self._lock = threading.Lock()
        self._listening = threading.Event()
        self._failed = threading.Event()  # the listener's last attempt to reach Redis failed
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pid = os.getpid()
        self.reconnects = 0
        # How this process's subscription shows in Redis's CLIENT LIST.
        self.listener_name = "companion-live-" + "".join(c for c in prefix if c.isalnum())

    # publishing
    def publish(self, channel: str, message: str) -> None:
        self._redis.publish(self.prefix + channel, message)

    # subscribing
    def subscribe(self, channel: str, timeout: float = 5.0) -> Subscription:
        """A subscription once this process's listener is live; :class:`Unavailable` at
        once when its last attempt to reach Redis failed, or after ``timeout`` seconds."""
        self._ensure_listener()
        deadline = time.monotonic() + timeout
        while not self._listening.wait(0.05):
            if self._failed.is_set() or time.monotonic() >= deadline:
                raise Unavailable("Redis did not confirm this process's subscription")
        return self._fanout.add(channel)

    def subscriber_count(self, channel: str | None = None) -> int:
        return self._fanout.count(channel)

    def _ensure_listener(self) -> None:
        with self._lock:
            if self._pid != os.getpid():  # forked after use: the parent's thread is not ours
                self._pid = os.getpid()
                self._fanout = _Fanout()
                self._listening = threading.Event()
                self._thread = None
            if self._thread is None or not self._thread.is_alive():
                self._stop.clear()
                self._thread = threading.Thread(
                    target=self._listen, name="companion-live", daemon=True
                )
                self._thread.start()

    def _listen(self) -> None:
        import redis

        pause = 0.5
        while not self._stop.is_set():
            client = redis.Redis.from_url(
                self._url,
                decode_responses=True,
                socket_connect_timeout=self._connect_timeout,
                socket_keepalive=True,
                client_name=self.listener_name,
            )
            pubsub = client.pubsub(ignore_subscribe_messages=False)
            confirmed = False
            try:
                pubsub.psubscribe(self.prefix + "*")
                while not self._stop.is_set():
                    message = pubsub.get_message(timeout=1.0)
                    if message is None:
                        continue
                    kind = message["type"]
                    if kind == "psubscribe":
                        confirmed = True
                        self._failed.clear()
                        self._listening.set()
                        pause = 0.5
                    elif kind == "pmessage":
                        channel = message["channel"][len(self.prefix) :]
                        if self._fanout.count(channel):
                            self.arrived(channel, message["data"])
                        self._fanout.deliver(channel, message["data"])
            except Exception:  # the connection dropped: end the streams, then reconnect
                if not confirmed:  # Redis could not be reached: refuse streams meanwhile
                    self._failed.set()
                if not self._stop.is_set():
                    log.warning("Redis subscription lost; reconnecting", exc_info=True)
            finally:
                self._listening.clear()
                self._fanout.end_all()
                try:
                    pubsub.close()
                    client.close()
                except Exception:  # pragma: no cover - closing a broken connection
                    pass
            if not self._stop.is_set():
                self.reconnects += 1
                self._stop.wait(pause)
                pause = min(pause * 2, 10.0)

    def close(self) -> None:
        self._stop.set()
        thread = self._thread
        if thread is not None and thread.is_alive() and self._pid == os.getpid():
            thread.join(5)
        self._fanout.end_all()
        self._redis.close()
        self._pool.disconnect()


# -- app binding --------------------------------------------------------------------------


def make_broker(redis_url: str | None, max_connections: int = 10) -> Broker:
    if redis_url:
        return RedisBroker(redis_url, max_connections=max_connections)
    return InProcessBroker()


SEVERAL_WORKERS = (
    "This server runs several worker processes but REDIS_URL is not set: live updates "
    "made in one process would never reach phones held by another. Set REDIS_URL, or run "
    "one worker (gunicorn --workers 1)."
)


def init_app(app: Flask) -> None:
    app.extensions["live"] = make_broker(
        app.config.get("REDIS_URL"), int(app.config.get("REDIS_MAX_CONNECTIONS", 10))
    )

    @app.before_request
    def refuse_several_workers_without_redis():
        """The app-level guard: a WSGI server that says it runs several processes
        (``wsgi.multiprocess``, set by gunicorn when ``--workers`` > 1) with the
        in-process broker would lose events; refuse every request, loudly."""
        if request.environ.get("wsgi.multiprocess") and isinstance(
            app.extensions["live"], InProcessBroker
        ):
            app.logger.critical(SEVERAL_WORKERS)
            response = Response(
                json.dumps({"error": SEVERAL_WORKERS, "status": 503}),
                status=503,
                mimetype="application/json",
            )
            return response
        return None


def broker() -> Broker:
    return current_app.extensions["live"]


def publish(channel: str, message: str) -> None:
    """Tell ``channel``'s listeners; never raises. It is called after a change was
    committed, so a broker that is down (Redis unreachable) must not turn the change's
    answer into an error: the message is dropped with a log line, and phones catch up by
    their next read (a stream that lost Redis has ended, and reconnects to a fresh read)."""
    try:
        broker().publish(channel, message)
    except Exception:
        log.warning("Could not announce on %s; the message is dropped", channel, exc_info=True)


def subscribe(channel: str) -> Subscription:
    """A subscription to ``channel``; :class:`Unavailable` when the broker cannot give one."""
    try:
        return broker().subscribe(channel)
    except Unavailable:
        raise
    except Exception as error:  # Redis refused, reset or timed out
        raise Unavailable(str(error)) from error


# -- one build for many streams ------------------------------------------------------------

_building: dict[object, threading.Lock] = {}
_building_guard = threading.Lock()


def once(key: object, peek: Callable[[], T | None], build: Callable[[], T]) -> T:
    """``peek()`` if it finds something, else ``build()``, with concurrent callers of this
    process for the same ``key`` waiting for the first one's build and then peeking again
    (``build`` is expected to leave its result where ``peek`` finds it). An event wakes
    every stream of a table at once: without this, each of them would miss the cache and
    read and encode the same version again."""
    found = peek()
    if found is not None:
        return found
    with _building_guard:
        lock = _building.setdefault(key, threading.Lock())
    try:
        with lock:
            found = peek()
            return found if found is not None else build()
    finally:
        with _building_guard:
            if _building.get(key) is lock and not lock.locked():
                del _building[key]


# -- server-sent events ---------------------------------------------------------------------

END = "\x00end"  # returned by an event stream's ``data``: send nothing more, close the stream

# Seconds of silence before a stream's ``ping`` (``TABLES_SSE_KEEPALIVE``). 15 s, as the
# HTML standard suggests against proxies that drop a silent connection, and below the
# 20 s a phone waits for its first ping (``static/js/table-live.js``, ``score.js``). At 5 s
# the pings of 5,000 streams cost as much CPU as the events when a table moved every 5 s
# (bench/README.md); at 15 s a playing table's phones hear an event before any ping.
KEEPALIVE = 15.0


def event_stream(
    subscription: Subscription,
    event: str,
    first: str,
    *,
    data: Callable[[str], str | None] | None = None,
    on_close: Callable[[], None] | None = None,
) -> Response:
    """A server-sent-events response: ``event`` with ``first`` now, then one for each
    message of ``subscription`` (its data is ``data(message)`` when given; ``None`` skips
    the message, :data:`END` ends the stream), and a ``ping`` event (its data: the
    keep-alive interval in seconds) after ``TABLES_SSE_KEEPALIVE`` seconds of silence, so that a
    dead connection fails on the next write and a client can treat a longer silence as a
    failure. The stream ends after ``TABLES_SSE_SECONDS`` (the browser reconnects) or, for
    tests, after ``TABLES_SSE_MAX_EVENTS`` events. Closing the response (also when the
    client went away before the first byte) closes the subscription and calls ``on_close``
    once. Subscribe before reading ``first``, so that a change in between is either in
    ``first`` or announced."""
    config = current_app.config
    keepalive = float(config.get("TABLES_SSE_KEEPALIVE", KEEPALIVE))
    lifetime = float(config.get("TABLES_SSE_SECONDS", 300))
    max_events = config.get("TABLES_SSE_MAX_EVENTS")
    ping = f"event: ping\ndata: {keepalive:g}\n\n"
    closed = []

    def finish() -> None:
        if closed:
            return
        closed.append(True)
        try:
            subscription.close()
        finally:
            if on_close is not None:
                on_close()

    def stream():
        sent = 0
        deadline = time.monotonic() + lifetime
        try:
            yield "retry: 2000\n\n"
            yield f"event: {event}\ndata: {first}\n\n"
            sent += 1
            while max_events is None or sent < max_events:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                message = subscription.get(timeout=min(keepalive, left))
                if message is None:
                    if subscription.closed:
                        break
                    yield ping
                    continue
                body = data(message) if data is not None else message
                if body is None:
                    continue
                if body is END:
                    break
                yield f"event: {event}\ndata: {body}\n\n"
                sent += 1
        finally:
            finish()

    response = Response(stream(), mimetype="text/event-stream")
    response.call_on_close(finish)
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response
