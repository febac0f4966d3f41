"""PULL! engine (to be built: see its issue)."""

from ..base import Game, State


class PullState(State):
    slug = "pull"


class PullGame(Game):
    slug = "pull"
    name = "PULL!"
    min_players = 2
    max_players = 4
    tagline = "Trap shooting as a trick-taker: two targets a round, first shot follows suit."
    state_class = PullState


GAME = PullGame()
