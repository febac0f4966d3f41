"""Bots at the table: seats a bot plays, and the jobs that play them off the request path.

A bot seat is an ordinary :class:`~companion.models.Seat` row with ``bot`` (its level) and
``bot_seed`` set; its token is random and thrown away, so no phone can play it. A person
who sits down in a bot's seat takes the row over (and the hand with it); the host frees a
bot's seat like any other (``release``).

A bot moves through the same service path as a phone: the table lock, the version check,
the action log, the live event. Its thinking never holds a web request or the lock: a
*job* ``(code, version)`` reads the table without the lock, lets
:func:`companion.bots.decide` think on the bot seat's view, then acts with the version it
saw; a 409 (someone moved meanwhile) means read again and think again. A job for a
version the table has left does nothing, so jobs may run twice or late (idempotent).

Who runs the jobs (``BOT_WORKER``):

``thread``  the embedded default: one background thread per process, a queue of jobs in
            memory, each due after the human-like delay (``BOT_DELAY``, seconds, a range);
``rq``      the default with ``REDIS_URL``: jobs on the RQ queue ``companion-bots``, run by
            ``flask --app companion bots`` worker processes (as many as the load needs);
``off``     no jobs (a test of a process that stopped).

A job is asked for after every committed change of a table that has a bot seat, when the
app starts (every unfinished table with a bot seat: a restart resumes) and when a view is
read while a bot is to act, so a job lost with a stopped process is asked for again.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import random
import secrets
import threading
import time
from typing import Any

import click
from flask import Flask, current_app, has_app_context
from flask.cli import with_appcontext
from sqlalchemy import select

from ..bots import LEVELS, decide, has_bot, should_act
from ..extensions import db
from ..games import GAMES, IllegalAction
from ..models import GameRecord, Seat, Table
from . import service
from .service import TableError, Who

log = logging.getLogger(__name__)

QUEUE_NAME = "companion-bots"
PENDING_SECONDS = 120  # RQ: a job asked for is not asked again this long (unless it ends)
ATTEMPTS = 5  # a bot that keeps losing the race to the lock gives up (the next job retries)


# -- seats --------------------------------------------------------------------------------


def check_level(level: Any) -> str:
    if not isinstance(level, str) or level not in LEVELS:
        raise TableError(422, f"Unknown bot level: choose one of {', '.join(LEVELS)}.")
    return level


def check_game(slug: str) -> None:
    game = GAMES[slug]
    if not has_bot(game):
        raise TableError(422, f"{game.name} has no bot player yet.")


#: The bots' first names: friendly, short, distinct at one table (issue 26).
BOT_NAMES = ("Robin", "Juno", "Milo", "Tess", "Remy", "Nova", "Wren", "Otto", "Ines", "Kit")
BOT_MARK = " · bot"


def bot_name(table: Table, seat: int, level: str) -> str:
    """ "Robin · bot": a name no other seat of the table has (nor a person of that
    name), starting from the seat's own place in :data:`BOT_NAMES`."""
    taken = {s.name.casefold().removesuffix(BOT_MARK) for s in table.seats if s.index != seat}
    for k in range(len(BOT_NAMES)):
        name = BOT_NAMES[(seat + k) % len(BOT_NAMES)]
        if name.casefold() not in taken:
            return name + BOT_MARK
    return f"Bot {seat + 1}{BOT_MARK}"


def is_bot_name(name: str) -> bool:
    """Whether a person's name would pass for a bot's ("… · bot")."""
    return name.casefold().endswith(BOT_MARK) or name.casefold().startswith("bot (")


def sit(table: Table, seat: int, level: str) -> Seat:
    """Put a ``level`` bot in ``seat`` of the table (in the caller's transaction): a free
    seat, or a bot's (its level changes). A person's seat is refused (409)."""
    row = next((s for s in table.seats if s.index == seat), None)
    if row is None:
        row = Seat(index=seat, name="", token_hash=service.hash_token(service.new_token()))
        table.seats.append(row)
    elif row.bot is None:
        raise TableError(
            409, f"Seat {seat + 1} is taken by {row.name}: a bot can only sit in a free seat."
        )
    row.name = bot_name(table, seat, level)
    row.bot = level
    row.bot_seed = secrets.randbits(62)
    return row


def seat_bots(table: Table, bots: Any) -> None:
    """The bots asked for when a table starts: one entry per seat, None for a person or a
    level. Refused whole (nothing stored) when anything is wrong."""
    if bots is None:
        return
    if not isinstance(bots, list) or len(bots) != table.players:
        raise TableError(
            400,
            f'"bots" must be a list of {table.players} entries, one per seat: null for a '
            f"person, or a level ({', '.join(LEVELS)}).",
        )
    levels = [None if level is None else check_level(level) for level in bots]
    if not any(levels):
        return
    check_game(table.game)
    if all(levels):
        raise TableError(422, "Leave at least one seat for a person.")
    for seat, level in enumerate(levels):
        if level is not None:
            sit(table, seat, level)


def levels_of(table: Table) -> list[str | None]:
    """Each seat's bot level (None for a person or a free seat), as envelopes carry it."""
    levels: list[str | None] = [None] * table.players
    for s in table.seats:
        levels[s.index] = s.bot
    return levels


def has_bots(table: Table) -> bool:
    return any(s.bot for s in table.seats)


def take_over(table: Table, seat: int, name: str, token: str) -> None:
    """A person sits down in a bot's seat: the row becomes theirs, with the bot's hand."""
    row = next(s for s in table.seats if s.index == seat)
    row.name = name
    row.token_hash = service.hash_token(token)
    row.bot = None
    row.bot_seed = None


def put_bot(code: str, token: str | None, seat: Any, level: Any) -> dict[str, Any]:
    """Host only: a ``level`` bot in a free seat (a player who left), or a new level for a
    bot. The host's envelope of the table afterwards."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise TableError(400, "A seat must be a whole number.")
    level = check_level(level)
    with service.changing(code) as table:
        if token is None:
            raise TableError(401, "Send the host token (Authorization: Bearer …) to seat a bot.")
        if not service.identify(table, token).host:
            raise TableError(403, "Only the host can seat a bot.")
        check_game(table.game)
        if not 0 <= seat < table.players:
            raise TableError(422, f"This table has seats 1 to {table.players}.")
        state = service.state_of(table)
        if state.is_over():
            raise TableError(409, "The game is over: start a rematch instead.")
        row = sit(table, seat, level)
        if all(s.bot for s in table.seats) and len(table.seats) == table.players:
            raise TableError(422, "Leave at least one seat for a person.")
        table.version += 1
        service.note_change(table, seat, row.name, "taken", None)
        answer = service.envelope(table, Who(host=True), state)
    return answer


def levels_from_form(form: Any, players: int) -> list[str | None] | None:
    """The Play form's ``bot-<seat>`` choices ("" for a person) for the seats in play."""
    levels = [form.get(f"bot-{seat}") or None for seat in range(players)]
    return levels if any(levels) else None


def solo_games() -> list[Any]:
    """The games a person can play alone against bots."""
    return [game for game in GAMES.values() if has_bot(game)]


def start_solo(slug: str, name: Any, players: Any, level: Any) -> tuple[str, str]:
    """A table with the player in seat 1 and ``level`` bots in the others, started at
    once. Returns the table's code and the player's seat token."""
    game = GAMES[slug]
    check_game(slug)
    level = check_level(level)
    name = service.clean_name(name.strip() if isinstance(name, str) and name.strip() else "You")
    if players in (None, ""):
        count = game.min_players
    else:
        try:
            count = int(players)
        except (TypeError, ValueError):
            raise TableError(400, "The number of players must be a whole number.") from None
    if not game.min_players <= count <= game.max_players:
        raise TableError(
            422, f"{game.name} plays with {game.min_players} to {game.max_players} players."
        )
    if is_bot_name(name):
        raise TableError(409, f"{name} is what the bots are called: choose another name.")
    table, _host = service.create_table(slug, count, {}, bot_seats=[None] + [level] * (count - 1))
    _seat, token, _version = service.join(table.code, name, 0)
    return table.code, token


# -- one bot move -------------------------------------------------------------------------


def turn_of(table: Table, state: Any) -> tuple[Seat, dict, list] | None:
    """The bot seat to move now (with its view and legal actions), or None."""
    if not service.started(table) or state.is_over():
        return None
    game = service.game_of(table)
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
        table = service.get_table(code)
        if version is not None and table.version != version:
            db.session.rollback()
            return False  # the table moved on; that change asked for its own job
        state = service.state_of(table)
        turn = turn_of(table, state)
        if turn is None:
            db.session.rollback()
            return False
        row, view, legal = turn
        seat, level, seen = row.index, row.bot, table.version
        rng = random.Random((row.bot_seed or 0) * 1_000_003 + seen)
        game = service.game_of(table)
        db.session.rollback()  # no transaction (nor SQLite read snapshot) while thinking
        budget = (current_app.config.get("BOT_BUDGETS") or {}).get(level)
        action = decide(game, view, legal, level, rng, budget)
        try:
            act(code, seat, level, action, seen)
        except TableError as error:
            if error.status not in (409, 503):
                raise
            # Someone moved first (409), or the lock wait timed out (503): read again and
            # think again.
            version = None
            continue
        return True
    return False


def act(code: str, seat: int, level: str, action: dict, version: int) -> int:
    """The bot's move through the service path: the table locked, the version and the seat
    checked, the action applied, stored and logged, then announced. Returns the new
    version. 409 when the table changed since the bot looked (or its seat is not its)."""
    with service.changing(code) as table:
        row = next((s for s in table.seats if s.index == seat), None)
        if row is None or row.bot != level:
            raise TableError(409, f"Seat {seat + 1} is no longer played by this bot.")
        service.check_version(table, version)
        state = service.state_of(table)
        try:
            state.apply(seat, action)
        except IllegalAction as error:
            raise TableError(422, error.message) from None
        moved, canonical = state.last_action
        service.save(table, state, moved, canonical)
        new_version = table.version
    return new_version


# -- who runs the jobs --------------------------------------------------------------------


def delay(app: Flask) -> float:
    """The human-like pause before a bot moves, drawn from ``BOT_DELAY`` (low, high)."""
    low, high = app.config.get("BOT_DELAY", (0.8, 1.5))
    return random.uniform(float(low), float(high)) if high > 0 else 0.0


class ThreadRunner:
    """The embedded default: one daemon thread for this process, jobs kept in memory in the
    order they fall due. A job already waiting (or running) is not queued twice."""

    def __init__(self, app: Flask):
        self.app = app
        self._cv = threading.Condition()
        self._heap: list[tuple[float, int, str, int]] = []
        self._pending: set[tuple[str, int]] = set()
        self._count = itertools.count()
        self._thread: threading.Thread | None = None
        self._stopped = False
        self.moves = 0  # bot moves made by this runner (for tests and the log)

    def submit(self, code: str, version: int, wait: float) -> bool:
        key = (code, version)
        with self._cv:
            if key in self._pending or self._stopped:
                return False
            self._pending.add(key)
            heapq.heappush(self._heap, (time.monotonic() + wait, next(self._count), code, version))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="bots", daemon=True)
                self._thread.start()
            self._cv.notify_all()
        return True

    def _next(self) -> tuple[str, int] | None:
        with self._cv:
            while not self._stopped:
                if self._heap and self._heap[0][0] <= time.monotonic():
                    _, _, code, version = heapq.heappop(self._heap)
                    return code, version
                wait = self._heap[0][0] - time.monotonic() if self._heap else None
                self._cv.wait(wait)
            return None

    def _run(self) -> None:
        while (job := self._next()) is not None:
            try:
                with self.app.app_context():
                    if play_turn(*job):
                        self.moves += 1
            except Exception:
                log.exception("The bot job for table %s at version %d failed", *job)
            finally:
                with self._cv:
                    self._pending.discard(job)
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

    def submit(self, code: str, version: int, wait: float) -> bool:
        if not self.redis.set(pending_key(code, version), "1", nx=True, ex=PENDING_SECONDS):
            return False
        self.queue.enqueue(
            run_job,
            code,
            version,
            time.time() + wait,
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


def run_job(code: str, version: int, due: float) -> bool:
    """An RQ job: wait for the human-like delay, then one :func:`play_turn` in the app of
    this worker process."""
    app = _job_app
    if app is None:
        if has_app_context():
            app = current_app._get_current_object()
        else:
            from .. import create_app

            app = create_app()
    time.sleep(max(0.0, due - time.time()))
    with app.app_context():
        try:
            return play_turn(code, version)
        finally:
            runner = app.extensions.get("bots")
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
    app.cli.add_command(bots_command)


def runner() -> ThreadRunner | RQRunner | None:
    return current_app.extensions.get("bots")


def wake(code: str, version: int) -> None:
    """Ask for a job for the table at ``version`` (after the commit). Never fails the
    caller: the change is stored, and the next read of the table asks again."""
    found = runner()
    if found is None:
        return
    try:
        found.submit(code, version, delay(current_app))
    except Exception:
        log.exception("Could not queue a bot job for table %s", code)


def resume(app: Flask) -> int:
    """Ask for a job for every unfinished table with a bot seat (on start): a bot that was
    to act when the process stopped acts again. Returns how many were asked for."""
    with app.app_context():
        if app.extensions.get("bots") is None:
            return 0
        try:
            rows = db.session.execute(
                select(Table.code, Table.version)
                .where(Table.id.in_(select(Seat.table_id).where(Seat.bot.is_not(None))))
                .where(Table.id.not_in(select(GameRecord.table_id)))
            ).all()
        except Exception as error:  # no schema yet (AUTO_MIGRATE off): nothing to resume
            log.warning("Could not look for tables with bots to resume: %s", error)
            db.session.rollback()
            return 0
        db.session.rollback()
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
    SimpleWorker([found.queue], connection=found.redis).work(burst=burst)
