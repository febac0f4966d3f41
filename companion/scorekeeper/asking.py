"""The requests for a name a phone already holds on a score sheet ("I am Ada", issue 28),
as stored: ``score_sheet.seat_requests``, a JSON list of ``{"id", "seat", "ticket" (hash),
"holding" (the hash of the token that held the name when asked; once approved, the
throwaway hash the name waits with), "status", "expires"}``. Read here, with each status
brought up to date by the rule both modes share (:func:`companion.seat_requests.aged`);
changed by :mod:`.seat_requests`. Pure: no transaction of its own."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..models import ScoreSheet, utcnow
from ..seat_requests import PENDING, aged

KEPT = 32  # the latest requests a sheet keeps (older ones are done with)


def holding(sheet: ScoreSheet, seat: int) -> str | None:
    """The hash of the token holding name ``seat`` now (None: nobody's phone)."""
    return next((s.token_hash for s in sheet.seats if s.index == seat), None)


def current(sheet: ScoreSheet) -> list[dict[str, Any]]:
    """The sheet's requests (copies), each status as it is now."""
    moment, out = utcnow(), []
    for stored in sheet.seat_requests or []:
        request = dict(stored)
        same = request["holding"] == holding(sheet, request["seat"])
        expires = datetime.fromisoformat(request["expires"])
        request["status"] = aged(request["status"], expires, moment, same)
        out.append(request)
    return out


def shown(sheet: ScoreSheet, request: dict[str, Any]) -> dict[str, Any]:
    """A request as its asking phone, the name's phone and the keeper see it (never its
    ticket nor a hash)."""
    return {
        "id": request["id"],
        "seat": request["seat"],
        "name": sheet.players[request["seat"]],
        "status": request["status"],
        "expires_at": request["expires"],
    }


def waiting(sheet: ScoreSheet, seat: int | None) -> list[dict[str, Any]]:
    """The requests waiting for an answer: for name ``seat`` (its phone answers them), or
    every one (None: the keeper)."""
    return [
        shown(sheet, r)
        for r in current(sheet)
        if r["status"] == PENDING and (seat is None or r["seat"] == seat)
    ]
