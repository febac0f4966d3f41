"""Pure game rules: no Flask import anywhere below here.

``GAMES`` maps each slug to its :class:`~companion.games.base.Game`, in the order the app
lists them.
"""

from .base import Game, IllegalAction, State
from .call_the_shot import GAME as CALL_THE_SHOT
from .pirate_tricks import GAME as PIRATE_TRICKS
from .pull import GAME as PULL
from .shoot import GAME as SHOOT

GAMES: dict[str, Game] = {g.slug: g for g in (PULL, PIRATE_TRICKS, SHOOT, CALL_THE_SHOT)}

__all__ = ["GAMES", "Game", "IllegalAction", "State"]
