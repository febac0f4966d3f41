"""A request for a taken seat ("I am Ada"), written once for both modes: Play mode's seats
(``tables/tickets.py``) and the names of a score sheet the players joined
(``scorekeeper/seat_requests.py``). Pure: each mode keeps its requests its own way and
asks here what one's status is now and whether it may be answered or claimed.

A request waits for an answer from the seat's phone (or the host, the keeper) a few
minutes. It belongs to one holding of its seat: the hash of the token that held the seat
when it was made. Approving it retires that token at once (the seat waits, held by a
throwaway hash the request records); the asking phone then claims the seat with the
request's ticket for a fresh token. A request whose seat changed hands meanwhile (freed,
taken, moved) has ENDED; one past its time has EXPIRED.
"""

from __future__ import annotations

from datetime import datetime

REQUEST_MINUTES = 5  # a request for a seat waits this long for an answer (and a claim)

PENDING, APPROVED, REFUSED, USED, EXPIRED = "pending", "approved", "refused", "used", "expired"
REPLACED = "replaced"  # a transfer ticket a newer one replaced (Play mode)
ENDED = "ended"  # its seat changed hands after it was issued
WAITING = (PENDING, APPROVED)


def aged(status: str, expires_at: datetime, now: datetime, same_holding: bool) -> str:
    """A request's (or ticket's) status now: a waiting one past ``expires_at`` has
    expired, one whose seat changed hands since (``same_holding`` false) has ended; any
    other status stays."""
    if status not in WAITING:
        return status
    if expires_at <= now:
        return EXPIRED
    if not same_holding:
        return ENDED
    return status


def answer_refusal(status: str, changed: str) -> str | None:
    """Why a request (its status now) can no longer be answered (a 410), None while it
    waits for an answer. ``changed``: the mode's words for a seat that changed hands."""
    if status == EXPIRED:
        return "That request has expired."
    if status == ENDED:
        return changed
    if status != PENDING:
        return f"That request was already answered ({status})."
    return None


def claim_refusal(status: str, is_request: bool, changed: str) -> tuple[int, str] | None:
    """Why a ticket (its status now) can't be traded for a seat: ``(410, words)`` for one
    that is done with, ``(409, words)`` for a request still waiting; None when it may."""
    if status in (USED, REPLACED):
        return 410, "This ticket was already used. Ask for a new one."
    if status == EXPIRED:
        return 410, "This ticket has expired. Ask for a new one."
    if status == REFUSED:
        return 410, "This request was refused."
    if status == ENDED:
        return 410, changed
    if is_request and status != APPROVED:
        return 409, "This request is still waiting for an answer."
    return None
