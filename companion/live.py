"""Live-update broker: tell every listener on a channel that something changed.

Engine mode publishes on a table's channel after each accepted action; each open
server-sent-events stream subscribes to it and tells its phone to refetch its view.

Two implementations with one interface:

* :class:`InProcessBroker` (default): queues in this process's memory. Right for the
  embedded default (one process, several threads).
* :class:`RedisBroker` (when ``REDIS_URL`` is set): Redis pub/sub, so that several worker
  processes, or machines, see each other's messages. Nothing lives in one worker's memory
  that another one needs.

Messages are strings (callers encode JSON themselves). Delivery is at most once, to the
subscriptions open when the message is published: a subscriber must refetch state after
subscribing rather than rely on having seen every message. :meth:`Broker.subscribe` returns
only once the subscription is live, so a message published after it returns is delivered.

Usage, inside an app context::

    from companion import live

    live.publish(f"table:{code}", str(version))
    with live.subscribe(f"table:{code}") as sub:
        for message in sub.listen(timeout=15):   # None after 15 s of silence
            ...
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator
from typing import Any

from flask import Flask, Response, current_app


class Subscription:
    """One listener on one channel. Close it (or use ``with``) when done."""

    channel: str

    def get(self, timeout: float | None = None) -> str | None:
        """The next message, or ``None`` if none arrives within ``timeout`` seconds."""
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


class Broker:
    def publish(self, channel: str, message: str) -> None:
        raise NotImplementedError

    def subscribe(self, channel: str) -> Subscription:
        raise NotImplementedError


# -- in process ---------------------------------------------------------------------------


class _QueueSubscription(Subscription):
    def __init__(self, broker: InProcessBroker, channel: str):
        self.channel = channel
        self._broker = broker
        self._queue: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._closed = False

    def get(self, timeout: float | None = None) -> str | None:
        if self._closed:
            return None
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._broker._remove(self)

    @property
    def closed(self) -> bool:
        return self._closed


class InProcessBroker(Broker):
    """Thread-safe fan-out to the subscriptions of this process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._channels: dict[str, set[_QueueSubscription]] = {}

    def publish(self, channel: str, message: str) -> None:
        with self._lock:
            subscribers = list(self._channels.get(channel, ()))
        for sub in subscribers:
            sub._queue.put(message)

    def subscribe(self, channel: str) -> Subscription:
        sub = _QueueSubscription(self, channel)
        with self._lock:
            self._channels.setdefault(channel, set()).add(sub)
        return sub

    def subscriber_count(self, channel: str) -> int:
        with self._lock:
            return len(self._channels.get(channel, ()))

    def _remove(self, sub: _QueueSubscription) -> None:
        with self._lock:
            subs = self._channels.get(sub.channel)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._channels[sub.channel]


# -- Redis --------------------------------------------------------------------------------


class _RedisSubscription(Subscription):
    def __init__(self, pubsub: Any, channel: str, name: str):
        self.channel = channel
        self._pubsub = pubsub
        self._name = name
        self._closed = False

    def get(self, timeout: float | None = None) -> str | None:
        if self._closed:
            return None
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            wait = 3600.0 if deadline is None else max(0.0, deadline - time.monotonic())
            message = self._pubsub.get_message(timeout=wait)
            if message is not None and message["type"] == "message":
                return message["data"]
            if deadline is not None and time.monotonic() >= deadline:
                return None

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            try:
                self._pubsub.unsubscribe(self._name)
            finally:
                self._pubsub.close()

    @property
    def closed(self) -> bool:
        return self._closed


class RedisBroker(Broker):
    """Redis pub/sub. Channel names get a prefix so several apps may share one Redis."""

    def __init__(self, url: str, prefix: str = "companion:", connect_timeout: float = 5.0):
        import redis  # the "scale" extra; only needed when REDIS_URL is set

        self.prefix = prefix
        self._redis = redis.Redis.from_url(
            url, decode_responses=True, socket_connect_timeout=connect_timeout
        )

    def publish(self, channel: str, message: str) -> None:
        self._redis.publish(self.prefix + channel, message)

    def subscribe(self, channel: str, timeout: float = 5.0) -> Subscription:
        name = self.prefix + channel
        pubsub = self._redis.pubsub()
        try:
            pubsub.subscribe(name)
            # Wait for Redis to confirm, so that a publish after we return is delivered.
            deadline = time.monotonic() + timeout
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"Redis did not confirm the subscription to {name!r}")
                message = pubsub.get_message(timeout=left)
                if message is not None and message["type"] == "subscribe":
                    break
        except BaseException:
            pubsub.close()
            raise
        return _RedisSubscription(pubsub, channel, name)

    def close(self) -> None:
        self._redis.close()


# -- app binding --------------------------------------------------------------------------


def make_broker(redis_url: str | None) -> Broker:
    return RedisBroker(redis_url) if redis_url else InProcessBroker()


def init_app(app: Flask) -> None:
    app.extensions["live"] = make_broker(app.config.get("REDIS_URL"))


def broker() -> Broker:
    return current_app.extensions["live"]


def publish(channel: str, message: str) -> None:
    broker().publish(channel, message)


def subscribe(channel: str) -> Subscription:
    return broker().subscribe(channel)


# -- server-sent events ---------------------------------------------------------------------


def event_stream(subscription: Subscription, event: str, first: str) -> Response:
    """A server-sent-events response: ``event`` with ``first`` now, then with each message
    of ``subscription``, a comment as a keep-alive. The stream ends (closing the
    subscription) after ``TABLES_SSE_SECONDS`` (the browser reconnects) or, for tests,
    after ``TABLES_SSE_MAX_EVENTS`` events. Subscribe before reading ``first``, so that a
    change in between is either in ``first`` or announced."""
    config = current_app.config
    keepalive = float(config.get("TABLES_SSE_KEEPALIVE", 15))
    lifetime = float(config.get("TABLES_SSE_SECONDS", 300))
    max_events = config.get("TABLES_SSE_MAX_EVENTS")

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
                    yield ": keep-alive\n\n"
                    continue
                yield f"event: {event}\ndata: {message}\n\n"
                sent += 1
        finally:
            subscription.close()

    response = Response(stream(), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response
