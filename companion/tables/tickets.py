"""Use cases of seats that move to another phone: a request for a taken seat ("I am
Ada") that the seat's phone or the host answers, a transfer ticket (a seat's rejoin link,
or the host role's), and the claim that trades an approved request or a ticket for a
fresh token. Each is one locked transaction (``store.changing``).

Tickets are stored hashed, compared in constant time with every one the table holds, and
work once before they expire. Each belongs to one holding of its seat (or of the host
role): it carries the hash of the token that held it when issued (``Ticket.holding``; a
request, once approved, the hash the seat waits with). When the seat changes hands
(released, taken, moved, taken over from or by a bot) its holder's hash changes, so every
ticket of the earlier holding is dead: marked ``ended`` on the next look, 410 with the
reason when presented.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from ..models import Ticket
from ..seat_requests import (
    REQUEST_MINUTES,
    WAITING,
    aged,
    answer_refusal,
    claim_refusal,
)
from . import store
from .envelope import news_of
from .errors import TableError
from .seats import clean_name, held_seat, mid_game_bot, note_change, take_over
from .tokens import hash_token, holder, identify, new_token, same_hash

SEAT_CHANGED = (
    "The seat changed hands since this was issued (freed, taken or moved), so it no "
    "longer works. Ask the host or the seat's phone for a new one."
)
TICKET_MINUTES = 10  # a transfer link or QR code (seat or host) is good this long


def holding_of(table: Any, kind: str, seat: int | None) -> str | None:
    """The hash of the token holding a seat (or, for ``kind`` "host", the host role) now;
    None for a free seat."""
    if kind == "host":
        return table.host_token_hash
    row = next((s for s in table.seats if s.index == seat), None)
    return None if row is None else row.token_hash


def same_holding(table: Any, ticket: Ticket) -> bool:
    """Whether the seat (or host role) is still held as it was when ``ticket`` was issued
    (a ticket stored before holdings were recorded has none and is judged by its expiry)."""
    return ticket.holding is None or ticket.holding == holding_of(table, ticket.kind, ticket.seat)


def live_tickets(table: Any, kind: str | None = None, seat: Any = ...) -> list[Ticket]:
    """The table's tickets still waiting (pending, or approved and unclaimed), not expired
    and of the seat's current holding; expired ones and ones of an earlier holding are
    marked so on the way."""
    found = []
    moment = store.now()
    for ticket in store.tickets_of(table):
        if ticket.status not in WAITING:
            continue
        expires = store.aware(ticket.expires_at)
        ticket.status = aged(ticket.status, expires, moment, same_holding(table, ticket))
        if ticket.status not in WAITING:
            continue
        if kind is not None and ticket.kind != kind:
            continue
        if seat is not ... and ticket.seat != seat:
            continue
        found.append(ticket)
    return found


def set_requests(table: Any) -> None:
    """Copy the pending requests onto the table row (after one is made or answered)."""
    news = news_of(table)
    news["requests"] = [
        {
            "id": t.id,
            "seat": t.seat,
            "name": t.name,
            "expires_at": store.aware(t.expires_at).isoformat(),
        }
        for t in live_tickets(table, "request")
        if t.status == "pending"
    ]
    table.seat_news = news


def find_ticket(table: Any, presented: Any) -> Ticket:
    """The ticket whose hash matches, compared in constant time with every one the table
    holds; 401 for a forged one."""
    if not isinstance(presented, str) or not 20 <= len(presented) <= 200:
        raise TableError(401, "That ticket is not valid for this table.")
    digest = hash_token(presented)
    match = None
    for ticket in store.tickets_of(table):
        if same_hash(digest, ticket.ticket_hash):
            match = ticket
    if match is None:
        raise TableError(401, "That ticket is not valid for this table.")
    return match


def request_view(ticket: Ticket, table: Any) -> dict[str, Any]:
    names = store.seat_names(table)
    seat_name = names[ticket.seat] if ticket.seat is not None else None
    return {
        "id": ticket.id,
        "seat": ticket.seat,
        "seat_name": seat_name,
        "name": ticket.name,
        "status": ticket.status,
        "expires_at": store.aware(ticket.expires_at).isoformat(),
    }


def new_ticket(table: Any, kind: str, seat: int | None, minutes: int, **more: Any) -> tuple:
    """A ticket row (added to the change) of the seat's (or host role's) current holding,
    and the ticket its holder keeps."""
    ticket = new_token()
    row = Ticket(
        table_id=table.id,
        kind=kind,
        seat=seat,
        ticket_hash=hash_token(ticket),
        status="pending",
        holding=holding_of(table, kind, seat),
        expires_at=store.now() + timedelta(minutes=minutes),
        **more,
    )
    store.add(row)
    return row, ticket


def ask_for_seat(code: str, seat: Any, name: Any = None) -> tuple[dict[str, Any], str]:
    """A phone asks for a taken seat ("I am Ada"): one pending request per seat, answered
    by the seat's phone or the host within a few minutes. Returns the request and the
    ticket that the asking phone keeps (it claims the seat with it once approved)."""
    with store.changing(code) as table:
        taken = held_seat(table, seat, bots_too=True)
        if taken.bot:
            name = bot_taker(table, taken, name)
        name = taken.name if name is None else clean_name(name)
        if live_tickets(table, "request", seat):
            raise TableError(
                409,
                f"Another phone already asked for {taken.name}'s seat; "
                f"wait for an answer (a request lasts {REQUEST_MINUTES} minutes).",
            )
        row, ticket = new_ticket(table, "request", seat, REQUEST_MINUTES, name=name)
        table.version += 1
        set_requests(table)
        answer = request_view(row, table)
    return answer, ticket


def bot_taker(table: Any, taken: Any, name: Any) -> str:
    """The name of a person asking for a bot's seat: their own, unlike every other seat's;
    only once play has begun (before, they sit down from the join page)."""
    if not mid_game_bot(table, taken.index):
        raise TableError(
            409, f"Seat {taken.index + 1} is played by a bot: take it from the join page."
        )
    if name is None:
        raise TableError(400, "Say your name to take over a bot's seat.")
    name = clean_name(name)
    if any(s.name.casefold() == name.casefold() for s in table.seats):
        raise TableError(409, f"Someone at this table is already called {name}.")
    return name


def request_status(code: str, request_id: int, presented: str | None) -> dict[str, Any]:
    """The asking phone's own request, read with its ticket."""
    table = store.get_table(code)
    ticket = find_ticket(table, presented)
    if ticket.id != request_id or ticket.kind != "request":
        raise TableError(401, "That ticket is not valid for this request.")
    live_tickets(table)  # marks it expired if it is
    answer = request_view(ticket, table)
    store.commit_read()
    return answer


def answer_request(code: str, token: str | None, request_id: Any, approve: bool) -> dict:
    """The seat's own phone or the host approves or refuses a request. Approving retires
    the seat's token at once (its phone is told the seat moved); the asking phone then
    claims the seat with its ticket for a fresh token."""
    with store.changing(code) as table:
        who = holder(table, token, "Send your seat or host token to answer a request.")
        request = store.request_of(table, request_id)
        if request is None:
            raise TableError(404, "There is no such request at this table.")
        if not who.host and who.seat != request.seat:
            raise TableError(403, "Only that seat's phone or the host can answer this request.")
        live_tickets(table)
        refusal = answer_refusal(request.status, SEAT_CHANGED)
        if refusal is not None:
            raise TableError(410, refusal)
        taken = held_seat(table, request.seat, bots_too=True)
        table.version += 1
        if approve:
            request.status = "approved"
            request.expires_at = store.now() + timedelta(minutes=REQUEST_MINUTES)
            if taken.bot:  # the bot stops; the seat waits for the asking person's claim
                bot_taker(table, taken, request.name)  # a name taken meanwhile: 409
                note_change(table, taken.index, request.name, "taken", None)
                take_over(taken, request.name, new_token())
            else:
                note_change(table, taken.index, taken.name, "moved", taken.token_hash)
                taken.token_hash = hash_token(new_token())  # nobody holds it: the seat waits
            request.holding = taken.token_hash  # the holding the claim takes up
        else:
            request.status = "refused"
        set_requests(table)
        answer = {"request": request_view(request, table)}
    return answer


def issue_ticket(code: str, token: str | None, seat: int | None) -> tuple[str, str]:
    """A one-time ticket that moves a seat (``seat``) or the host role (None) to another
    phone, with the table's code. A seat's own phone or the host may move a seat; only the
    host moves the host role. A new ticket replaces the same issuer's earlier unused one
    (the host's rejoin code for a seat and the seat's own link live side by side)."""
    with store.changing(code) as table:
        who = holder(table, token, "Send your seat or host token (Authorization: Bearer …).")
        if seat is None:
            if not who.host:
                raise TableError(403, "Only the host can move the host role.")
            kind = "host"
        else:
            held_seat(table, seat)
            if not who.host and who.seat != seat:
                raise TableError(403, "Only that seat's phone or the host can move a seat.")
            kind = "transfer"
        issued_by = "host" if who.host else "seat"
        for old in live_tickets(table, kind, seat):
            if old.issued_by in (issued_by, None):  # the other issuer's stays good
                old.status = "replaced"
        _row, ticket = new_ticket(table, kind, seat, TICKET_MINUTES, issued_by=issued_by)
        table_code = table.code
    return ticket, table_code


def own_ticket(code: str, token: str | None) -> tuple[int, str, str]:
    """A seat's own rejoin ticket (to move the seat to another phone): the seat, the
    ticket and the table's code. Only a seated player has one."""
    table = store.get_table(code)
    who = identify(table, token)
    if who.seat is None:
        raise TableError(403, "Only a seated player has a rejoin link.")
    ticket, table_code = issue_ticket(code, token, who.seat)
    return who.seat, ticket, table_code


def claim(code: str, presented: Any) -> dict[str, Any]:
    """Trade a ticket (an approved request, a seat's or the host's transfer ticket) for a
    fresh token; the old one stops working (401, "moved"). A ticket works once: a reused
    or expired one gets 410, a forged one 401."""
    with store.changing(code) as table:
        ticket = find_ticket(table, presented)
        live_tickets(table)
        refusal = claim_refusal(ticket.status, ticket.kind == "request", SEAT_CHANGED)
        if refusal is not None:
            raise TableError(*refusal)
        token = new_token()
        table.version += 1
        if ticket.kind == "host":
            note_change(table, None, "host", "moved", table.host_token_hash)
            table.host_token_hash = hash_token(token)
            seat = None
        else:
            taken = held_seat(table, ticket.seat)
            if ticket.kind == "transfer":
                note_change(table, taken.index, taken.name, "moved", taken.token_hash)
            taken.token_hash = hash_token(token)
            seat = taken.index
        ticket.status = "used"
        answer = {
            "role": "host" if seat is None else "seat",
            "seat": seat,
            "token": token,
            "version": table.version,
        }
    return answer
