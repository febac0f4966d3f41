"""Envelopes kept per (table, version, viewer) for a few seconds, in this process.

After a move every phone of the table is told (its stream event) and the seats refetch
their view at about the same moment. The restored game state is shared by all of them
(one restore per table version, not one per phone), each viewer's envelope is built once
and served again to the same viewer (a poll and an event together, the host screen and
its spectators), and concurrent misses on one key wait for the first build rather than
all building ("single flight").

The key is ``(code, version, host, seat)``: the viewer is part of it, so one seat's
envelope (its hand) is never served to another seat, the host or a spectator. A version
names one state and every change of the table row bumps it; entries still expire after
``ENVELOPE_CACHE_SECONDS`` (default 10), because a pending seat request in the envelope
lapses with time, and at most ``ENVELOPE_CACHE_SIZE`` (default 2048) are kept.

**A view that reads one number.** A view needs the table row and its seats only to build
an envelope and to know who holds the token, and both only change with a new version.
So the latest table read in this process is kept as :class:`TableFacts` (a frozen copy,
detached from any database session), and a view first reads the table's current version
alone (one small query, no ORM objects, no snapshot parsed): when it is the kept one, the
kept facts serve; otherwise the table is loaded in full, once per version and process. A
move keeps the facts of the version it made, so its phones' refetches read one number.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from flask import current_app
from sqlalchemy.exc import OperationalError

from ..database import autocommit, begin_write, retry_if_disconnected
from ..extensions import db
from ..models import Table
from . import service
from .service import TableError, Who


class TimedCache:
    """A small LRU with an age limit and one build at a time per key."""

    def __init__(self, size: int, seconds: float):
        self.size = size
        self.seconds = seconds
        self._items: OrderedDict[Any, tuple[float, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self._building: dict[Any, threading.Lock] = {}
        self.hits = 0
        self.builds = 0

    def peek(self, key: Any) -> Any | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            if item[0] < time.monotonic():
                del self._items[key]
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return item[1]

    def put(self, key: Any, value: Any) -> None:
        with self._lock:
            self._items[key] = (time.monotonic() + self.seconds, value)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def get(self, key: Any, build: Callable[[], Any]) -> Any:
        found = self.peek(key)
        if found is not None:
            return found
        with self._lock:
            gate = self._building.setdefault(key, threading.Lock())
        with gate:
            found = self.peek(key)
            if found is None:
                found = build()
                with self._lock:
                    self.builds += 1
                self.put(key, found)
        with self._lock:
            if self._building.get(key) is gate and not gate.locked():
                del self._building[key]
        return found

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


def init_app(app) -> None:
    size = int(app.config.get("ENVELOPE_CACHE_SIZE", 2048))
    seconds = float(app.config.get("ENVELOPE_CACHE_SECONDS", 10))
    app.extensions["envelopes"] = TimedCache(size, seconds)
    app.extensions["states"] = TimedCache(max(16, size // 4), seconds)
    app.extensions["tables"] = TimedCache(max(16, size // 4), seconds)


def envelopes() -> TimedCache:
    return current_app.extensions["envelopes"]


@dataclass(frozen=True)
class SeatFacts:
    index: int
    name: str
    bot: str | None
    token_hash: str


@dataclass(frozen=True)
class TableFacts:
    """A table row and its seats as read at one version, out of any database session.
    It has the attributes of :class:`~companion.models.Table` that the functions which
    only read a table use (``service.identify``, ``service.envelope``, ``state_of``,
    ``bots.turn_of``); nothing may change it or the dicts it holds (the snapshot is
    shared with the states restored from it)."""

    id: int
    code: str
    game: str
    players: int
    version: int
    state: dict[str, Any]
    host_token_hash: str
    seat_news: dict[str, Any] | None
    last_undo: dict[str, Any] | None
    rematch_code: str | None
    seats: tuple[SeatFacts, ...]

    def to_json(self) -> str:
        """The facts as JSON text, for the other processes (``service.announce``)."""
        fields = {name: getattr(self, name) for name in FIELDS}
        fields["seats"] = [[s.index, s.name, s.bot, s.token_hash] for s in self.seats]
        return json.dumps(fields, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> TableFacts:
        fields = json.loads(text)
        fields["seats"] = tuple(SeatFacts(*seat) for seat in fields["seats"])
        return cls(**fields)

    @classmethod
    def of(cls, table: Table) -> TableFacts:
        seats = tuple(SeatFacts(s.index, s.name, s.bot, s.token_hash) for s in table.seats)
        return cls(
            id=table.id,
            code=table.code,
            game=table.game,
            players=table.players,
            version=table.version,
            state=table.state,
            host_token_hash=table.host_token_hash,
            seat_news=table.seat_news,
            last_undo=table.last_undo,
            rematch_code=table.rematch_code,
            seats=seats,
        )


FIELDS = tuple(name for name in TableFacts.__dataclass_fields__ if name != "seats")


def keep(facts: TableFacts) -> None:
    """Keep ``facts`` as the latest read of its table (unless a later one is kept)."""
    tables = current_app.extensions["tables"]
    kept = tables.peek(facts.code)
    if kept is None or kept.version <= facts.version:
        tables.put(facts.code, facts)


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


def kept(code: str, version: int) -> TableFacts | None:
    """The facts kept for ``code`` if they are of ``version`` (no query)."""
    found = current_app.extensions["tables"].peek(code)
    return found if found is not None and found.version == version else None


class KeptTable(SimpleNamespace):
    """An editable copy of kept :class:`TableFacts` for one change (``locked_kept``). Its
    snapshot is still the one the cached views' states share: a state restored from it
    for the change is a copy (``service.state_of``)."""

    shares_snapshot = True


def kept_copy(code: str) -> KeptTable | None:
    """An editable copy of the facts this process keeps for ``code`` (None: none kept),
    whatever the table's version is now (no query)."""
    facts = current_app.extensions["tables"].peek(code)
    return None if facts is None else KeptTable(**vars(facts))


def locked_kept(code: str) -> KeptTable | None:
    """For a change (a move): start its write transaction holding the table's row lock,
    as ``service.lock_table`` does, but read only the version (the driver's own SQL). When
    the kept facts are of that version they are the table as it is, and an editable copy
    of them is returned: nothing to load, no snapshot to parse. None when nothing is kept
    for that version (the caller loads the table, which takes the lock again).
    :class:`TableError` 503 when the lock wait times out."""
    table = kept_copy(code)
    if table is None:
        return None
    try:
        version = retry_if_disconnected(
            lambda: read_version(begin_write().connection(), code, lock=True)
        )
    except OperationalError:
        raise service.table_busy() from None
    return table if version == table.version else None


def current_table(code: str) -> TableFacts:
    """The table at its current version, for a request that only reads it: the kept
    facts when the database still has their version (one small query), else the table
    loaded in full (one query when none was kept; see the module's notes)."""
    code = service.normalise_code(code)
    kept = current_app.extensions["tables"].peek(code)
    if kept is not None:
        version = current_version(code)
        if version is None:
            raise TableError(404, "There is no table with that code.")
        if version == kept.version:
            return kept
    facts = TableFacts.of(service.get_table(code, read_only=True))
    keep(facts)
    return facts


def state(table: Table | TableFacts):
    """The table's restored state at its current version, shared by every viewer; it is
    only read (``envelope`` never changes it)."""
    return current_app.extensions["states"].get(
        (table.code, table.version), lambda: service.state_of(table)
    )


def envelope(table: Table | TableFacts, who: Who, keep: bool = True) -> dict[str, Any]:
    """``service.envelope(table, who)``, built once per (table, version, viewer).
    ``keep=False``: a kept one serves, but one built now is not kept (a viewer's own
    stream builds its envelope once per version: kept for seconds, it would only age into
    the garbage collector's oldest generation and lengthen every full collection)."""
    key = (table.code, table.version, who.host, who.seat)
    if not keep:
        found = envelopes().peek(key)
        return found if found is not None else service.envelope(table, who, state(table))
    return envelopes().get(key, lambda: service.envelope(table, who, state(table)))


def remember(code: str, version: int, who: Who, answer: dict[str, Any], state) -> None:
    """Keep what a committed change already built: ``who``'s envelope of the table at
    ``version`` and its state (only read from now on, like every cached one)."""
    envelopes().put((code, version, who.host, who.seat), answer)
    current_app.extensions["states"].put((code, version), state)


def public(code: str, version: int) -> dict[str, Any] | None:
    """The spectator's envelope of ``code`` at ``version`` if it is cached."""
    return envelopes().peek((code, version, False, None))


MISSING = object()


def private_part(public: dict[str, Any], mine: dict[str, Any]) -> dict[str, Any] | None:
    """What ``mine`` (a viewer's envelope) adds to ``public`` (the spectator's envelope of
    the same version, which the phone has from its stream event): the fields that differ,
    and of ``view`` the keys that differ. ``{**public, **part, "view": {**public["view"],
    **part["view"]}}`` is ``mine`` again; ``None`` when that shallow merge could not
    rebuild it (a key of ``public`` that ``mine`` lacks)."""
    view, public_view = mine.get("view"), public.get("view")
    if not isinstance(view, dict) or not isinstance(public_view, dict):
        return None
    if set(public) - set(mine) or set(public_view) - set(view):
        return None
    part = {k: v for k, v in mine.items() if k != "view" and public.get(k, MISSING) != v}
    part["view"] = {k: v for k, v in view.items() if public_view.get(k, MISSING) != v}
    part["version"] = mine["version"]
    part["partial"] = True
    return part
