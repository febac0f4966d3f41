"""Shared by Pirate Tricks tests: the state as its snapshot holds it."""

from __future__ import annotations

from companion.games.pirate_tricks import rules
from companion.games.pirate_tricks.rules import DECKS, load_catalog


def saved(state) -> dict:
    """The state as its snapshot holds it (crew cards as ids): the engine keeps indexes."""
    return state.to_dict()["state"]


def settle(treasure, capture, won, tricks, predictions, loon) -> dict:
    """:func:`rules.settled` of every card each player won (the engine passes counts)."""
    return rules.settled(treasure, capture, tricks, predictions, loon, won=won)


def catalog_for_display(custom: dict | None = None) -> list[dict]:
    """Rows for the rules page: deck, name, text, the card's tag and its values' tags."""
    catalog = load_catalog(custom)
    rows = []
    for deck in DECKS:
        for card in catalog[deck]:
            value_tags = sorted({e["tag"] for e in card["effects"]})
            rows.append(
                {
                    "deck": deck,
                    "id": card["id"],
                    "name": card["name"],
                    "text": card["text"],
                    "tag": card["tag"],
                    "values": value_tags[0] if len(value_tags) == 1 else "mixed",
                    "prediction": card["prediction"],
                }
            )
    return rows


# -- recruitment ------------------------------------------------------------------------
