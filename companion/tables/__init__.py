"""Engine mode: the app is the deck.

A host screen shows a QR code; each player scans it, takes a seat, holds a private hand on
their phone and plays it. The pages live in :mod:`.routes`, the JSON API in :mod:`.api`
and everything that touches the database (locking, versions, tokens) in :mod:`.service`.
"""

from flask import Blueprint

bp = Blueprint("tables", __name__)

from . import api, log, routes  # noqa: E402,F401  (the views register themselves on bp)
