"""PULL! score sheet (score mode): one row of facts per hand, everything else derived.

Sides: with ``teams`` (4 players, the default for 4) side 0 is players 1 and 3, side 1 is
players 2 and 4; otherwise each player is a side. Options are the engine's
(:func:`rules.check_options`: ``teams``, ``goal`` or ``hands``, ``max_hands``, ``targets``
changes to house values) plus ``dealer``, the player who dealt the first hand (default 0).

A row (one hand) is ``{"sides": [entry per side]}`` where an entry is either

* ``{"rounds": [[target ids taken in round 1], [... round 2], ...]}`` — at most five
  rounds, at most two targets in a round; a side that took both targets of a round took a
  Double, so those two count at their double values. Across all sides a round has at most
  two targets and a target card appears at most once in a hand; or
* ``{"points": int, "fouls": int}`` — a quick entry of the hand's target points (doubles
  already counted) and the number of animals taken.

From the rows the sheet derives each side's points, doubles, fouls and running foul
count, the 20-point penalty for every multiple of 5 fouls crossed (5th, 10th, ...),
running totals, who deals each hand and next, and the end of the game (the same rule as
the engine: :func:`rules.game_over`).

:func:`add`, :func:`replace` and :func:`delete` return a *new* list of rows or raise
:class:`~companion.games.base.IllegalAction` with a message for the table, leaving the rows
they were given untouched. Players are numbered from 0; messages count from 1.
"""

from __future__ import annotations

from typing import Any

from ..base import IllegalAction
from . import rules
from .rules import whole_number

MAX_POINTS = 10_000


def check_options(players: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The engine's options plus ``dealer`` (first dealer, default 0). Idempotent."""
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise IllegalAction("PULL! is for 2 to 4 players.")
    options = dict(options or {})
    dealer = options.pop("dealer", 0)
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise IllegalAction(f"The first dealer must be player 1 to {players}.")
    checked = rules.check_options(players, options)
    checked["dealer"] = dealer
    return checked


def side_names(players: int, options: dict[str, Any]) -> list[str]:
    sides = rules.sides_for(players, options["teams"])
    return [" & ".join(f"player {seat + 1}" for seat in seats) for seats in sides]


def check_entry(players: int, options: dict[str, Any], entry: Any) -> dict[str, Any]:
    """One hand's facts, normalised; raises :class:`IllegalAction` for anything wrong."""
    names = side_names(players, options)
    if not isinstance(entry, dict) or set(entry) != {"sides"}:
        raise IllegalAction('A hand is recorded as {"sides": [one entry per side]}.')
    sides = entry["sides"]
    if not isinstance(sides, list) or len(sides) != len(names):
        raise IllegalAction(f"A hand needs one entry for each of the {len(names)} sides.")
    clean: list[dict] = []
    seen: dict[str, str] = {}
    per_round = [0] * rules.ROUNDS_PER_HAND
    for name, side in zip(names, sides, strict=True):
        if not isinstance(side, dict):
            raise IllegalAction(f"{name}: record the targets taken, or points and fouls.")
        if set(side) == {"points", "fouls"}:
            points = whole_number(side["points"], f"{name}: points", -MAX_POINTS, MAX_POINTS)
            fouls = whole_number(side["fouls"], f"{name}: fouls", 0, 2 * rules.ROUNDS_PER_HAND)
            clean.append({"points": points, "fouls": fouls})
            continue
        if set(side) != {"rounds"}:
            raise IllegalAction(
                f'{name}: give either "rounds" (targets taken) or "points" and "fouls".'
            )
        rounds = side["rounds"]
        if not isinstance(rounds, list) or len(rounds) > rules.ROUNDS_PER_HAND:
            raise IllegalAction(f"{name}: a hand has at most {rules.ROUNDS_PER_HAND} rounds.")
        for number, taken in enumerate(rounds, start=1):
            if not isinstance(taken, list) or len(taken) > 2:
                raise IllegalAction(f"{name}, round {number}: a round has only two targets.")
            for card in taken:
                if not rules.is_target(card):
                    raise IllegalAction(f"{name}, round {number}: {card!r} is not a target card.")
                if card in seen:
                    raise IllegalAction(
                        f"{card} is listed twice in this hand ({seen[card]} and {name}, "
                        f"round {number})."
                    )
                seen[card] = f"{name}, round {number}"
            per_round[number - 1] += len(taken)
            if per_round[number - 1] > 2:
                raise IllegalAction(
                    f"Round {number} has more than two targets taken between the sides."
                )
        clean.append({"rounds": [list(taken) for taken in rounds]})
    return {"sides": clean}


def _side_hand(side: dict, table: dict) -> tuple[int, int, int]:
    """``(points, fouls, doubles)`` of one side's entry for one hand."""
    if "points" in side:
        return side["points"], side["fouls"], 0
    pile = [{"card": card, "double": len(taken) == 2} for taken in side["rounds"] for card in taken]
    points, fouls = rules.pile_points(pile, table)
    return points, fouls, sum(1 for taken in side["rounds"] if len(taken) == 2)


def summary(players: int, options: dict[str, Any] | None, rows: Any) -> dict[str, Any]:
    """Every derived figure of a sheet; raises :class:`IllegalAction` naming a bad hand."""
    return _derive(players, options, rows)[0]


def _derive(players: int, options: dict[str, Any] | None, rows: Any) -> tuple[dict, list]:
    """The sheet's :func:`summary` and its rows normalised, checked in one pass."""
    options = check_options(players, options)
    if not isinstance(rows, list):
        raise IllegalAction("A score sheet is a list of hands.")
    table = rules.target_table(options["targets"])
    sides = rules.sides_for(players, options["teams"])
    totals = [0] * len(sides)
    fouls = [0] * len(sides)
    dealer = options["dealer"]
    hands: list[dict] = []
    clean: list[dict] = []
    over = False
    for number, row in enumerate(rows, start=1):
        if over:
            raise IllegalAction(f"Hand {number}: the game already ended after hand {number - 1}.")
        try:
            entry = check_entry(players, options, row)
        except IllegalAction as error:
            raise IllegalAction(f"Hand {number}: {error.message}") from None
        clean.append(entry)
        record: dict[str, Any] = {"hand": number, "dealer": dealer, "sides": []}
        for side, facts in enumerate(entry["sides"]):
            points, fouled, doubles = _side_hand(facts, table)
            penalty = rules.foul_penalty(fouls[side], fouls[side] + fouled)
            fouls[side] += fouled
            totals[side] += points - penalty
            record["sides"].append(
                {
                    "points": points,
                    "doubles": doubles,
                    "fouls": fouled,
                    "foul_total": fouls[side],
                    "penalty": penalty,
                    "score": points - penalty,
                    "total": totals[side],
                    "quick": "points" in facts,
                }
            )
        hands.append(record)
        dealer = (dealer + 1) % players
        over = rules.game_over(totals, number, options)
    result = {
        "sides": sides,
        "side_names": side_names(players, options),
        "hands": hands,
        "totals": totals,
        "fouls": fouls,
        "hands_played": len(hands),
        "next_dealer": None if over else dealer,
        "over": over,
        "winners": rules.winners(totals) if over else [],
    }
    return result, clean


def check_sheet(players: int, options: dict[str, Any] | None, rows: Any) -> list[dict]:
    """All rows normalised, or :class:`IllegalAction` naming the first bad hand."""
    return _derive(players, options, rows)[1]


def add(players: int, options: dict | None, rows: list, entry: Any) -> list[dict]:
    return check_sheet(players, options, [*rows, entry])


def replace(players: int, options: dict | None, rows: list, index: Any, entry: Any) -> list:
    _check_index(rows, index)
    new = list(rows)
    new[index] = entry
    return check_sheet(players, options, new)


def delete(players: int, options: dict | None, rows: list, index: Any) -> list[dict]:
    _check_index(rows, index)
    return check_sheet(players, options, rows[:index] + rows[index + 1 :])


def _check_index(rows: list, index: Any) -> None:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(rows):
        raise IllegalAction("There is no such hand on this sheet.")
