"""The JSON API of engine mode (documented in ``docs/api.md``).

Clients authenticate with bearer tokens, never cookies, so the API needs no CSRF token;
POST bodies must be ``application/json``, which a cross-site HTML form cannot send.
"""

from __future__ import annotations

import base64
import time
from typing import Any

from flask import Response, current_app, jsonify, request

from .. import live
from ..extensions import csrf, db
from ..network import base_url, qr_svg
from . import bp, service
from .service import TableError


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
    table, token = service.create_table(data["game"], players, options, deal=deal)
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
    body = {"seat": seat, "token": token, "version": version}
    return no_store(jsonify(body)), 201


@bp.get("/api/tables/<code>/view")
def api_view(code: str):
    token = bearer_token()
    table = service.get_table(code)
    who = service.identify(table, token)
    return no_store(jsonify(service.envelope(table, who)))


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


@bp.post("/api/tables/<code>/seats/<int:seat>/release")
@csrf.exempt
def api_release(code: str, seat: int):
    token = bearer_token()
    return no_store(jsonify(service.release(code, token, seat)))


@bp.get("/api/tables/<code>/events")
def api_events(code: str):
    """Server-sent events: a ``version`` event now and on every change, a comment as a
    keep-alive. The stream ends after ``TABLES_SSE_SECONDS`` (the browser reconnects) or,
    for tests, after ``TABLES_SSE_MAX_EVENTS`` events."""
    config = current_app.config
    keepalive = float(config.get("TABLES_SSE_KEEPALIVE", 15))
    lifetime = float(config.get("TABLES_SSE_SECONDS", 300))
    max_events = config.get("TABLES_SSE_MAX_EVENTS")
    # Subscribe before reading the table, so that a change committed in between is either
    # in the version read here or announced to this subscription.
    subscription = live.subscribe(service.channel(service.normalise_code(code)))
    try:
        version = service.get_table(code).version
    except BaseException:
        subscription.close()
        raise
    db.session.remove()  # do not hold a pooled connection for the life of the stream

    def stream():
        sent = 0
        deadline = time.monotonic() + lifetime
        try:
            yield "retry: 2000\n\n"
            yield f"event: version\ndata: {version}\n\n"
            sent += 1
            while max_events is None or sent < max_events:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                message = subscription.get(timeout=min(keepalive, left))
                if message is None:
                    yield ": keep-alive\n\n"
                    continue
                yield f"event: version\ndata: {message}\n\n"
                sent += 1
        finally:
            subscription.close()

    response = Response(stream(), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@bp.get("/api/tables/<code>/rejoin")
def api_rejoin(code: str):
    """A seat's own rejoin link (token in the fragment) and its QR code, for moving the
    seat to another phone. Needs that seat's token."""
    token = bearer_token()
    table = service.get_table(code)
    who = service.identify(table, token)
    if who.seat is None:
        raise TableError(403, "Only a seated player has a rejoin link.")
    url = service.join_url(table.code, request.host_url) + f"#token={token}"
    svg = base64.b64encode(qr_svg(url)).decode()
    body = {"seat": who.seat, "url": url, "qr": f"data:image/svg+xml;base64,{svg}"}
    return no_store(jsonify(body))
