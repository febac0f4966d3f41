"""The store's memory: tables, states and envelopes this process keeps for a few seconds.

After a move every phone of the table is told (its stream event) and the seats refetch
their view at about the same moment. The restored game state is shared by all of them
(one restore per table version, not one per phone), each viewer's envelope is built once
and served again to the same viewer (a poll and an event together, the host screen and
its spectators), and concurrent misses on one key wait for the first build rather than
all building ("single flight").

An envelope's key is ``(code, version, host, seat)``: the viewer is part of it, so one
seat's envelope (its hand) is never served to another seat, the host or a spectator. A
version names one state and every change of the table row (a move, and every change of a
seat's holder) bumps it; entries still expire after ``ENVELOPE_CACHE_SECONDS`` (default
10), because a pending seat request in the envelope lapses with time, and at most
``ENVELOPE_CACHE_SIZE`` (default 2048) are kept.

**A view that reads one number.** A view needs the table row and its seats only to build
an envelope and to know who holds the token, and both only change with a new version.
So the latest table read in this process is kept as :class:`TableFacts` (a frozen copy,
detached from any database session), and a view first reads the table's current version
alone (``store.current_table``): when it is the kept one, the kept facts serve. A
committed change keeps the facts of the version it made (:func:`on_table_changed`, a
receiver of ``events.table_changed``), so its phones' refetches read one number.

The kept facts are sized for every table a process serves, not for one burst of
refetches: ``KEPT_TABLES`` (default 4096) tables for ``KEPT_TABLE_SECONDS`` (default 600)
each. Nothing trusts them without the database's version (a view and a locked move read
it; a move on the kept copy writes only if the version is still the same), so an old copy
costs a read, never a wrong answer; but a copy evicted between two moves of a table sends
its next move the locked way (five round trips, the table read in full) instead of one
statement. With 512 kept (the old ``ENVELOPE_CACHE_SIZE // 4``) and 1,000 tables playing,
every move went that way (bench/README.md).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from flask import Flask, current_app

from .. import events, jsontext
from ..models import Table


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


def init_app(app: Flask) -> None:
    size = int(app.config.get("ENVELOPE_CACHE_SIZE", 2048))
    seconds = float(app.config.get("ENVELOPE_CACHE_SECONDS", 10))
    app.extensions["envelopes"] = TimedCache(size, seconds)
    app.extensions["states"] = TimedCache(max(16, size // 4), seconds)
    tables_kept = int(app.config.get("KEPT_TABLES", 4096))
    app.extensions["tables"] = TimedCache(
        tables_kept, float(app.config.get("KEPT_TABLE_SECONDS", 600))
    )


def envelopes() -> TimedCache:
    return current_app.extensions["envelopes"]


def states() -> TimedCache:
    return current_app.extensions["states"]


def tables() -> TimedCache:
    return current_app.extensions["tables"]


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
    only read a table use (``tokens.identify``, ``envelope.envelope``, ``store.state_of``,
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
        """The facts as JSON text, for the other processes (``stream.publish``)."""
        fields = {name: getattr(self, name) for name in FIELDS}
        fields["seats"] = [[s.index, s.name, s.bot, s.token_hash] for s in self.seats]
        return jsontext.dumps(fields)

    @classmethod
    def from_json(cls, text: str) -> TableFacts:
        fields = jsontext.loads(text)
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

    @property
    def with_bots(self) -> bool:
        return any(s.bot for s in self.seats)


FIELDS = tuple(name for name in TableFacts.__dataclass_fields__ if name != "seats")


def keep(facts: TableFacts) -> None:
    """Keep ``facts`` as the latest read of its table (unless a later one is kept)."""
    keep_in(tables(), facts)


def keep_in(cache: TimedCache, facts: TableFacts) -> None:
    """:func:`keep` into this app's ``cache`` of tables (no app context needed)."""
    kept_now = cache.peek(facts.code)
    if kept_now is None or kept_now.version <= facts.version:
        cache.put(facts.code, facts)


def on_table_changed(code: str, facts: TableFacts, **_: Any) -> None:
    """``events.table_changed``: keep the table as the committed change left it."""
    keep(facts)


def connect() -> None:
    events.table_changed.connect(on_table_changed)


def latest(code: str) -> TableFacts | None:
    """The facts kept for ``code``, of whatever version (no query)."""
    return tables().peek(code)


def kept(code: str, version: int) -> TableFacts | None:
    """The facts kept for ``code`` if they are of ``version`` (no query)."""
    found = latest(code)
    return found if found is not None and found.version == version else None


class KeptTable(SimpleNamespace):
    """An editable copy of kept :class:`TableFacts` for one change (``store.locked_kept``).
    Its snapshot is still the one the cached views' states share: a state restored from
    it for the change is a copy (``store.state_of``)."""

    shares_snapshot = True


def kept_copy(code: str) -> KeptTable | None:
    """An editable copy of the facts this process keeps for ``code`` (None: none kept),
    whatever the table's version is now (no query)."""
    facts = latest(code)
    return None if facts is None else KeptTable(**vars(facts))


def remember(code: str, version: int, viewer: tuple[bool, int | None], answer: dict, state) -> None:
    """Keep what a committed change already built: the envelope of the table at
    ``version`` for ``viewer`` (host, seat) and its state (only read from now on)."""
    envelopes().put((code, version, *viewer), answer)
    states().put((code, version), state)
