"""Use cases of play: a seat's move, a bot's move and the host's undo, each one locked
transaction (``store.changing``) that returns the mover's envelope or raises
:class:`TableError`.

**The hot path.** On PostgreSQL a move on the table this process keeps is one statement
instead (:func:`act_unlocked`); otherwise the lock is taken reading only the version, and
when this process keeps the table at that version the move loads nothing
(``store.locked_kept``). A committed move keeps the mover's envelope and the new state
(``kept.remember``), so the events' envelopes need no restore of the state and the mover's
none at all.
"""

from __future__ import annotations

from typing import Any

from ..games import IllegalAction
from ..games.base import State
from . import kept, saving, store
from .envelope import envelope
from .errors import TableError, changed_meanwhile
from .kept import TableFacts
from .tokens import Who, identify, the_host


def check_version(table: Any, version: Any) -> None:
    if isinstance(version, bool) or not isinstance(version, int):
        raise TableError(400, 'Send the "version" you last saw, as a whole number.')
    if version != table.version:
        raise changed_meanwhile(table.version)


def act(code: str, token: str | None, action: Any, version: Any) -> dict[str, Any]:
    """Apply one seat's action in one locked transaction; returns that seat's envelope of
    the state this action produced (not a later one another phone may already have made).
    On PostgreSQL a move on the table this process keeps is one statement instead
    (:func:`act_unlocked`)."""
    code = store.normalise_code(code)
    answer = act_unlocked(code, token, action, version)
    if answer is not None:
        return answer
    # The table as this process kept it, when that is still its version: a move then
    # loads nothing (see ``store.locked_kept``).
    with store.changing(code, store.locked_kept(code)) as table:
        who, state = play(table, token, action, version)
        saving.save(table, state, *state.last_action)
        answer = envelope(table, who, state)
        made = (table.code, table.version)
    kept.remember(*made, who.viewer, answer, state)
    return answer


def play(table: Any, token: str | None, action: Any, version: Any) -> tuple[Who, State]:
    """Check a move (the token holds a seat, the version is the table's, the game has
    started, the action is an object) and apply it to the table's state: the mover and
    the new state. :class:`TableError` when refused; nothing is stored."""
    if token is None:
        raise TableError(401, "Send your seat token (Authorization: Bearer …) to play.")
    who = identify(table, token)
    if who.seat is None:
        raise TableError(403, "Only a player's seat token can play; join the table first.")
    check_version(table, version)
    if not store.started(table):
        missing = table.players - len(table.seats)
        raise TableError(
            422, f"The game starts when every seat is taken ({missing} still to join)."
        )
    if not isinstance(action, dict):
        raise TableError(400, 'The "action" must be an object, e.g. {"type": "play", …}.')
    state = store.state_of(table)
    try:
        state.apply(who.seat, action)
    except IllegalAction as error:
        raise TableError(422, error.message) from None
    return who, state


def act_unlocked(code: str, token: str | None, action: Any, version: Any) -> dict | None:
    """A move with no lock and no transaction, on PostgreSQL, when this process keeps the
    table (``kept.kept_copy``): the action is applied to that copy, then stored by one
    statement that writes only if the table is still at the copy's version
    (``saving.save`` with ``unlocked``). One round trip instead of four (BEGIN, the lock,
    the write, COMMIT), and no row lock held between them. None when the move is not made
    this way, with nothing written: nothing kept, SQLite (whose writers queue on our lock
    anyway), or a transaction already open; a refusal (the copy may be older than the
    table: the locked path answers from the table as it is); a move that ends the game
    (the locked path also writes its record); or another change stored first (a seat
    that moved meanwhile made a new version, so a moved token never plays this way)."""
    if not store.can_write_unlocked():
        return None
    table = kept.kept_copy(code)
    if table is None:
        return None
    try:
        who, state = play(table, token, action, version)
        if state.is_over():
            return None
        saving.save_unlocked(table, state, *state.last_action)
    except TableError:
        return None
    answer = envelope(table, who, state)
    # Kept before it is announced (it is stored already): the event's texts, built while
    # announcing (``stream.ready_lines``), then restore no state and rebuild not the mover's.
    kept.remember(table.code, table.version, who.viewer, answer, state)
    store.committed(TableFacts.of(table))
    return answer


def bot_act(code: str, seat: int, level: str, action: dict, version: int) -> int:
    """A bot's move through the same path as a phone's: the table locked, the version and
    the seat checked, the action applied, stored and logged, then announced. Returns the
    new version. 409 when the table changed since the bot looked (or its seat is not
    its)."""
    with store.changing(code) as table:
        row = next((s for s in table.seats if s.index == seat), None)
        if row is None or row.bot != level:
            raise TableError(409, f"Seat {seat + 1} is no longer played by this bot.")
        check_version(table, version)
        state = store.state_of(table)
        try:
            state.apply(seat, action)
        except IllegalAction as error:
            raise TableError(422, error.message) from None
        moved, canonical = state.last_action
        saving.save(table, state, moved, canonical)
        new_version = table.version
    return new_version


def undo(code: str, token: str | None, version: Any = None) -> dict[str, Any]:
    """Host only: take back the last action (a whole sealed step once it was shown, as
    the game's ``undo_point`` says) by replaying the others; the envelope's ``last_undo``
    tells every phone what was taken back."""
    with store.changing(code) as table:
        who = the_host(table, token, "undo")
        if version is not None:
            check_version(table, version)
        state = store.state_of(table)
        if not state.moves:
            raise TableError(422, "There is nothing to undo.")
        state.log = store.log_of(table)  # undo is rare: only it reads the whole log
        try:
            previous, text = store.game_of(table).undo(state, store.seat_names(table))
        except IllegalAction as error:
            raise TableError(422, error.message) from None
        saving.save(table, previous, None, {**store.UNDO, "to": previous.moves, "text": text})
        table.last_undo = {"text": text, "version": table.version}
        answer = envelope(table, who, previous)
    return answer
