"""Call the Shot engine (to be built: see its issue)."""

from ..base import Game, State


class CallTheShotState(State):
    slug = "call_the_shot"


class CallTheShotGame(Game):
    slug = "call_the_shot"
    name = "Call the Shot"
    min_players = 2
    max_players = 2
    tagline = "A two-player bluffing duel: say what you played, lie if you dare."
    state_class = CallTheShotState


GAME = CallTheShotGame()
