"""What score mode's use cases take and give: a sheet's :class:`State` (its rounds as the
game's sheet reads them), what the page showed (:class:`Shown`, for the stale check) and a
change made (:class:`Done`). The use cases themselves are in :mod:`.book`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..games import GAMES, Game
from ..games.base import Sheet
from ..models import ScoreChange, ScoreSheet
from . import retries, store
from .rounds import pending_of


def keeper_of(sheet: ScoreSheet) -> Sheet:
    """The game's sheet for these players and options (it judges every round)."""
    return GAMES[sheet.game].sheet(sheet.players, sheet.options)


@dataclass
class State:
    """A sheet and its rounds, as a use case checks them and a page shows them."""

    sheet: ScoreSheet
    keeper: Sheet
    rows: list[Any]
    saved_rounds: int | None = None  # set when a change stores the rounds (then announced)
    announce: bool = False  # a change of the phones or the open step (then announced)

    @cached_property
    def summary(self) -> dict[str, Any]:
        return self.keeper.summary(self.rows)

    @property
    def game(self) -> Game:
        return GAMES[self.sheet.game]

    @property
    def word(self) -> str:
        return self.keeper.spec.round_word

    @property
    def over(self) -> bool:
        return bool(self.summary["over"])

    @property
    def pending(self) -> dict[str, Any]:
        """The round in progress of a game entered step by step."""
        return pending_of(self.sheet.pending, self.rows)

    def round_at(self, number: int) -> tuple[int, Any] | None:
        """Round ``number`` (from 1) as (index from 0, facts); None if there is none."""
        if 1 <= number <= len(self.rows):
            return number - 1, self.rows[number - 1]
        return None

    def last_done(self) -> ScoreChange | None:
        return store.last_done(self.sheet)

    def first_undone(self) -> ScoreChange | None:
        return store.first_undone(self.sheet)


@dataclass(frozen=True)
class Shown:
    """What the page showed when its form was made: the ``position`` the change applies
    to (a round from 0, or the number of the change an undo button named) and, for a
    change of something already there, its ``version`` (:func:`rounds.fingerprint`)."""

    position: int | None
    version: str | None = None
    kept: retries.Kept = retries.Kept()  # a kept entry's key, digest, reference

    @property
    def key(self) -> str | None:
        return self.kept.key


@dataclass(frozen=True)
class Done:
    """A change made: the sheet to go back to, what to tell the player, where on the page."""

    code: str
    message: str = ""
    anchor: str = ""
