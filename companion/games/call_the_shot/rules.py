"""Call the Shot rules shared by the engine and the score sheet.

The cards, their counts and point values come from ``cards.json`` (all printed in the
rulebook, so all tagged ``"seed"``). This module decides duels: what a revealed card is
worth and who wins a showdown. The option ``shots_to_lose`` is declared in :mod:`.spec`
from the default and range here. The readings the rulebook leaves open are listed in
:mod:`.engine`'s docstring.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

_DATA = json.loads(Path(__file__).with_name("cards.json").read_text(encoding="utf-8"))

#: Card ids in the order the app lists them.
CARDS: list[str] = [card["id"] for card in _DATA["cards"]]
NAMES: dict[str, str] = {card["id"]: card["name"] for card in _DATA["cards"]}
COUNTS: dict[str, int] = {card["id"]: card["count"] for card in _DATA["cards"]}
POINTS: dict[str, int] = {card["id"]: card["points"] for card in _DATA["cards"]}

MAN_OF_HONOUR = "man_of_honour"
DEADLY_AIM = "deadly_aim"
SHOOT_TO_WOUND = "shoot_to_wound"
SHOOT_TO_KILL = "shoot_to_kill"
HEADSHOT = "headshot"
COWARD = "coward"

#: The cards a revealed Man of Honour beats, doubled or not.
HONOUR_BEATS = (HEADSHOT, SHOOT_TO_KILL)

#: All 14 cards, in listing order.
DECK: list[str] = [card for card in CARDS for _ in range(COUNTS[card])]

HAND_SIZE = 5
FACE_UP = 2
FACE_DOWN = 2

SHOTS_TO_LOSE = 3
MIN_SHOTS, MAX_SHOTS = 1, 9

# Why a duel ended as it did (the ``reason`` of a duel result).
COWARD_CAUGHT = "coward"
HONOUR = "honour"
HIGHER = "higher"
TIE = "tie"


def name(card: str) -> str:
    return NAMES.get(card, str(card))


def sort_cards(cards: list[str]) -> list[str]:
    """``cards`` in listing order (Man of Honour first, the Coward last)."""
    return sorted(cards, key=CARDS.index)


def is_full_deck(cards: list[Any]) -> bool:
    return Counter(cards) == Counter(DECK)


def card_value(card: str, aimed: bool) -> int:
    """Points of a revealed card; ``aimed`` when its owner's Deadly Aim lies directly under it.

    A Deadly Aim doubles the printed value, so cards worth 0 stay at 0.
    """
    return POINTS[card] * (2 if aimed else 1)


def reveal(plays: list[dict[str, str]]) -> dict[str, Any]:
    """What one player turns over when the shot is called: the last card played and, when
    the card played directly before it is a Deadly Aim, that Deadly Aim too."""
    card = plays[-1]["card"]
    aimed = len(plays) >= 2 and plays[-2]["card"] == DEADLY_AIM
    return {"card": card, "deadly_aim": aimed, "value": card_value(card, aimed), "from_hand": False}


def showdown(first: dict[str, Any], second: dict[str, Any]) -> tuple[int | None, str]:
    """Who wins between two revealed cards: ``(0, reason)`` for ``first``, ``(1, reason)``
    for ``second``, ``(None, TIE)`` when the values are equal."""
    if first["card"] == MAN_OF_HONOUR and second["card"] in HONOUR_BEATS:
        return 0, HONOUR
    if second["card"] == MAN_OF_HONOUR and first["card"] in HONOUR_BEATS:
        return 1, HONOUR
    if first["value"] != second["value"]:
        return (0 if first["value"] > second["value"] else 1), HIGHER
    return None, TIE


def resolve(caller: int, hands: list[list[str]], played: list[list[dict]]) -> dict[str, Any]:
    """The outcome of a called shot: ``{"revealed": [per seat], "shot": seat | None,
    "reason": str}``. Both players must have played at least one card."""
    revealed = [reveal(played[0]), reveal(played[1])]
    other = 1 - caller
    if COWARD in hands[other]:
        # The Coward is shown instead of the last card; that card stays face down.
        revealed[other] = {"card": COWARD, "deadly_aim": False, "value": 0, "from_hand": True}
        return {"revealed": revealed, "shot": other, "reason": COWARD_CAUGHT}
    winner, reason = showdown(revealed[0], revealed[1])
    return {"revealed": revealed, "shot": None if winner is None else 1 - winner, "reason": reason}
