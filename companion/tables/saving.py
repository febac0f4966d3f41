"""The store's writes of a game: a new table's row, and a move's snapshot and log row
(the hot path), with the record of a finished game. Part of the store layer
(:mod:`.store`): nothing above it writes SQL.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm.attributes import set_committed_value

from .. import codes, jsontext
from ..extensions import db
from ..games.base import State, shared_json
from ..models import Action, GameRecord, Table, utcnow
from .errors import changed_meanwhile
from .store import seat_names

# A move's write on PostgreSQL, as the driver's own SQL (like ``store.read_version``): it
# runs for every move, and building the statement with SQLAlchemy's expression language
# and compiling it (even from its cache) cost more CPU than the rest of the write. One
# statement, one round trip: PostgreSQL runs a data-modifying WITH once, and the log's
# row is inserted from the row the UPDATE returns, so from none when the table has moved
# on. psycopg prepares it on each connection after a few uses.
SAVE_POSTGRESQL = (
    f"WITH stored AS (UPDATE {Table.__tablename__}"
    " SET state = %s::json, version = %s, updated_at = %s"
    " WHERE id = %s AND version = %s RETURNING id)"
    f" INSERT INTO {Action.__tablename__} (table_id, version, seat, action, created_at)"
    " SELECT id, %s, %s, %s::json, %s FROM stored RETURNING id"
)


def json_text(value: Any) -> str:
    """JSON text of a snapshot or an action, as a JSON column stores it."""
    return jsontext.dumps(value)


def new_code() -> str:
    return codes.new_code(
        lambda code: db.session.scalar(select(Table.id).where(Table.code == code)) is not None
    )


def new_table_row(game: str, state: State, deal: dict | None, host_hash: str) -> Table:
    """A new table (added to the session) holding ``state``, the first one of a game."""
    table = Table(
        code=new_code(),
        game=game,
        players=state.players,
        options=state.options,
        seed=state.seed,
        deal=deal,
        state=state.to_dict(),
        version=0,
        host_token_hash=host_hash,
    )
    db.session.add(table)
    return table


def save(table: Any, state: State, seat: int | None, action: dict, unlocked: bool = False) -> None:
    """Store ``state``'s snapshot (without its log: the new ``Action`` row extends the
    log) and the next version, as plain statements (an UPDATE of the table's row, an
    INSERT into the log; on PostgreSQL one ``WITH … UPDATE … INSERT``) sent now: the hot
    path skips the ORM's unit of work, which compared every loaded object's attributes at
    the flush. Both write only if the table is still at ``table.version``; when it is
    not, nothing is written and the 409 of ``changed_meanwhile`` is raised. Under the
    caller's lock and transaction that cannot happen; ``unlocked`` (PostgreSQL only, see
    ``moves.act_unlocked``): no lock was taken, and the one statement is its own
    transaction, committed when it returns.
    The snapshot shares its lists with the state and is serialised here, before the state
    could change again. The table object then holds the stored values as its own (nothing
    left for the flush to write), so the caller's envelope shows the new version."""
    with shared_json():
        snapshot = state.to_dict()
    version, moment = table.version + 1, utcnow()
    if db.engine.dialect.name == "postgresql":
        params = (json_text(snapshot), version, moment, table.id, table.version)
        params += (version, seat, json_text(action), moment)
        if unlocked:
            written = write_alone(SAVE_POSTGRESQL, params)
        else:
            found = db.session.connection().exec_driver_sql(SAVE_POSTGRESQL, params)
            written = found.first() is not None
    else:
        rows, log = Table.__table__, Action.__table__
        stored = (
            rows.update()
            .where(rows.c.id == table.id, rows.c.version == table.version)
            .values(state=snapshot, version=version, updated_at=moment)
        )
        written = db.session.execute(stored).rowcount == 1
        if written:
            db.session.execute(
                log.insert().values(
                    table_id=table.id, version=version, seat=seat, action=action, created_at=moment
                )
            )
    if not written:
        raise changed_meanwhile(None)
    if isinstance(table, Table):
        set_committed_value(table, "state", snapshot)
        set_committed_value(table, "version", version)
        set_committed_value(table, "updated_at", moment)
    else:  # a kept table (``kept.KeptTable``): a plain copy
        table.state, table.version, table.updated_at = snapshot, version, moment
    if state.is_over() or seat is None:  # only an undo can take a finished game back
        keep_record(table, state)


def write_alone(sql: str, params: tuple) -> bool:
    """One statement as its own transaction (autocommit) on a pooled connection, sent
    through the driver itself (psycopg): no session, no SQLAlchemy connection or result
    around one statement, which cost more CPU than the driver's own work. The connection
    goes back to the pool as it came (autocommit off, no transaction open). Whether the
    statement returned a row. A connection that turns out dead is dropped from the pool
    and the statement sent once more on a fresh one (as ``retry_if_disconnected``)."""
    engine = db.engine
    dead = engine.dialect.loaded_dbapi.OperationalError
    for attempt in (1, 2):
        pooled = engine.raw_connection()
        driver = pooled.driver_connection
        try:
            driver.autocommit = True
            try:
                return driver.execute(sql, params).fetchone() is not None
            finally:
                if not driver.broken:
                    driver.autocommit = False
        except dead:
            if not driver.broken or attempt == 2:
                raise
            pooled.invalidate()
        finally:
            pooled.close()
    raise AssertionError("unreachable")  # pragma: no cover


def save_unlocked(table: Any, state: State, seat: int | None, action: dict) -> None:
    """:func:`save` as one statement of its own, no lock (PostgreSQL: ``moves.act_unlocked``),
    sent again on a fresh connection if the pooled one was dead (:func:`write_alone`: the
    statement is the move's only use of the database, as it never ends the game)."""
    save(table, state, seat, action, unlocked=True)


def keep_record(table: Any, state: State) -> None:
    """In the same transaction as the move: a finished game gets its one record; a game
    the host's undo took back from its end loses it again."""
    record = db.session.scalar(select(GameRecord).where(GameRecord.table_id == table.id))
    if not state.is_over():
        if record is not None:
            db.session.delete(record)
        return
    if record is None:
        record = GameRecord(table_id=table.id, code=table.code, game=table.game)
        db.session.add(record)
    record.names = [name or f"Seat {seat + 1}" for seat, name in enumerate(seat_names(table))]
    record.scores = list(state.scores())
    record.winners = list(state.winners())
    record.moves = state.moves
