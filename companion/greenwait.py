"""psycopg's wait for the database under gevent, on one event-loop watcher.

psycopg waits for its socket with ``select.poll`` once gevent has patched ``select`` (its
own C wait would block every greenlet of the worker). gevent's ``poll`` is written in
Python: each wait builds a poll object, a watcher per registered socket and a result
list, and every move's statement waits at least twice. :func:`wait` waits on one IO
watcher of gevent's loop instead (gevent's C code), with the same contract as psycopg's
wait functions: it drives psycopg's generator, tells it what became ready, and sends
"nothing ready" after each ``interval`` of silence (so psycopg can notice a cancel).

Imported only in a gevent worker (``gunicorn.conf.py``'s ``post_worker_init`` calls
:func:`install`, after gevent patched the process and the app was loaded).
"""

from __future__ import annotations

from time import monotonic
from typing import Any

import gevent.socket
from gevent.hub import get_hub
from psycopg import errors, waiting

# What psycopg waited for (read, write, both) is what it is told is ready when the watcher
# fires: libpq's calls do not block, so a side that is not ready yet is simply tried again.
READY = {
    int(waiting.WAIT_R): waiting.READY_R,
    int(waiting.WAIT_W): waiting.READY_W,
    int(waiting.WAIT_RW): waiting.READY_RW,
}


class _Silence(Exception):
    """No event within the interval (raised by gevent's wait, caught here)."""


SILENCE = _Silence()


def wait(gen: Any, fileno: int, interval: float | None = 0.0, timeout: float | None = None):
    """Run psycopg's generator ``gen`` on socket ``fileno`` to its end (its value), as
    ``psycopg.waiting.wait_poll`` does, waiting on a gevent IO watcher."""
    deadline = None if timeout is None else monotonic() + timeout
    loop = get_hub().loop
    try:
        wanted = next(gen)
        while True:
            pause = interval
            if deadline is not None:
                pause = max(0.0, min(interval or 0.0, deadline - monotonic()))
            watcher = loop.io(fileno, int(wanted))
            try:
                gevent.socket.wait(watcher, pause, SILENCE)
                ready = READY[int(wanted)]
            except _Silence:
                ready = waiting.READY_NONE
            finally:
                watcher.close()
            wanted = gen.send(ready)
            if deadline is not None and monotonic() >= deadline:
                raise errors._WaitTimeout("wait timeout expired")
    except StopIteration as end:
        return end.value


def install() -> None:
    """psycopg's connections of this process wait with :func:`wait` (``Connection.wait``
    looks ``waiting.wait`` up at each call; connecting keeps psycopg's own wait)."""
    waiting.wait = wait
