"""Shoot! in score mode: the group plays with real cards; the sheet keeps the score.

Facts in, totals out. For each deal the sheet stores only what happened: every player's
bid and the tricks each took (``{"bids": [...], "tricks": [...]}``, in seat order). From
those, :meth:`ShootSheet.summary` derives each deal's points, the running totals, who deals
and how many cards go to each player next, the chips (when the group plays for chips) and
the winner(s) once the last deal is in.

:meth:`ShootSheet.check_row` checks one deal: a bid outside 0 to the hand size, or tricks
that do not add up to the hand size, raise :class:`SheetError` naming the deal, the player
(by name) and the field. ``add``, ``replace`` and ``delete`` (generic, in
:class:`~companion.games.base.Sheet`) check every deal again, since removing one changes the
hand sizes of those after it. Scoring and chips come from :mod:`.rules`, exactly as in
engine mode.

Options (from the spec): ``schedule`` (hand sizes, default 10 down to 1), ``chips`` (bool)
and ``dealer`` (the seat that dealt first, default 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import Sheet
from ..errors import SheetError
from ..spec import field_key, is_whole
from . import rules
from .spec import SPEC

FIELDS = (("bids", "bid"), ("tricks", "tricks"))


class ShootSheet(Sheet):
    """One score sheet: named players, a schedule, the first dealer and chips or not."""

    spec = SPEC

    @property
    def schedule(self) -> list[int]:
        return self.options["schedule"]

    def deal_info(self, index: int) -> dict[str, int]:
        """Deal ``index`` (from 0): its number, cards per hand and dealer."""
        return {
            "deal": index + 1,
            "cards": self.schedule[index],
            "dealer": rules.dealer_of(self.options["dealer"], index, self.players),
        }

    # -- one deal -------------------------------------------------------------------------

    def check_row(self, index: int, facts: Any, before: list[Any]) -> dict[str, list[int]]:
        """The deal's facts, checked; raises :class:`SheetError` saying what is wrong."""
        if not is_whole(index) or not 0 <= index < len(self.schedule):
            raise SheetError(f"This game has only {len(self.schedule)} deals.", round=index + 1)
        number, cards = index + 1, self.schedule[index]
        if not isinstance(facts, dict):
            raise SheetError(f"Deal {number}: enter the bids and the tricks.", round=number)
        clean: dict[str, list[int]] = {}
        for field, label in FIELDS:
            values = facts.get(field)
            if not isinstance(values, list) or len(values) != self.players:
                raise SheetError(
                    f"Deal {number}: enter the {label} of each of the {self.players} players.",
                    round=number,
                    field=field,
                )
            for seat, value in enumerate(values):
                if not is_whole(value) or not 0 <= value <= cards:
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

    def summary(self, rows: list) -> dict[str, Any]:
        """Points, running totals, chips, the next deal and the winners, from the facts.

        Beside the common block: ``schedule``, ``bonus`` (for an exact bid), ``chips``
        (pot, stacks, stake and, at the end, shared; None without chips); each row holds
        ``deal``, ``cards``, ``dealer``, ``bids``, ``tricks``, ``points``, ``totals`` (and
        ``chips`` when playing for chips); ``next`` is ``{"deal", "cards", "dealer"}``.
        """
        deals = self.check(rows)
        totals = [0] * self.players
        chips_on = self.options["chips"]
        pot, stacks = rules.buy_in(self.players) if chips_on else (0, [])
        done = []
        for index, facts in enumerate(deals):
            points = rules.deal_scores(facts["bids"], facts["tricks"])
            totals = [total + p for total, p in zip(totals, points, strict=True)]
            row = {**self.deal_info(index), **facts, "points": points, "totals": list(totals)}
            if chips_on:
                settled = rules.settle_chips(pot, stacks, points)
                pot, stacks = settled["pot"], settled["stacks"]
                row["chips"] = settled
            done.append(row)
        over = len(deals) == len(self.schedule)
        chips = None
        if chips_on:
            chips = {"pot": pot, "stacks": list(stacks), "stake": rules.STAKE, "shared": None}
            if over:
                chips.update(rules.share_pot(pot, stacks))
        return self.common(
            totals=totals,
            over=over,
            rows=done,
            running=[row["totals"] for row in done],
            next=None if over else self.deal_info(len(deals)),
            schedule=list(self.schedule),
            bonus=rules.BONUS,
            chips=chips,
        )

    # -- the round form -------------------------------------------------------------------

    def read(self, form: Mapping[str, str], stage: str | None = None) -> dict[str, list[int]]:
        """The boxes ``bids-<seat>`` and ``tricks-<seat>`` as whole numbers; a box without
        one raises :class:`SheetError` at that box, naming its player. The range depends on
        the deal's hand size, so :meth:`check_row` checks it when the deal is added."""
        facts: dict[str, list[int]] = {}
        for field, label in FIELDS:
            values = []
            for seat, name in enumerate(self.names):
                key = field_key(field, seat)
                text = str(form.get(key) or "").strip()
                try:
                    values.append(int(text))
                except ValueError:
                    message = (
                        f"Enter {name}'s {label}."
                        if not text
                        else f"{name}'s {label}: enter a whole number."
                    )
                    raise SheetError(message, player=seat, field=key) from None
            facts[field] = values
        return facts

    def facts_from_values(self, values: dict[str, Any]) -> dict[str, list[int]]:
        return {field: list(values[field]) for field, _ in FIELDS}

    def values_of(self, facts: Any) -> dict[str, Any]:
        return {field: list(facts[field]) for field, _ in FIELDS}

    # -- step by step: bids when they are shouted, then tricks ----------------------------

    def check_partial(self, index: int, values: dict[str, Any], before: list[Any]) -> None:
        """The bids (and tricks, when entered) of deal ``index`` against its hand size,
        before the deal is complete."""
        if not 0 <= index < len(self.schedule):
            raise SheetError(f"This game has only {len(self.schedule)} deals.", round=index + 1)
        cards = self.schedule[index]
        for field, label in FIELDS:
            for seat, value in enumerate(values.get(field) or []):
                if value > cards:
                    raise SheetError(
                        f"Deal {index + 1}: {self.names[seat]}'s {label} must be from 0 to "
                        f"{cards} (each hand has {cards} card{'s' if cards != 1 else ''}).",
                        round=index + 1,
                        player=seat,
                        field=field_key(field, seat),
                    )

    def fact_table(self, rows: list, summary: dict[str, Any]) -> dict[str, list]:
        """Per deal: its cards and dealer, then each player's bid, tricks taken, points
        and running total (and chips when the group plays for them)."""
        chips = summary.get("chips") is not None
        facts = ["bid", "tricks", "points", "total", *(["chips"] if chips else [])]
        columns = ["Deal", "Cards", "Dealer"]
        columns += [f"{name} {fact}" for name in self.names for fact in facts]
        out = []
        for row in summary["rows"]:
            line: list[Any] = [row["deal"], row["cards"], self.names[row["dealer"]]]
            for p in range(self.players):
                line += [row["bids"][p], row["tricks"][p], row["points"][p], row["totals"][p]]
                if chips:
                    line.append(row["chips"]["stacks"][p])
            out.append(line)
        final: list[Any] = ["Total", "", ""]
        for p in range(self.players):
            final += ["", "", "", summary["totals"][p]]
            if chips:
                final.append(summary["chips"]["stacks"][p])
        return {"columns": columns, "rows": out, "totals": final}

    def next_after(self, summary: dict[str, Any], more: int) -> dict[str, Any] | None:
        """The deal ``more`` deals after the next: the schedule and the dealer passing on
        fix it, whatever the deals hold."""
        nxt = summary.get("next")
        index = nxt["deal"] - 1 + more if nxt else len(self.schedule)
        return self.deal_info(index) if index < len(self.schedule) else None

    def round_intro(self, summary: dict[str, Any]) -> str:
        nxt = summary.get("next")
        if not nxt:
            return ""
        cards = nxt["cards"]
        return f"{self.names[nxt['dealer']]} deals, {cards} card{'s' if cards != 1 else ''} each"
