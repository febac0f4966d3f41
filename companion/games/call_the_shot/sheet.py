"""Call the Shot score sheet (score mode): one row of facts per duel, totals derived.

A row is ``{"challenger": 0 | 1, "shot": 0 | 1 | None}``: who challenged that duel and who
was shot (``None`` when the revealed values were equal and nobody was). From the rows the
sheet derives each player's shots, the next challenger and the loser: the first player to
reach ``shots_to_lose`` (option, default 3, 1 to 9).

Every change goes through :func:`check_sheet`, so a stored sheet is always consistent:

* the challenger must alternate from one duel to the next (the first duel's challenger is
  free: the table tossed for it), ties included;
* no duel can follow the one in which somebody lost.

:func:`add`, :func:`replace` and :func:`delete` return a *new* list of rows, or raise
:class:`~companion.games.base.IllegalAction` with a message for the table and leave the
rows they were given untouched. Players are numbered 0 and 1 here; messages call them
"player 1" and "player 2".
"""

from __future__ import annotations

from typing import Any

from ..base import IllegalAction
from . import rules

check_options = rules.check_options


def _player(seat: int) -> str:
    return f"player {seat + 1}"


def check_entry(entry: Any) -> dict[str, Any]:
    """One row, normalised; raises :class:`IllegalAction` for anything malformed."""
    if not isinstance(entry, dict):
        raise IllegalAction("A duel must be recorded as who challenged and who was shot.")
    unknown = sorted(map(str, set(entry) - {"challenger", "shot"}))
    if unknown:
        raise IllegalAction(f"A duel records only the challenger and who was shot, not {unknown}.")
    if "challenger" not in entry or "shot" not in entry:
        raise IllegalAction("Say who challenged and who was shot (or that nobody was).")
    challenger, shot = entry["challenger"], entry["shot"]
    if isinstance(challenger, bool) or challenger not in (0, 1):
        raise IllegalAction("The challenger must be player 1 or player 2.")
    if shot is not None and (isinstance(shot, bool) or shot not in (0, 1)):
        raise IllegalAction("The player shot must be player 1, player 2 or nobody.")
    return {"challenger": challenger, "shot": shot}


def check_sheet(rows: Any, options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """All rows normalised, or :class:`IllegalAction` naming the first bad duel."""
    limit = check_options(options)["shots_to_lose"]
    if not isinstance(rows, list):
        raise IllegalAction("A score sheet is a list of duels.")
    checked: list[dict[str, Any]] = []
    shots = [0, 0]
    for number, row in enumerate(rows, start=1):
        try:
            entry = check_entry(row)
        except IllegalAction as error:
            raise IllegalAction(f"Duel {number}: {error.message}") from None
        if max(shots) >= limit:
            loser = shots.index(max(shots))
            raise IllegalAction(
                f"Duel {number}: the game already ended in duel {number - 1}, when "
                f"{_player(loser)} took shot number {limit}."
            )
        if checked and entry["challenger"] == checked[-1]["challenger"]:
            raise IllegalAction(
                f"Duel {number}: {_player(entry['challenger'])} challenged duel {number - 1}, "
                f"so {_player(1 - entry['challenger'])} challenges this one."
            )
        if entry["shot"] is not None:
            shots[entry["shot"]] += 1
        checked.append(entry)
    return checked


def add(rows: list, entry: Any, options: dict[str, Any] | None = None) -> list[dict]:
    """The rows with ``entry`` appended as the next duel."""
    return check_sheet([*rows, entry], options)


def replace(rows: list, index: int, entry: Any, options: dict[str, Any] | None = None) -> list:
    """The rows with duel ``index`` (0-based) corrected to ``entry``."""
    _check_index(rows, index)
    return check_sheet([*rows[:index], entry, *rows[index + 1 :]], options)


def delete(rows: list, index: int, options: dict[str, Any] | None = None) -> list[dict]:
    """The rows without duel ``index`` (0-based); refused if the rest would not alternate."""
    _check_index(rows, index)
    return check_sheet([*rows[:index], *rows[index + 1 :]], options)


def _check_index(rows: list, index: Any) -> None:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(rows):
        raise IllegalAction("There is no such duel on this sheet.")


def summary(rows: Any, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Totals for display: shots per player, running shots per duel, the next challenger
    (``None`` before the first duel, when the table tosses for it, and once the game is
    over), the loser and the winner (``None`` while the game goes on)."""
    limit = check_options(options)["shots_to_lose"]
    checked = check_sheet(rows, options)
    shots = [0, 0]
    running = []
    for number, entry in enumerate(checked, start=1):
        if entry["shot"] is not None:
            shots[entry["shot"]] += 1
        running.append({"duel": number, **entry, "shots": list(shots)})
    loser = next((seat for seat in (0, 1) if shots[seat] >= limit), None)
    over = loser is not None
    next_challenger = None if over or not checked else 1 - checked[-1]["challenger"]
    return {
        "duels": running,
        "shots": shots,
        "shots_to_lose": limit,
        "next_challenger": next_challenger,
        "over": over,
        "loser": loser,
        "winner": None if loser is None else 1 - loser,
    }
