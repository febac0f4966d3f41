"""The sheets' live feed: after a sheet's change is committed, the use case sends
:data:`~companion.events.sheet_changed`; :func:`publish_rounds` (connected by
:func:`connect` when the app registers the blueprint) tells the live broker, and every
watch page's event stream (:mod:`.watch`) passes the new number of rounds on."""

from __future__ import annotations

from typing import Any

from .. import live
from ..events import sheet_changed


def channel(code: str) -> str:
    """The live channel of one sheet (its code: the broker's name, shown to nobody)."""
    return f"score:{code}"


def publish_rounds(code: str, *, rounds: int, **_facts: Any) -> None:
    """Tell the watch pages of sheet ``code`` how many rounds it now holds."""
    live.publish(channel(code), str(rounds))


def connect(_state: Any = None) -> None:
    """Let the live feed follow the sheets' changes (blinker keeps one connection however
    often this runs: once per app built)."""
    sheet_changed.connect(publish_rounds)
