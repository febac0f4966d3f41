"""Score mode's domain errors: what a use case refuses, with an HTTP status and a message
a player can read. The views decide how to show each (a message by the form, a flash, an
error page); nothing below them knows about Flask.
"""

from __future__ import annotations

from typing import Any

from ..games import IllegalAction


class ScoreError(Exception):
    """A change the sheet refuses. ``status`` is the HTTP answer, ``message`` the words."""

    status = 409

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


class NotFound(ScoreError):
    """No score sheet (or round, or step) by that name."""

    status = 404

    def __init__(self, message: str = ""):
        super().__init__(message)  # empty: the app's usual "page not found" words


class Busy(ScoreError):
    """The sheet's lock was not had in time: try again."""

    status = 503

    def __init__(self) -> None:
        super().__init__("The sheet is busy; try again in a moment.")


class Stale(ScoreError):
    """The form was made for the sheet as it was: another phone changed it since."""

    status = 409


class Refused(ScoreError):
    """The game's rules refuse the change; ``cause`` names the box when it can."""

    status = 422

    def __init__(self, cause: IllegalAction, message: str | None = None, status: int = 422):
        super().__init__(message or cause.message, status)
        self.cause = cause


class WrongMoment(ScoreError):
    """Not at this point of the game: a rematch before the end, a round after it."""

    status = 409


class BrokenSheet(Exception):
    """The stored rounds do not replay (older data): ``index`` (from 0) is the first
    offending round. Not a refusal of a change: every page of the sheet shows the repair
    page instead (200, or 409 answering a change), never a server error."""

    def __init__(self, sheet: Any, index: int, message: str):
        super().__init__(message)
        self.sheet, self.index, self.message = sheet, index, message
