"""The store of Play mode: every database read and write of a table, its locking, saving
and the facts this process keeps (:mod:`.kept`). Nothing above this layer writes SQL.

The table row holds the engine state snapshot and a version number; the ``action`` table
beside it is an append-only log (an undo is appended by seat ``None`` as ``{"type":
"undo", "to": n, "text": words}``: ``n`` actions stay, and ``text`` is what every phone is
told; older logs hold ``{"type": "undo"}``, one action back). Every change runs in one
transaction (:func:`changing`) that first locks the table row (PostgreSQL ``SELECT … FOR
UPDATE``; SQLite ``BEGIN IMMEDIATE``, which takes the database write lock before anything
is read) and then reads the seats, checks, applies, stores the new snapshot and version,
commits, and only then sends ``events.table_changed`` (the live broker, the kept facts and
the bot scheduler listen), so a listener that refetches sees the committed state. One
exception, on the hot path: on PostgreSQL a move on the table this process keeps is one
statement that stores it only if the table is still at the version it was applied to
(``saving.save`` with ``unlocked``, see ``moves.act_unlocked``).

**Seats read after the lock.** On PostgreSQL (READ COMMITTED) a ``SELECT … FOR UPDATE``
that waited for another transaction returns the table row as that transaction left it,
but any other table joined in the same statement as it was when the statement began. So
the seats are read by a second statement once the lock is held (:func:`lock_table`): a
join, a release, an approval or a claim that waited always sees the seats the change
before it left, and the facts it keeps and announces are the table as committed. A unique
key that still refuses a change (a seat's index, a name's folded form) is a 409
(:func:`changing`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import joinedload, selectinload

from .. import codes, events
from ..database import autocommit, begin_write, locked, retry_if_disconnected
from ..extensions import db
from ..games import GAMES
from ..games.base import Game, State, shared_json
from ..models import Action, GameRecord, Seat, SeatChange, Table, Ticket
from . import kept
from .errors import TableError, no_table
from .kept import KeptTable, TableFacts

UNDO = {"type": "undo"}


def normalise_code(code: str) -> str:
    return codes.normalise(code)


# -- reading ------------------------------------------------------------------------------


def get_table(code: str, read_only: bool = False) -> Table:
    """The table with its seats, in one query. ``read_only`` (a request that writes
    nothing, like a view): outside a transaction, the query runs without one (no BEGIN
    and ROLLBACK round trips on PostgreSQL); a later write starts its own (``locked``)."""
    query = select(Table).where(Table.code == normalise_code(code))

    def load() -> Table | None:
        if read_only:
            autocommit()
        found = db.session.execute(query.options(joinedload(Table.seats)))
        return found.unique().scalar_one_or_none()

    table = retry_if_disconnected(load)
    if table is None:
        raise no_table()
    return table


# The driver's own placeholder for one parameter, by its DB-API ``paramstyle``.
PLACEHOLDERS = {"qmark": "?", "numeric": ":1", "named": ":code", "format": "%s", "pyformat": "%s"}


def read_version(conn, code: str, lock: bool = False) -> int | None:
    """The table's version, one column of one row (None: no such table), sent as the
    driver's own SQL: it runs for nearly every view and move, and compiling a statement
    (even from SQLAlchemy's cache) cost more than the query itself. ``lock``: ``FOR
    UPDATE`` (on SQLite the caller's ``BEGIN IMMEDIATE`` already locked the file)."""
    mark = PLACEHOLDERS[conn.dialect.paramstyle]
    sql = f"SELECT version FROM {Table.__tablename__} WHERE code = {mark}"
    if lock and conn.dialect.name != "sqlite":
        sql += " FOR UPDATE"
    params = {"code": code} if mark == ":code" else (code,)
    return conn.exec_driver_sql(sql, params).scalar_one_or_none()


def current_version(code: str) -> int | None:
    """The table's current version, read alone (``read_version``), outside a write."""

    def read() -> int | None:
        autocommit()
        return read_version(db.session.connection(), code)

    return retry_if_disconnected(read)


def current_table(code: str) -> TableFacts:
    """The table at its current version, for a request that only reads it: the kept
    facts when the database still has their version (one small query), else the table
    loaded in full (one query when none was kept)."""
    code = normalise_code(code)
    found = kept.latest(code)
    if found is not None:
        version = current_version(code)
        if version is None:
            raise no_table()
        if version == found.version:
            return found
    facts = TableFacts.of(get_table(code, read_only=True))
    kept.keep(facts)
    return facts


def codes_among(candidates: list[str]) -> list[str]:
    """The codes of existing tables among ``candidates`` (the join page's guesses)."""
    if not candidates:
        return []
    return list(db.session.scalars(select(Table.code).where(Table.code.in_(candidates))))


def records_of(codes_: list[str]) -> list[GameRecord]:
    """The records of the tables ``codes_`` (newest first)."""
    if not codes_:
        return []
    return list(
        db.session.scalars(
            select(GameRecord)
            .where(GameRecord.code.in_(codes_))
            .order_by(GameRecord.finished_at.desc(), GameRecord.id.desc())
        )
    )


def unfinished_with_bots() -> list[tuple[str, int]]:
    """``(code, version)`` of every unfinished table with a bot seat (a restart resumes
    them); read outside any transaction kept open."""
    rows = db.session.execute(
        select(Table.code, Table.version)
        .where(Table.id.in_(select(Seat.table_id).where(Seat.bot.is_not(None))))
        .where(Table.id.not_in(select(GameRecord.table_id)))
    ).all()
    db.session.rollback()
    return [(code, version) for code, version in rows]


def done_reading() -> None:
    """End a read (no transaction, nor SQLite read snapshot, held meanwhile)."""
    db.session.rollback()


# -- locking and committing ---------------------------------------------------------------


def lock_table(code: str) -> Table:
    """Start a write transaction holding the table's row lock, then read its seats (a
    second statement, so that on PostgreSQL they are read after any wait for the lock:
    see the module's notes). Every change reads the seats: the token's owner."""
    query = select(Table).where(Table.code == normalise_code(code))
    # ``selectinload`` reads the seats by a statement of its own, sent once the first one
    # returned (holding the lock), and ``locked`` replaces whatever the session held.
    query = query.options(selectinload(Table.seats))
    try:
        table = retry_if_disconnected(lambda: locked(query, of=Table))
    except OperationalError:
        raise table_busy() from None
    if table is None:
        db.session.rollback()
        raise no_table()
    return table


def locked_kept(code: str) -> KeptTable | None:
    """For a change (a move): start its write transaction holding the table's row lock,
    as :func:`lock_table` does, but read only the version (the driver's own SQL). When the
    kept facts are of that version they are the table as it is (every change of a seat
    makes a new version), and an editable copy of them is returned: nothing to load, no
    snapshot to parse. None when nothing is kept for that version (the caller loads the
    table, which takes the lock again). :class:`TableError` 503 when the lock wait times
    out."""
    table = kept.kept_copy(code)
    if table is None:
        return None
    try:
        version = retry_if_disconnected(
            lambda: read_version(begin_write().connection(), code, lock=True)
        )
    except OperationalError:
        raise table_busy() from None
    return table if version == table.version else None


def table_busy() -> TableError:
    """The lock wait timed out (a very busy SQLite file): nothing was changed (rolled back
    here); the error to raise."""
    db.session.rollback()
    return TableError(503, "The table is busy; try again in a moment.")


@contextmanager
def changing(code: str, kept_table: Any = None) -> Iterator[Table]:
    """The table, locked, for one change: commits when the block ends (rolls back if it
    raises), then announces the change (:func:`committed`). The table's facts are taken
    before the commit, so nothing reloads the expired row. ``kept_table``: the table
    already locked by :func:`locked_kept` (an editable copy of this process's kept facts),
    not loaded. A unique key that refuses the change (two phones taking one seat or one
    name at once on a database that let both through the lock) is a 409, not an error."""
    table = kept_table if kept_table is not None else lock_table(code)
    try:
        yield table
        facts = TableFacts.of(table)
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        message = "Someone else changed this seat at the same moment; look again."
        raise TableError(409, message) from None
    except BaseException:
        db.session.rollback()
        raise
    committed(facts)


def committed(facts: TableFacts) -> None:
    """After a change is committed: ``events.table_changed`` with the table as it now is
    (the kept facts, the live broker and the bot scheduler listen)."""
    events.announce(events.table_changed, facts.code, facts=facts, with_bots=facts.with_bots)


def commit_new(table: Table) -> TableFacts:
    """Commit a table made in this transaction (``new_table_row``), then announce it."""
    try:
        db.session.flush()
        facts = TableFacts.of(table)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    committed(facts)
    return facts


def rollback() -> None:
    db.session.rollback()


def can_write_unlocked() -> bool:
    """Whether a move may be one statement of its own (PostgreSQL, no transaction open:
    a caller's open transaction would hold the write uncommitted)."""
    if db.engine.dialect.name != "postgresql":
        return False
    # No session made yet in this request (a move reads nothing first): none is made here.
    return not (db.session.registry.has() and db.session().in_transaction())


# -- states -------------------------------------------------------------------------------


def game_of(table: Any) -> Game:
    return GAMES[table.game]


def state_of(table: Any) -> State:
    """The table's state, restored from its snapshot without the log (see
    :func:`log_of`). The snapshot dict was just parsed from the database and nothing else
    keeps it, so the state takes its lists over instead of copying them: when the state
    changes, so does the row's loaded value, which is why ``saving.save`` flags the column.
    A kept table's snapshot for a change (``kept.KeptTable``) is shared with the cached
    views' states: that one is copied."""
    if getattr(table, "shares_snapshot", False):
        return game_of(table).state_from_dict(table.state)
    with shared_json():
        return game_of(table).state_from_dict(table.state)


def full_state(table: Table) -> State:
    """The table's state with its log read from the action table (for the host's undo,
    and for checks that need every action)."""
    state = state_of(table)
    state.log = log_of(table)
    return state


def log_of(table: Any) -> list[list[Any]]:
    """The game's actions so far, ``[seat, action]``, from the action table (the undos
    applied): what the snapshot leaves out, read only when needed (the host's undo)."""
    steps: list[list[Any]] = []
    for row in db.session.scalars(
        select(Action).where(Action.table_id == table.id).order_by(Action.version)
    ):
        if row.seat is None and row.action.get("type") == UNDO["type"]:
            del steps[row.action.get("to", len(steps) - 1) :]
        else:
            steps.append([row.seat, row.action])
    return steps


def replay_log(table: Table) -> State:
    """The state rebuilt from the settings and the stored action log (undo included),
    dealt the way the table's game was dealt (its snapshot says, ``State.dealing``)."""
    game = game_of(table)
    dealing = state_of(table).dealing
    state = game.new_state(
        table.players, table.options, seed=table.seed, deal=table.deal, dealing=dealing
    )
    for seat, action in log_of(table):
        state.apply(seat, action)
    return state


def started(table: Any) -> bool:
    return len(table.seats) == table.players


def seat_names(table: Any) -> list[str | None]:
    names: list[str | None] = [None] * table.players
    for s in table.seats:
        names[s.index] = s.name
    return names


# -- rows added or taken out in a change ---------------------------------------------


def add(row: Any) -> None:
    """Add ``row`` (a seat change, a ticket) to the change's transaction, written now."""
    db.session.add(row)
    db.session.flush()


def forget_seat(table: Table, seat: Seat) -> None:
    table.seats.remove(seat)


# -- seat changes and tickets -------------------------------------------------------------


def latest_change(table: Any, old_token_hash: str) -> SeatChange | None:
    """The latest change that retired ``old_token_hash`` at ``table`` (None: never held)."""
    return db.session.scalar(
        select(SeatChange)
        .where(SeatChange.table_id == table.id, SeatChange.old_token_hash == old_token_hash)
        .order_by(SeatChange.id.desc())
        .limit(1)
    )


def tickets_of(table: Any) -> list[Ticket]:
    """Every ticket the table ever issued (requests, transfers, host transfers)."""
    return list(db.session.scalars(select(Ticket).where(Ticket.table_id == table.id)))


def request_of(table: Any, request_id: Any) -> Ticket | None:
    return db.session.scalar(
        select(Ticket).where(
            Ticket.table_id == table.id, Ticket.id == request_id, Ticket.kind == "request"
        )
    )


def commit_read() -> None:
    """Commit what a read marked on the way (an expired ticket)."""
    db.session.commit()


def now() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """SQLite gives back naive datetimes; they were stored in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def lock_also(code: str) -> Table:
    """Another table, locked in the change already under way (a rematch's new table, whose
    places are re-issued under the old table's lock), with its seats read after the lock."""
    query = select(Table).where(Table.code == normalise_code(code))
    query = query.options(selectinload(Table.seats)).with_for_update(of=Table)
    found = db.session.execute(query.execution_options(populate_existing=True))
    table = found.unique().scalar_one_or_none()
    if table is None:
        raise no_table()
    return table


def let_go() -> None:
    """Give the request's database connection back to the pool (a long stream)."""
    db.session.remove()
