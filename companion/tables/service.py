"""Engine-mode tables: creating, joining, acting and undoing, each in one transaction.

The table row holds the engine state snapshot and a version number; the ``action`` table
beside it is an append-only log (an undo is appended by seat ``None`` as ``{"type":
"undo", "to": n, "text": words}``: ``n`` actions stay, and ``text`` is what every phone is
told; older logs hold ``{"type": "undo"}``, one action back). Every change runs in one
transaction that first locks the table row
(PostgreSQL ``SELECT … FOR UPDATE``; SQLite ``BEGIN IMMEDIATE``, which takes the database
write lock before anything is read), checks the version the client saw, applies, stores
the new snapshot and version with an ``Action`` row, commits, and only then tells the live
broker, so a listener that refetches sees the committed state. One exception, on the hot
path: on PostgreSQL a move on the table this process keeps is one statement that stores
it only if the table is still at the version it was applied to (:func:`act_unlocked`).

Tokens (host and seats) are ``secrets.token_urlsafe(32)``; only their SHA-256 is stored
and a presented token is compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import current_app
from sqlalchemy import literal, select
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import joinedload
from sqlalchemy.orm.attributes import set_committed_value

from .. import codes, live, names
from ..database import autocommit, locked, retry_if_disconnected
from ..extensions import db
from ..games import GAMES, IllegalAction
from ..games.base import Game, State, shared_json
from ..models import Action, GameRecord, Seat, SeatChange, Table, Ticket, utcnow
from ..network import base_url
from ..rules import has_rules, rule_url

REQUEST_MINUTES = 5  # a request for a seat waits this long for an answer
TICKET_MINUTES = 10  # a transfer link or QR code (seat or host) is good this long
UNDO = {"type": "undo"}


class TableError(Exception):
    """A request the table refuses; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str, **extra: Any):
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


# -- tokens -------------------------------------------------------------------------------


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def holder_mark(token_hash: str) -> str:
    """A short mark of a stored token hash, put in a stream ticket (which travels in an
    address) to name the credential it was issued for without carrying that hash."""
    return hashlib.sha256(b"stream-holder:" + token_hash.encode()).hexdigest()[:16]


def same_hash(presented: str, stored: str) -> bool:
    return hmac.compare_digest(presented.encode(), stored.encode())


@dataclass(frozen=True)
class Who:
    """Who presented a token: the host, a seat, or nobody (public)."""

    host: bool = False
    seat: int | None = None


def identify(table: Table, token: str | None) -> Who:
    """The holder of ``token`` at ``table``; :class:`TableError` 401 for an unknown one."""
    if token is None:
        return Who()
    digest = hash_token(token)
    # Compare with every stored hash (no early exit), so timing tells nothing.
    host = same_hash(digest, table.host_token_hash)
    seat = None
    for s in table.seats:
        if same_hash(digest, s.token_hash):
            seat = s.index
    if host:
        return Who(host=True)
    if seat is not None:
        return Who(seat=seat)
    change = db.session.scalar(
        select(SeatChange)
        .where(SeatChange.table_id == table.id, SeatChange.old_token_hash == digest)
        .order_by(SeatChange.id.desc())
        .limit(1)
    )
    if change is not None:
        raise TableError(401, gone_message(change), moved=change.how, seat=change.seat)
    raise TableError(401, "That token does not belong to this table. Join it again.")


def gone_message(change: SeatChange) -> str:
    """What a phone whose token stopped working is told."""
    if change.seat is None:
        return "The host role moved to another device. This screen now only watches the table."
    if change.how == "freed":
        return f"The host freed your seat ({change.name}). Take a seat again to play."
    return f"Your seat ({change.name}) moved to another phone. This phone is no longer playing it."


# -- names --------------------------------------------------------------------------------


def clean_name(name: Any) -> str:
    """A seat name, cleaned by the shared :func:`companion.names.clean_name`; a refused
    one is a 400."""
    try:
        return names.clean_name(name)
    except names.BadName as error:
        raise TableError(400, str(error)) from None


# -- loading and locking ------------------------------------------------------------------


def normalise_code(code: str) -> str:
    return codes.normalise(code)


def get_table(code: str, read_only: bool = False) -> Table:
    """The table with its seats, in one query. ``read_only`` (a request that writes
    nothing, like a view): outside a transaction, the query runs without one (no BEGIN
    and ROLLBACK round trips on PostgreSQL); a later write starts its own (``locked``)."""
    query = select(Table).where(Table.code == normalise_code(code))

    def load() -> Table | None:
        if read_only:
            autocommit()
        found = db.session.execute(query.options(joinedload(Table.seats)))
        return found.unique().scalar_one_or_none()

    table = retry_if_disconnected(load)
    if table is None:
        raise TableError(404, "There is no table with that code.")
    return table


def lock_table(code: str) -> Table:
    """Start a write transaction holding the table's row lock and load the table with its
    seats, in one statement (every change reads the seats: the token's owner)."""
    try:
        query = select(Table).where(Table.code == normalise_code(code))
        query = query.options(joinedload(Table.seats))
        table = retry_if_disconnected(lambda: locked(query, of=Table))
    except OperationalError:
        raise table_busy() from None
    if table is None:
        db.session.rollback()
        raise TableError(404, "There is no table with that code.")
    return table


def table_busy() -> TableError:
    """The lock wait timed out (a very busy SQLite file): nothing was changed (rolled back
    here); the error to raise."""
    db.session.rollback()
    return TableError(503, "The table is busy; try again in a moment.")


@contextmanager
def changing(code: str, kept: Any = None) -> Iterator[Table]:
    """The table, locked, for one change: commits when the block ends (rolls back if it
    raises), then tells everyone (:func:`changed`). The table's copy for the others is
    taken before the commit, so nothing reloads the expired row. ``kept``: the table
    already locked by ``cache.locked_kept`` (an editable copy of this process's kept
    facts), not loaded."""
    from . import cache  # it builds on this module

    table = kept if kept is not None else lock_table(code)
    try:
        yield table
        facts = cache.TableFacts.of(table)
        with_bots = bots.has_bots(table)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    changed(facts, with_bots)


def changed(facts: Any, with_bots: bool) -> None:
    """After a change is committed: keep the table as it now is in this process
    (``facts``, a ``cache.TableFacts``), tell live listeners the new version with that copy
    for the other processes (no process reads the table again to tell its phones), and
    wake a bot that may be to act now (its job runs off this request)."""
    from . import cache  # it builds on this module

    cache.keep(facts)
    announce(facts.code, facts.version, facts)
    if with_bots:
        bots.wake(facts.code, facts.version)


def game_of(table: Table) -> Game:
    return GAMES[table.game]


def state_of(table: Table) -> State:
    """The table's state, restored from its snapshot without the log (see
    :func:`log_of`). The snapshot dict was just parsed from the database and nothing else
    keeps it, so the state takes its lists over instead of copying them: when the state
    changes, so does the row's loaded value, which is why :func:`save` flags the column.
    A kept table's snapshot for a change (``cache.KeptTable``) is shared with the cached
    views' states: that one is copied."""
    if getattr(table, "shares_snapshot", False):
        return game_of(table).state_from_dict(table.state)
    with shared_json():
        return game_of(table).state_from_dict(table.state)


def full_state(table: Table) -> State:
    """The table's state with its log read from the action table (for the host's undo,
    and for checks that need every action)."""
    state = state_of(table)
    state.log = log_of(table)
    return state


def log_of(table: Table) -> list[list[Any]]:
    """The game's actions so far, ``[seat, action]``, from the action table (the undos
    applied): what the snapshot leaves out, read only when needed (the host's undo)."""
    steps: list[list[Any]] = []
    for row in db.session.scalars(
        select(Action).where(Action.table_id == table.id).order_by(Action.version)
    ):
        if row.seat is None and row.action.get("type") == UNDO["type"]:
            del steps[row.action.get("to", len(steps) - 1) :]
        else:
            steps.append([row.seat, row.action])
    return steps


def started(table: Table) -> bool:
    return len(table.seats) == table.players


def seat_names(table: Table) -> list[str | None]:
    names: list[str | None] = [None] * table.players
    for s in table.seats:
        names[s.index] = s.name
    return names


# -- creating and joining -----------------------------------------------------------------


def new_code() -> str:
    return codes.new_code(
        lambda code: db.session.scalar(select(Table.id).where(Table.code == code)) is not None
    )


def create_table(
    game: Any,
    players: Any,
    options: Any = None,
    seed: int | None = None,
    deal: dict | None = None,
    bot_seats: Any = None,
) -> tuple[Table, str]:
    """A new table and its host token; ``bot_seats`` (one entry per seat, None or a bot
    level) seats bots. Bad settings raise :class:`TableError` 4xx, and nothing is stored."""
    if not isinstance(game, str) or game not in GAMES:
        raise TableError(422, f"Unknown game. Choose one of: {', '.join(GAMES)}.")
    if options is None:
        options = {}
    try:
        state = GAMES[game].new_state(players, options, seed=seed, deal=deal)
    except IllegalAction as error:
        raise TableError(422, error.message) from None
    token = new_token()
    table = new_table_row(game, state, deal, token)
    try:
        bots.seat_bots(table, bot_seats)
    except TableError:
        db.session.rollback()
        raise
    db.session.commit()
    if bots.has_bots(table):
        bots.wake(table.code, table.version)
    return table, token


def new_table_row(game: str, state: State, deal: dict | None, host_token: str) -> Table:
    """A new table (added to the session) holding ``state``, the first one of a game."""
    table = Table(
        code=new_code(),
        game=game,
        players=state.players,
        options=state.options,
        seed=state.seed,
        deal=deal,
        state=state.to_dict(),
        version=0,
        host_token_hash=hash_token(host_token),
    )
    db.session.add(table)
    return table


def join(code: str, name: Any, seat: Any = None) -> tuple[int, str, int]:
    """Take a seat (the one asked for, else the lowest free one); returns the seat, its
    token and the version the join made."""
    name = clean_name(name)
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise TableError(400, "A seat must be a whole number.")
    with changing(code) as table:
        taken = {s.index: s.name for s in table.seats}
        robots = sorted(s.index for s in table.seats if s.bot)  # a person may take these
        if seat is not None and not 0 <= seat < table.players:
            raise TableError(422, f"This table has seats 1 to {table.players}.")
        if len(taken) >= table.players and not robots:
            raise TableError(409, "Every seat at this table is taken.")
        if seat is not None and seat in taken and seat not in robots:
            raise TableError(409, f"Seat {seat + 1} is taken by {taken[seat]}.")
        if seat is None:
            free = [i for i in range(table.players) if i not in taken]
            seat = min(free) if free else robots[0]
        others = [other for index, other in taken.items() if index != seat]
        if any(other.casefold() == name.casefold() for other in others):
            raise TableError(409, f"Someone at this table is already called {name}.")
        token = new_token()
        if seat in robots:
            bots.take_over(table, seat, name, token)
        else:
            table.seats.append(Seat(index=seat, name=name, token_hash=hash_token(token)))
        table.version += 1
        version = table.version
        # a freed seat taken again, or a bot's: say so
        if seat in robots or str(seat) in news_of(table)["missing"]:
            note_change(table, seat, name, "taken", None)
    return seat, token, version


def release(code: str, token: str | None, seat: Any) -> dict[str, Any]:
    """Host only: free a seat (its phone was lost without its rejoin link). The seat's old
    token stops working; whoever takes the seat next gets its hand back. Play pauses until
    the seat is taken again."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise TableError(400, "A seat must be a whole number.")
    with changing(code) as table:
        if token is None:
            raise TableError(401, "Send the host token (Authorization: Bearer …) to free a seat.")
        if not identify(table, token).host:
            raise TableError(403, "Only the host can free a seat.")
        taken = [s for s in table.seats if s.index == seat]
        if not taken:
            raise TableError(422, f"Seat {seat + 1} is not taken.")
        table.seats.remove(taken[0])
        table.version += 1
        note_change(table, seat, taken[0].name, "freed", taken[0].token_hash)
        news = news_of(table)
        if not taken[0].bot:  # a bot taken out is not a player the game waits for
            news["missing"][str(seat)] = taken[0].name
        table.seat_news = news
        answer = envelope(table, Who(host=True))
    return answer


# -- seats that move: requests, transfer tickets, claims -----------------------------------


def now() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """SQLite gives back naive datetimes; they were stored in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def news_of(table: Table) -> dict[str, Any]:
    """A copy of what every envelope says about the seats, kept on the table row so that
    the hot path (an action) reads nothing more: ``changes`` (latest per seat, oldest
    first), ``missing`` (a freed seat's last name, by seat) and pending ``requests``."""
    news = table.seat_news or {}
    return {
        "changes": [dict(c) for c in news.get("changes", [])],
        "missing": dict(news.get("missing", {})),
        "requests": [dict(r) for r in news.get("requests", [])],
    }


def set_requests(table: Table) -> None:
    """Copy the pending requests onto the table row (after one is made or answered)."""
    news = news_of(table)
    news["requests"] = [
        {
            "id": t.id,
            "seat": t.seat,
            "name": t.name,
            "expires_at": aware(t.expires_at).isoformat(),
        }
        for t in live_tickets(table, "request")
        if t.status == "pending"
    ]
    table.seat_news = news


def note_change(table: Table, seat: int | None, name: str, how: str, old: str | None) -> None:
    """Remember that a seat (or, with ``seat`` None, the host role) changed phone: the old
    token's holder is told why, every envelope carries the latest change of each seat."""
    news = news_of(table)
    news["changes"] = [c for c in news["changes"] if c["seat"] != seat]
    news["changes"].append({"seat": seat, "name": name, "how": how, "version": table.version})
    if how != "freed":
        news["missing"].pop(str(seat), None)
    table.seat_news = news
    db.session.add(
        SeatChange(
            table_id=table.id,
            seat=seat,
            name=name,
            how=how,
            old_token_hash=old,
            version=table.version,
        )
    )


def live_tickets(table: Table, kind: str | None = None, seat: Any = ...) -> list[Ticket]:
    """The table's tickets still waiting (pending, or approved and unclaimed) and not
    expired; expired ones are marked so on the way."""
    found = []
    moment = now()
    for ticket in db.session.scalars(select(Ticket).where(Ticket.table_id == table.id)):
        if ticket.status not in ("pending", "approved"):
            continue
        if aware(ticket.expires_at) <= moment:
            ticket.status = "expired"
            continue
        if kind is not None and ticket.kind != kind:
            continue
        if seat is not ... and ticket.seat != seat:
            continue
        found.append(ticket)
    return found


def find_ticket(table: Table, presented: Any) -> Ticket:
    """The ticket whose hash matches, compared in constant time with every one the table
    holds; 401 for a forged one."""
    if not isinstance(presented, str) or not 20 <= len(presented) <= 200:
        raise TableError(401, "That ticket is not valid for this table.")
    digest = hash_token(presented)
    match = None
    for ticket in db.session.scalars(select(Ticket).where(Ticket.table_id == table.id)):
        if same_hash(digest, ticket.ticket_hash):
            match = ticket
    if match is None:
        raise TableError(401, "That ticket is not valid for this table.")
    return match


def check_seat(table: Table, seat: Any) -> Seat:
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise TableError(400, "A seat must be a whole number.")
    if not 0 <= seat < table.players:
        raise TableError(422, f"This table has seats 1 to {table.players}.")
    for taken in table.seats:
        if taken.index == seat:
            if taken.bot:  # no ticket moves a bot's seat: a person sits down in it instead
                raise TableError(
                    409, f"Seat {seat + 1} is played by a bot: take it from the join page."
                )
            return taken
    raise TableError(409, f"Seat {seat + 1} is free: take it from the join page.")


def request_view(ticket: Ticket, table: Table) -> dict[str, Any]:
    names = seat_names(table)
    seat_name = names[ticket.seat] if ticket.seat is not None else None
    return {
        "id": ticket.id,
        "seat": ticket.seat,
        "seat_name": seat_name,
        "name": ticket.name,
        "status": ticket.status,
        "expires_at": aware(ticket.expires_at).isoformat(),
    }


def ask_for_seat(code: str, seat: Any, name: Any = None) -> tuple[dict[str, Any], str]:
    """A phone asks for a taken seat ("I am Ada"): one pending request per seat, answered
    by the seat's phone or the host within a few minutes. Returns the request and the
    ticket that the asking phone keeps (it claims the seat with it once approved)."""
    with changing(code) as table:
        taken = check_seat(table, seat)
        name = taken.name if name is None else clean_name(name)
        if live_tickets(table, "request", seat):
            raise TableError(
                409,
                f"Another phone already asked for {taken.name}'s seat; "
                f"wait for an answer (a request lasts {REQUEST_MINUTES} minutes).",
            )
        ticket = new_token()
        row = Ticket(
            table_id=table.id,
            kind="request",
            seat=seat,
            name=name,
            ticket_hash=hash_token(ticket),
            status="pending",
            expires_at=now() + timedelta(minutes=REQUEST_MINUTES),
        )
        db.session.add(row)
        db.session.flush()
        table.version += 1
        set_requests(table)
        answer = request_view(row, table)
    return answer, ticket


def request_status(code: str, request_id: int, presented: str | None) -> dict[str, Any]:
    """The asking phone's own request, read with its ticket."""
    table = get_table(code)
    ticket = find_ticket(table, presented)
    if ticket.id != request_id or ticket.kind != "request":
        raise TableError(401, "That ticket is not valid for this request.")
    live_tickets(table)  # marks it expired if it is
    answer = request_view(ticket, table)
    db.session.commit()
    return answer


def answer_request(code: str, token: str | None, request_id: Any, approve: bool) -> dict:
    """The seat's own phone or the host approves or refuses a request. Approving retires
    the seat's token at once (its phone is told the seat moved); the asking phone then
    claims the seat with its ticket for a fresh token."""
    with changing(code) as table:
        if token is None:
            raise TableError(401, "Send your seat or host token to answer a request.")
        who = identify(table, token)
        request = db.session.scalar(
            select(Ticket).where(
                Ticket.table_id == table.id, Ticket.id == request_id, Ticket.kind == "request"
            )
        )
        if request is None:
            raise TableError(404, "There is no such request at this table.")
        if not who.host and who.seat != request.seat:
            raise TableError(403, "Only that seat's phone or the host can answer this request.")
        live_tickets(table)
        if request.status == "expired":
            raise TableError(410, "That request has expired.")
        if request.status != "pending":
            raise TableError(410, f"That request was already answered ({request.status}).")
        taken = check_seat(table, request.seat)
        table.version += 1
        if approve:
            request.status = "approved"
            request.expires_at = now() + timedelta(minutes=REQUEST_MINUTES)
            note_change(table, taken.index, taken.name, "moved", taken.token_hash)
            taken.token_hash = hash_token(new_token())  # nobody holds it: the seat waits
        else:
            request.status = "refused"
        set_requests(table)
        answer = {"request": request_view(request, table)}
    return answer


def issue_ticket(code: str, token: str | None, seat: int | None) -> str:
    """A one-time ticket that moves a seat (``seat``) or the host role (None) to another
    phone. A seat's own phone or the host may move a seat; only the host moves the host
    role. A new ticket replaces the earlier unused one."""
    with changing(code) as table:
        if token is None:
            raise TableError(401, "Send your seat or host token (Authorization: Bearer …).")
        who = identify(table, token)
        if seat is None:
            if not who.host:
                raise TableError(403, "Only the host can move the host role.")
            kind = "host"
        else:
            check_seat(table, seat)
            if not who.host and who.seat != seat:
                raise TableError(403, "Only that seat's phone or the host can move a seat.")
            kind = "transfer"
        for old in live_tickets(table, kind, seat):
            old.status = "replaced"
        ticket = new_token()
        db.session.add(
            Ticket(
                table_id=table.id,
                kind=kind,
                seat=seat,
                ticket_hash=hash_token(ticket),
                status="pending",
                expires_at=now() + timedelta(minutes=TICKET_MINUTES),
            )
        )
    return ticket


def claim(code: str, presented: Any) -> dict[str, Any]:
    """Trade a ticket (an approved request, a seat's or the host's transfer ticket) for a
    fresh token; the old one stops working (401, "moved"). A ticket works once: a reused
    or expired one gets 410, a forged one 401."""
    with changing(code) as table:
        ticket = find_ticket(table, presented)
        live_tickets(table)
        if ticket.status in ("used", "replaced"):
            raise TableError(410, "This ticket was already used. Ask for a new one.")
        if ticket.status == "expired":
            raise TableError(410, "This ticket has expired. Ask for a new one.")
        if ticket.status == "refused":
            raise TableError(410, "This request was refused.")
        if ticket.kind == "request" and ticket.status != "approved":
            raise TableError(409, "This request is still waiting for an answer.")
        token = new_token()
        table.version += 1
        if ticket.kind == "host":
            note_change(table, None, "host", "moved", table.host_token_hash)
            table.host_token_hash = hash_token(token)
            seat = None
        else:
            taken = check_seat(table, ticket.seat)
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


# -- acting -------------------------------------------------------------------------------


def check_version(table: Table, version: Any) -> None:
    if isinstance(version, bool) or not isinstance(version, int):
        raise TableError(400, 'Send the "version" you last saw, as a whole number.')
    if version != table.version:
        raise changed_meanwhile(table.version)


def changed_meanwhile(version: int | None) -> TableError:
    """The answer to a change made on an older version than the table's (``version``,
    when known)."""
    if version is None:
        return TableError(409, "The table changed in the meantime; look again.")
    message = "The table changed in the meantime; here is the current version."
    return TableError(409, message, version=version)


def act(code: str, token: str | None, action: Any, version: Any) -> dict[str, Any]:
    """Apply one seat's action in one locked transaction; returns that seat's envelope of
    the state this action produced (not a later one another phone may already have made).
    On PostgreSQL a move on the table this process keeps is one statement instead
    (:func:`act_unlocked`)."""
    from . import cache  # it builds on this module

    code = normalise_code(code)
    answer = act_unlocked(code, token, action, version)
    if answer is not None:
        return answer
    # The table as this process kept it, when that is still its version: a move then
    # loads nothing (see ``cache.locked_kept``).
    with changing(code, cache.locked_kept(code)) as table:
        who, state = play(table, token, action, version)
        save(table, state, *state.last_action)
        answer = envelope(table, who, state)
        made = (table.code, table.version)
    # Committed (and the table kept by ``changing``): the mover's envelope and the new
    # state are known too, so the events' envelopes need no restore of the state and the
    # mover's none at all (companion.tables.cache).
    cache.remember(*made, who, answer, state)
    return answer


def play(table: Table, token: str | None, action: Any, version: Any) -> tuple[Who, State]:
    """Check a move (the token holds a seat, the version is the table's, the game has
    started, the action is an object) and apply it to the table's state: the mover and
    the new state. :class:`TableError` when refused; nothing is stored."""
    if token is None:
        raise TableError(401, "Send your seat token (Authorization: Bearer …) to play.")
    who = identify(table, token)
    if who.seat is None:
        raise TableError(403, "Only a player's seat token can play; join the table first.")
    check_version(table, version)
    if not started(table):
        missing = table.players - len(table.seats)
        raise TableError(
            422, f"The game starts when every seat is taken ({missing} still to join)."
        )
    if not isinstance(action, dict):
        raise TableError(400, 'The "action" must be an object, e.g. {"type": "play", …}.')
    state = state_of(table)
    try:
        state.apply(who.seat, action)
    except IllegalAction as error:
        raise TableError(422, error.message) from None
    return who, state


def act_unlocked(code: str, token: str | None, action: Any, version: Any) -> dict | None:
    """A move with no lock and no transaction, on PostgreSQL, when this process keeps the
    table (``cache.kept_copy``): the action is applied to that copy, then stored by one
    statement that writes only if the table is still at the copy's version (:func:`save`
    with ``unlocked``). One round trip instead of four (BEGIN, the lock, the write,
    COMMIT), and no row lock held between them. None when the move is not made this way,
    with nothing written: nothing kept, SQLite (whose writers queue on our lock anyway),
    or a transaction already open; a refusal (the copy may be older than the table: the
    locked path answers from the table as it is); a move that ends the game (the locked
    path also writes its record); or another move stored first."""
    from . import cache  # it builds on this module

    session = db.session()
    if session.get_bind().dialect.name != "postgresql" or session.in_transaction():
        return None  # (a caller's open transaction would hold the write uncommitted)
    table = cache.kept_copy(code)
    if table is None:
        return None
    try:
        who, state = play(table, token, action, version)
        if state.is_over():
            return None
        retry_if_disconnected(lambda: save(table, state, *state.last_action, unlocked=True))
    except TableError:
        return None
    answer = envelope(table, who, state)
    changed(cache.TableFacts.of(table), bots.has_bots(table))
    cache.remember(table.code, table.version, who, answer, state)
    return answer


def undo(code: str, token: str | None, version: Any = None) -> dict[str, Any]:
    """Host only: take back the last action (a whole sealed step once it was shown, as
    the game's ``undo_point`` says) by replaying the others; the envelope's ``last_undo``
    tells every phone what was taken back."""
    with changing(code) as table:
        if token is None:
            raise TableError(401, "Send the host token (Authorization: Bearer …) to undo.")
        who = identify(table, token)
        if not who.host:
            raise TableError(403, "Only the host can undo.")
        if version is not None:
            check_version(table, version)
        state = state_of(table)
        if not state.moves:
            raise TableError(422, "There is nothing to undo.")
        state.log = log_of(table)  # undo is rare: only it reads the whole log
        try:
            previous, text = game_of(table).undo(state, seat_names(table))
        except IllegalAction as error:
            raise TableError(422, error.message) from None
        save(table, previous, None, {**UNDO, "to": previous.moves, "text": text})
        table.last_undo = {"text": text, "version": table.version}
        answer = envelope(table, who, previous)
    return answer


def save(
    table: Table, state: State, seat: int | None, action: dict, unlocked: bool = False
) -> None:
    """Store ``state``'s snapshot (without its log: the new ``Action`` row extends the
    log) and the next version, as plain statements (an UPDATE of the table's row, an
    INSERT into the log; on PostgreSQL one ``WITH … UPDATE … INSERT``) sent now: the hot
    path skips the ORM's unit of work, which compared every loaded object's attributes at
    the flush. Both write only if the table is still at ``table.version``; when it is
    not, nothing is written and the 409 of :func:`changed_meanwhile` is raised. Under the
    caller's lock and transaction that cannot happen; ``unlocked`` (PostgreSQL only, see
    :func:`act_unlocked`): no lock was taken, and the one statement is its own
    transaction, committed when it returns.
    The snapshot shares its lists with the state and is serialised here, before the state
    could change again. The table object then holds the stored values as its own (nothing
    left for the flush to write), so the caller's envelope shows the new version."""
    with shared_json():
        snapshot = state.to_dict()
    version, moment = table.version + 1, utcnow()
    rows, log = Table.__table__, Action.__table__
    stored = (
        rows.update()
        .where(rows.c.id == table.id, rows.c.version == table.version)
        .values(state=snapshot, version=version, updated_at=moment)
    )
    if db.session.get_bind().dialect.name == "postgresql":
        # One statement, one round trip (PostgreSQL runs a data-modifying WITH once): the
        # log's row is inserted from the row the UPDATE returns, so from none when the
        # table has moved on.
        if unlocked:
            autocommit()
        stored = stored.returning(rows.c.id).cte("stored")
        values = [(version, log.c.version), (seat, log.c.seat), (action, log.c.action)]
        logged = log.insert().from_select(
            ["table_id", "version", "seat", "action", "created_at"],
            select(
                stored.c.id,
                *(literal(value, column.type) for value, column in values),
                literal(moment, log.c.created_at.type),
            ),
        )
        written = db.session.execute(logged.returning(log.c.id)).first() is not None
    else:
        written = db.session.execute(stored).rowcount == 1
        if written:
            db.session.execute(
                log.insert().values(
                    table_id=table.id, version=version, seat=seat, action=action, created_at=moment
                )
            )
    if not written:
        raise changed_meanwhile(None)
    if isinstance(table, Table):
        set_committed_value(table, "state", snapshot)
        set_committed_value(table, "version", version)
        set_committed_value(table, "updated_at", moment)
    else:  # a kept table (``cache.KeptTable``): a plain copy
        table.state, table.version, table.updated_at = snapshot, version, moment
    if state.is_over() or seat is None:  # only an undo can take a finished game back
        keep_record(table, state)


def keep_record(table: Table, state: State) -> None:
    """In the same transaction as the move: a finished game gets its one record; a game
    the host's undo took back from its end loses it again."""
    record = db.session.scalar(select(GameRecord).where(GameRecord.table_id == table.id))
    if not state.is_over():
        if record is not None:
            db.session.delete(record)
        return
    if record is None:
        record = GameRecord(table_id=table.id, code=table.code, game=table.game)
        db.session.add(record)
    record.names = [name or f"Seat {seat + 1}" for seat, name in enumerate(seat_names(table))]
    record.scores = list(state.scores())
    record.winners = list(state.winners())
    record.moves = state.moves


def records_of(codes_: list[str]) -> list[GameRecord]:
    """The records of the tables ``codes_`` (newest first)."""
    if not codes_:
        return []
    return list(
        db.session.scalars(
            select(GameRecord)
            .where(GameRecord.code.in_(codes_))
            .order_by(GameRecord.finished_at.desc(), GameRecord.id.desc())
        )
    )


# -- rematch ------------------------------------------------------------------------------


def rematch(code: str, token: str | None) -> dict[str, Any]:
    """After the end, the host or a seated phone starts a rematch with the same seats (or
    joins the one already started): the same game, options and names, the first dealer
    or challenger from the game's ``rematch_deal``. Each caller gets a new token for its
    own place at the new table (its old token is what proves the place), so every phone
    moves by itself when its envelope shows ``rematch``; a second call re-issues."""
    with changing(code) as table:
        if token is None:
            raise TableError(401, "Send your seat or host token to start a rematch.")
        who = identify(table, token)
        state = state_of(table)
        if not state.is_over():
            raise TableError(409, "A rematch can start once this game is over.")
        if table.rematch_code is None:
            new_table = start_rematch(table, state)
            table.rematch_code = new_table.code
            table.version += 1
        else:
            new_table = get_table(table.rematch_code)
        fresh = new_token()
        if who.host:
            new_table.host_token_hash = hash_token(fresh)
        else:
            seat = next(s for s in new_table.seats if s.index == who.seat)
            seat.token_hash = hash_token(fresh)
        new_table.version += 1
        answer = {"code": new_table.code, "token": fresh, "seat": who.seat, "host": who.host}
        new_version = new_table.version
        new_bots = bots.has_bots(new_table)
    announce(answer["code"], new_version)
    if new_bots:
        bots.wake(answer["code"], new_version)
    return answer


def start_rematch(table: Table, state: State) -> Table:
    game = game_of(table)
    deal = game.rematch_deal(state)
    fresh = game.new_state(table.players, table.options, deal=deal)
    # Nobody knows these tokens until each place is claimed with the old table's.
    new_table = new_table_row(table.game, fresh, deal, new_token())
    for s in table.seats:
        new_table.seats.append(
            Seat(
                index=s.index,
                name=s.name,
                token_hash=hash_token(new_token()),
                bot=s.bot,
                bot_seed=s.bot_seed,
            )
        )
    db.session.flush()
    return new_table


def announce(code: str, version: int, facts=None) -> None:
    """Tell every live listener of this table that it changed (after the commit): the
    message is the new version, followed by the table as it now is (``facts``, a
    ``TableFacts``) when the broker reaches other processes, which then need not read it.
    The change is already stored, so a broker that is down (Redis unreachable) must not
    turn its answer into an error: it is logged, and the phones catch up by polling."""
    message = str(version)
    if facts is not None and live.broker().crosses_processes:
        message = f"{version} {facts.to_json()}"
    try:
        live.publish(channel(code), message)
    except Exception:
        current_app.logger.exception("Could not announce version %d of table %s", version, code)


def channel(code: str) -> str:
    return f"table:{code}"


def replay_log(table: Table) -> State:
    """The state rebuilt from the settings and the stored action log (undo included),
    dealt the way the table's game was dealt (its snapshot says, ``State.dealing``)."""
    game = game_of(table)
    dealing = state_of(table).dealing
    state = game.new_state(
        table.players, table.options, seed=table.seed, deal=table.deal, dealing=dealing
    )
    for seat, action in log_of(table):
        state.apply(seat, action)
    return state


# -- what a client sees -------------------------------------------------------------------


def envelope(table: Table, who: Who, state: State | None = None) -> dict[str, Any]:
    """The one answer shape for ``view`` and ``actions`` (see docs/api.md)."""
    state = state or state_of(table)
    seat = who.seat
    is_started = started(table)
    over = state.is_over()
    legal = state.legal_actions(seat) if seat is not None and is_started else []
    body_view = state.view(seat)
    body: dict[str, Any] = {
        "version": table.version,
        "seat": seat,
        "to_act": state.to_act() if is_started else [],
        "legal": legal,
        "over": over,
        "view": body_view,
        "game": table.game,
        "code": table.code,
        "players": seat_names(table),
        "started": is_started,
        "host": who.host,
        "can_undo": who.host and state.moves > 0,
        "labels": [state.describe(action) for action in legal],
        "blocked": blocked_cards(table.game, state, seat) if is_started else {},
        "scores": body_view["scores"] if over else None,
        "last_undo": table.last_undo,
        "rematch": table.rematch_code,
    }
    body.update(seat_news(table, who, state, is_started))
    return body


def seat_news(table: Table, who: Who, state: State, is_started: bool) -> dict[str, Any]:
    """What every phone is told about the seats, from the table row alone: the latest
    change of each seat (moved to another phone, freed, taken again; ``seat`` None for the
    host role), the free seats with their last names (``missing``), whether the game had
    begun (the board stays while a seat is free), and the pending requests for a seat
    (only to the host and to that seat)."""
    news = news_of(table)
    taken = {s.index for s in table.seats}
    missing = [
        {"seat": seat, "name": news["missing"].get(str(seat))}
        for seat in range(table.players)
        if seat not in taken
    ]
    begun = is_started or state.moves > 0 or any(m["name"] for m in missing)
    names = seat_names(table)
    moment = now().isoformat()
    requests = [
        {**r, "seat_name": names[r["seat"]], "status": "pending"}
        for r in news["requests"]
        if r["expires_at"] > moment and (who.host or r["seat"] == who.seat)
    ]
    if not who.host and who.seat is None:
        requests = []
    return {
        "seat_changes": news["changes"],
        "missing": missing,
        "begun": begun,
        "requests": requests,
        "bots": bots.levels_of(table),
    }


def blocked_cards(slug: str, state: State, seat: int | None) -> dict[str, dict[str, str]]:
    """The viewing seat's own cards it may not play now: the engine's reason and a link
    to the rule (``/rules/<slug>#anchor``); nothing for the table or another seat."""
    answer = {}
    for card, why in state.blocked(seat).items():
        anchor = why.get("anchor") or None
        url = rule_url(slug, anchor) if has_rules(slug) else ""
        answer[card] = {"reason": why["reason"], "anchor": anchor or "", "url": url}
    return answer


# -- the address phones use ---------------------------------------------------------------


def join_url(code: str, host_url: str) -> str:
    """Where a phone joins: ``PUBLIC_URL``, else this request's address, with a loopback
    host replaced by this machine's LAN address (phones cannot reach ``localhost``)."""
    return base_url(host_url) + f"/t/{code}/seat"


from . import bots  # noqa: E402  (after this module's names: bots imports them)
