"""Open connections per client address, bounded in the servers themselves.

A connection costs a server a thread (``flask run``) or a greenlet (gunicorn's gevent
workers) from the moment it is accepted, long before a request (if any) reaches the app,
so the app's own limits (:mod:`companion.limits`, :mod:`companion.streams`) cannot see a
client that opens thousands of idle or half-sent connections. Here each server counts the
connections it holds per client address and answers one past ``CONNECTIONS_PER_ADDRESS``
at once with a plain ``429 Too Many Requests`` (``Retry-After``) and closes it, rather than
let it queue in silence:

* ``flask run`` (Werkzeug's threaded development server): :func:`bound_development_server`,
  called by ``create_app``, wraps its per-connection thread; it also gives each
  connection a read timeout (``CONNECTION_TIMEOUT``), so a half-sent request or an idle
  keep-alive connection lets its thread go;
* gunicorn's gevent workers: ``gunicorn.conf.py`` uses :class:`PerAddress` in its
  worker class; each worker process counts its own connections.

A phone holds about two connections (its live stream and one for its moves), and a venue's
phones share its one public address: the default (500) is a full room's many times over.
Behind a reverse proxy every connection comes from the proxy's address, so with
``PROXY_HOPS`` set the bound is off by default (bound connections at the proxy instead).

This module imports only the standard library: gunicorn's configuration loads it by path,
before the worker has patched the standard library for gevent.
"""

from __future__ import annotations

import socket
import threading
from collections import Counter
from collections.abc import Mapping

PER_ADDRESS = 500
TIMEOUT = 60  # seconds a development-server connection may sit without sending anything
RETRY_AFTER = 5
MESSAGE = b"Too many connections from this address at once; try again in a moment.\n"
REFUSAL = (
    b"HTTP/1.1 429 Too Many Requests\r\n"
    b"Retry-After: %d\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\n"
    b"Cache-Control: no-store\r\n"
    b"Connection: close\r\n"
    b"Content-Length: %d\r\n\r\n%s"
) % (RETRY_AFTER, len(MESSAGE), MESSAGE)


def per_address(environ: Mapping[str, str]) -> int:
    """``CONNECTIONS_PER_ADDRESS`` (0: no bound); off by default behind a proxy."""
    value = environ.get("CONNECTIONS_PER_ADDRESS")
    if value not in (None, ""):
        return int(value)
    return 0 if int(environ.get("PROXY_HOPS") or 0) else PER_ADDRESS


class PerAddress:
    """Open connections counted per client address (thread- and greenlet-safe)."""

    def __init__(self, limit: int):
        self.limit = limit
        self._lock = threading.Lock()
        self.open: Counter[str] = Counter()
        self.refused = 0

    def enter(self, address: str) -> bool:
        """Count one more connection of ``address``; False (nothing counted) past the
        limit."""
        with self._lock:
            if self.limit and self.open[address] >= self.limit:
                self.refused += 1
                return False
            self.open[address] += 1
            return True

    def leave(self, address: str) -> None:
        with self._lock:
            self.open[address] -= 1
            if self.open[address] <= 0:
                del self.open[address]


def refuse(sock: socket.socket, wait: float = 1.0) -> None:
    """Answer 429 on a connection just accepted and close it. What the client already
    sent is read before closing (for up to ``wait`` seconds; 0: only what has arrived), so
    its system does not reset the connection before the client reads the answer."""
    try:
        sock.settimeout(wait or None)
        if not wait:
            sock.setblocking(False)
        sock.sendall(REFUSAL)
        sock.shutdown(socket.SHUT_WR)
        while sock.recv(65536):
            pass
    except OSError:
        pass
    finally:
        sock.close()


def address_of(client_address) -> str:
    return client_address[0] if isinstance(client_address, tuple) else str(client_address)


def bound_development_server(limit: int, timeout: float = TIMEOUT) -> None:
    """Bound Werkzeug's threaded server (``flask run``) to ``limit`` connections per client
    address, and give its connections a read ``timeout``. ``flask run`` builds the app
    before the server accepts anything, so the bound set here is the one it serves with;
    other servers (gunicorn) never use these classes. Set again, it takes the new bound."""
    from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

    if WSGIRequestHandler.timeout is None and timeout:
        WSGIRequestHandler.timeout = timeout
    counted = getattr(ThreadedWSGIServer, "companion_connections", None)
    if counted is not None:
        counted.limit = limit
        return
    counted = PerAddress(limit)
    accept, threaded = ThreadedWSGIServer.process_request, ThreadedWSGIServer.process_request_thread

    def process_request(self, request, client_address):
        """On the accepting thread: count, or refuse at once (no thread is started)."""
        address = address_of(client_address)
        if not counted.enter(address):
            refuse(request, wait=0)
            return
        try:
            accept(self, request, client_address)
        except BaseException:
            counted.leave(address)
            raise

    def process_request_thread(self, request, client_address):
        try:
            threaded(self, request, client_address)
        finally:
            counted.leave(address_of(client_address))

    ThreadedWSGIServer.companion_connections = counted
    ThreadedWSGIServer.process_request = process_request
    ThreadedWSGIServer.process_request_thread = process_request_thread
