"""Engine-mode tables: creating, joining, acting and undoing, each in one transaction.

The table row holds the engine state snapshot and a version number; the ``action`` table
beside it is an append-only log (an undo is appended as ``{"type": "undo"}`` by seat
``None``). Every change runs in one transaction that first locks the table row
(PostgreSQL ``SELECT … FOR UPDATE``; SQLite ``BEGIN IMMEDIATE``, which takes the database
write lock before anything is read), checks the version the client saw, applies, stores
the new snapshot and version with an ``Action`` row, commits, and only then tells the live
broker, so a listener that refetches sees the committed state.

Tokens (host and seats) are ``secrets.token_urlsafe(32)``; only their SHA-256 is stored
and a presented token is compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from flask import current_app
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from .. import codes, live
from ..extensions import db
from ..games import GAMES, IllegalAction
from ..games.base import Game, State
from ..models import Action, Seat, Table
from ..network import base_url
from ..rules import has_rules, rule_url

NAME_MAX = 24
ZWJ = "\u200d"
UNDO = {"type": "undo"}


class TableError(Exception):
    """A request the table refuses; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str, **extra: Any):
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


# -- tokens -------------------------------------------------------------------------------


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def same_hash(presented: str, stored: str) -> bool:
    return hmac.compare_digest(presented.encode(), stored.encode())


@dataclass(frozen=True)
class Who:
    """Who presented a token: the host, a seat, or nobody (public)."""

    host: bool = False
    seat: int | None = None


def identify(table: Table, token: str | None) -> Who:
    """The holder of ``token`` at ``table``; :class:`TableError` 401 for an unknown one."""
    if token is None:
        return Who()
    digest = hash_token(token)
    # Compare with every stored hash (no early exit), so timing tells nothing.
    host = same_hash(digest, table.host_token_hash)
    seat = None
    for s in table.seats:
        if same_hash(digest, s.token_hash):
            seat = s.index
    if host:
        return Who(host=True)
    if seat is not None:
        return Who(seat=seat)
    raise TableError(401, "That token does not belong to this table. Join it again.")


# -- names --------------------------------------------------------------------------------


def clean_name(name: Any) -> str:
    """A seat name: trimmed, 1–24 characters (code points, after NFC), no control or
    invisible formatting characters."""
    if not isinstance(name, str):
        raise TableError(400, "A name must be text.")
    name = unicodedata.normalize("NFC", name).strip()
    if not name:
        raise TableError(400, "Please enter a name.")
    if len(name) > NAME_MAX:
        raise TableError(400, f"A name can be at most {NAME_MAX} characters long.")
    # Format characters are refused (they can reverse or hide text), except the zero-width
    # joiner that builds emoji such as a family or a flag-waving pirate.
    if any(
        unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") and ch != ZWJ
        for ch in name
    ):
        raise TableError(400, "A name cannot contain control or invisible characters.")
    return name


# -- loading and locking ------------------------------------------------------------------


def normalise_code(code: str) -> str:
    return codes.normalise(code)


def get_table(code: str) -> Table:
    table = db.session.scalar(select(Table).where(Table.code == normalise_code(code)))
    if table is None:
        raise TableError(404, "There is no table with that code.")
    return table


def lock_table(code: str) -> Table:
    """Start a write transaction holding the table's row lock and load the table."""
    db.session.rollback()  # a fresh transaction: nothing read before the lock counts
    try:
        conn = db.session.connection()
        if conn.dialect.name == "sqlite":
            # pysqlite opens transactions lazily; take the write lock before reading.
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        table = db.session.scalar(
            select(Table)
            .where(Table.code == normalise_code(code))
            .with_for_update()
            .execution_options(populate_existing=True)
        )
    except OperationalError:
        # The lock wait timed out (a very busy SQLite file): nothing was changed.
        db.session.rollback()
        raise TableError(503, "The table is busy; try again in a moment.") from None
    if table is None:
        db.session.rollback()
        raise TableError(404, "There is no table with that code.")
    return table


@contextmanager
def changing(code: str) -> Iterator[Table]:
    """The table, locked, for one change: commits when the block ends (rolls back if it
    raises), then tells live listeners the new version. The code and version are read
    before the commit, so announcing does not reload the expired row."""
    table = lock_table(code)
    try:
        yield table
        code, version = table.code, table.version
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    announce(code, version)


def game_of(table: Table) -> Game:
    return GAMES[table.game]


def state_of(table: Table) -> State:
    return game_of(table).state_from_dict(table.state)


def started(table: Table) -> bool:
    return len(table.seats) == table.players


def seat_names(table: Table) -> list[str | None]:
    names: list[str | None] = [None] * table.players
    for s in table.seats:
        names[s.index] = s.name
    return names


# -- creating and joining -----------------------------------------------------------------


def new_code() -> str:
    return codes.new_code(
        lambda code: db.session.scalar(select(Table.id).where(Table.code == code)) is not None
    )


def create_table(
    game: Any,
    players: Any,
    options: Any = None,
    seed: int | None = None,
    deal: dict | None = None,
) -> tuple[Table, str]:
    """A new table and its host token. Bad settings raise :class:`TableError` 422."""
    if not isinstance(game, str) or game not in GAMES:
        raise TableError(422, f"Unknown game. Choose one of: {', '.join(GAMES)}.")
    if options is None:
        options = {}
    try:
        state = GAMES[game].new_state(players, options, seed=seed, deal=deal)
    except IllegalAction as error:
        raise TableError(422, error.message) from None
    token = new_token()
    table = Table(
        code=new_code(),
        game=game,
        players=state.players,
        options=state.options,
        seed=state.seed,
        deal=deal,
        state=state.to_dict(),
        version=0,
        host_token_hash=hash_token(token),
    )
    db.session.add(table)
    db.session.commit()
    return table, token


def join(code: str, name: Any, seat: Any = None) -> tuple[int, str, int]:
    """Take a seat (the one asked for, else the lowest free one); returns the seat, its
    token and the version the join made."""
    name = clean_name(name)
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise TableError(400, "A seat must be a whole number.")
    with changing(code) as table:
        taken = {s.index: s.name for s in table.seats}
        if seat is not None and not 0 <= seat < table.players:
            raise TableError(422, f"This table has seats 1 to {table.players}.")
        if len(taken) >= table.players:
            raise TableError(409, "Every seat at this table is taken.")
        if seat is not None and seat in taken:
            raise TableError(409, f"Seat {seat + 1} is taken by {taken[seat]}.")
        if any(other.casefold() == name.casefold() for other in taken.values()):
            raise TableError(409, f"Someone at this table is already called {name}.")
        if seat is None:
            seat = min(i for i in range(table.players) if i not in taken)
        token = new_token()
        table.seats.append(Seat(index=seat, name=name, token_hash=hash_token(token)))
        table.version += 1
        version = table.version
    return seat, token, version


def release(code: str, token: str | None, seat: Any) -> dict[str, Any]:
    """Host only: free a seat (its phone was lost without its rejoin link). The seat's old
    token stops working; whoever takes the seat next gets its hand back. Play pauses until
    the seat is taken again."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise TableError(400, "A seat must be a whole number.")
    with changing(code) as table:
        if token is None:
            raise TableError(401, "Send the host token (Authorization: Bearer …) to free a seat.")
        if not identify(table, token).host:
            raise TableError(403, "Only the host can free a seat.")
        taken = [s for s in table.seats if s.index == seat]
        if not taken:
            raise TableError(422, f"Seat {seat + 1} is not taken.")
        table.seats.remove(taken[0])
        table.version += 1
        answer = envelope(table, Who(host=True))
    return answer


# -- acting -------------------------------------------------------------------------------


def check_version(table: Table, version: Any) -> None:
    if isinstance(version, bool) or not isinstance(version, int):
        raise TableError(400, 'Send the "version" you last saw, as a whole number.')
    if version != table.version:
        raise TableError(
            409,
            "The table changed in the meantime; here is the current version.",
            version=table.version,
        )


def act(code: str, token: str | None, action: Any, version: Any) -> dict[str, Any]:
    """Apply one seat's action in one locked transaction; returns that seat's envelope of
    the state this action produced (not a later one another phone may already have made)."""
    with changing(code) as table:
        if token is None:
            raise TableError(401, "Send your seat token (Authorization: Bearer …) to play.")
        who = identify(table, token)
        if who.seat is None:
            raise TableError(403, "Only a player's seat token can play; join the table first.")
        check_version(table, version)
        if not started(table):
            missing = table.players - len(table.seats)
            raise TableError(
                422, f"The game starts when every seat is taken ({missing} still to join)."
            )
        if not isinstance(action, dict):
            raise TableError(400, 'The "action" must be an object, e.g. {"type": "play", …}.')
        state = state_of(table)
        try:
            state.apply(who.seat, action)
        except IllegalAction as error:
            raise TableError(422, error.message) from None
        seat, canonical = state.log[-1]
        save(table, state, seat, canonical)
        answer = envelope(table, who, state)
    return answer


def undo(code: str, token: str | None, version: Any = None) -> dict[str, Any]:
    """Host only: take back the last action by replaying all the others."""
    with changing(code) as table:
        if token is None:
            raise TableError(401, "Send the host token (Authorization: Bearer …) to undo.")
        who = identify(table, token)
        if not who.host:
            raise TableError(403, "Only the host can undo.")
        if version is not None:
            check_version(table, version)
        state = state_of(table)
        if not state.log:
            raise TableError(422, "There is nothing to undo.")
        previous = game_of(table).replay(state, upto=len(state.log) - 1)
        save(table, previous, None, dict(UNDO))
        answer = envelope(table, who, previous)
    return answer


def save(table: Table, state: State, seat: int | None, action: dict) -> None:
    table.state = state.to_dict()
    table.version += 1
    db.session.add(Action(table_id=table.id, version=table.version, seat=seat, action=action))


def announce(code: str, version: int) -> None:
    """Tell every live listener of this table that it changed (after the commit). The change
    is already stored, so a broker that is down (Redis unreachable) must not turn its answer
    into an error: it is logged, and the phones catch up by polling."""
    try:
        live.publish(channel(code), str(version))
    except Exception:
        current_app.logger.exception("Could not announce version %d of table %s", version, code)


def channel(code: str) -> str:
    return f"table:{code}"


def replay_log(table: Table) -> State:
    """The state rebuilt from the settings and the stored action log (undo included)."""
    game = game_of(table)
    state = game.new_state(table.players, table.options, seed=table.seed, deal=table.deal)
    steps: list[list[Any]] = []
    for row in db.session.scalars(
        select(Action).where(Action.table_id == table.id).order_by(Action.version)
    ):
        if row.seat is None and row.action == UNDO:
            steps.pop()
        else:
            steps.append([row.seat, row.action])
    for seat, action in steps:
        state.apply(seat, action)
    return state


# -- what a client sees -------------------------------------------------------------------


def envelope(table: Table, who: Who, state: State | None = None) -> dict[str, Any]:
    """The one answer shape for ``view`` and ``actions`` (see docs/api.md)."""
    state = state or state_of(table)
    seat = who.seat
    is_started = started(table)
    over = state.is_over()
    legal = state.legal_actions(seat) if seat is not None and is_started else []
    body_view = state.view(seat)
    body: dict[str, Any] = {
        "version": table.version,
        "seat": seat,
        "to_act": state.to_act() if is_started else [],
        "legal": legal,
        "over": over,
        "view": body_view,
        "game": table.game,
        "code": table.code,
        "players": seat_names(table),
        "started": is_started,
        "host": who.host,
        "can_undo": who.host and bool(state.log),
        "labels": [state.describe(action) for action in legal],
        "blocked": blocked_cards(table.game, state, seat) if is_started else {},
        "scores": body_view["scores"] if over else None,
    }
    return body


def blocked_cards(slug: str, state: State, seat: int | None) -> dict[str, dict[str, str]]:
    """The viewing seat's own cards it may not play now: the engine's reason and a link
    to the rule (``/rules/<slug>#anchor``); nothing for the table or another seat."""
    answer = {}
    for card, why in state.blocked(seat).items():
        anchor = why.get("anchor") or None
        url = rule_url(slug, anchor) if has_rules(slug) else ""
        answer[card] = {"reason": why["reason"], "anchor": anchor or "", "url": url}
    return answer


# -- the address phones use ---------------------------------------------------------------


def join_url(code: str, host_url: str) -> str:
    """Where a phone joins: ``PUBLIC_URL``, else this request's address, with a loopback
    host replaced by this machine's LAN address (phones cannot reach ``localhost``)."""
    return base_url(host_url) + f"/t/{code}/seat"
