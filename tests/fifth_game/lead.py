"""A variant of High card whose sheet asks a "choose" field first, on a step of its own:
who led. It reuses the game's state and sheet under a spec of its own."""

from __future__ import annotations

from dataclasses import replace

from companion.games.spec import Field

from .engine import HighCardGame
from .sheet import HighCardSheet
from .spec import SPEC

LEAD_SPEC = replace(
    SPEC,
    slug="high_card_lead",
    name="High card (lead first)",
    order=1000,
    sheet_fields=(
        Field("lead", "seat", "Who led", stage="choose"),
        *SPEC.sheet_fields,
    ),
)


class LeadSheet(HighCardSheet):
    spec = LEAD_SPEC


class LeadGame(HighCardGame):
    spec = LEAD_SPEC
    sheet_class = LeadSheet


LEAD_GAME = LeadGame()
