"""One interface over the games' pure score sheets (``companion/games/<slug>/sheet.py``).

Each game's sheet module has its own signatures; the web layer talks only to an
:class:`Adapter`, which knows the player names, the options and the stored rows:

``check_options(names, options)``     the options, checked and with defaults (idempotent)
``add(names, options, rows, entry)``  a new list of rows with ``entry`` appended
``replace(names, options, rows, index, entry)`` / ``delete(names, options, rows, index)``
``summary(names, options, rows)``     everything derived (scores, totals, next deal, winners)

All of them raise :class:`~companion.games.base.IllegalAction` (or a subclass that may name
the ``player`` and ``field`` at fault) with a message for the table, and never change the
rows they are given. Rows are the JSON facts stored in ``ScoreEntry.facts``.

Only the games listed in :data:`ADAPTERS` have a score mode in the app.
"""

from __future__ import annotations

import re
from typing import Any

from ..games import GAMES
from ..games.base import IllegalAction
from ..games.call_the_shot import sheet as call_the_shot_sheet
from ..games.pirate_tricks import rules as pirate_rules
from ..games.pirate_tricks import sheet as pirate_sheet
from ..games.pull import sheet as pull_sheet
from ..games.shoot import sheet as shoot_sheet

Rows = list[dict[str, Any]]

_PLAYER = re.compile(r"\b[Pp]layer ([1-9])\b")


def with_names(names: list[str], error: IllegalAction) -> IllegalAction:
    """The same refusal with "player 2" written as that player's name (for sheet modules
    that number the players in their messages)."""

    def name(match: re.Match) -> str:
        seat = int(match.group(1)) - 1
        return names[seat] if seat < len(names) else match.group(0)

    return IllegalAction(_PLAYER.sub(name, error.message))


def _named(call):
    """Decorate an adapter method ``(self, names, ...)``: its refusals use the names."""

    def wrapper(self, names, *args):
        try:
            return call(self, names, *args)
        except IllegalAction as error:
            raise with_names(names, error) from None

    wrapper.__name__ = call.__name__
    wrapper.__doc__ = call.__doc__
    return wrapper


class Adapter:
    """The common interface; a subclass wraps one game's sheet module."""

    slug: str = ""
    round_word: str = "round"  # "deal", "duel", "hand" in messages and headings

    @property
    def game(self):
        return GAMES[self.slug]

    @property
    def name(self) -> str:
        return self.game.name

    @property
    def min_players(self) -> int:
        return self.game.min_players

    @property
    def max_players(self) -> int:
        return self.game.max_players

    def check_players(self, names: list[str]) -> None:
        if not self.min_players <= len(names) <= self.max_players:
            if self.min_players == self.max_players:
                raise IllegalAction(f"{self.name} is for exactly {self.min_players} players.")
            raise IllegalAction(
                f"{self.name} is for {self.min_players} to {self.max_players} players."
            )

    def check_options(self, names: list[str], options: dict | None) -> dict:
        raise NotImplementedError

    def add(self, names: list[str], options: dict, rows: Rows, entry: Any) -> Rows:
        raise NotImplementedError

    def replace(self, names: list[str], options: dict, rows: Rows, index: int, entry: Any) -> Rows:
        raise NotImplementedError

    def delete(self, names: list[str], options: dict, rows: Rows, index: int) -> Rows:
        raise NotImplementedError

    def summary(self, names: list[str], options: dict, rows: Rows) -> dict:
        raise NotImplementedError


class NamedSheetAdapter(Adapter):
    """For sheet modules with the full signature, ``add(players, options, rows, entry,
    names)`` and so on (Shoot!, Pirate Tricks): they name the players themselves."""

    sheet: Any  # the game's sheet module

    def check_options(self, names, options):
        self.check_players(names)
        return self.sheet.check_options(len(names), options)

    def add(self, names, options, rows, entry):
        return self.sheet.add(len(names), options, rows, entry, names)

    def replace(self, names, options, rows, index, entry):
        return self.sheet.replace(len(names), options, rows, index, entry, names)

    def delete(self, names, options, rows, index):
        return self.sheet.delete(len(names), options, rows, index, names)

    def summary(self, names, options, rows):
        return self.sheet.summary(len(names), options, rows, names)


class ShootAdapter(NamedSheetAdapter):
    """Shoot!: a row is ``{"bids": [...], "tricks": [...]}``; options schedule, chips, dealer."""

    slug = "shoot"
    round_word = "deal"
    sheet = shoot_sheet


class CallTheShotAdapter(Adapter):
    """Call the Shot: a row is ``{"challenger": 0 | 1, "shot": 0 | 1 | None}``."""

    slug = "call_the_shot"
    round_word = "duel"

    def check_options(self, names, options):
        self.check_players(names)
        return call_the_shot_sheet.check_options(options)

    @_named
    def add(self, names, options, rows, entry):
        return call_the_shot_sheet.add(rows, entry, options)

    @_named
    def replace(self, names, options, rows, index, entry):
        return call_the_shot_sheet.replace(rows, index, entry, options)

    @_named
    def delete(self, names, options, rows, index):
        return call_the_shot_sheet.delete(rows, index, options)

    def summary(self, names, options, rows):
        return call_the_shot_sheet.summary(rows, options)


class PullAdapter(Adapter):
    """PULL!: a row is ``{"sides": [...]}`` (quick points and fouls, or targets per round)."""

    slug = "pull"
    round_word = "hand"

    def check_options(self, names, options):
        self.check_players(names)
        return pull_sheet.check_options(len(names), options)

    @_named
    def add(self, names, options, rows, entry):
        return pull_sheet.add(len(names), options, rows, entry)

    @_named
    def replace(self, names, options, rows, index, entry):
        return pull_sheet.replace(len(names), options, rows, index, entry)

    @_named
    def delete(self, names, options, rows, index):
        return pull_sheet.delete(len(names), options, rows, index)

    def summary(self, names, options, rows):
        result = pull_sheet.summary(len(names), options, rows)
        # Side names with the players' own names ("Ann & Cy"), not "player 1 & player 3".
        result["side_names"] = [
            " & ".join(names[seat] for seat in side) for side in result["sides"]
        ]
        return result


class PirateTricksAdapter(NamedSheetAdapter):
    """Pirate Tricks: a row is the round's score cards plus each player's ledger facts."""

    slug = "pirate_tricks"
    round_word = "round"
    sheet = pirate_sheet


def pirate_cards(options: dict | None = None) -> dict[str, list[dict[str, Any]]]:
    """The score cards of each deck (id, name, text, whether it asks for predictions)."""
    catalog = pirate_rules.load_catalog((options or {}).get("catalog"))
    return {
        deck: [
            {
                "id": card["id"],
                "name": card["name"],
                "text": card["text"],
                "tag": card["tag"],
                "prediction": pirate_rules.needs_prediction(card),
            }
            for card in catalog[deck]
        ]
        for deck in pirate_rules.DECKS
    }


def pirate_counted(options: dict | None, card_ids: list[str]) -> list[dict[str, Any]]:
    """The counts a round needs from each player: one per effect of the chosen treasure and
    capture cards that counts captured cards, in the order the sheet expects them."""
    catalog = pirate_rules.load_catalog((options or {}).get("catalog"))
    index = pirate_rules.card_index(catalog)
    counted = []
    for card_id in card_ids:
        found = index.get(card_id)
        if found is None or found[0] == "recruitment":
            continue
        for slot, effect in enumerate(pirate_rules.filtered_effects(found[1])):
            counted.append(
                {
                    "card": card_id,
                    "name": found[1]["name"],
                    "slot": slot,
                    "label": pirate_rules.describe_filter(effect["filter"]).replace(
                        "card", "cards", 1
                    )
                    + " taken",
                }
            )
    return counted


def pirate_predicting(options: dict | None, card_ids: list[str]) -> bool:
    catalog = pirate_rules.load_catalog((options or {}).get("catalog"))
    index = pirate_rules.card_index(catalog)
    return any(
        pirate_rules.needs_prediction(index[card_id][1]) for card_id in card_ids if card_id in index
    )


ADAPTERS: dict[str, Adapter] = {
    a.slug: a for a in (ShootAdapter(), CallTheShotAdapter(), PullAdapter(), PirateTricksAdapter())
}
