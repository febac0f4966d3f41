"""Engine mode: the app is the deck.

A host screen shows a QR code; each player scans it, takes a seat, holds a private hand on
their phone and plays it. Three layers (see docs/architecture.md, "Play mode in layers"):

* the store (:mod:`.store`, :mod:`.kept`): database access, locking, saving, kept facts;
* use cases, one function per thing a user does, each one locked transaction
  (:mod:`.lifecycle`, :mod:`.seats`, :mod:`.tickets`, :mod:`.moves`, :mod:`.reads`), with
  :mod:`.tokens`, :mod:`.envelope` (what a client sees) and :mod:`.bots` (the scheduler);
* views (:mod:`.routes` pages, :mod:`.api` JSON), which read the request, call one use
  case and answer; importing them registers them on :data:`bp`.

A committed change sends ``events.table_changed``; :func:`init_app` subscribes the kept
facts, the live broker (:mod:`.stream`) and the bot scheduler when the app is built.
"""

from flask import Flask

from . import api, bots, kept, routes, stream
from .blueprint import bp

__all__ = ["api", "bots", "bp", "connect", "init_app", "routes"]


def init_app(app: Flask) -> None:
    """The kept facts' caches of this app, and the listeners of its changes."""
    kept.init_app(app)
    stream.init_app(app)
    connect()


def connect() -> None:
    """Subscribe to ``events.table_changed``, in the order a change needs them: keep the
    table's facts, tell the live listeners, wake a bot. Safe to call again (blinker
    connects a receiver once)."""
    kept.connect()
    stream.connect()
    bots.connect()
