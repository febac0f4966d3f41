"""Pure game rules: no Flask import anywhere below here.

The registry: ``GAMES`` maps each slug to its :class:`~companion.games.base.Game`, in the
order the app lists them (``spec.order``). A game is a folder ``games/<slug>/`` whose
``__init__.py`` exports ``GAME``; it is found here by itself, so adding a game touches no
other module. :func:`register` adds one at run time (the tests' own game uses it).
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import Game, IllegalAction, Sheet, SheetError, State

GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add ``game`` to :data:`GAMES` (keeping the listing order); returns it."""
    GAMES[game.slug] = game
    ordered = sorted(GAMES.values(), key=lambda g: (g.spec.order, g.slug))
    GAMES.clear()
    GAMES.update((g.slug, g) for g in ordered)
    return game


def unregister(slug: str) -> None:
    GAMES.pop(slug, None)


def _discover() -> None:
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg:
            game = getattr(importlib.import_module(f"{__name__}.{module.name}"), "GAME", None)
            # A game still without a declared spec is not playable yet: leave it out.
            if isinstance(game, Game) and getattr(type(game), "spec", None) is not None:
                register(game)


_discover()

__all__ = ["GAMES", "Game", "IllegalAction", "Sheet", "SheetError", "State", "register"]
