"""Tokens and who holds them: host and seat tokens are ``secrets.token_urlsafe(32)``;
only their SHA-256 is stored and a presented token is compared in constant time with
every stored hash. A token that stopped working (its seat moved, was freed, or the host
role moved) is answered 401 with the reason, read from the seat change that retired it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import g

from ..credentials import hash_token, holder_mark, new_token, same_hash
from ..models import SeatChange
from . import store
from .errors import TableError

__all__ = ["Who", "hash_token", "holder_mark", "holding", "identify", "new_token", "same_hash"]


@dataclass(frozen=True)
class Who:
    """Who presented a token: the host, a seat, or nobody (public)."""

    host: bool = False
    seat: int | None = None

    @property
    def viewer(self) -> tuple[bool, int | None]:
        """The viewer's part of a kept envelope's key."""
        return self.host, self.seat


def identify(table: Any, token: str | None) -> Who:
    """The holder of ``token`` at ``table``; :class:`TableError` 401 for an unknown one."""
    if token is None:
        return Who()
    who, digest = _holding(table, token)
    if who is not None:
        return who
    change = store.latest_change(table, digest)
    if change is not None:
        raise TableError(401, gone_message(change), moved=change.how, seat=change.seat)
    raise TableError(401, "That token does not belong to this table. Join it again.")


def holding(table: Any, token: str) -> Who | None:
    """The host or the seat ``token`` holds at ``table``, None when neither. Worked out
    once a request for a table's version and kept on ``flask.g``: the rate limits'
    exemption (``holders.holds_the_table``) asks first, the view's :func:`identify`
    then finds the answer (the seats and the host change only with a new version)."""
    return _holding(table, token)[0]


def _holding(table: Any, token: str) -> tuple[Who | None, str]:
    """:func:`holding`, with the token's hash (to look for its seat change)."""
    key = (table.code, table.version, token)
    found = g.get("table_holding")
    if found is not None and found[0] == key:
        return found[1], found[2]
    digest = hash_token(token)
    # Compare with every stored hash (no early exit), so timing tells nothing.
    host = same_hash(digest, table.host_token_hash)
    seat = None
    for s in table.seats:
        if same_hash(digest, s.token_hash):
            seat = s.index
    who = Who(host=True) if host else Who(seat=seat) if seat is not None else None
    g.table_holding = (key, who, digest)
    return who, digest


def the_host(table: Any, token: str | None, doing: str) -> Who:
    """The host, or 401 (no token) / 403 (another's) saying what only the host can do
    (``doing``: "free a seat")."""
    if token is None:
        raise TableError(401, f"Send the host token (Authorization: Bearer …) to {doing}.")
    who = identify(table, token)
    if not who.host:
        raise TableError(403, f"Only the host can {doing}.")
    return who


def holder(table: Any, token: str | None, asking: str) -> Who:
    """The host or a seat holding ``token``; 401 without one (``asking``: what to send)."""
    if token is None:
        raise TableError(401, asking)
    return identify(table, token)


def gone_message(change: SeatChange) -> str:
    """What a phone whose token stopped working is told."""
    if change.seat is None:
        return "The host role moved to another device. This screen now only watches the table."
    if change.how == "freed":
        return f"The host freed your seat ({change.name}). Take a seat again to play."
    return f"Your seat ({change.name}) moved to another phone. This phone is no longer playing it."
