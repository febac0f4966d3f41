"""The JSON API of engine mode (documented in ``docs/api.md``): each view reads the
request, calls one use case and answers JSON.

Clients authenticate with bearer tokens, never cookies, so the API needs no CSRF token;
POST bodies must be ``application/json``, which a cross-site HTML form cannot send.
"""

from __future__ import annotations

import base64
from typing import Any

from flask import Response, current_app, jsonify, request, session, url_for

from .. import jsontext
from ..extensions import csrf
from ..network import base_url, qr_svg
from . import guard, lifecycle, log, moves, reads, seats, store, stream, tickets
from .blueprint import bp
from .envelope import join_url
from .errors import TableError
from .holders import bearer_token

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


def reply(body: Any, status: int = 200) -> tuple[Response, int]:
    """A JSON answer that no cache keeps (it may carry a token or a hand)."""
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"
    return response, status


def envelope_reply(body: dict[str, Any]) -> tuple[Response, int]:
    """:func:`reply` for an envelope (a view, a move's answer), encoded by orjson as the
    stream events are (``jsontext``; an envelope holds only JSON's own types): the move's
    hot path, where the standard library's encoder cost more than the rest of the answer."""
    response = current_app.response_class(jsontext.dumps(body), mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response, 200


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


def optional_body() -> dict[str, Any]:
    return json_body() if request.content_length else {}


RECENT_TABLES = 30


def remember_table(code: str) -> None:
    """Keep ``code`` in this browser's signed session: the Play page lists the records of
    the tables this browser hosted or sat at, and only those."""
    code = store.normalise_code(code)
    kept = [c for c in session.get("tables", []) if c != code]
    session["tables"] = [code, *kept][:RECENT_TABLES]


@bp.post("/api/tables")
@csrf.exempt
def api_create():
    data = json_body("game", "players")
    game, players, options = data["game"], data["players"], data.get("options")
    table, token = lifecycle.create_table(
        game, players, options, deal=data.get("deal"), bot_seats=data.get("bots")
    )
    remember_table(table.code)
    body = {
        "code": table.code,
        "join_url": join_url(table.code, request.host_url),
        "host_url": base_url(request.host_url) + f"/t/{table.code}",
        "host_token": token,
        "version": table.version,
    }
    return reply(body, 201)


@bp.post("/api/tables/<code>/seats")
@csrf.exempt
def api_join(code: str):
    data = json_body("name")
    seat, token, version = seats.join(code, data["name"], data.get("seat"))
    remember_table(code)
    return reply({"seat": seat, "token": token, "version": version}, 201)


@bp.get("/api/tables/<code>/view")
def api_view(code: str):
    # ``?private=<version>``: the caller has that version's public envelope (its stream
    # event), so only what its own view adds is sent (the whole view for another version).
    return envelope_reply(reads.look(code, bearer_token(), request.args.get("private")))


@bp.post("/api/tables/<code>/actions")
@csrf.exempt
def api_act(code: str):
    token = bearer_token()
    data = json_body("action", "version")
    return envelope_reply(moves.act(code, token, data["action"], data["version"]))


@bp.post("/api/tables/<code>/undo")
@csrf.exempt
def api_undo(code: str):
    token = bearer_token()
    return reply(moves.undo(code, token, optional_body().get("version")))


@bp.post("/api/tables/<code>/rematch")
@csrf.exempt
def api_rematch(code: str):
    """After the end: the caller's place at the rematch (started by the first call)."""
    body = lifecycle.rematch(code, bearer_token())
    remember_table(body["code"])
    page = "tables.host" if body["host"] else "tables.seat"
    body["url"] = url_for(page, code=body["code"])
    return reply(body)


@bp.post("/api/tables/<code>/seats/<int:seat>/release")
@csrf.exempt
def api_release(code: str, seat: int):
    return reply(seats.release(code, bearer_token(), seat))


@bp.post("/api/tables/<code>/seats/<int:seat>/bot")
@csrf.exempt
def api_bot(code: str, seat: int):
    """Host only: a bot in a free seat (or another level for a bot); the host's envelope.
    A bot leaves its seat when a person sits down in it, or by ``release``."""
    data = json_body("level")
    return reply(seats.add_bot(code, bearer_token(), seat, data["level"]))


@bp.post("/api/tables/<code>/stream-ticket")
@csrf.exempt
def api_stream_ticket(code: str):
    """A short-lived ticket that opens this table's event stream (``?ticket=``): the seat's
    or the host's with its Bearer token (its stream then carries that viewer's own view
    too), a spectator's without one."""
    ticket, table_code, seconds = stream.stream_ticket(code, bearer_token())
    url = url_for("tables.api_events", code=table_code, ticket=ticket)
    return reply({"ticket": ticket, "events_url": url, "expires_in": seconds})


@bp.get("/api/tables/<code>/events")
def api_events(code: str):
    """Server-sent events: a ``version`` event now and on every change, whose data is the
    table's public envelope (no hand) and, on a seat's or the host's stream, that viewer's
    own part of it under ``"mine"``; a ``ping`` event as a keep-alive. The stream ends
    after ``TABLES_SSE_SECONDS`` (the browser reconnects), when its seat or host role
    passes to another token, or, for tests, after ``TABLES_SSE_MAX_EVENTS`` events."""
    code = store.normalise_code(code)
    ticket = request.args.get("ticket")
    holder = stream.credential(code, ticket, None if ticket is not None else bearer_token())
    return stream.open_stream(code, holder)


def ticket_answer(url: str, seat: int | None) -> tuple[Response, int]:
    svg = base64.b64encode(qr_svg(url)).decode()
    return reply({"seat": seat, "url": url, "qr": f"data:image/svg+xml;base64,{svg}"})


@bp.post("/api/tables/<code>/rejoin")
@csrf.exempt
def api_rejoin(code: str):
    """A seat's own rejoin link and QR code, for moving the seat to another phone: it
    carries a one-time transfer ticket (in the fragment), never the seat token."""
    seat, ticket, table_code = tickets.own_ticket(code, bearer_token())
    return ticket_answer(join_url(table_code, request.host_url) + f"#ticket={ticket}", seat)


@bp.post("/api/tables/<code>/seats/<int:seat>/transfer")
@csrf.exempt
def api_seat_transfer(code: str, seat: int):
    """A rejoin link and QR code for one seat, asked by the host (or that seat)."""
    ticket, table_code = tickets.issue_ticket(code, bearer_token(), seat)
    return ticket_answer(join_url(table_code, request.host_url) + f"#ticket={ticket}", seat)


@bp.post("/api/tables/<code>/host/transfer")
@csrf.exempt
def api_host_transfer(code: str):
    """A link and QR code that move the host role to another device (host only)."""
    ticket, table_code = tickets.issue_ticket(code, bearer_token(), None)
    return ticket_answer(base_url(request.host_url) + f"/t/{table_code}#ticket={ticket}", None)


@bp.post("/api/tables/<code>/claim")
@csrf.exempt
def api_claim(code: str):
    """Trade a one-time ticket for a fresh seat or host token."""
    return reply(tickets.claim(code, json_body("ticket")["ticket"]))


@bp.post("/api/tables/<code>/seats/<int:seat>/requests")
@csrf.exempt
def api_ask(code: str, seat: int):
    """Ask for a taken seat from a new phone; the seat's phone or the host answers."""
    request_body, ticket = tickets.ask_for_seat(code, seat, json_body().get("name"))
    return reply({"request": request_body, "ticket": ticket}, 201)


@bp.get("/api/tables/<code>/requests/<int:request_id>")
def api_request(code: str, request_id: int):
    """The asking phone's request (its ticket as the bearer token)."""
    return reply({"request": tickets.request_status(code, request_id, bearer_token())})


@bp.post("/api/tables/<code>/requests/<int:request_id>/<any(approve, refuse):answer>")
@csrf.exempt
def api_answer(code: str, request_id: int, answer: str):
    token = bearer_token()
    return reply(tickets.answer_request(code, token, request_id, answer == "approve"))


@bp.get("/api/tables/<code>/log")
def api_log(code: str):
    """The public game log: the same for everybody, no token needed."""
    return reply(log.public_log(code))


@bp.get("/api/tables/<code>/replay")
def api_replay(code: str):
    """A finished game's public view after ``?step=n`` moves."""
    return reply(log.replay_view(code, request.args.get("step", type=int)))
