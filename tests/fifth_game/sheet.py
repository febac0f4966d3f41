"""High card's score sheet: the tricks each player took, hand by hand."""

from __future__ import annotations

from typing import Any

from companion.games.base import Sheet
from companion.games.errors import SheetError

from . import rules
from .spec import SPEC


class HighCardSheet(Sheet):
    spec = SPEC

    def check_row(self, index: int, facts: Any, before: list[Any]) -> Any:
        if not isinstance(facts, dict) or not isinstance(facts.get("tricks"), list):
            raise SheetError("A hand is the tricks of each player.", round=index + 1)
        tricks = facts["tricks"]
        if len(tricks) != self.players:
            raise SheetError("Give everybody's tricks.", round=index + 1, field="tricks")
        for seat, count in enumerate(tricks):
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise SheetError(
                    f"{self.names[seat]}: tricks must be a whole number.",
                    round=index + 1,
                    player=seat,
                    field="tricks",
                )
        cards = self.options["cards"]
        if sum(tricks) != cards:
            raise SheetError(
                f"The tricks must add up to {cards}, not {sum(tricks)}.",
                round=index + 1,
                field="tricks",
            )
        row = {"tricks": list(tricks)}
        if "lead" in facts:  # the variant with a first step (LEAD_GAME)
            row["lead"] = facts["lead"]
        return row

    def summary(self, rows: list) -> dict[str, Any]:
        totals = [0] * self.players
        out = []
        for facts in rows:
            totals = rules.add_tricks(totals, facts["tricks"])
            out.append({"points": list(facts["tricks"]), "totals": list(totals)})
        over = max(totals) >= self.options["target"]
        return self.common(totals, over, rows=out, next=None if over else {})
