"""Score mode's store: every read and write of the database, the sheet's lock and the
change log. Nothing above this module writes SQL.

A change runs in :func:`writing`: one transaction that holds the sheet's lock
(``database.locked``: ``FOR UPDATE`` on PostgreSQL, ``BEGIN IMMEDIATE`` on SQLite), so a
check made on the sheet holds until the commit at the end of the block; an error in the
block rolls it back and nothing is stored.

The database keeps only the facts of each round (``ScoreEntry.facts``), the round in
progress (``ScoreSheet.pending``) and the log of changes (``ScoreChange``), each with its
name in words, so the last change can be undone and an undone one redone.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Select, select
from sqlalchemy.exc import IntegrityError, OperationalError

from .. import codes
from ..database import locked
from ..extensions import db
from ..models import ScoreChange, ScoreEntry, ScoreRequest, ScoreSeat, ScoreSheet, utcnow
from .errors import Busy, NotFound, ScoreError


def _by_code(code: str) -> Select:
    return select(ScoreSheet).where(ScoreSheet.code == code.upper())


def find(code: str) -> ScoreSheet | None:
    """The sheet of ``code`` (any case), read without a lock."""
    return db.session.scalar(_by_code(code))


def find_watched(watch: str) -> ScoreSheet | None:
    """The sheet a share link's watch code opens."""
    return db.session.scalar(select(ScoreSheet).where(ScoreSheet.watch_code == watch))


def recent(sheet_codes: Iterable[str], games: Iterable[str]) -> list[ScoreSheet]:
    """The sheets of ``sheet_codes`` kept for ``games``, the last changed first."""
    return list(
        db.session.scalars(
            select(ScoreSheet)
            .where(ScoreSheet.game.in_(list(games)), ScoreSheet.code.in_(list(sheet_codes)))
            .order_by(ScoreSheet.updated_at.desc(), ScoreSheet.id.desc())
        )
    )


@contextmanager
def writing(code: str) -> Iterator[ScoreSheet]:
    """A write transaction holding the lock of sheet ``code``, yielding the sheet:
    committed when the block ends, rolled back when it raises. :class:`Busy` when the lock
    is not had in time, :class:`NotFound` for no such sheet."""
    try:
        sheet = locked(_by_code(code))
    except OperationalError:
        db.session.rollback()
        raise Busy() from None
    try:
        if sheet is None:
            raise NotFound()
        yield sheet
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        message = "Another phone changed the sheet at the same moment. Reload the sheet."
        raise ScoreError(message) from None
    except BaseException:
        db.session.rollback()
        raise


def rows_of(sheet: ScoreSheet) -> list[Any]:
    """The stored facts of each round, in order."""
    return [entry.facts for entry in sheet.entries]


def save_rows(sheet: ScoreSheet, rows: list[Any]) -> None:
    """Make the stored rounds equal ``rows`` (committed with the transaction)."""
    entries = list(sheet.entries)
    for position, facts in enumerate(rows):
        if position < len(entries):
            if entries[position].facts != facts:
                entries[position].facts = facts
        else:
            sheet.entries.append(ScoreEntry(position=position, facts=facts))
    for entry in entries[len(rows) :]:
        sheet.entries.remove(entry)
    sheet.updated_at = utcnow()


def log_change(
    sheet: ScoreSheet,
    kind: str,
    position: int,
    before: Any,
    after: Any,
    label: str,
    revealed: bool = False,
) -> ScoreChange:
    """Log a change; a new change clears the undone ones (nothing left to redo).
    ``revealed``: an added round that went through a sealed step's reveal."""
    for change in [c for c in sheet.changes if c.undone]:
        sheet.changes.remove(change)
    # Numbered after every change ever logged, so a cleared number is never reused.
    seq = db.session.scalar(
        select(db.func.coalesce(db.func.max(ScoreChange.seq), 0)).where(
            ScoreChange.sheet_id == sheet.id
        )
    )
    change = ScoreChange(
        seq=seq + 1,
        kind=kind,
        position=position,
        before=before,
        after=after,
        label=label,
        undone=False,
        revealed=revealed,
    )
    sheet.changes.append(change)
    return change


def last_done(sheet: ScoreSheet) -> ScoreChange | None:
    """The change an undo reverts: the newest one not undone."""
    done = [c for c in sheet.changes if not c.undone]
    return done[-1] if done else None


def first_undone(sheet: ScoreSheet) -> ScoreChange | None:
    """The change a redo applies again: the oldest undone one (undone newest first)."""
    undone = [c for c in sheet.changes if c.undone]
    return undone[0] if undone else None


def save_pending(sheet: ScoreSheet, pending: dict[str, Any] | None) -> None:
    """Keep (or, with None, drop) the round in progress."""
    sheet.pending = pending
    sheet.updated_at = utcnow()


def new_watch_code() -> str:
    """The share link's code: long and random, so it cannot be guessed from the sheet's."""
    return secrets.token_urlsafe(12)


def add_sheet(
    game: str,
    players: list[str],
    options: dict[str, Any],
    rounds: list[Any] = (),
    commit: bool = True,
    start_key: str | None = None,
) -> ScoreSheet:
    """Store a new sheet (empty, or holding ``rounds``) under a fresh code; commit unless
    the caller's transaction (``commit=False``) does. A sheet started offline keeps its
    ``start_key``: when another request stored the same one first, that sheet is given."""
    sheet = ScoreSheet(
        start_key=start_key,
        code=codes.new_code(lambda code: find(code) is not None),
        watch_code=new_watch_code(),
        game=game,
        players=list(players),
        options=dict(options),
    )
    sheet.entries = [ScoreEntry(position=i, facts=facts) for i, facts in enumerate(rounds)]
    db.session.add(sheet)
    if commit:
        try:
            db.session.commit()
        except IntegrityError:
            db.session.rollback()
            first = started(start_key) if start_key is not None else None
            if first is None:
                raise
            return first
    return sheet


def watch_code_of(sheet: ScoreSheet) -> str:
    """The sheet's watch code, made (and stored) the first time it is asked for (sheets
    kept before share links existed have none)."""
    if not sheet.watch_code:
        sheet.watch_code = new_watch_code()
        db.session.commit()
    return sheet.watch_code


def mark_undone(change: ScoreChange, undone: bool) -> None:
    """Mark a logged change undone (or, redone, done again)."""
    change.undone = undone


def round_count(sheet: ScoreSheet) -> int:
    """How many rounds the sheet holds."""
    return len(sheet.entries)


def let_go() -> None:
    """Give the request's database connection back to the pool (a long event stream
    must not hold one)."""
    db.session.remove()


def request_of(sheet: ScoreSheet, key: str) -> ScoreRequest | None:
    """The answer stored for idempotency key ``key`` on this sheet (:mod:`.retries`)."""
    return db.session.scalar(
        select(ScoreRequest).where(ScoreRequest.sheet_id == sheet.id, ScoreRequest.key == key)
    )


def keep_request(
    sheet: ScoreSheet, key: str, message: str, anchor: str, digest: str | None, seq: int | None
) -> None:
    """Store the answer to ``key``, with what was sent and the change it made (committed
    with that change)."""
    db.session.add(
        ScoreRequest(
            sheet_id=sheet.id,
            key=key,
            message=message,
            anchor=anchor,
            digest=digest,
            change_seq=seq,
        )
    )


def change_of(sheet: ScoreSheet, seq: int) -> ScoreChange | None:
    """The logged change number ``seq`` (None once a new change has cleared it)."""
    return next((c for c in sheet.changes if c.seq == seq), None)


def started(key: str) -> ScoreSheet | None:
    """The sheet started offline under idempotency key ``key``, if it was."""
    return db.session.scalar(select(ScoreSheet).where(ScoreSheet.start_key == key))


# -- every phone at the table (issue 28: :mod:`.phones`) ------------------------------------


def find_joined(join: str) -> ScoreSheet | None:
    """The sheet whose players join with code ``join`` (any case)."""
    return db.session.scalar(select(ScoreSheet).where(ScoreSheet.join_code == join.upper()))


def joins_among(guesses: list[str]) -> list[str]:
    """The join codes among ``guesses`` that name a sheet (what ``/join`` looks up)."""
    if not guesses:
        return []
    return list(
        db.session.scalars(select(ScoreSheet.join_code).where(ScoreSheet.join_code.in_(guesses)))
    )


def join_code_of(sheet: ScoreSheet) -> str:
    """The sheet's join code, made (and stored) the first time it is asked for."""
    if not sheet.join_code:
        sheet.join_code = codes.new_code(lambda code: find_joined(code) is not None)
        db.session.commit()
    return sheet.join_code


def add_seat(sheet: ScoreSheet, index: int, token_hash: str) -> None:
    sheet.seats.append(ScoreSeat(index=index, token_hash=token_hash))


def drop_seat(sheet: ScoreSheet, seat: ScoreSeat) -> None:
    sheet.seats.remove(seat)


def save_open(sheet: ScoreSheet, record: dict[str, Any] | None) -> None:
    """Keep the step in progress entered box by box (:mod:`.boxes`)."""
    sheet.open_boxes = record
    sheet.updated_at = utcnow()
