"""A group's tables: the group (a shareable code, no account) and the games gathered in it
(score sheets and finished Play games, each at most once)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, DateTime, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import db
from ..models import utcnow


class PlayGroup(db.Model):
    """Players who play together: their names and the games gathered for them."""

    __tablename__ = "play_group"

    id: Mapped[int] = mapped_column(primary_key=True)
    # Long and random: the code is the only key to the group's names and results.
    code: Mapped[str] = mapped_column(String(16), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(60))
    members: Mapped[list[str]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    games: Mapped[list[GroupGame]] = relationship(
        back_populates="group", order_by="GroupGame.id", cascade="all, delete-orphan"
    )


class GroupGame(db.Model):
    """One game gathered in a group: a score sheet or a finished Play game."""

    __tablename__ = "group_game"
    __table_args__ = (
        UniqueConstraint("group_id", "sheet_id"),
        UniqueConstraint("group_id", "record_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("play_group.id", ondelete="CASCADE"))
    sheet_id: Mapped[int | None] = mapped_column(
        ForeignKey("score_sheet.id", ondelete="CASCADE"), nullable=True
    )
    record_id: Mapped[int | None] = mapped_column(
        ForeignKey("game_record.id", ondelete="CASCADE"), nullable=True
    )
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    group: Mapped[PlayGroup] = relationship(back_populates="games")


__all__ = ["GroupGame", "PlayGroup"]
