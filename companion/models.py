"""Database models.

Score mode keeps *facts* (what happened each round) and derives totals with the game's
pure ``sheet.py``; engine mode keeps a snapshot of the engine state plus an append-only
action log, so that replaying the log from the first deal gives the same snapshot.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from .extensions import db


def utcnow() -> datetime:
    return datetime.now(UTC)


class ScoreSheet(db.Model):
    """One game kept in score mode: the players, the options, and the rounds entered."""

    __tablename__ = "score_sheet"

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    # The share link's code: shows the sheet, never edits it (None until first shared).
    watch_code: Mapped[str | None] = mapped_column(
        String(32), unique=True, index=True, nullable=True
    )
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[list[str]] = mapped_column(JSON)
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # The round being entered step by step, apart from the complete rounds (entries):
    # {"position": n, "done": [step names], "boxes": {box key: text}}; None when none is.
    pending: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # The code of the sheet its rematch started (None until one is): a second Rematch
    # opens that sheet, and the share page follows it.
    rematch_code: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # The idempotency key of a sheet started offline (None for one started online): the
    # same start sent again finds this sheet rather than making a second one.
    start_key: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    # Every phone at the table (issue 28): the code the players join with (None until the
    # keeper first shows it), and the step in progress entered box by box, sealed entries
    # included, read and written only by ``scorekeeper.boxes``/``scorekeeper.phones``:
    # {"position": n, "step": name, "rev": k, "boxes": {key: {"text", "by", "rev"}},
    #  "revealed": {"step", "position", "label", "boxes"} | None}.
    join_code: Mapped[str | None] = mapped_column(
        String(16), unique=True, index=True, nullable=True
    )
    open_boxes: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # Requests for a taken name ("I am Ada", issue 28): scorekeeper/seat_requests.py.
    seat_requests: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )

    seats: Mapped[list[ScoreSeat]] = relationship(
        back_populates="sheet", order_by="ScoreSeat.index", cascade="all, delete-orphan"
    )
    entries: Mapped[list[ScoreEntry]] = relationship(
        back_populates="sheet", order_by="ScoreEntry.position", cascade="all, delete-orphan"
    )
    changes: Mapped[list[ScoreChange]] = relationship(
        back_populates="sheet", order_by="ScoreChange.seq", cascade="all, delete-orphan"
    )


class ScoreSeat(db.Model):
    """A player's phone on a score sheet: the player's place in ``ScoreSheet.players``
    and the phone's bearer token, stored hashed (as Play mode's seats)."""

    __tablename__ = "score_seat"
    __table_args__ = (UniqueConstraint("sheet_id", "index"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    sheet_id: Mapped[int] = mapped_column(ForeignKey("score_sheet.id", ondelete="CASCADE"))
    index: Mapped[int] = mapped_column(Integer)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    sheet: Mapped[ScoreSheet] = relationship(back_populates="seats")


class ScoreEntry(db.Model):
    """The facts of one round (deal, hand, duel) of a score sheet."""

    __tablename__ = "score_entry"
    __table_args__ = (UniqueConstraint("sheet_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    sheet_id: Mapped[int] = mapped_column(ForeignKey("score_sheet.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    facts: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    sheet: Mapped[ScoreSheet] = relationship(back_populates="entries")


class ScoreRequest(db.Model):
    """A change a phone sent with an idempotency key, and what it was answered: the same
    key sent again (a kept entry retried after its answer was lost) gets that answer
    again, never a second change or a conflict."""

    __tablename__ = "score_request"
    __table_args__ = (UniqueConstraint("sheet_id", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    sheet_id: Mapped[int] = mapped_column(ForeignKey("score_sheet.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(64))
    message: Mapped[str] = mapped_column(String(300))
    anchor: Mapped[str] = mapped_column(String(40))
    # What was sent (a digest of the address and the form, the CSRF token left out): the
    # same key with other content is refused, and the change it made (the log's ``seq``),
    # which a later kept correction or undo names by this key.
    digest: Mapped[str | None] = mapped_column(String(64), nullable=True)
    change_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ScoreChange(db.Model):
    """One change of a score sheet, kept so it can be undone and redone: ``kind`` is
    "add", "edit" or "delete" of the round at ``position`` (from 0), with the round's facts
    ``before`` and ``after`` (None where there is none) and a name in words ("deal 3
    corrected"). Undone changes stay until a new change clears them (the redo list).
    ``revealed``: an added round went through a sealed step's reveal (its players entered
    it on their phones), so undo stops at it; None for a change logged before this was
    kept (the sheet's being joined then stands for it)."""

    __tablename__ = "score_change"
    __table_args__ = (UniqueConstraint("sheet_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    sheet_id: Mapped[int] = mapped_column(ForeignKey("score_sheet.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    position: Mapped[int] = mapped_column(Integer)
    before: Mapped[Any] = mapped_column(JSON, nullable=True)
    after: Mapped[Any] = mapped_column(JSON, nullable=True)
    label: Mapped[str] = mapped_column(String(80))
    undone: Mapped[bool] = mapped_column(Boolean, default=False)
    revealed: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    sheet: Mapped[ScoreSheet] = relationship(back_populates="changes")


class Table(db.Model):
    """An engine-mode game: settings, the current state snapshot and its version."""

    __tablename__ = "game_table"

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True, index=True)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    deal: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=0)
    host_token_hash: Mapped[str] = mapped_column(String(64))
    # What every envelope says about the seats (see tables.service.news_of).
    seat_news: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rematch_code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    last_undo: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )

    seats: Mapped[list[Seat]] = relationship(
        back_populates="table", order_by="Seat.index", cascade="all, delete-orphan"
    )
    actions: Mapped[list[Action]] = relationship(
        back_populates="table", order_by="Action.version", cascade="all, delete-orphan"
    )


class Seat(db.Model):
    """A player's (or a bot's) seat at a table; the bearer token is stored hashed. Two
    seats of a table never have names that differ only in case: ``name_key`` (the name
    case-folded, set with the name) is unique per table, so two phones joining at once as
    "Ann" and "ANN" cannot both be stored."""

    __tablename__ = "seat"
    __table_args__ = (
        UniqueConstraint("table_id", "index"),
        UniqueConstraint("table_id", "name_key", name="uq_seat_table_id_name_key"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_table.id", ondelete="CASCADE"))
    index: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(160))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # A bot's level ("easy", "normal", "strong"; None for a person) and its own seed: the
    # bot plays this seat through the same service path (companion.tables.bots). Nobody
    # holds a bot seat's token.
    bot: Mapped[str | None] = mapped_column(String(16), nullable=True)
    bot_seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    table: Mapped[Table] = relationship(back_populates="seats")

    @validates("name")
    def _fold_name(self, _key: str, name: str) -> str:
        self.name_key = name.casefold()
        return name


class Action(db.Model):
    """One accepted engine action; the log is append-only (undo appends, never deletes)."""

    __tablename__ = "action"
    __table_args__ = (UniqueConstraint("table_id", "version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_table.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    table: Mapped[Table] = relationship(back_populates="actions")


class Ticket(db.Model):
    """A one-time pass to a seat or to the host role, stored hashed: a request that a seat's
    phone or the host approves (``kind="request"``), or a transfer link or QR code
    (``kind="transfer"`` for a seat, ``"host"`` for the host role). It is claimed once,
    for a fresh token, before ``expires_at``.

    It belongs to one holding of its seat (or of the host role): ``holding`` is the hash
    of the token that held it when the ticket was issued (for a request, once approved,
    the hash the seat waits with), so a ticket of an earlier holding is refused (410).
    ``issued_by`` ("host" or "seat") keeps a seat's own link and the host's code for it
    apart: a new one replaces only the same issuer's earlier one."""

    __tablename__ = "table_ticket"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_table.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    ticket_hash: Mapped[str] = mapped_column(String(64), unique=True)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    holding: Mapped[str | None] = mapped_column(String(64), nullable=True)
    issued_by: Mapped[str | None] = mapped_column(String(8), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    table: Mapped[Table] = relationship()


class SeatChange(db.Model):
    """A token that stopped working because its seat (or the host role) moved to another
    phone or was freed: the old phone is told why, and every phone sees the latest change
    of each seat. ``seat`` is None for the host role."""

    __tablename__ = "seat_change"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_table.id", ondelete="CASCADE"))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    how: Mapped[str] = mapped_column(String(16))
    old_token_hash: Mapped[str | None] = mapped_column(String(64), index=True, nullable=True)
    version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    table: Mapped[Table] = relationship()


class GameRecord(db.Model):
    """A finished engine-mode game, kept after the table: written in the transaction of
    the move that ended it (and dropped again if the host undoes that move)."""

    __tablename__ = "game_record"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(
        ForeignKey("game_table.id", ondelete="CASCADE"), unique=True
    )
    code: Mapped[str] = mapped_column(String(16), index=True)
    game: Mapped[str] = mapped_column(String(32))
    names: Mapped[list[str]] = mapped_column(JSON)
    scores: Mapped[list[int]] = mapped_column(JSON)
    winners: Mapped[list[int]] = mapped_column(JSON)
    moves: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
