"""A group's storage: find a group by its code, gather games into it, and read its games
back as :class:`~.standings.Played` facts (a score sheet's from its game's summary, a Play
game's from its record)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from sqlalchemy import select

from .. import codes
from ..extensions import db
from ..games import GAMES, IllegalAction
from ..models import GameRecord, ScoreSheet
from .models import GroupGame, PlayGroup
from .standings import Played

CODE_LENGTH = 10  # 32**10 codes: the code is the key to the group's names and results


def aware(moment: datetime) -> datetime:
    """A stored time with its zone (SQLite gives it back without one: it is UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def new_code() -> str:
    for _ in range(50):
        code = codes.random_code(CODE_LENGTH)
        if db.session.scalar(select(PlayGroup.id).where(PlayGroup.code == code)) is None:
            return code
    raise RuntimeError("could not find a free group code")  # pragma: no cover


def group_of(code: str) -> PlayGroup | None:
    return db.session.scalar(select(PlayGroup).where(PlayGroup.code == codes.normalise(code)))


def sheet_played(sheet: ScoreSheet) -> Played | None:
    """A finished score sheet as a game played; None while it goes on (or cannot be read)."""
    game = GAMES.get(sheet.game)
    if game is None or game.sheet_class is None:
        return None
    try:
        summary = game.sheet(sheet.players, sheet.options).summary(
            [entry.facts for entry in sheet.entries]
        )
    except (IllegalAction, ValueError, LookupError, TypeError, AttributeError):
        return None
    if not summary["over"]:
        return None
    return Played(
        game=sheet.game,
        names=tuple(summary["players"]),
        scores=tuple(summary["totals"]),
        winners=tuple(summary["winners"]),
        lower_wins=game.spec.lower_wins,
        when=aware(sheet.updated_at),
        kind="sheet",
        code=sheet.code,
    )


def record_played(record: GameRecord) -> Played | None:
    game = GAMES.get(record.game)
    if game is None:
        return None
    return Played(
        game=record.game,
        names=tuple(record.names),
        scores=tuple(record.scores),
        winners=tuple(record.winners),
        lower_wins=game.spec.lower_wins,
        when=aware(record.finished_at),
        kind="play",
        code=record.code,
    )


def belongs(played: Played | None, members: Sequence[str]) -> bool:
    """A finished game at least two of the members played."""
    return played is not None and sum(name in members for name in played.names) >= 2


def gather(group: PlayGroup, sheet_codes: Sequence[str], table_codes: Sequence[str]) -> int:
    """Add to ``group`` the finished sheets and Play games (by their codes) that belong to
    it and are not in it yet; the number added. The caller commits."""
    have_sheets = {g.sheet_id for g in group.games if g.sheet_id is not None}
    have_records = {g.record_id for g in group.games if g.record_id is not None}
    added = 0
    sheets = db.session.scalars(select(ScoreSheet).where(ScoreSheet.code.in_(sheet_codes)))
    for sheet in sheets:
        if sheet.id not in have_sheets and belongs(sheet_played(sheet), group.members):
            group.games.append(GroupGame(sheet_id=sheet.id))
            added += 1
    records = db.session.scalars(select(GameRecord).where(GameRecord.code.in_(table_codes)))
    for record in records:
        if record.id not in have_records and belongs(record_played(record), group.members):
            group.games.append(GroupGame(record_id=record.id))
            added += 1
    return added


def played_games(group: PlayGroup) -> list[Played]:
    """The group's games, oldest first."""
    out = []
    for item in group.games:
        if item.sheet_id is not None:
            sheet = db.session.get(ScoreSheet, item.sheet_id)
            played = sheet_played(sheet) if sheet is not None else None
        else:
            record = db.session.get(GameRecord, item.record_id)
            played = record_played(record) if record is not None else None
        if played is not None:
            out.append(played)
    return sorted(out, key=lambda p: p.when)
