"""The JSON API of engine mode (documented in ``docs/api.md``).

Clients authenticate with bearer tokens, never cookies, so the API needs no CSRF token;
POST bodies must be ``application/json``, which a cross-site HTML form cannot send.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from typing import Any

from flask import Response, current_app, jsonify, request, session, url_for

from .. import live, streams
from ..extensions import csrf, db
from ..network import base_url, qr_svg
from . import bots, bp, cache, guard, service
from .service import TableError, Who

# Every POST body is checked (JSON object, depth, declared fields and types) before a route.
bp.before_request(guard.check_body)


def error_response(error: TableError):
    body = {"error": error.message, "status": error.status, **error.extra}
    response = jsonify(body)
    response.status_code = error.status
    if error.status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="table"'
    return response


@bp.errorhandler(TableError)
def handle_table_error(error: TableError):
    return error_response(error)


def no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response


def json_body(*required: str) -> dict[str, Any]:
    """The request's JSON object, or a 400 that says what is wrong with it."""
    if not request.is_json:
        raise TableError(400, "Send a JSON body with Content-Type: application/json.")
    data = request.get_json(silent=True)
    if data is None:
        raise TableError(400, "The body is not valid JSON.")
    if not isinstance(data, dict):
        raise TableError(400, "The body must be a JSON object.")
    missing = [name for name in required if name not in data]
    if missing:
        raise TableError(400, f"Missing field: {', '.join(missing)}.")
    return data


def bearer_token() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > 200:
        raise TableError(401, "The Authorization header must be 'Bearer <token>'.")
    return token


@bp.post("/api/tables")
@csrf.exempt
def api_create():
    data = json_body("game", "players")
    options = data.get("options")
    if options is not None and not isinstance(options, dict):
        raise TableError(400, '"options" must be an object.')
    players = data["players"]
    if isinstance(players, bool) or not isinstance(players, int):
        raise TableError(400, '"players" must be a whole number.')
    deal = data.get("deal")
    if deal is not None and not isinstance(deal, dict):
        raise TableError(400, '"deal" must be an object.')
    table, token = service.create_table(
        data["game"], players, options, deal=deal, bot_seats=data.get("bots")
    )
    remember_table(table.code)
    body = {
        "code": table.code,
        "join_url": service.join_url(table.code, request.host_url),
        "host_url": base_url(request.host_url) + f"/t/{table.code}",
        "host_token": token,
        "version": table.version,
    }
    return no_store(jsonify(body)), 201


@bp.post("/api/tables/<code>/seats")
@csrf.exempt
def api_join(code: str):
    data = json_body("name")
    seat, token, version = service.join(code, data["name"], data.get("seat"))
    remember_table(code)
    body = {"seat": seat, "token": token, "version": version}
    return no_store(jsonify(body)), 201


@bp.get("/api/tables/<code>/view")
def api_view(code: str):
    token = bearer_token()
    table = cache.current_table(code)
    who = service.identify(table, token)
    mine = cache.envelope(table, who)
    if bots.bot_to_act(mine) and bots.turn_of(table, cache.state(table)):
        bots.wake(table.code, table.version)  # a job lost with a stopped process: again
    # ``?private=<version>``: the caller has that version's public envelope (its stream
    # event), so only what its own view adds is sent (the whole view for another version).
    if request.args.get("private") == str(table.version) and (who.host or who.seat is not None):
        part = cache.private_part(cache.envelope(table, Who()), mine)
        if part is not None:
            return no_store(jsonify(part))
    return no_store(jsonify(mine))


@bp.post("/api/tables/<code>/actions")
@csrf.exempt
def api_act(code: str):
    token = bearer_token()
    data = json_body("action", "version")
    return no_store(jsonify(service.act(code, token, data["action"], data["version"])))


@bp.post("/api/tables/<code>/undo")
@csrf.exempt
def api_undo(code: str):
    token = bearer_token()
    data = json_body() if request.content_length else {}
    return no_store(jsonify(service.undo(code, token, data.get("version"))))


@bp.post("/api/tables/<code>/rematch")
@csrf.exempt
def api_rematch(code: str):
    """After the end: the caller's place at the rematch (started by the first call)."""
    token = bearer_token()
    body = service.rematch(code, token)
    remember_table(body["code"])
    page = "tables.host" if body["host"] else "tables.seat"
    body["url"] = url_for(page, code=body["code"])
    return no_store(jsonify(body))


RECENT_TABLES = 30


def remember_table(code: str) -> None:
    """Keep ``code`` in this browser's signed session: the Play page lists the records of
    the tables this browser hosted or sat at, and only those."""
    code = service.normalise_code(code)
    kept = [c for c in session.get("tables", []) if c != code]
    session["tables"] = [code, *kept][:RECENT_TABLES]


@bp.post("/api/tables/<code>/seats/<int:seat>/release")
@csrf.exempt
def api_release(code: str, seat: int):
    token = bearer_token()
    return no_store(jsonify(service.release(code, token, seat)))


@bp.post("/api/tables/<code>/stream-ticket")
@csrf.exempt
def api_stream_ticket(code: str):
    """A short-lived ticket that opens this table's event stream (``?ticket=``): the seat's
    or the host's with its Bearer token (its stream then carries that viewer's own view
    too), a spectator's without one."""
    token = bearer_token()
    table = cache.current_table(code)
    who = service.identify(table, token)
    role = "host" if who.host else "seat" if who.seat is not None else "watch"
    holder = None if role == "watch" else service.holder_mark(service.hash_token(token))
    ticket = streams.issue("table", table.code, role, who.seat, holder)
    url = url_for("tables.api_events", code=table.code, ticket=ticket)
    seconds = streams.ticket_seconds()
    return no_store(jsonify({"ticket": ticket, "events_url": url, "expires_in": seconds}))


@dataclass(frozen=True)
class StreamHolder:
    """The host or a seat (``who``) whose stream carries its own view, and the mark of the
    token it opened the stream with (``service.holder_mark``)."""

    who: Who
    mark: str

    def holds(self, table: cache.TableFacts) -> bool:
        """Whether that token still holds the role or the seat at ``table``'s version."""
        if self.who.host:
            stored = table.host_token_hash
        else:
            stored = next((s.token_hash for s in table.seats if s.index == self.who.seat), "")
        return bool(stored) and service.same_hash(service.holder_mark(stored), self.mark)


def stream_credential(code: str) -> StreamHolder | None:
    """A stream needs a ticket (``?ticket=``) or a seat's or the host's Bearer token;
    without one it is refused at once (401), before any query or subscription. Returns
    whose own view the stream may carry: None for a spectator (or a ticket without a
    holder's mark), whose stream carries only what every phone may see."""
    ticket = request.args.get("ticket")
    if ticket is not None or request.headers.get("Authorization") is None:
        claims = streams.check("table", code, ticket)
        mark, role, seat = claims.get("h"), claims.get("r"), claims.get("s")
        if not isinstance(mark, str):
            return None
        if role == "host":
            return StreamHolder(Who(host=True), mark)
        if role == "seat" and isinstance(seat, int):
            return StreamHolder(Who(seat=seat), mark)
        return None
    token = bearer_token()
    who = service.identify(cache.current_table(code), token)
    if not who.host and who.seat is None:  # pragma: no cover - identify refuses first
        raise TableError(401, "Send a seat or host token, or a stream ticket.")
    return StreamHolder(who, service.holder_mark(service.hash_token(token)))


def public_event(
    code: str, version: int | None = None, facts: str | None = None
) -> tuple[cache.TableFacts, str]:
    """The event's data: the spectator's envelope (what every phone may see) of the
    table at ``version`` (its current version when None) as JSON text, with the table it
    was built from, built and encoded once per version in this process however many of its
    streams follow the table. The table is this process's kept copy of ``version``, else
    the copy the announcement carried (``facts``, JSON), else read from the database."""

    def build() -> tuple[cache.TableFacts, str]:
        table = None if version is None else cache.kept(code, version)
        if table is None and facts:
            table = cache.TableFacts.from_json(facts)
            cache.keep(table)
        table = table or cache.current_table(code)
        env = cache.envelope(table, Who())
        found = (table, json.dumps(env, separators=(",", ":")))
        cache.envelopes().put((code, table.version, "event"), found)
        if version is not None and version != table.version:
            cache.envelopes().put((code, version, "event"), found)
        return found

    if version is None:
        return build()
    # One read and encoding per version in this process: its other streams of the table,
    # woken by the same event, wait for it instead of each reading the table again.
    return live.once(
        ("event", code, version), lambda: cache.envelopes().peek((code, version, "event")), build
    )


@bp.post("/api/tables/<code>/seats/<int:seat>/bot")
@csrf.exempt
def api_bot(code: str, seat: int):
    """Host only: a bot in a free seat (or another level for a bot); the host's envelope.
    A bot leaves its seat when a person sits down in it, or by ``release``."""
    data = json_body("level")
    return no_store(jsonify(bots.put_bot(code, bearer_token(), seat, data["level"])))


def own_event(table: cache.TableFacts, public_body: str, holder: StreamHolder) -> str:
    """A holder's event: ``public_body`` (the public envelope's JSON of ``table``) with,
    under ``"mine"``, what the holder's own view adds to it (as ``?private=`` answers), so
    its phone needs no refetch. :data:`live.END` when the token no longer holds the seat
    or the role (the stream closes; the phone's next ticket or view is refused and says
    why)."""
    if not holder.holds(table):
        return live.END
    mine = cache.envelope(table, holder.who, keep=False)
    part = cache.private_part(cache.envelope(table, Who()), mine)
    if part is None:
        return public_body
    return f'{public_body[:-1]},"mine":{json.dumps(part, separators=(",", ":"))}}}'


@bp.get("/api/tables/<code>/events")
def api_events(code: str):
    """Server-sent events: a ``version`` event now and on every change, whose data is the
    table's public envelope (no hand) and, on a seat's or the host's stream, that viewer's
    own part of it under ``"mine"``; a ``ping`` event as a keep-alive. The stream ends
    after ``TABLES_SSE_SECONDS`` (the browser reconnects), when its seat or host role
    passes to another token, or, for tests, after ``TABLES_SSE_MAX_EVENTS`` events."""
    code = service.normalise_code(code)
    holder = stream_credential(code)
    release = streams.admit(f"table:{code}")
    app = current_app._get_current_object()
    try:
        # Subscribe before reading the table, so that a change committed in between is
        # either in the envelope read here or announced to this subscription.
        subscription = live.subscribe(service.channel(code))
    except BaseException:
        release()
        raise
    try:
        table, first = public_event(code)
        if holder is not None:
            first = own_event(table, first, holder)
            if first is live.END:
                raise TableError(401, "That seat has passed to another phone; take it again.")
    except BaseException:
        subscription.close()
        release()
        raise
    db.session.remove()  # do not hold a pooled connection for the life of the stream
    sent = {"version": table.version}

    def data(message: str) -> str | None:
        # The version, then (from another process) the table as it now is.
        head, _, facts = message.partition(" ")
        try:
            announced = int(head)
        except ValueError:
            return None
        if announced <= sent["version"]:
            return None  # already sent (a later version was read meanwhile)
        with app.app_context():
            table, body = public_event(code, announced, facts)
            if table.version <= sent["version"]:
                return None
            sent["version"] = table.version
            return body if holder is None else own_event(table, body, holder)

    return live.event_stream(subscription, "version", first, data=data, on_close=release)


def ticket_answer(url: str, seat: int | None) -> Response:
    svg = base64.b64encode(qr_svg(url)).decode()
    body = {"seat": seat, "url": url, "qr": f"data:image/svg+xml;base64,{svg}"}
    return no_store(jsonify(body))


def seat_ticket_answer(code: str, token: str | None, seat: int) -> Response:
    ticket = service.issue_ticket(code, token, seat)
    table = service.get_table(code)
    return ticket_answer(service.join_url(table.code, request.host_url) + f"#ticket={ticket}", seat)


@bp.post("/api/tables/<code>/rejoin")
@csrf.exempt
def api_rejoin(code: str):
    """A seat's own rejoin link and QR code, for moving the seat to another phone: it
    carries a one-time transfer ticket (in the fragment), never the seat token."""
    token = bearer_token()
    table = service.get_table(code)
    who = service.identify(table, token)
    if who.seat is None:
        raise TableError(403, "Only a seated player has a rejoin link.")
    return seat_ticket_answer(code, token, who.seat)


@bp.post("/api/tables/<code>/seats/<int:seat>/transfer")
@csrf.exempt
def api_seat_transfer(code: str, seat: int):
    """A rejoin link and QR code for one seat, asked by the host (or that seat)."""
    return seat_ticket_answer(code, bearer_token(), seat)


@bp.post("/api/tables/<code>/host/transfer")
@csrf.exempt
def api_host_transfer(code: str):
    """A link and QR code that move the host role to another device (host only)."""
    ticket = service.issue_ticket(code, bearer_token(), None)
    table = service.get_table(code)
    url = base_url(request.host_url) + f"/t/{table.code}#ticket={ticket}"
    return ticket_answer(url, None)


@bp.post("/api/tables/<code>/claim")
@csrf.exempt
def api_claim(code: str):
    """Trade a one-time ticket for a fresh seat or host token."""
    data = json_body("ticket")
    return no_store(jsonify(service.claim(code, data["ticket"])))


@bp.post("/api/tables/<code>/seats/<int:seat>/requests")
@csrf.exempt
def api_ask(code: str, seat: int):
    """Ask for a taken seat from a new phone; the seat's phone or the host answers."""
    data = json_body()
    request_body, ticket = service.ask_for_seat(code, seat, data.get("name"))
    return no_store(jsonify({"request": request_body, "ticket": ticket})), 201


@bp.get("/api/tables/<code>/requests/<int:request_id>")
def api_request(code: str, request_id: int):
    """The asking phone's request (its ticket as the bearer token)."""
    body = service.request_status(code, request_id, bearer_token())
    return no_store(jsonify({"request": body}))


@bp.post("/api/tables/<code>/requests/<int:request_id>/<any(approve, refuse):answer>")
@csrf.exempt
def api_answer(code: str, request_id: int, answer: str):
    token = bearer_token()
    return no_store(jsonify(service.answer_request(code, token, request_id, answer == "approve")))
