"""Use cases: the public game log of a table and the replay of a finished game (issue 26;
the views are in :mod:`.api`).

``GET /api/tables/<code>/log`` answers ``{"version", "events"}``: every public event so
far (:func:`companion.games.moments.public_log`: actions in the words everybody could read
when they were made, what each sealed step showed, each result card). It is the same for
every viewer and needs no token, like the public view. ``GET /api/tables/<code>/replay
?step=n`` answers the table's public view after the first ``n`` actions, once the game is
over (``{"step", "steps", "view"}``).

Both rebuild the game from the stored actions, so a log is kept per table version in
this process (a few dozen entries), built once however many phones ask.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from ..games import moments
from . import store
from .errors import TableError

_KEEP = 64
_kept: OrderedDict[tuple[str, int], list[dict[str, Any]]] = OrderedDict()
_lock = threading.Lock()


def public_log(code: str) -> dict[str, Any]:
    """The table's public events so far (see the module docstring)."""
    table = store.get_table(code, read_only=True)
    key = (table.code, table.version)
    with _lock:
        events = _kept.get(key)
    if events is None:
        state = store.full_state(table)
        events = moments.public_log(store.game_of(table), state)
        with _lock:
            _kept[key] = events
            while len(_kept) > _KEEP:
                _kept.popitem(last=False)
    return {"version": table.version, "events": events}


def replay_view(code: str, step: Any) -> dict[str, Any]:
    """The public view after ``step`` actions of a finished game."""
    if isinstance(step, bool) or not isinstance(step, int):
        raise TableError(400, "The step is a whole number of moves.")
    table = store.get_table(code, read_only=True)
    state = store.full_state(table)
    if not state.is_over():
        raise TableError(409, "The replay opens once the game is over.")
    steps = len(state.log or [])
    if not 0 <= step <= steps:
        raise TableError(422, f"This game has {steps} moves: choose a step from 0 to {steps}.")
    view = moments.replay_view(store.game_of(table), state, step)
    return {"step": step, "steps": steps, "view": view}
