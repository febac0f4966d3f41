"""The two refusals every game raises: an illegal action and a score-sheet entry at fault."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action (or a setup) the rules do not allow. ``str(error)`` is for the player."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class SheetError(IllegalAction):
    """A score-sheet entry the sheet refuses, saying where the fault is so a form can put
    the message next to it: ``round`` (the sheet's row, from 1), ``player`` (a seat from
    0) and ``field`` (a fact's name such as ``"bids"``, or one box's form key such as
    ``"target-1-0"``)."""

    def __init__(
        self,
        message: str,
        *,
        round: int | None = None,
        player: int | None = None,
        field: str | None = None,
    ):
        super().__init__(message)
        self.round = round
        self.player = player
        self.field = field
