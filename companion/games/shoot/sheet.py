"""Shoot! in score mode: the group plays with real cards; the sheet keeps the score.

Facts in, totals out. For each deal the sheet stores only what happened: every player's
bid and the tricks each took (``{"bids": [...], "tricks": [...]}``, in seat order). From
those, :func:`summary` derives each deal's points, the running totals, who deals
and how many cards go to each player next, the chips (when the group plays for chips) and
the winner(s) once the last deal is in.

:func:`validate_deal` checks one deal before the caller stores it: a bid outside 0 to the
hand size, or tricks that do not add up to the hand size, raise :class:`SheetError` naming
the deal, the player and the field, and the caller then stores nothing. :func:`add`,
:func:`replace` and :func:`delete` return a *new* list of deals (every deal checked again,
since removing one changes the hand sizes of those after it) or raise, leaving the list
they were given untouched. Scoring and chips come from :mod:`.rules`, exactly as in engine
mode.

Options (:func:`check_options`): ``schedule`` (hand sizes, default 10 down to 1), ``chips``
(bool) and ``dealer`` (the seat that dealt first, default 0). Players are seats from 0; in
messages they are "Player 1" and so on, or the names given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..base import SheetError
from . import rules


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class ShootSheet:
    """The fixed settings of one score sheet: players, schedule, first dealer, chips."""

    def __init__(
        self,
        players: int | Sequence[str],
        schedule: list[int] | None = None,
        first_dealer: int = 0,
        chips: bool = False,
    ):
        if _whole(players):
            names = [f"Player {i + 1}" for i in range(players)]
        elif isinstance(players, Sequence) and not isinstance(players, str):
            names = [str(name) for name in players]
        else:
            raise SheetError("Give the number of players or their names.")
        if not 2 <= len(names) <= 5:
            raise SheetError("Shoot! is for 2 to 5 players.")
        self.names = names
        self.players = len(names)
        self.schedule = rules.check_schedule(
            self.players, rules.default_schedule() if schedule is None else schedule
        )
        if not _whole(first_dealer) or not 0 <= first_dealer < self.players:
            raise SheetError(f"The first dealer must be a seat from 0 to {self.players - 1}.")
        self.first_dealer = first_dealer
        self.chips = bool(chips)

    # -- one deal -------------------------------------------------------------------------

    def deal_info(self, index: int) -> dict[str, int]:
        """Deal ``index`` (from 0): its number, cards per hand and dealer."""
        return {
            "deal": index + 1,
            "cards": self.schedule[index],
            "dealer": rules.dealer_of(self.first_dealer, index, self.players),
        }

    def validate_deal(self, index: int, facts: Any) -> dict[str, list[int]]:
        """The deal's facts, checked; raises :class:`SheetError` saying what is wrong."""
        if not _whole(index) or not 0 <= index < len(self.schedule):
            raise SheetError(f"This game has {len(self.schedule)} deals.")
        number, cards = index + 1, self.schedule[index]
        if not isinstance(facts, dict):
            raise SheetError(f"Deal {number}: enter the bids and the tricks.", round=number)
        clean: dict[str, list[int]] = {}
        for field, label in (("bids", "bid"), ("tricks", "tricks")):
            values = facts.get(field)
            if not isinstance(values, list) or len(values) != self.players:
                raise SheetError(
                    f"Deal {number}: enter the {label} of each of the {self.players} players.",
                    round=number,
                    field=field,
                )
            for seat, value in enumerate(values):
                if not _whole(value) or not 0 <= value <= cards:
                    raise SheetError(
                        f"Deal {number}: {self.names[seat]}'s {label} must be a whole number "
                        f"from 0 to {cards} (each hand has {cards} "
                        f"card{'s' if cards != 1 else ''}).",
                        round=number,
                        player=seat,
                        field=field,
                    )
            clean[field] = list(values)
        taken = sum(clean["tricks"])
        if taken != cards:
            raise SheetError(
                f"Deal {number}: the tricks add up to {taken}, but {cards} "
                f"trick{'s were' if cards != 1 else ' was'} played.",
                round=number,
                field="tricks",
            )
        return clean

    # -- the whole sheet ------------------------------------------------------------------

    def summary(self, deals: Sequence[Any]) -> dict[str, Any]:
        """Points, running totals, chips, the next deal and the winners, from the facts."""
        if len(deals) > len(self.schedule):
            raise SheetError(f"This game has only {len(self.schedule)} deals.")
        totals = [0] * self.players
        pot, stacks = rules.buy_in(self.players) if self.chips else (0, [])
        rows = []
        for index, facts in enumerate(deals):
            clean = self.validate_deal(index, facts)
            points = rules.deal_scores(clean["bids"], clean["tricks"])
            totals = [total + p for total, p in zip(totals, points, strict=True)]
            row = {**self.deal_info(index), **clean, "points": points, "totals": list(totals)}
            if self.chips:
                settled = rules.settle_chips(pot, stacks, points)
                pot, stacks = settled["pot"], settled["stacks"]
                row["chips"] = settled
            rows.append(row)
        over = len(deals) == len(self.schedule)
        chips = None
        if self.chips:
            chips = {"pot": pot, "stacks": list(stacks), "stake": rules.STAKE, "shared": None}
            if over:
                chips.update(rules.share_pot(pot, stacks))
        return {
            "players": list(self.names),
            "schedule": list(self.schedule),
            "rows": rows,
            "totals": totals,
            "next": None if over else self.deal_info(len(deals)),
            "over": over,
            "winners": rules.winners(totals) if over else None,
            "chips": chips,
        }


# -- the module-level interface shared with the other games' sheets ---------------------


def check_options(players: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """``{"schedule", "chips", "dealer"}`` checked, defaults filled in. Idempotent."""
    options = dict(options or {})
    unknown = sorted(set(options) - {"schedule", "chips", "dealer"})
    if unknown:
        raise SheetError(f"Shoot! has no option {', '.join(map(str, unknown))}.")
    chips = options.get("chips", False)
    if not isinstance(chips, bool):
        raise SheetError("The chips option is on or off (true or false).")
    sheet = ShootSheet(players, options.get("schedule"), options.get("dealer", 0), chips)
    return {"schedule": sheet.schedule, "chips": sheet.chips, "dealer": sheet.first_dealer}


def _sheet(players: Any, options: dict | None, names: Sequence[str] | None) -> ShootSheet:
    checked = check_options(players, options)
    if names is not None:
        if len(names) != players:
            raise SheetError(f"Give {players} names, one per player.")
        players = names
    return ShootSheet(players, checked["schedule"], checked["dealer"], checked["chips"])


def summary(
    players: int, options: dict | None, deals: Any, names: Sequence[str] | None = None
) -> dict[str, Any]:
    """Every derived figure of a sheet; raises :class:`SheetError` naming a bad deal."""
    if not isinstance(deals, list):
        raise SheetError("A score sheet is a list of deals.")
    return _sheet(players, options, names).summary(deals)


def validate_deal(
    players: int,
    options: dict | None,
    index: int,
    facts: Any,
    names: Sequence[str] | None = None,
) -> dict[str, list[int]]:
    """The facts of deal ``index`` (from 0), checked and normalised."""
    return _sheet(players, options, names).validate_deal(index, facts)


def check_sheet(
    players: int, options: dict | None, deals: Any, names: Sequence[str] | None = None
) -> list[dict[str, list[int]]]:
    """All deals normalised, or :class:`SheetError` naming the first bad one."""
    if not isinstance(deals, list):
        raise SheetError("A score sheet is a list of deals.")
    sheet = _sheet(players, options, names)
    if len(deals) > len(sheet.schedule):
        raise SheetError(f"This game has only {len(sheet.schedule)} deals.")
    return [sheet.validate_deal(index, facts) for index, facts in enumerate(deals)]


def add(
    players: int, options: dict | None, deals: list, facts: Any, names: Sequence[str] | None = None
) -> list[dict[str, list[int]]]:
    """A new list of deals with ``facts`` as the next deal."""
    return check_sheet(players, options, [*deals, facts], names)


def replace(
    players: int,
    options: dict | None,
    deals: list,
    index: Any,
    facts: Any,
    names: Sequence[str] | None = None,
) -> list[dict[str, list[int]]]:
    """A new list with deal ``index`` (from 0) corrected."""
    _check_index(deals, index)
    return check_sheet(players, options, [*deals[:index], facts, *deals[index + 1 :]], names)


def delete(
    players: int, options: dict | None, deals: list, index: Any, names: Sequence[str] | None = None
) -> list[dict[str, list[int]]]:
    """A new list without deal ``index``; the deals after it move up and must still fit."""
    _check_index(deals, index)
    return check_sheet(players, options, [*deals[:index], *deals[index + 1 :]], names)


def _check_index(deals: list, index: Any) -> None:
    if not _whole(index) or not 0 <= index < len(deals):
        raise SheetError("There is no such deal on this sheet.")
