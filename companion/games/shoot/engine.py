"""Shoot! engine (to be built: see its issue)."""

from ..base import Game, State


class ShootState(State):
    slug = "shoot"


class ShootGame(Game):
    slug = "shoot"
    name = "Shoot!"
    min_players = 2
    max_players = 5
    tagline = "An Oh Hell relative: bid exactly, shouted all at once."
    state_class = ShootState


GAME = ShootGame()
