"""Bots at the table: the scheduler that plays bot seats off the request path.

A bot moves through the same use case path as a phone (``moves.bot_act``): the table
lock, the version check, the action log, the after-commit event. Its thinking never holds
a web request or the lock: a *job* ``(code, version)`` reads the table without the lock,
lets :func:`companion.bots.decide` think on the bot seat's view, then acts with the
version it saw; a 409 (someone moved meanwhile) means read again and think again. A job
for a version the table has left does nothing, so jobs may run twice or late
(idempotent). Bot seats themselves (adding one, a table started with some, a person taking
one over) are use cases of :mod:`.seats`.

Who runs the jobs (``BOT_WORKER``):

``thread``  the embedded default: one background thread per process, a queue of jobs in
            memory, each due after the human-like delay (``BOT_DELAY``, seconds, a range);
``rq``      the default with ``REDIS_URL``: jobs on the RQ queue ``companion-bots``, run by
            ``flask --app companion bots`` worker processes (as many as the load needs);
``off``     no jobs (a test of a process that stopped).

A job is asked for after every committed change of a table that has a bot seat (this
module listens to ``events.table_changed``: :func:`connect`), when the app starts (every
unfinished table with a bot seat: a restart resumes) and when a view is read while a bot
is to act, so a job lost with a stopped process is asked for again.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import os
import random
import threading
import time
from datetime import timedelta
from typing import Any

import click
from flask import Flask, current_app, has_app_context
from flask.cli import ScriptInfo, with_appcontext

from .. import events, thinking
from ..bots import decide, should_act
from . import store
from .errors import TableError
from .moves import bot_act

log = logging.getLogger(__name__)

QUEUE_NAME = "companion-bots"
PENDING_SECONDS = 120  # RQ: a job asked for is not asked again this long (unless it ends)
ATTEMPTS = 5  # a bot that keeps losing the race to the lock gives up (the next job retries)


# -- one bot move -------------------------------------------------------------------------


def turn_of(table: Any, state: Any) -> tuple[Any, dict, list] | None:
    """The bot seat to move now (with its view and legal actions), or None."""
    if not store.started(table) or state.is_over():
        return None
    game = store.game_of(table)
    rows = {s.index: s for s in table.seats if s.bot}
    for seat in state.to_act():
        row = rows.get(seat)
        if row is None:
            continue
        view = state.view(seat)
        if not should_act(game, view):
            continue
        legal = state.legal_actions(seat)
        if legal:
            return row, view, legal
    return None


def bot_to_act(envelope: dict[str, Any]) -> bool:
    """Whether an envelope shows a bot seat among the seats to act."""
    bots = envelope.get("bots") or []
    return any(seat < len(bots) and bots[seat] for seat in envelope.get("to_act") or [])


def play_turn(code: str, version: int | None = None) -> bool:
    """One job: if the table is still at ``version`` (any version when None) and a bot is
    to act, think on its view without any lock, then act with the version seen. Returns
    whether a bot moved."""
    for _ in range(ATTEMPTS):
        table = store.get_table(code)
        if version is not None and table.version != version:
            store.done_reading()
            return False  # the table moved on; that change asked for its own job
        state = store.state_of(table)
        turn = turn_of(table, state)
        if turn is None:
            store.done_reading()
            return False
        row, view, legal = turn
        seat, level, seen = row.index, row.bot, table.version
        rng = random.Random((row.bot_seed or 0) * 1_000_003 + seen)
        game = store.game_of(table)
        store.done_reading()  # no transaction (nor SQLite read snapshot) while thinking
        budget = (current_app.config.get("BOT_BUDGETS") or {}).get(level)
        action = decide(game, view, legal, level, rng, budget)
        try:
            bot_act(code, seat, level, action, seen)
        except TableError as error:
            if error.status not in (409, 503):
                raise
            # Someone moved first (409), or the lock wait timed out (503): read again and
            # think again.
            version = None
            continue
        return True
    return False


# -- who runs the jobs --------------------------------------------------------------------


def delay(app: Flask) -> float:
    """The human-like pause before a bot moves, drawn from ``BOT_DELAY`` (low, high)."""
    low, high = app.config.get("BOT_DELAY", (0.8, 1.5))
    return random.uniform(float(low), float(high)) if high > 0 else 0.0


class ThreadRunner:
    """The embedded default: one daemon thread for this process, jobs kept in memory. Of
    the jobs that are due, the one whose client has thought least lately runs first, and
    a client past its thinking budget waits (:mod:`companion.thinking`). A job already
    waiting (or running) is not queued twice."""

    def __init__(self, app: Flask):
        self.app = app
        self._cv = threading.Condition()
        self._heap: list[tuple[float, int, str, int, str]] = []
        self.fairness = thinking.Fairness()
        self._pending: set[tuple[str, int]] = set()
        self._count = itertools.count()
        self._thread: threading.Thread | None = None
        self._stopped = False
        self.moves = 0  # bot moves made by this runner (for tests and the log)

    def submit(self, code: str, version: int, wait: float, client: str = thinking.UNKNOWN) -> bool:
        key = (code, version)
        with self._cv:
            if key in self._pending or self._stopped:
                return False
            self._pending.add(key)
            due = time.monotonic() + wait
            heapq.heappush(self._heap, (due, next(self._count), code, version, client))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="bots", daemon=True)
                self._thread.start()
            self._cv.notify_all()
        return True

    def _next(self) -> tuple[str, int, str] | None:
        """The due job of the client that thought least lately (the earliest on a tie)."""
        with self._cv:
            while not self._stopped:
                now = time.monotonic()
                if self._heap and self._heap[0][0] <= now:
                    due = [entry for entry in self._heap if entry[0] <= now]
                    entry = min(due, key=lambda e: (self.fairness.spent(e[4], now), e[1]))
                    self._heap.remove(entry)
                    heapq.heapify(self._heap)
                    return entry[2], entry[3], entry[4]
                wait = self._heap[0][0] - now if self._heap else None
                self._cv.wait(wait)
            return None

    def _run(self) -> None:
        budget = self.app.extensions.get("bot_thinking")
        while (job := self._next()) is not None:
            code, version, client = job
            if budget is not None and not budget.allows(client):
                with self._cv:  # over its client's budget: try again a little later
                    due = time.monotonic() + thinking.DEFER
                    heapq.heappush(self._heap, (due, next(self._count), code, version, client))
                continue
            spent = [0.0]
            try:
                with self.app.app_context(), thinking.charged_to(client), thinking.timed() as spent:
                    if play_turn(code, version):
                        self.moves += 1
            except Exception:
                log.exception("The bot job for table %s at version %d failed", code, version)
            finally:
                self.fairness.add(client, spent[0])
                if budget is not None:
                    budget.spend(client, spent[0])
                with self._cv:
                    self._pending.discard((code, version))
                    self._cv.notify_all()

    def idle(self, timeout: float = 30.0) -> bool:
        """Wait until no job is waiting or running (tests); False on timeout."""
        deadline = time.monotonic() + timeout
        with self._cv:
            while self._pending:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cv.wait(left)
        return True

    def stop(self) -> None:
        with self._cv:
            self._stopped = True
            self._heap.clear()
            self._cv.notify_all()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(10)


class RQRunner:
    """With ``REDIS_URL``: jobs on an RQ queue, run by ``flask --app companion bots``
    workers. A Redis key per ``(code, version)`` (``SET NX`` with an expiry) keeps a job
    from being queued twice while it waits; the job clears it when it ends."""

    def __init__(self, url: str, name: str = QUEUE_NAME):
        from redis import Redis  # the "scale" extra
        from rq import Queue

        self.redis = Redis.from_url(url, socket_connect_timeout=5)
        self.queue = Queue(name, connection=self.redis)

    def submit(self, code: str, version: int, wait: float, client: str = thinking.UNKNOWN) -> bool:
        if not self.redis.set(pending_key(code, version), "1", nx=True, ex=PENDING_SECONDS):
            return False
        self.queue.enqueue(
            run_job,
            code,
            version,
            time.time() + wait,
            client,
            result_ttl=0,
            failure_ttl=24 * 3600,
            description=f"bot move at table {code}, version {version}",
        )
        return True

    def stop(self) -> None:
        self.redis.close()


def pending_key(code: str, version: int) -> str:
    return f"companion:bots:pending:{code}:{version}"


_job_app: Flask | None = None


def run_job(code: str, version: int, due: float, client: str = thinking.UNKNOWN) -> bool:
    """An RQ job: wait for the human-like delay, then one :func:`play_turn` in the app of
    this worker process, charged to ``client``'s thinking budget; past that budget the job
    is put back on the queue :data:`thinking.DEFER` seconds later (by the worker's
    scheduler) instead of thinking now."""
    app = _job_app
    if app is None:
        if has_app_context():
            app = current_app._get_current_object()
        else:  # a plain ``rq worker``: the app as ``flask --app`` would load it
            app = ScriptInfo(app_import_path=os.environ.get("FLASK_APP", "companion")).load_app()
    time.sleep(max(0.0, due - time.time()))
    budget = app.extensions.get("bot_thinking")
    runner = app.extensions.get("bots")
    if budget is not None and not budget.allows(client) and isinstance(runner, RQRunner):
        runner.redis.expire(pending_key(code, version), PENDING_SECONDS)
        runner.queue.enqueue_in(
            timedelta(seconds=thinking.DEFER),
            run_job,
            code,
            version,
            0.0,
            client,
            result_ttl=0,
            failure_ttl=24 * 3600,
            description=f"bot move at table {code}, version {version} (deferred)",
        )
        return False
    spent = [0.0]
    with app.app_context():
        try:
            with thinking.charged_to(client), thinking.timed() as spent:
                return play_turn(code, version)
        finally:
            if budget is not None:
                budget.spend(client, spent[0])
            if isinstance(runner, RQRunner):
                runner.redis.delete(pending_key(code, version))


# -- the app ------------------------------------------------------------------------------


def init_app(app: Flask) -> None:
    kind = app.config.get("BOT_WORKER") or ("rq" if app.config.get("REDIS_URL") else "thread")
    if kind == "thread":
        app.extensions["bots"] = ThreadRunner(app)
    elif kind == "rq":
        if not app.config.get("REDIS_URL"):
            raise RuntimeError("BOT_WORKER=rq needs REDIS_URL.")
        app.extensions["bots"] = RQRunner(
            app.config["REDIS_URL"], app.config.get("BOT_QUEUE") or QUEUE_NAME
        )
    elif kind == "off":
        app.extensions["bots"] = None
    else:
        raise RuntimeError(f"BOT_WORKER must be thread, rq or off, not {kind!r}.")
    thinking.init_app(app, app.config.get("BOT_QUEUE") or QUEUE_NAME)
    app.cli.add_command(bots_command)


def runner() -> ThreadRunner | RQRunner | None:
    return current_app.extensions.get("bots")


def on_table_changed(code: str, facts: Any, with_bots: bool = False, **_: Any) -> None:
    """``events.table_changed``: a bot may be to act now (its job runs off the request)."""
    if with_bots:
        wake(code, facts.version)


def connect() -> None:
    events.table_changed.connect(on_table_changed)


def wake(code: str, version: int) -> None:
    """Ask for a job for the table at ``version`` (after the commit). Never fails the
    caller: the change is stored, and the next read of the table asks again."""
    found = runner()
    if found is None:
        return
    try:
        found.submit(code, version, delay(current_app), thinking.client())
    except Exception:
        log.exception("Could not queue a bot job for table %s", code)


def resume(app: Flask) -> int:
    """Ask for a job for every unfinished table with a bot seat (on start): a bot that was
    to act when the process stopped acts again. Returns how many were asked for."""
    with app.app_context():
        if app.extensions.get("bots") is None:
            return 0
        try:
            rows = store.unfinished_with_bots()
        except Exception as error:  # no schema yet (AUTO_MIGRATE off): nothing to resume
            log.warning("Could not look for tables with bots to resume: %s", error)
            store.done_reading()
            return 0
        for code, version in rows:
            wake(code, version)
        return len(rows)


def stop(app: Flask) -> None:
    found = app.extensions.get("bots")
    if found is not None:
        found.stop()


@click.command("bots")
@click.option("--burst", is_flag=True, help="Stop once the queue is empty.")
@with_appcontext
def bots_command(burst: bool) -> None:
    """Run bot moves from the Redis queue (REDIS_URL): start as many as the load needs."""
    global _job_app
    from rq import SimpleWorker

    app = current_app._get_current_object()
    found = app.extensions.get("bots")
    if not isinstance(found, RQRunner):
        raise click.UsageError("Set REDIS_URL: bot workers take their jobs from Redis.")
    _job_app = app
    click.echo(f"Resumed {resume(app)} table(s) with bots; waiting for bot moves.")
    # SimpleWorker runs each job in this process (no fork): the app, its database pool and
    # the games' bot modules stay loaded between moves.
    # Its scheduler puts back the jobs deferred past their client's thinking budget.
    SimpleWorker([found.queue], connection=found.redis).work(burst=burst, with_scheduler=True)
