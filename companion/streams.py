"""Who may hold a live stream, and how many.

**Stream tickets.** A browser's ``EventSource`` cannot send an ``Authorization`` header, so
the API trades a credential for a short-lived signed ticket (itsdangerous, keyed by
``SECRET_KEY``) that the page puts in the stream's address. A ticket names what it opens
(a table code, or a score sheet's watch code), in which role (``host``, ``seat`` with its
number, or ``watch`` for a spectator) and is good for ``STREAM_TICKET_SECONDS`` (60) to
*open* a stream; an open stream then lives its normal life. Checking one needs neither the
database nor Redis, so a stream without a good ticket is refused (401) before it costs a
query or a subscription. A ticket is useless for anything but opening a stream, which
carries only what every phone of that table may see.

**Limits.** Each process counts its open streams per client address
(``STREAMS_PER_ADDRESS``) and per table or sheet (``STREAMS_PER_TABLE``); past either a
new stream is answered 429 with the JSON error. The counts are this process's own (with
several workers, each one applies the limits to the streams it holds).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

from flask import current_app, jsonify, request
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

TICKET_SECONDS = 60
PER_ADDRESS = 200
PER_TABLE = 40


class StreamRefused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


# -- tickets --------------------------------------------------------------------------------


def _serializer(kind: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=f"stream-ticket:{kind}")


def issue(kind: str, target: str, role: str, seat: int | None = None) -> str:
    """A ticket that opens ``kind``'s (``table`` or ``sheet``) stream of ``target``."""
    return _serializer(kind).dumps({"t": target, "r": role, "s": seat})


def ticket_seconds() -> int:
    return int(current_app.config.get("STREAM_TICKET_SECONDS", TICKET_SECONDS))


def check(kind: str, target: str, ticket: str | None) -> dict[str, Any]:
    """The ticket's claims when it is good for ``target``; :class:`StreamRefused` 401
    otherwise (missing, forged, expired, for another table or another kind)."""
    if not ticket:
        raise StreamRefused(
            401, "A live stream needs a ticket (?ticket=…): ask the API for one first."
        )
    if len(ticket) > 400:
        raise StreamRefused(401, "That stream ticket is not valid.")
    try:
        claims = _serializer(kind).loads(ticket, max_age=ticket_seconds())
    except SignatureExpired:
        raise StreamRefused(401, "That stream ticket has expired; ask for a new one.") from None
    except BadSignature:
        raise StreamRefused(401, "That stream ticket is not valid.") from None
    if not isinstance(claims, dict) or claims.get("t") != target:
        raise StreamRefused(401, "That stream ticket is for another table.")
    return claims


# -- limits ---------------------------------------------------------------------------------


class Limits:
    """Open streams of this process, counted per client address and per table."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.by_address: Counter[str] = Counter()
        self.by_table: Counter[str] = Counter()

    def acquire(self, address: str, table: str, per_address: int, per_table: int) -> None:
        with self._lock:
            if self.by_address[address] >= per_address:
                raise StreamRefused(
                    429,
                    f"Too many live streams from this address (at most {per_address}); "
                    "close some pages or try again later.",
                )
            if self.by_table[table] >= per_table:
                raise StreamRefused(
                    429,
                    f"Too many live streams on this table (at most {per_table}); "
                    "this page updates by polling instead.",
                )
            self.by_address[address] += 1
            self.by_table[table] += 1

    def release(self, address: str, table: str) -> None:
        with self._lock:
            for counter, key in ((self.by_address, address), (self.by_table, table)):
                counter[key] -= 1
                if counter[key] <= 0:
                    del counter[key]

    def open_streams(self) -> int:
        with self._lock:
            return sum(self.by_address.values())


def init_app(app) -> None:
    app.extensions["stream_limits"] = Limits()

    @app.errorhandler(StreamRefused)
    def refused(error: StreamRefused):
        response = jsonify({"error": error.message, "status": error.status})
        response.status_code = error.status
        response.headers["Cache-Control"] = "no-store"
        if error.status == 401:
            response.headers["WWW-Authenticate"] = 'Bearer realm="stream"'
        return response


def limits() -> Limits:
    return current_app.extensions["stream_limits"]


def admit(table_key: str) -> Callable[[], None]:
    """Count one more stream for this request's client address and ``table_key``
    (:class:`StreamRefused` 429 past a limit); returns the function that gives it back."""
    config = current_app.config
    address = request.remote_addr or "?"
    counts = limits()
    counts.acquire(
        address,
        table_key,
        int(config.get("STREAMS_PER_ADDRESS", PER_ADDRESS)),
        int(config.get("STREAMS_PER_TABLE", PER_TABLE)),
    )
    released = []

    def release() -> None:
        if not released:
            released.append(True)
            counts.release(address, table_key)

    return release
