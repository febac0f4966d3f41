"""Pirate Tricks engine (to be built: see its issue)."""

from ..base import Game, State


class PirateTricksState(State):
    slug = "pirate_tricks"


class PirateTricksGame(Game):
    slug = "pirate_tricks"
    name = "Pirate Tricks"
    min_players = 3
    max_players = 5
    tagline = "Bid loon for rows of crew, then take tricks for more loon."
    state_class = PirateTricksState


GAME = PirateTricksGame()
