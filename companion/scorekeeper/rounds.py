"""The rules of a sheet's rounds that hold for every game, with no database and no web:
the fingerprint a form carries (stale check), replaying the stored rounds, turning a
logged change back or forth, and the round in progress of a game entered step by step.

Every figure comes from the game's :class:`~companion.games.Sheet` (``keeper``): a change
is checked on the whole list of rows, so a refused entry changes nothing.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..games import IllegalAction
from ..games.base import Sheet

CHOOSE, ENTER = "choose", "enter"

# What a sheet's checks may raise on malformed older data, besides its own refusals.
REPLAY_ERRORS = (ValueError, LookupError, TypeError, AttributeError)


def fingerprint(position: int, facts: Any) -> str:
    """A short digest of one stored round: changes whenever the round does."""
    data = json.dumps([position, facts], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(data.encode()).hexdigest()[:20]


def message_of(error: Exception) -> str:
    if isinstance(error, IllegalAction):
        return error.message
    return "Its facts cannot be read."


def first_broken(keeper: Sheet, rows: list[Any]) -> tuple[int, str] | None:
    """None when ``rows`` replay; else the first offending round (from 0) and why."""
    try:
        keeper.check(rows)
        return None
    except REPLAY_ERRORS as error:
        whole = error
    for index in range(len(rows)):
        try:
            keeper.check(rows[: index + 1])
        except REPLAY_ERRORS as error:
            return index, message_of(error)
    return max(len(rows) - 1, 0), message_of(whole)  # pragma: no cover


def apply(keeper: Sheet, rows: list[Any], position: int, old: Any, new: Any) -> list[Any]:
    """Rows with round ``position`` turned from ``old`` into ``new`` (None: no round), for
    undo (after -> before) and redo (before -> after); refused when the sheet does not hold
    ``old`` there, or when the result does not replay."""
    holds = (
        old is None
        and position <= len(rows)
        or (old is not None and position < len(rows) and rows[position] == old)
    )
    if not holds:
        raise IllegalAction("The sheet no longer holds that change.")
    if old is None:
        return keeper.check([*rows[:position], new, *rows[position:]])
    if new is None:
        return keeper.delete(rows, position)
    return keeper.replace(rows, position, new)


def has_choose(keeper: Sheet) -> bool:
    """Whether the round form comes in two steps ("choose", then "enter")."""
    return any(f.stage == CHOOSE for f in keeper.spec.sheet_fields)


def next_defaults(summary: dict[str, Any]) -> dict[str, Any]:
    """The values the next round's form starts from, as the summary suggests them."""
    nxt = summary.get("next")
    return dict(nxt.get("defaults") or {}) if isinstance(nxt, dict) else {}


# -- a round entered step by step (spec.sheet_steps) ---------------------------------------
#
# The round in progress lives in ``ScoreSheet.pending`` (see the model), apart from the
# complete rounds, so every stored row keeps its shape: the ``position`` it fills, the
# ``done`` step names and the ``boxes`` entered so far (form keys to text).


def pending_of(stored: Any, rows: list[Any]) -> dict[str, Any]:
    """The round in progress; an empty one when none is stored or the stored one is not
    for the next round any more."""
    if isinstance(stored, dict) and stored.get("position") == len(rows):
        return {
            "position": len(rows),
            "done": [str(name) for name in stored.get("done") or []],
            "boxes": {str(k): str(v) for k, v in (stored.get("boxes") or {}).items()},
        }
    return {"position": len(rows), "done": [], "boxes": {}}


def pending_version(pending: dict[str, Any]) -> str:
    """The fingerprint a step form carries: changes whenever the round in progress does."""
    return fingerprint(pending["position"], [pending["done"], pending["boxes"]])
