"""gunicorn settings for the scaled set-up; gunicorn reads this file from the working
directory, so ``gunicorn wsgi:app`` run from the project folder uses it (command-line
options still win over it). Why gevent: docs/architecture.md, "Live streams".

* ``gevent`` workers: an open event stream is a paused greenlet (a few KB), not a thread,
  so one worker holds thousands of idle phones. psycopg 3 and redis-py block
  cooperatively once gevent has patched the standard library (the worker does that
  before it imports the app; do not set ``preload_app``).
* Several workers need ``REDIS_URL`` (live updates must cross processes): without it
  gunicorn refuses to start (``on_starting`` below), and the app itself answers 503 to
  every request if a multi-process server starts it anyway (``companion.live``).

* Each worker holds at most ``CONNECTIONS_PER_ADDRESS`` connections (default 500) from
  one client address (``BoundedGeventWorker`` below, ``companion/connections.py``); one
  more is answered 429 with ``Retry-After`` and closed, so one client cannot take every
  connection of a worker and leave the others unanswered.

Environment: ``WEB_CONCURRENCY`` (workers, default 2), ``WORKER_CONNECTIONS`` (open
connections per worker, default 10000: a phone holds two, its stream and one for its
requests, so 1,000 tables of 5 phones are some 10,000 connections, and the kernel does
not share them out evenly between the workers; the open-file limit is raised to fit,
up to its hard limit), ``CONNECTIONS_PER_ADDRESS`` (per worker and client
address, default 500; 0 for none; off by default with ``PROXY_HOPS``: bound them at the
proxy), ``BIND`` (default ``0.0.0.0:8000``).
"""

import gc
import importlib.util
import os
import resource
import sys
from pathlib import Path

from gunicorn.workers.ggevent import GeventWorker


def _connections():
    """``companion/connections.py`` alone (standard library only): importing the
    ``companion`` package here would import the app before gevent patches the worker."""
    path = Path(__file__).resolve().parent / "companion" / "connections.py"
    spec = importlib.util.spec_from_file_location("companion_connections", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


connections = _connections()


class BoundedGeventWorker(GeventWorker):
    """gunicorn's gevent worker, counting its open connections per client address."""

    def init_process(self):
        self.per_address = connections.PerAddress(connections.per_address(os.environ))
        super().init_process()

    def handle(self, listener, client, addr):
        address = connections.address_of(addr)
        if not self.per_address.enter(address):
            connections.refuse(client)
            return
        try:
            super().handle(listener, client, addr)
        finally:
            self.per_address.leave(address)


bind = [os.environ.get("BIND", "0.0.0.0:8000")]
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = BoundedGeventWorker
# Each phone holds one stream and one keep-alive connection for its requests.
# Requests are parsed by gunicorn_h1c (the "scale" extra) when it is installed: gunicorn's
# default ``http_parser = "auto"``.
worker_connections = int(os.environ.get("WORKER_CONNECTIONS", "10000"))


def raise_file_limit(wanted: int) -> None:
    """Every connection is a file descriptor: let each worker (which inherits this
    process's limit) open ``wanted`` of them, within the hard limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


raise_file_limit(worker_connections + 1024)  # its connections, the pools, files
# Seconds an idle keep-alive connection (not a stream) is kept. A phone's stream carries
# its view, so its other connection is used only for its own moves, every 10-30 s at a
# table: at 5 s nearly every move opened a new connection (a TCP, behind a proxy a TLS,
# handshake), which under load took longer than the move (bench/README.md). An idle
# connection costs a paused greenlet, like a stream.
keepalive = 30
timeout = 30  # a worker silent this long is restarted (gevent workers notify while idle)
graceful_timeout = 10  # open streams are cut after this on a restart; phones reconnect
backlog = 2048


def redis_configured() -> bool:
    """``REDIS_URL`` in the environment or in ``instance/config.py`` (as the app reads it)."""
    if os.environ.get("REDIS_URL"):
        return True
    path = Path(__file__).resolve().parent / "instance" / "config.py"
    if not path.is_file():
        return False
    settings: dict = {}
    exec(compile(path.read_text(), str(path), "exec"), settings)  # the app's own config file
    return bool(settings.get("REDIS_URL"))


def on_starting(server):
    if server.cfg.workers > 1 and not redis_configured():
        message = (
            f"Refusing to start {server.cfg.workers} workers without REDIS_URL: live "
            "updates made in one worker would never reach the phones held by another. "
            "Set REDIS_URL, or run --workers 1."
        )
        server.log.error(message)
        print(message, file=sys.stderr)
        sys.exit(1)


# The collector's thresholds in a worker: the youngest two generations as Python's, a
# full collection only after 1,000 collections of the middle one (Python: 10).
GC_THRESHOLDS = (700, 10, 1000)


def post_worker_init(worker):
    """The app is loaded: what it holds now (modules, routes, the ORM's mappings) lives as
    long as the worker. ``gc.freeze`` moves it out of the collector's reach, so a full
    collection walks only what the worker made since (streams, greenlets, cached views).
    Even so a full collection paused the worker, every stream in it, for about 0.1 s, and
    came every few seconds under load; the cached views it found were freed by reference
    counting anyway (they hold no cycles), so full collections are made rare
    (``GC_THRESHOLDS``; measured in bench/README.md, "Garbage collection")."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
