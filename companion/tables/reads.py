"""Use cases that only read: a viewer's envelope of a table, a typed code looked up.

A view reads one number when this process keeps the table at its current version
(``store.current_table``); a view that shows a bot to act asks for its job again (one lost
with a stopped process).
"""

from __future__ import annotations

from typing import Any

from .. import codes
from . import bots, store
from .envelope import kept_envelope, own_view, shared_state
from .tokens import identify


def look(code: str, token: str | None, since: str | None = None) -> dict[str, Any]:
    """The holder of ``token``'s envelope of the table (a spectator's without one); only
    what it adds to the public one when ``since`` is the current version (the caller has
    that version's public envelope from its stream event)."""
    table = store.current_table(code)
    who = identify(table, token)
    mine = kept_envelope(table, who)
    if bots.bot_to_act(mine) and bots.turn_of(table, shared_state(table)):
        bots.wake(table.code, table.version)  # a job lost with a stopped process: again
    return own_view(table, who, since)


def find_code(typed: str) -> tuple[str | None, str]:
    """The table a typed code names (forgiving: case, spaces, O/0 and I/1), or None and
    what to tell the person."""
    guesses = codes.candidates(typed[:40])
    found = store.codes_among(guesses)
    if len(found) == 1:
        return found[0], ""
    if not guesses:
        return (
            None,
            "A table code has 6 letters and digits, like K7MZP2. Check it on the host screen.",
        )
    if found:
        return None, "That code could be more than one table: check each letter on the host screen."
    return None, "There is no table with that code. Check it on the host screen."
