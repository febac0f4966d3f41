"""When a change to a score sheet must wait, and what it throws away: the rules a sealed
step's reveal puts on a sheet the players joined (their phones enter the sealed step and
see it revealed at once). A round added through a reveal is not undone, and no round is
added or removed (delete, undo, redo) while the round in progress went through one; a
correction (Edit) is never stopped. The use cases (:mod:`.book`) and the keeper's page
(:mod:`.pages`) ask these functions, so the page offers exactly what the use cases allow.
"""

from __future__ import annotations

from ..games.base import Step
from ..models import ScoreChange
from .boxes import joined
from .state import State

# The logged changes whose undo or redo adds or removes a round (an edit changes none).
COUNTED = ("add", "delete")


def revealed_step(state: State, done: list[str]) -> Step | None:
    """The first sealed step among the steps ``done`` of the round in progress, on a sheet
    the players joined, or None. Such a step is theirs and is shown to every phone once all
    of it is in: a round added through it went through a reveal, and the round in progress
    may no longer be thrown away (a sheet nobody joined seals nothing)."""
    if not joined(state.sheet):
        return None
    steps = [state.keeper.step_named(name) for name in done]
    return next((step for step in steps if step is not None and step.sealed), None)


def count_stop(state: State) -> str | None:
    """Why no round may be added or removed by a delete, an undo or a redo now, or None:
    the round in progress went through a sealed step's reveal, and changing the count of
    rounds would throw it away (as clearing it would). Finishing it lifts the stop; a
    correction (Edit) changes no count and is never stopped by it."""
    step = revealed_step(state, state.pending["done"])
    if step is None:
        return None
    word, number = state.word, state.pending["position"] + 1
    return (
        f"The {step.label} of {word} {number} were revealed to everyone: finish {word} "
        f"{number} before a {word} is added or removed. Meanwhile correct a {word} with Edit."
    )


def dropped_note(state: State, rows: list) -> str:
    """What to add to the message of a change that stores ``rows``, when that adds or
    removes a round while something was entered for the round in progress (steps saved,
    boxes entered on the phones, none revealed: :func:`count_stop`): it is thrown away
    (``book._save``)."""
    pending, record = state.pending, state.sheet.open_boxes
    on_phones = isinstance(record, dict) and record.get("position") == pending["position"]
    if len(rows) == len(state.rows) or not (pending["done"] or on_phones and record.get("boxes")):
        return ""
    word, number = state.word, pending["position"] + 1
    return f" What was entered for {word} {number} was cleared: enter it again."


def redo_stop(state: State, change: ScoreChange | None) -> str | None:
    """Why ``change`` may not be redone now, or None (:func:`count_stop`); the keeper's
    page shows this instead of offering the redo."""
    return count_stop(state) if change is not None and change.kind in COUNTED else None


def undo_stop(state: State, change: ScoreChange | None) -> str | None:
    """Why ``change`` may not be undone, or None: a round added through a sealed step's
    reveal (its players entered it on their phones), and undo stops at a reveal (correct
    the round with Edit). A round the keeper entered whole may be undone, joined sheet or
    not. Nor is a round added or removed while the round in progress went through a
    reveal (:func:`count_stop`). The keeper's page shows this instead of offering the
    undo."""
    stop = redo_stop(state, change)  # adding or removing a round: the same stop as a redo's
    if stop:
        return stop
    sealed = [s for s in state.keeper.spec.sheet_steps if s.sealed]
    if change is None or change.kind != "add" or not sealed:
        return None
    # A change logged before the mark was kept: a joined sheet's round stands for one.
    revealed = joined(state.sheet) if change.revealed is None else change.revealed
    if not revealed:
        return None
    which = change.label.split(" added")[0]
    return (
        f"Undo stops at the reveal: the {sealed[0].label} of {which} were revealed to "
        "everyone. Correct the round with Edit instead."
    )
