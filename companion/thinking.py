"""The bots' thinking time, shared fairly between the clients that ask for it.

A bot's move is thought off the request path, by a job (``companion.tables.bots``). Each
job is charged to a *client*: the address of the request whose change woke the bot, or,
for a move that follows a bot's own move, the client of the job that made it (so a solo
table's every bot move is its player's). Two guards keep one client from starving the
others:

* **a budget per client** (``BOT_THINKING``, seconds of thinking, as a limit string, e.g.
  ``30 per minute``): the thread time a job spent is charged to its client with the
  ``limits`` library (Flask-Limiter's own; counted in Redis with ``REDIS_URL``, so every
  bot worker shares the count, else in memory). A job whose client has spent its budget
  is not run but put back, ``DEFER`` seconds later (its table waits; nothing is lost);
* **a fair pick** (the in-process runner): among the jobs that are due, the one whose
  client has thought least lately goes first, so one client's hundred tables queue
  behind another's one.

A Redis that cannot be reached counts nothing: the budget then lets every job through
(and says so in the log) rather than stop every bot.
"""

from __future__ import annotations

import contextvars
import logging
import math
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask, has_request_context, request
from limits import RateLimitItem, parse
from limits.storage import storage_from_string
from limits.strategies import SlidingWindowCounterRateLimiter

log = logging.getLogger(__name__)

DEFAULT = "30 per minute"  # seconds of bot thinking per client
DEFER = 2.0  # seconds a job over its client's budget waits before it is tried again
UNKNOWN = "-"  # a job asked for outside any request (resumed on start)

_client: contextvars.ContextVar[str | None] = contextvars.ContextVar("bot_client", default=None)


def client() -> str:
    """Whom a bot job asked for now is charged to: the running job's client, else this
    request's address."""
    running = _client.get()
    if running is not None:
        return running
    if has_request_context():
        return request.remote_addr or UNKNOWN
    return UNKNOWN


@contextmanager
def charged_to(who: str) -> Iterator[None]:
    """Run a job as ``who``'s: the jobs it asks for are charged to the same client."""
    token = _client.set(who)
    try:
        yield
    finally:
        _client.reset(token)


class Budget:
    """Seconds of thinking per client, as the limit ``text`` (counted in milliseconds)."""

    def __init__(self, text: str, storage_uri: str = "memory://", prefix: str = "companion"):
        item = parse(text)
        # The same window, its amount in milliseconds: a move costs what it took.
        self.item: RateLimitItem = type(item)(item.amount * 1000, item.multiples, prefix)
        self.seconds = item.amount
        options = {"socket_connect_timeout": 2, "socket_timeout": 2}
        uri_options = options if storage_uri.startswith("redis") else {}
        self.storage = storage_from_string(storage_uri, **uri_options)
        self.limiter = SlidingWindowCounterRateLimiter(self.storage)

    def allows(self, who: str) -> bool:
        try:
            return self.limiter.test(self.item, "bot-thinking", who)
        except Exception:  # Redis unreachable: never stop every bot for it
            log.warning("Could not read the bots' thinking budget; letting the job run")
            return True

    def spend(self, who: str, seconds: float) -> None:
        cost = max(1, math.ceil(seconds * 1000))
        try:
            # A hit that would pass the limit is refused whole: charge what still fits.
            left = self.limiter.get_window_stats(self.item, "bot-thinking", who).remaining
            if left > 0:
                self.limiter.hit(self.item, "bot-thinking", who, cost=min(cost, left))
        except Exception:
            log.warning("Could not charge the bots' thinking budget")


class Fairness:
    """This process's recent thinking per client (seconds, decaying by half each
    ``half_life``), to pick among due jobs the one of the client that thought least."""

    def __init__(self, half_life: float = 30.0):
        self.half_life = half_life
        self._lock = threading.Lock()
        self._spent: dict[str, tuple[float, float]] = {}

    def spent(self, who: str, now: float | None = None) -> float:
        now = time.monotonic() if now is None else now
        with self._lock:
            value, when = self._spent.get(who, (0.0, now))
        return value * 0.5 ** ((now - when) / self.half_life)

    def add(self, who: str, seconds: float) -> None:
        now = time.monotonic()
        value = self.spent(who, now) + seconds
        with self._lock:
            self._spent[who] = (value, now)
            if len(self._spent) > 4096:  # forget the quiet ones
                quiet = [k for k, (v, t) in self._spent.items() if now - t > 4 * self.half_life]
                for key in quiet:
                    del self._spent[key]


@contextmanager
def timed() -> Iterator[list[float]]:
    """The thread time spent inside the block (thinking is this thread's CPU), in
    ``spent[0]`` once it ends."""
    spent = [0.0]
    start = time.thread_time()
    try:
        yield spent
    finally:
        spent[0] = time.thread_time() - start


def init_app(app: Flask, queue: str) -> Budget:
    """The budget of the bots of ``queue`` (the workers of one queue share it)."""
    storage = app.config.get("REDIS_URL") or "memory://"
    budget = Budget(app.config.get("BOT_THINKING") or DEFAULT, storage, prefix=queue)
    app.extensions["bot_thinking"] = budget
    return budget
