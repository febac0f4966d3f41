"""Use cases of a request for a name a phone already holds on a score sheet ("I am Ada",
issue 28), as Play mode's requests for a taken seat: a phone asks for the name, the
name's phone or the keeper approves or refuses it, and the asking phone claims the name
with its ticket for a fresh token. The rules of a request (when it has expired or ended,
what may be answered or claimed) are the ones Play mode uses,
:mod:`companion.seat_requests`; tokens and tickets are :mod:`companion.credentials`'.

Approving retires the name's token at once (the phone holding it is told it no longer
does); the name then waits for the claim. Each change is one locked transaction
(:func:`book.changing`), so an approval racing a release, a refusal or another request
ends with one winner and the others refused (409/410).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from ..credentials import hash_token, new_token, same_hash
from ..games.spec import is_whole
from ..models import ScoreSheet, utcnow
from ..seat_requests import (
    APPROVED,
    PENDING,
    REFUSED,
    REQUEST_MINUTES,
    USED,
    WAITING,
    answer_refusal,
    claim_refusal,
)
from . import asking, book, phones
from .errors import NotFound
from .phones import PhoneError

CHANGED = (
    "The name changed hands since this was asked (freed, taken or moved), so the request "
    "no longer works. Ask again."
)


def _save(sheet: ScoreSheet, requests: list[dict[str, Any]]) -> None:
    sheet.seat_requests = requests[-asking.KEPT :]


def _expiry() -> str:
    return (utcnow() + timedelta(minutes=REQUEST_MINUTES)).isoformat()


def ask(join: str, player: Any) -> tuple[dict[str, Any], str]:
    """A phone says it is player ``player``, whose name another phone holds. Returns the
    request and the ticket the asking phone keeps to claim the name once approved."""
    sheet = phones.joined_sheet(join)
    if not is_whole(player) or not 0 <= player < len(sheet.players):
        raise PhoneError(f"Choose one of the {len(sheet.players)} names on this sheet.", 422)
    with book.changing(sheet.code, replayed=False) as state:
        sheet = state.sheet
        name = sheet.players[player]
        if player not in phones.held(sheet):
            raise PhoneError(f"Nobody's phone holds {name}: take the name from the list.", 409)
        requests = asking.current(sheet)
        if any(r["seat"] == player and r["status"] in WAITING for r in requests):
            raise PhoneError(
                f"Another phone already asked to be {name}; wait for an answer "
                f"(a request lasts {REQUEST_MINUTES} minutes).",
                409,
            )
        ticket = new_token()
        request = {
            "id": max((r["id"] for r in requests), default=0) + 1,
            "seat": player,
            "ticket": hash_token(ticket),
            "holding": asking.holding(sheet, player),
            "status": PENDING,
            "expires": _expiry(),
        }
        _save(sheet, [*requests, request])
        state.announce = True
        answer = asking.shown(sheet, request)
    return answer, ticket


def _by_ticket(requests: list[dict[str, Any]], ticket: Any) -> dict[str, Any]:
    """The request whose ticket this is, compared in constant time with every one."""
    if not isinstance(ticket, str) or not 20 <= len(ticket) <= 200:
        raise PhoneError("That ticket is not valid for this sheet.", 401)
    digest, found = hash_token(ticket), None
    for request in requests:
        if same_hash(digest, request["ticket"]):
            found = request
    if found is None:
        raise PhoneError("That ticket is not valid for this sheet.", 401)
    return found


def status(join: str, request_id: Any, ticket: Any) -> dict[str, Any]:
    """The asking phone's own request, read with its ticket."""
    sheet = phones.joined_sheet(join)
    request = _by_ticket(asking.current(sheet), ticket)
    if request["id"] != request_id:
        raise PhoneError("That ticket is not valid for this request.", 401)
    return asking.shown(sheet, request)


def answer(
    code: str, request_id: Any, approve: Any, token: str | None, keeper: bool = False
) -> book.Done:
    """The name's own phone (its ``token``) or the keeper (``keeper``: the sheet's code
    is the keeper's credential) approves or refuses a request. Returns what to tell
    them. A request already answered, expired or ended is 410 (before any token is
    looked at: it says only that the request is done)."""
    if not isinstance(approve, bool) or not is_whole(request_id):
        raise PhoneError('Send {"approve": true or false} for a request by its number.', 400)
    with book.changing(code, replayed=False) as state:
        sheet = state.sheet
        requests = asking.current(sheet)
        request = next((r for r in requests if r["id"] == request_id), None)
        if request is None:
            raise NotFound()
        refusal = answer_refusal(request["status"], CHANGED)
        if refusal is not None:
            raise PhoneError(refusal, 410)
        name = sheet.players[request["seat"]]
        if not keeper and phones.seat_of(sheet, token) != request["seat"]:
            raise PhoneError(f"Only {name}'s phone or the keeper answers this request.", 403)
        if approve:
            seat = next(s for s in sheet.seats if s.index == request["seat"])
            seat.token_hash = hash_token(new_token())  # the old phone holds nothing now
            request |= {"status": APPROVED, "holding": seat.token_hash, "expires": _expiry()}
            told = f"Approved: the phone that asked becomes {name}'s."
        else:
            request["status"] = REFUSED
            told = f"Refused: {name}'s name stays with its phone."
        _save(sheet, requests)
        state.announce = True
    return book.Done(sheet.code, told, "#phones")


def claim(join: str, ticket: Any) -> tuple[int, str]:
    """The asking phone trades its approved request's ticket for the name's fresh token
    (once: a used, refused, expired or ended ticket is 410; one still waiting 409)."""
    sheet = phones.joined_sheet(join)
    with book.changing(sheet.code, replayed=False) as state:
        sheet = state.sheet
        requests = asking.current(sheet)
        request = _by_ticket(requests, ticket)
        refusal = claim_refusal(request["status"], True, CHANGED)
        if refusal is not None:
            raise PhoneError(refusal[1], refusal[0])
        seat = next(s for s in sheet.seats if s.index == request["seat"])
        token = new_token()
        seat.token_hash = hash_token(token)
        request |= {"status": USED, "holding": seat.token_hash}
        _save(sheet, requests)
        state.announce = True
        index = seat.index
    return index, token
