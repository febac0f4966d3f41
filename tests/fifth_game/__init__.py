"""A fifth, test-only game: "High card", registered at test time only.

2–4 players, ``cards`` cards each (1..8, default 3) from a deck of 1..40. Everyone plays
one card per trick in turn, starting with the last trick's winner; the highest card wins
the trick; a player's score is the tricks taken. Its score sheet asks, each round, the
tricks each player took. It has no template, no board module and no web code of its own:
the generic layer must carry it in both modes (``tests/web/test_fifth_game.py``).

It is laid out as docs/architecture.md's "Adding a game" checklist says a game is, with
its files here instead of ``companion/games/high_card/`` (its tests' hooks are in
``tests/games/high_card/``), and ``tests/test_adding_a_game.py`` follows that checklist
with it. Being a test's game, it is registered by :func:`install` rather than found.
"""

from __future__ import annotations

from companion.games import register, unregister
from companion.games.base import Game

from .engine import GAME, HighCardGame, HighCardState
from .lead import LEAD_GAME, LEAD_SPEC, LeadGame, LeadSheet
from .sheet import HighCardSheet
from .spec import SLUG, SPEC

__all__ = [
    "GAME",
    "LEAD_GAME",
    "LEAD_SPEC",
    "SLUG",
    "SPEC",
    "HighCardGame",
    "HighCardSheet",
    "HighCardState",
    "LeadGame",
    "LeadSheet",
    "install",
    "uninstall",
]


def install() -> Game:
    register(LEAD_GAME)
    return register(GAME)


def uninstall() -> None:
    unregister(SLUG)
    unregister(LEAD_SPEC.slug)
