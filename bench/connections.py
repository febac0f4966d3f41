"""Connections per client address (issue 25, item 4): what one client holding many idle,
half-sent requests does to `flask run` and to the README's gunicorn (gevent) server, with
the bound (``CONNECTIONS_PER_ADDRESS``, default 500) and without it (0), in the same run.

For each server and setting it starts the server on 127.0.0.1 (a free port, a throw-away
SQLite file), opens ``--flood`` connections from one address, each sending the start of a
request and never finishing it, then prints:

* held / refused / failed: connections the server kept open, answered 429 at once, or
  could not take (reset, timed out);
* ``during``: how a fresh request fares while the flood is held (status, seconds);
* ``after``: seconds until a request is served once every flooding connection closed at
  once (the issue saw about 150 s of silence from `flask run` after 4,000).

Loopback only; every server started here is stopped. Run:

    nice -n 5 .venv/bin/python bench/connections.py --flood 1200
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HALF = b"GET /offline HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: bench\r\n"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def request(port: int, timeout: float) -> tuple[str, float]:
    started = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(b"GET /offline HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            head = sock.recv(64).split(b"\r\n")[0].decode(errors="replace")
            status = head.split(" ")[1] if head.count(" ") >= 1 else (head or "closed")
    except OSError as error:
        status = type(error).__name__
    return status, time.monotonic() - started


def wait_until_up(port: int, server: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("the server stopped while starting")
        if request(port, 2)[0] == "200":
            return
        time.sleep(0.2)
    raise RuntimeError("the server did not start")


def start(kind: str, port: int, bound: int, folder: str) -> subprocess.Popen:
    env = dict(
        os.environ,
        DATABASE_URL=f"sqlite:///{folder}/bench.sqlite3",
        SECRET_KEY="bench-connections",
        CONNECTIONS_PER_ADDRESS=str(bound),
        RATELIMIT_ENABLED="0",
    )
    for name in ("REDIS_URL", "PROXY_HOPS"):
        env.pop(name, None)
    python = sys.executable
    if kind == "flask run":
        command = [python, "-m", "flask", "--app", "companion", "run", "--host", "127.0.0.1"]
        command += ["--port", str(port), "--no-reload", "--no-debugger"]
    else:  # the README's gunicorn line, one worker (several need REDIS_URL)
        env.update(BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="1")
        command = [python, "-m", "gunicorn", "wsgi:app"]
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def flood(port: int, count: int) -> tuple[list[socket.socket], dict[str, int]]:
    held, tally = [], {"held": 0, "refused": 0, "failed": 0}
    for _ in range(count):
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=2)
            sock.sendall(HALF)
            held.append(sock)
        except OSError:
            tally["failed"] += 1
    time.sleep(1.0)  # let the server answer what it refuses
    for sock in held:
        sock.setblocking(False)
        try:
            data = sock.recv(64)
            tally["refused" if b" 429 " in data else "failed"] += 1
        except BlockingIOError:
            tally["held"] += 1
        except OSError:
            tally["failed"] += 1
    return held, tally


def measure(kind: str, bound: int, count: int) -> None:
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = start(kind, port, bound, folder)
        try:
            wait_until_up(port, server)
            held, tally = flood(port, count)
            during = request(port, 10)
            for sock in held:
                sock.close()
            started = time.monotonic()
            after = "no answer in 60 s"
            while time.monotonic() - started < 60:
                if request(port, 5)[0] == "200":
                    after = f"{time.monotonic() - started:.2f} s"
                    break
                time.sleep(0.1)
            label = f"bound {bound}" if bound else "no bound"
            print(
                f"{kind:10} {label:10} flood {count}: held {tally['held']:5}  "
                f"refused {tally['refused']:5}  failed {tally['failed']:5}  "
                f"during: {during[0]} in {during[1]:.2f} s  after: {after}",
                flush=True,
            )
        finally:
            server.terminate()
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flood", type=int, default=1200, help="connections opened")
    parser.add_argument("--bound", type=int, default=500, help="CONNECTIONS_PER_ADDRESS")
    parser.add_argument("--servers", default="flask run,gunicorn")
    args = parser.parse_args()
    for kind in args.servers.split(","):
        for bound in (0, args.bound):
            measure(kind, bound, args.flood)


if __name__ == "__main__":
    main()
