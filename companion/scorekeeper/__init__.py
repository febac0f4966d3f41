"""Score mode: one phone keeps the score sheet of a game played with a physical deck.

Layers (see docs/architecture.md, "Score mode writes" and "Showing a sheet"):
:mod:`.store` (database, lock, change log) < :mod:`.book` (one use case per thing a
player does) < :mod:`.views` and :mod:`.watch` (the routes); presenters in :mod:`.pages`,
:mod:`.cells`, :mod:`.show` and :mod:`.entry`.
"""

from . import phone_views, views, watch
from .blueprint import bp
from .feed import connect

__all__ = ["bp", "connect", "phone_views", "views", "watch"]
