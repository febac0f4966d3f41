"""Who a request's credential is at the table its URL names, for the views and for the
rate limits: a request whose bearer token (or stream ticket) holds a seat or the host
there is exempt from the limits that count failures (``lookup``, ``token``: see
:mod:`companion.limits`), so a phone that plays makes no round trip to the limits'
storage. The view checks the same token with :func:`tokens.identify`, which finds the
answer this module worked out for the request (kept on ``flask.g``), so the token is
checked, and the table found, once a request.
"""

from __future__ import annotations

from typing import Any

from flask import g, request

from .. import streams
from . import kept, store
from .errors import TableError
from .tokens import Who, holding

# Routes that only one role may use: another credential there is refused (403), so it is
# not a credential of that route and is counted like any other request.
ROLES: dict[str, str] = {
    "tables.api_act": "seat",
    "tables.api_undo": "host",
    "tables.api_release": "host",
    "tables.api_bot": "host",
    "tables.api_host_transfer": "host",
}


def bearer_token() -> str | None:
    """The request's ``Authorization: Bearer`` token (None without the header); 401 for
    a header of another form."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > 200:
        raise TableError(401, "The Authorization header must be 'Bearer <token>'.")
    return token


def holds_the_table() -> bool:
    """``exempt_when`` of the failure-counting limits: the request's bearer token holds
    a seat or the host at the table its URL names (or its stream ticket was issued to
    one), in the role its route takes. A request without a credential, or with a bad
    one, is not exempt, and is counted as before. Worked out once a request (each limit,
    a minute and an hour, asks it; kept on ``flask.g`` with the request it is for)."""
    current = request._get_current_object()
    asked = g.get("holds_the_table")
    if asked is not None and asked[0] is current:
        return asked[1]
    held = credential_holds()
    g.holds_the_table = (current, held)
    return held


def credential_holds() -> bool:
    """:func:`holds_the_table`, worked out."""
    if request.blueprint != "tables":
        return False
    code = (request.view_args or {}).get("code")
    if not isinstance(code, str):
        return False
    try:
        who = ticket_holder(code) if "ticket" in request.args else token_holder(code)
    except TableError:
        return False
    return who is not None and fits_route(who)


def token_holder(code: str) -> Who | None:
    """The seat or host the bearer token holds at the table ``code``, None when neither.
    The table is the one this process keeps (no query), else read and kept for the
    view (a missing table is a :class:`TableError` 404)."""
    token = bearer_token()
    if token is None:
        return None
    table = kept.latest(store.normalise_code(code)) or store.current_table(code)
    return holding(table, token)


def ticket_holder(code: str) -> Who | None:
    """The seat or host a stream ticket (``?ticket=``) was issued to, for the table
    ``code``: a signed claim, checked with no table (None for a spectator's ticket)."""
    try:
        claims = streams.check("table", store.normalise_code(code), request.args["ticket"])
    except streams.StreamRefused:
        return None
    if not isinstance(claims.get("h"), str):
        return None
    if claims.get("r") == "host":
        return Who(host=True)
    seat = claims.get("s")
    return Who(seat=seat) if claims.get("r") == "seat" and isinstance(seat, int) else None


def fits_route(who: Who) -> bool:
    """Whether ``who`` is a credential the request's route takes: a seat's on a route of
    the seats, the host's on the host's (either elsewhere); on a route naming a seat, a
    seat's token only for that seat."""
    role = ROLES.get(request.endpoint or "")
    if role == "seat" and who.seat is None or role == "host" and not who.host:
        return False
    named: Any = (request.view_args or {}).get("seat")
    return named is None or who.host or who.seat == named
