"""Load run of engine mode over HTTP against a real server on 127.0.0.1.

    python bench/web.py [--setup default|scaled|both] [--tables 20] [--phones 5]
                        [--seconds 20] [--interval 2] [--concurrency 16] [--game SLUG]

``default`` starts the README's default command (``flask --app companion run``: one
process, SQLite file); ``scaled`` the README's scaled one (gunicorn with the repository's
``gunicorn.conf.py`` if there is one, else 2 gthread workers x 32 threads; PostgreSQL in a
fresh schema of the local ``test`` database, Redis db 15). Servers get a free port,
``RATELIMIT_ENABLED=0`` (``--limits``: the limits on, as the README's servers have them:
every request naming a table then tests them in their storage, Redis when scaled) and are
stopped at the end. Three parts, each against the same server:

1. **Phones**: ``--tables`` tables of ``--phones`` seats; each phone behaves like the page's
   ``LiveTable``: it asks for a stream ticket with its seat token (``POST /stream-ticket``),
   opens ``/events`` with it (no header, like an ``EventSource``), and on each event merges
   the event's public envelope with its own part, which a seat's stream carries in the event
   (``"mine"``), or else fetches (``view?private=<version>``) over its keep-alive
   connection; the phone whose seat is to act then posts a move, at most one move per table
   every ``--interval`` seconds. First every phone opens its stream (up to
   ``--open-timeout`` seconds, no moves), then ``--seconds`` of play, then ``--grace``
   seconds for the last events. Reported: events delivered (each phone should see every
   version its table reached), p50/p95 of move → every phone's event and → every phone's
   merged view (from sending the move to the last phone of the table), the move's own POST
   and its answer → every phone's event (the fan-out's share), the server's CPU per move
   (from /proc: its own processes, not PostgreSQL's or Redis's), 5xx count, and this
   client's CPU and event-loop lag (time stamps are taken when the loop reads a reply, so a
   reply may wait up to that lag in the client first: the client is plain asyncio with
   minimal parsing, a few % of a core at 50 × 5). ``--phones-only`` stops after this part.
2. **Rates** at ``--concurrency`` clients, ``--rate-seconds`` each in rounds of about a
   second taken in turn (so a change of load weighs on every ratio alike): a trivial route
   (``GET /offline``), a view, a move (the POST alone: the client replays each game with
   the engine, on tables this process wrote with a seed it knows, so it sends only the
   moves, as a phone that knows its version and legal actions from its last view, event
   or answer), and, as extra information, a phone's whole round trip (the table's view,
   the seat's view, the move), each as a ratio of the trivial route's rate.
   ``--rates-only`` runs this part alone.
3. **A long game**: one table played by a single client; the median time of a move
   (the POST alone) around action 10 and around action 200, and their ratio.

First, in this process (``--snapshot-only`` stops there): the service's restore + save of
one state at action 10 and at action 200, as today (``shared_json``, no log) and as
before (the log in the snapshot, ``plain_copy`` at both ends), with JSON both ways.

Each request uses its own connection (``Connection: close``), for the baseline alike.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"


# -- a minimal HTTP/1.1 client (asyncio streams; no third-party client needed) ----------


class Http:
    def __init__(self, port: int):
        self.port = port
        self.errors_5xx = 0
        self.failures = 0

    async def request(
        self, method: str, path: str, body: object = None, token: str | None = None
    ) -> tuple[int, object]:
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}", "Connection: close"]
        if token:
            head.append(f"Authorization: Bearer {token}")
        if body is not None:
            head += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
        try:
            reader, writer = await asyncio.open_connection(HOST, self.port)
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
            await writer.drain()
            raw = await reader.read()
            writer.close()
        except OSError:
            self.failures += 1
            return 0, None
        status, payload = parse_response(raw)
        if status >= 500:
            self.errors_5xx += 1
        return status, payload

    async def stream(self, path: str, token: str, on_data) -> None:
        """Hold a server-sent-events stream, calling ``on_data(text)`` for every event."""
        head = [
            f"GET {path} HTTP/1.1",
            f"Host: {HOST}:{self.port}",
            f"Authorization: Bearer {token}",
            "Accept: text/event-stream",
        ]
        reader, writer = await asyncio.open_connection(HOST, self.port)
        try:
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode())
            await writer.drain()
            status_line = await reader.readline()
            status = int(status_line.split()[1])
            if status >= 500:
                self.errors_5xx += 1
            if status != 200:
                return
            chunked = False
            while (line := await reader.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"transfer-encoding:") and b"chunked" in line.lower():
                    chunked = True
            buffer = ""
            while True:
                if chunked:
                    size_line = await reader.readline()
                    if not size_line:
                        return
                    size = int(size_line.strip() or b"0", 16)
                    if size == 0:
                        return
                    chunk = await reader.readexactly(size + 2)
                    buffer += chunk[:-2].decode()
                else:
                    chunk = await reader.read(65536)
                    if not chunk:
                        return
                    buffer += chunk.decode()
                while "\n\n" in buffer:
                    block, buffer = buffer.split("\n\n", 1)
                    data = [ln[5:].strip() for ln in block.split("\n") if ln.startswith("data:")]
                    if data:
                        on_data("\n".join(data))
        finally:
            writer.close()


def parse_response(raw: bytes) -> tuple[int, object]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    try:
        status = int(lines[0].split()[1])
    except (IndexError, ValueError):
        return 0, None
    if any(ln.lower().startswith(b"transfer-encoding:") and b"chunked" in ln for ln in lines):
        out, rest = b"", body
        while rest:
            size_line, _, rest = rest.partition(b"\r\n")
            size = int(size_line or b"0", 16)
            if size == 0:
                break
            out, rest = out + rest[:size], rest[size + 2 :]
        body = out
    try:
        return status, json.loads(body) if body else None
    except ValueError:
        return status, body


def version_of(data: str) -> int | None:
    try:
        value = json.loads(data)
    except ValueError:
        return None
    if isinstance(value, dict):
        value = value.get("version")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


# -- servers ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def tool(name: str) -> str:
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else (shutil.which(name) or name)


class Server:
    def __init__(
        self,
        setup: str,
        workdir: Path,
        root: Path = ROOT,
        profile: Path | None = None,
        limits: bool = False,
        one_process: bool = False,
    ):
        self.setup = setup
        self.profile = profile
        self.port = free_port()
        self.schema = None
        env = {
            **os.environ,
            "RATELIMIT_ENABLED": "1" if limits else "0",
            # Every phone of the load run connects from 127.0.0.1; real phones at a café
            # share a router's address too, but not 1,000 of them.
            "STREAMS_PER_ADDRESS": "100000",
            "SECRET_KEY": "bench-" + uuid.uuid4().hex,
            "PYTHONPATH": str(root),
        }
        if limits:  # the bench makes every table and seat from one address: room for them
            env["RATELIMIT_CREATE"] = env["RATELIMIT_JOIN"] = "100000 per minute"
        env.pop("REDIS_URL", None)
        if setup == "default":
            env["DATABASE_URL"] = f"sqlite:///{workdir / 'bench.sqlite3'}"
            command = [tool("flask"), "--app", "companion", "run", "--host", HOST]
            command += ["--port", str(self.port)]
            self.database_url = env["DATABASE_URL"]
        else:
            import psycopg

            self.schema = f"bench_{uuid.uuid4().hex[:10]}"
            with psycopg.connect(f"host={HOST} dbname=test", autocommit=True) as conn:
                conn.execute(f'CREATE SCHEMA "{self.schema}"')
            env["DATABASE_URL"] = (
                f"postgresql://{HOST}:5432/test?options=-csearch_path%3D{self.schema}"
            )
            self.database_url = env["DATABASE_URL"].replace("postgresql:", "postgresql+psycopg:")
            if not one_process:
                env["REDIS_URL"] = f"redis://{HOST}:6379/15"
            command = [tool("gunicorn")]
            workers = "1" if one_process else "2"
            if profile is not None:  # the same settings, with a cProfile switch per worker
                env["BENCH_PROFILE_DIR"] = str(profile)
                command += ["-c", str(ROOT / "bench" / "profile_gunicorn.py"), "--workers", workers]
            elif (root / "gunicorn.conf.py").exists():
                command += ["-c", str(root / "gunicorn.conf.py"), "--workers", workers]
            else:
                command += ["--worker-class", "gthread", "--workers", workers, "--threads", "32"]
            command += ["--bind", f"{HOST}:{self.port}", "wsgi:app"]
        self.log = open(workdir / f"{setup}-{root.name}.log", "w")  # noqa: SIM115 (in stop)
        self.process = subprocess.Popen(
            command, cwd=root, env=env, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((HOST, self.port), timeout=1):
                    return
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.2)
        self.stop()
        raise SystemExit(f"the {setup} server did not start; see {self.log.name}")

    def workers(self) -> list[int]:
        """The server's worker processes (gunicorn's children), from /proc."""
        with contextlib.suppress(OSError):
            children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
            return [int(p) for p in children.read_text().split()]
        return []

    def sample(self, folder: Path, seconds: float) -> list[subprocess.Popen]:
        """py-spy (``pip install py-spy``) sampling every worker for ``seconds``, its
        stacks (collapsed, idle greenlets left out) into ``folder``: where the CPU goes,
        without cProfile's cost per call."""
        return [
            subprocess.Popen(
                [
                    tool("py-spy"),
                    "record",
                    "--pid",
                    str(pid),
                    "--duration",
                    str(int(seconds)),
                    "--rate",
                    "250",
                    "--nonblocking",
                    "--gil",  # only samples that hold the GIL: running Python, not waiting
                    "--format",
                    "raw",
                    "--output",
                    str(folder / f"spy-{pid}.txt"),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )  # fmt: skip
            for pid in self.workers()
        ]

    def switch_profile(self) -> None:
        """Start (or stop and write) every worker's profiler (``bench/profile_gunicorn.py``)."""
        if self.profile is not None:
            for pid in self.workers():
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGRTMIN + 1)

    def cpu_seconds(self) -> float:
        """CPU time used so far by the server's own processes (master and workers; not
        PostgreSQL's or Redis's), from /proc."""
        return sum(self.cpu_times())

    def worker_seconds(self) -> dict[int, float]:
        """Each worker's CPU seconds so far (user and system), by process id."""
        return {pid: sum(process_seconds(f"/proc/{pid}/stat")[1:]) for pid in self.workers()}

    def cpu_times(self) -> tuple[float, float]:
        """:meth:`cpu_seconds` as (user, system): the system part is the kernel's work
        for the server (its socket sends and receives, on loopback also the receiving
        side's TCP work)."""
        times = [
            process_seconds(f"/proc/{pid}/stat") for pid in [self.process.pid, *self.workers()]
        ]
        return sum(t[1] for t in times), sum(t[2] for t in times)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()
        if self.schema:
            import psycopg

            with psycopg.connect(f"host={HOST} dbname=test", autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA "{self.schema}" CASCADE')


# -- tables ----------------------------------------------------------------------------


async def new_table(http: Http, game: str, players: int) -> tuple[str, list[str]]:
    status, body = await http.request("POST", "/api/tables", {"game": game, "players": players})
    assert status == 201, (status, body)
    code = body["code"]
    tokens = []
    for seat in range(players):
        status, joined = await http.request(
            "POST", f"/api/tables/{code}/seats", {"name": f"P{seat}", "seat": seat}
        )
        assert status == 201, (status, joined)
        tokens.append(joined["token"])
    return code, tokens


# -- the phones part: clients that behave like the real page ------------------------------


class Conn:
    """One phone's keep-alive connection for its short requests, as a browser reuses its
    connections (and the server's keep-alive allows). Reconnects when the server closed it;
    a request that fails on a reused connection before any answer is sent again once.
    Requests take turns on it (a move may be sent while a refetch is under way)."""

    def __init__(self, http: Http, address: str = HOST):
        self.http = http
        self.address = address  # the client's own address (a table's phones share one)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.turn = asyncio.Lock()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(
        self, method: str, path: str, body: object = None, token: str | None = None
    ) -> tuple[int, object]:
        async with self.turn:
            return await self._request(method, path, body, token)

    async def _request(
        self, method: str, path: str, body: object, token: str | None
    ) -> tuple[int, object]:
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{self.http.port}\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        elif method == "POST":
            head += "Content-Length: 0\r\n"
        raw = head.encode() + b"\r\n" + data
        for attempt in (0, 1):
            reused = self.writer is not None
            try:
                if self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection(
                        HOST, self.http.port, local_addr=(self.address, 0)
                    )
                self.writer.write(raw)
                answer = await self._read()
            except (OSError, asyncio.IncompleteReadError, ValueError):
                self.close()
                if reused and attempt == 0:
                    continue
                self.http.failures += 1
                return 0, None
            status, close, payload = answer
            if close:
                self.close()
            if status >= 500:
                self.http.errors_5xx += 1
            try:
                return status, json.loads(payload) if payload else None
            except ValueError:
                return status, payload
        return 0, None  # pragma: no cover - the loop returns

    async def _read(self) -> tuple[int, bool, bytes]:
        reader = self.reader
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        status = int(lines[0].split()[1])
        length, chunked, close = 0, False, lines[0].startswith(b"HTTP/1.0")
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding" and b"chunked" in value.lower():
                chunked = True
            elif name == b"connection":
                close = value.strip().lower() == b"close"
        if not chunked:
            return status, close, await reader.readexactly(length) if length else b""
        out = b""
        while True:
            size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
            chunk = await reader.readexactly(size + 2)
            if size == 0:
                return status, close, out
            out += chunk[:-2]


class LoopLag:
    """How late this client's event loop wakes a 10 ms sleep: the time a reply may wait in
    the client before it is time-stamped (the client shares the server's cores)."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.task: asyncio.Task | None = None

    async def run(self) -> None:
        while True:
            start = time.monotonic()
            await asyncio.sleep(0.01)
            self.lags.append(time.monotonic() - start - 0.01)


class Pauses:
    """This client's garbage-collector pauses while it is installed (``gc.callbacks``): a
    full collection over 5,000 phones' state stops the event loop, and every reply that
    arrives meanwhile is time-stamped late."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._started = 0.0

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses.append(time.perf_counter() - self._started)

    def __enter__(self) -> Pauses:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


class Clock:
    """The phases of the phones part: the phones open their streams (no moves), then
    ``seconds`` of play from ``start``, then the streams stay open for the last events."""

    def __init__(self) -> None:
        self.start = self.stop = float("inf")

    def playing(self, now: float) -> bool:
        return self.start <= now < self.stop


class PhoneTable:
    """One table in the phones part. Each phone, as the page's LiveTable does: asks for a
    stream ticket with its seat token (``POST /stream-ticket``), opens ``/events`` with it
    (no header, like an ``EventSource``), takes each event's public envelope and its own
    part (``"mine"`` in the event, else refetched: ``view?private=<version>``); the phone
    whose seat is to act then posts a move, at most one move per table every ``interval``
    seconds. A stream that ends before the run does is opened again with a fresh ticket."""

    def __init__(
        self, http: Http, code: str, tokens: list[str], interval: float, rng, address: str
    ):
        self.http, self.code, self.tokens = http, code, tokens
        self.interval, self.rng = interval, rng
        self.address = address  # the phones of a table share their venue's address
        self.conns = [Conn(http, address) for _ in tokens]
        self.sent: dict[int, float] = {}  # version a move made -> when it was sent
        self.answered: dict[int, float] = {}  # version a move made -> its answer read
        self.events: dict[int, dict[int, float]] = {}  # version -> phone -> event read
        self.seen: dict[int, dict[int, float]] = {}  # version -> phone -> its view merged
        self.received: list[set[int]] = [set() for _ in tokens]
        self.busy = [False] * len(tokens)  # a refetch under way (the page's `fetching`)
        self.again: list[dict | None] = [None] * len(tokens)  # the event that came meanwhile
        self.moving = False
        self.waiting = None  # a turn seen while another seat's move was being answered
        self.tasks: set[asyncio.Task] = set()
        self.next_move = time.monotonic() + rng.random() * interval
        self.top = 0  # the highest version the table reached
        self.streams_opened = 0
        # The last event's public envelope (its text, unparsed, when the seat was not to act)
        self.last_public: list[dict | bytes | None] = [None] * len(tokens)
        self.last_mine: list[dict | None] = [None] * len(tokens)  # its own part, if sent
        self.refused = 0
        self.mine_sent: bool | None = None  # whether the seats' streams carry "mine"

    async def phone(self, seat: int, clock: Clock, gate: asyncio.Semaphore) -> None:
        """Holds the phone's stream (again with a fresh ticket if it ends) until cancelled."""
        conn = self.conns[seat]
        while True:
            async with gate:  # phones arrive over a few seconds, not in one burst
                status, ticket = await conn.request(
                    "POST", f"/api/tables/{self.code}/stream-ticket", token=self.tokens[seat]
                )
            if status != 200 or not isinstance(ticket, dict):
                self.refused += 1
                await asyncio.sleep(1.0)
                continue
            self.streams_opened += 1
            with contextlib.suppress(OSError, asyncio.IncompleteReadError, ValueError):
                await self.stream(seat, ticket["events_url"], clock)

    async def stream(self, seat: int, url: str, clock: Clock) -> None:
        reader, writer = await asyncio.open_connection(
            HOST, self.http.port, local_addr=(self.address, 0)
        )
        try:
            writer.write(
                f"GET {url} HTTP/1.1\r\nHost: {HOST}:{self.http.port}\r\n"
                "Accept: text/event-stream\r\n\r\n".encode()
            )
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head.split(None, 2)[1])
            if status >= 500:
                self.http.errors_5xx += 1
            if status != 200:
                self.refused += 1
                await asyncio.sleep(1.0)
                return
            chunked = b"chunked" in head.lower()
            buffer = b""
            while True:
                if chunked:
                    size = int((await reader.readline()).strip() or b"0", 16)
                    if size == 0:
                        return
                    buffer += (await reader.readexactly(size + 2))[:-2]
                else:
                    chunk = await reader.read(65536)
                    if not chunk:
                        return
                    buffer += chunk
                now = time.monotonic()
                *blocks, buffer = buffer.split(b"\n\n")
                for block in blocks:
                    # Only "version" events matter; a ping is skipped unparsed.
                    if block.startswith(b"event: version\ndata: "):
                        self.on_event(seat, block[21:], now, clock)
        finally:
            writer.close()

    def on_event(self, seat: int, data: bytes, now: float, clock: Clock) -> None:
        # Cheap first: the version and who is to act lead the envelope, so a phone that is
        # not to act keeps the event unparsed (parsed only if the play starts from it).
        # 5,000 phones parsing every event in full would take the client a core.
        head = HEAD.match(data)
        if head is not None:
            version = int(head[1])
            to_act = {int(x) for x in head[2].split(b",") if x.strip()}
            if seat not in to_act and (self.mine_sent is False or b',"mine":{' in data):
                # Its own part came with the event (or the stream carries none): merged.
                if self.mine_sent:
                    self.seen.setdefault(version, {}).setdefault(seat, now)
                self.received[seat].add(version)
                self.events.setdefault(version, {}).setdefault(seat, now)
                self.top = max(self.top, version)
                self.last_public[seat] = data
                self.last_mine[seat] = None
                return
        try:
            public = json.loads(data)
        except ValueError:
            return
        version = public.get("version") if isinstance(public, dict) else None
        if not isinstance(version, int):
            return
        self.received[seat].add(version)
        self.events.setdefault(version, {}).setdefault(seat, now)
        self.top = max(self.top, version)
        mine = public.pop("mine", None)
        self.last_public[seat] = public
        self.last_mine[seat] = None
        if isinstance(mine, dict) and mine.get("version") == version:
            # The seat's own part came with the event: merged, no request (the page's
            # ``LiveTable.view``).
            self.mine_sent = True
            self.last_mine[seat] = mine
            self.start_task(self.play(seat, merge(public, mine), version, now, clock))
            return
        if self.busy[seat]:  # the page refetches once more after the current one
            self.again[seat] = public
            return
        self.start_refetch(seat, public, clock)

    def start_task(self, coroutine) -> None:
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def start_refetch(self, seat: int, public: dict, clock: Clock) -> None:
        self.start_task(self.refetch(seat, public, clock))

    async def refetch(self, seat: int, public: dict, clock: Clock) -> None:
        self.busy[seat] = True
        try:
            while public is not None:
                self.again[seat] = None
                await self.refetch_once(seat, public, clock)
                public = self.again[seat]
        finally:
            self.busy[seat] = False

    async def refetch_once(self, seat: int, public: dict, clock: Clock) -> None:
        status, part = await self.conns[seat].request(
            "GET",
            f"/api/tables/{self.code}/view?private={public['version']}",
            token=self.tokens[seat],
        )
        if status != 200 or not isinstance(part, dict):
            return
        env = merge(public, part) if part.get("partial") else part
        await self.play(seat, env, public["version"], time.monotonic(), clock)

    async def play(self, seat: int, env: dict, since: int, now: float, clock: Clock) -> None:
        """The seat's view ``env`` is on its screen (from version ``since`` on): record
        when, and move if it is this seat's turn."""
        for v in range(since, env["version"] + 1):
            self.seen.setdefault(v, {}).setdefault(seat, now)
        self.top = max(self.top, env["version"])
        legal = env.get("legal")
        if env.get("over") or not clock.playing(now) or seat not in env.get("to_act", ()):
            return
        if not legal:
            return
        if self.moving:
            # Another seat's move is still waiting for its answer (its event can come
            # first when the publish is quick): this turn is played once that answer is
            # in, as the page would play it, instead of being dropped (the table stalled).
            self.waiting = (seat, env, since, now, clock)
            return
        self.moving = True
        try:
            await asyncio.sleep(max(0.0, self.next_move - time.monotonic()))
            if not clock.playing(time.monotonic()):
                return
            self.next_move = time.monotonic() + self.interval
            action = self.rng.choice(legal)
            sent = time.monotonic()
            status, answer = await self.conns[seat].request(
                "POST",
                f"/api/tables/{self.code}/actions",
                {"action": action, "version": env["version"]},
                self.tokens[seat],
            )
            if status == 200:
                self.sent[answer["version"]] = sent
                self.answered[answer["version"]] = time.monotonic()
                self.top = max(self.top, answer["version"])
        finally:
            self.moving = False
            waiting, self.waiting = self.waiting, None
            if waiting is not None and waiting[1]["version"] >= self.top:
                self.start_task(self.play(*waiting))


HEAD = re.compile(rb'\{"version":(\d+),"seat":[^,]*,"to_act":\[([\d,\s]*)\]')


def merge(public: dict, part: dict) -> dict:
    """A seat's whole envelope from the public one and its own part (``mergePrivate``)."""
    return {**public, **part, "view": {**public.get("view", {}), **part.get("view", {})}}


def table_address(index: int) -> str:
    """The client address of table ``index``'s phones (a venue's one address), spread over
    127.1.0.0/16 so no address holds more than a table's connections (the server bounds
    them per address: ``CONNECTIONS_PER_ADDRESS``)."""
    return f"127.1.{index // 250}.{index % 250 + 1}"


#: The other services a scaled server leans on, by process name (``/proc/<pid>/comm``).
SERVICES = ("postgres", "redis-server")


def process_seconds(stat: str | Path) -> tuple[str, float, float]:
    """A process's name and its CPU seconds so far, user and system, from its
    ``/proc/<pid>/stat`` (``("", 0, 0)`` for one that has ended)."""
    try:
        text = Path(stat).read_text()
        fields = text.rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        name = text[text.index("(") + 1 : text.rindex(")")]
        return name, int(fields[11]) / tick, int(fields[12]) / tick
    except (OSError, IndexError, ValueError):
        return "", 0.0, 0.0


def services_cpu() -> float:
    """CPU seconds used so far by every process of :data:`SERVICES` on this machine (all
    of PostgreSQL's backends and Redis; a backend that ends between two readings takes
    its share with it, so read it while the server's pools are steady)."""
    seconds = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        name, user, system = process_seconds(stat)
        if name.startswith(SERVICES):
            seconds += user + system
    return seconds


async def trivial_cpu(http: Http, server: Server | None, requests: int) -> tuple[float, float]:
    """The baseline, in the same run: server CPU ms per trivial request (``GET /offline``,
    16 keep-alive clients from their own addresses, as the phones' requests come) and
    their rate. Measured before any stream is open."""
    if server is None or requests <= 0:
        return float("nan"), float("nan")
    conns = [Conn(http, table_address(10_000 + i)) for i in range(16)]
    left = [requests]

    async def client(conn: Conn) -> None:
        while left[0] > 0:
            left[0] -= 1
            await conn.request("GET", "/offline")

    await asyncio.gather(*(client(c) for c in conns[:4]))  # warm: connections, caches
    left[0] = requests
    before, start = server.cpu_seconds(), time.monotonic()
    await asyncio.gather(*(client(c) for c in conns))
    cpu, wall = server.cpu_seconds() - before, time.monotonic() - start
    for conn in conns:
        conn.close()
    return cpu * 1000 / requests, requests / wall


async def phones_part(http: Http, args, server: Server | None = None) -> dict:
    rng = random.Random(1)
    gate = asyncio.Semaphore(8)
    trivial = await trivial_cpu(http, server, args.trivial)

    async def one_table() -> tuple[str, list[str]]:
        async with gate:
            return await new_table(http, args.game, args.phones)

    made = await asyncio.gather(*(one_table() for _ in range(args.tables)))
    tables = [
        PhoneTable(http, code, tokens, args.interval, rng, table_address(i))
        for i, (code, tokens) in enumerate(made)
    ]
    lag = LoopLag()
    lag_task = asyncio.ensure_future(lag.run())
    clock = Clock()
    opening = asyncio.Semaphore(32)
    phones = len(tables) * args.phones
    opened_at = time.monotonic()
    running = [
        asyncio.ensure_future(t.phone(s, clock, opening))
        for t in tables
        for s in range(args.phones)
    ]
    # 1. Every phone opens its stream (its ticket, then /events) and reads the first event.
    deadline = opened_at + args.open_timeout
    while time.monotonic() < deadline:
        holding = sum(bool(r) for t in tables for r in t.received)
        if holding == phones:
            break
        await asyncio.sleep(0.1)
    holding = sum(bool(r) for t in tables for r in t.received)
    opened = time.monotonic() - opened_at
    # 1b. (--idle SECONDS) The streams held, nobody moving: what holding them costs the
    # server a second (keep-alive pings, timers), to take out of a move's figure.
    idle = None
    if server is not None and args.idle > 0:
        before = server.cpu_seconds()
        await asyncio.sleep(args.idle)
        idle = (server.cpu_seconds() - before) / args.idle
    # 2. Play: the phone to act of each table moves, from the view its last event gave it
    # (or, when that event had no part of its own, the view it refetches).
    # This one process stands for 5,000 phones, each with a heap of its own: its collector
    # is stopped while they play (what they hold so far frozen out of its reach), as
    # timeit stops it. Running, it paused the event loop for up to 0.8 s at a time (15 %
    # of a 30 s play at 1,000 x 5), and every reply that came meanwhile was time-stamped
    # late; a phone's own collector never stops the other phones.
    gc.collect()
    gc.freeze()
    gc.disable()
    cpu, wall = time.process_time(), time.monotonic()
    server_cpu = server.cpu_seconds() if server else 0.0
    server_system = server.cpu_times()[1] if server else 0.0
    services = services_cpu()
    per_worker = server.worker_seconds() if server else {}
    load_before = os.getloadavg()
    spies = []
    if server is not None:
        server.switch_profile()  # on (with --profile)
        if args.py_spy is not None:
            spies = server.sample(args.py_spy, args.seconds)
    clock.start = time.monotonic()
    clock.stop = clock.start + args.seconds
    for t in tables:
        t.next_move = clock.start + rng.random() * args.interval  # tables out of step
        for seat, public in enumerate(t.last_public):
            if isinstance(public, bytes):  # kept unparsed: the seat is not to act
                continue
            mine = t.last_mine[seat]
            if public is not None and mine is not None:
                env = merge(public, mine)
                t.start_task(t.play(seat, env, env["version"], clock.start, clock))
            elif public is not None and not t.busy[seat]:
                t.start_refetch(seat, public, clock)
    with Pauses() as pauses:
        await asyncio.sleep(args.seconds)
    server_cpu = (server.cpu_seconds() if server else 0.0) - server_cpu
    server_system = (server.cpu_times()[1] if server else 0.0) - server_system
    services = services_cpu() - services
    if server is not None:
        per_worker = {
            pid: seconds - per_worker.get(pid, 0.0)
            for pid, seconds in server.worker_seconds().items()
        }
    if server is not None:
        server.switch_profile()  # off, and written
    load_after = os.getloadavg()
    for spy in spies:
        spy.wait()
    cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    # 3. The streams stay open a little longer for the events of the last moves.
    await asyncio.sleep(args.grace)
    for task in running:
        task.cancel()
    await asyncio.gather(*running, return_exceptions=True)
    pending = [task for t in tables for task in t.tasks]
    if pending:
        await asyncio.wait(pending, timeout=10)
    for t in tables:
        for conn in t.conns:
            conn.close()
    lag_task.cancel()
    gc.enable()
    gc.unfreeze()
    delivered = expected = 0
    to_events, to_views, posts, after_answer = [], [], [], []
    for t in tables:
        for version, sent in t.sent.items():
            posts.append(t.answered[version] - sent)
            got = t.events.get(version, {})
            if len(got) == len(t.tokens):
                to_events.append(max(got.values()) - sent)
                after_answer.append(max(0.0, max(got.values()) - t.answered[version]))
            got = t.seen.get(version, {})
            if len(got) == len(t.tokens):
                to_views.append(max(got.values()) - sent)
        # Every version from the first one each phone saw to the table's last.
        for seat in range(len(t.tokens)):
            first = min(t.received[seat], default=t.top)
            wanted = set(range(first, t.top + 1))
            expected += len(wanted)
            delivered += len(wanted & t.received[seat])
    moves = sum(len(t.sent) for t in tables)
    return {
        "moves": moves,
        "delivered": 100.0 * delivered / expected if expected else 0.0,
        "events": tuple(percentile(to_events, q) * 1000 for q in (50, 95, 99)),
        "views": (percentile(to_views, 50) * 1000, percentile(to_views, 95) * 1000),
        "posts": (percentile(posts, 50) * 1000, percentile(posts, 95) * 1000),
        "after": (percentile(after_answer, 50) * 1000, percentile(after_answer, 95) * 1000),
        "complete": len(to_views),
        "streams": sum(t.streams_opened for t in tables),
        "refused": sum(t.refused for t in tables),
        "cpu": 100.0 * cpu / wall if wall else 0.0,
        "server_cpu": server_cpu,
        "server_system": server_system,
        "services_cpu": services,
        "per_worker": sorted(per_worker.values(), reverse=True),
        "idle": idle,
        "gc": pauses.pauses,
        "opened": (holding, phones, opened),
        "trivial": trivial,
        "load": (load_before[0], load_after[0]),
        "lag": (percentile(lag.lags, 95) * 1000, max(lag.lags, default=0.0) * 1000),
    }


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))]


async def closed_loop(seconds: float, workers: int, step) -> float:
    """Completed steps per second with ``workers`` clients each running ``step`` in a loop."""
    done = 0
    stop = time.monotonic() + seconds

    async def worker(index: int) -> None:
        nonlocal done
        while time.monotonic() < stop:
            if await step(index):
                done += 1

    start = time.monotonic()
    await asyncio.gather(*(worker(i) for i in range(workers)))
    return done / (time.monotonic() - start)


class SeededTables:
    """Tables for the move rate, written into the server's database by this process (the
    service of this checkout, in an app of its own) with a seed chosen here: the client
    replays each game with the engine beside it, so it knows every seat's legal actions
    and the version without asking, as a phone knows them from its last view, event or
    answer, and the timed loop sends nothing but the move POSTs."""

    def __init__(self, database_url: str, game: str, players: int, workdir: Path):
        sys.path.insert(0, str(ROOT))
        from companion import create_app

        self.game, self.players = game, players
        self.seed = 1000
        self.app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": database_url,
                "INSTANCE_PATH": str(workdir / f"seeder-{uuid.uuid4().hex[:6]}"),
                "SECRET_KEY": "bench-seeder",
                "AUTO_MIGRATE": False,  # the server brought the schema up
                "BOT_WORKER": "off",
                "BOT_RESUME": False,
                "REDIS_URL": None,  # nobody follows these tables' streams
                "RATELIMIT_ENABLED": False,
            }
        )

    def new(self) -> dict:
        from companion.extensions import db
        from companion.games import GAMES
        from companion.tables import lifecycle, seats

        self.seed += 1
        with self.app.app_context():
            table, _host = lifecycle.create_table(self.game, self.players, seed=self.seed)
            code = table.code
            tokens, version = [], 0
            for seat in range(self.players):
                _seat, token, version = seats.join(code, f"P{seat}", seat)
                tokens.append(token)
            db.session.remove()
        state = GAMES[self.game].new_state(self.players, seed=self.seed)
        return {"code": code, "tokens": tokens, "version": version, "state": state}

    def close(self) -> None:
        from companion.extensions import db

        with self.app.app_context():
            db.session.remove()
            db.engine.dispose()


async def rates_part(http: Http, args, server: Server, workdir: Path) -> dict:
    workers = args.concurrency
    tables = [await new_table(http, args.game, args.phones) for _ in range(workers)]
    seeder = SeededTables(server.database_url, args.game, args.phones, workdir)
    seeded = [seeder.new() for _ in range(workers)]
    rng = random.Random(2)
    refused = {"moves": 0}

    async def trivial(_i: int) -> bool:
        return (await http.request("GET", "/offline"))[0] == 200

    async def view(i: int) -> bool:
        code, tokens = tables[i]
        return (await http.request("GET", f"/api/tables/{code}/view", token=tokens[0]))[0] == 200

    async def move(i: int) -> bool:
        """The move POST alone: the seat to act and its action from the local replay."""
        table = seeded[i]
        state = table["state"]
        if state.is_over():
            seeded[i] = seeder.new()  # rare (a whole game), and outside the server
            return False
        seat = rng.choice(state.to_act())
        action = rng.choice(state.legal_actions(seat))
        body = {"action": action, "version": table["version"]}
        url = f"/api/tables/{table['code']}/actions"
        status, answer = await http.request("POST", url, body, table["tokens"][seat])
        if status != 200:
            refused["moves"] += 1
            seeded[i] = seeder.new()  # out of step with the server: start another table
            return False
        state.apply(seat, action)
        table["version"] = answer["version"]
        return True

    async def round_trip(i: int) -> bool:
        code, tokens = tables[i]
        status, env = await http.request("GET", f"/api/tables/{code}/view")
        if status != 200:
            return False
        if env["over"]:
            tables[i] = await new_table(http, args.game, args.phones)
            return False
        seat = rng.choice(env["to_act"])
        status, mine = await http.request("GET", f"/api/tables/{code}/view", token=tokens[seat])
        if status != 200 or not mine["legal"]:
            return False
        body = {"action": rng.choice(mine["legal"]), "version": mine["version"]}
        status, _ = await http.request("POST", f"/api/tables/{code}/actions", body, tokens[seat])
        return status == 200

    # Interleaved in short rounds (trivial, view, move, round trip, again), so that a
    # change of the machine's load during the part weighs on every ratio alike.
    loops = {"trivial": trivial, "view": view, "move": move, "round_trip": round_trip}
    rounds = max(1, round(args.rate_seconds))
    out = dict.fromkeys(loops, 0.0)
    cpu = dict.fromkeys(loops, 0.0)  # the server's CPU seconds in each loop
    try:
        for _ in range(rounds):
            for name, step in loops.items():
                before = server.cpu_seconds()
                out[name] += await closed_loop(args.rate_seconds / rounds, workers, step)
                cpu[name] += server.cpu_seconds() - before
    finally:
        seeder.close()
    # CPU ms a step: the loops' server CPU over the steps they made (each round's rate
    # times its share of the time)
    out["cpu_ms"] = {
        name: 1000 * cpu[name] / max(1.0, out[name] * args.rate_seconds / rounds) for name in loops
    }
    out = {name: (rate / rounds if name in loops else rate) for name, rate in out.items()}
    out["refused"] = refused["moves"]
    return out


async def long_game_part(http: Http, args) -> dict:
    rng = random.Random(3)
    code, tokens = await new_table(http, args.game, args.phones)
    times: dict[int, float] = {}
    for action in range(1, args.long + 1):
        status, env = await http.request("GET", f"/api/tables/{code}/view")
        if env["over"]:
            break
        seat = rng.choice(env["to_act"])
        _, mine = await http.request("GET", f"/api/tables/{code}/view", token=tokens[seat])
        body = {"action": rng.choice(mine["legal"]), "version": mine["version"]}
        start = time.perf_counter()
        status, _ = await http.request("POST", f"/api/tables/{code}/actions", body, tokens[seat])
        times[action] = time.perf_counter() - start
        assert status == 200, status
    early = [times[a] for a in range(1, 21) if a in times]
    late = [times[a] for a in range(args.long - 19, args.long + 1) if a in times]
    return {
        "reached": max(times, default=0),
        "early": statistics.median(early) * 1000 if early else float("nan"),
        "late": statistics.median(late) * 1000 if late else float("nan"),
    }


def snapshot_part(game_slug: str, players: int, at: tuple[int, ...] = (10, 200)) -> None:
    sys.path.insert(0, str(ROOT))
    from companion.games import GAMES
    from companion.games.base import plain_copy, shared_json

    game = GAMES[game_slug]
    rng = random.Random(4)
    state = game.new_state(players, seed=4)
    print(f"\n## snapshot restore + save, {game_slug} x {players}, in process")
    for action in range(1, max(at) + 1):
        if state.is_over():
            print(f"(the game ended at action {action - 1})")
            break
        seat = rng.choice(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        if action not in at:
            continue
        now_text = json.dumps(state.to_dict())
        # The old way: the snapshot's own format (a game may keep cards as integers
        # inside, strings in the snapshot) with the log in it, copied at both ends.
        old_snapshot = state.to_dict()
        old_snapshot["state"]["log"] = plain_copy(state.log)
        old_text = json.dumps(old_snapshot)

        def now(now_text: str = now_text) -> None:
            with shared_json():
                json.dumps(game.state_from_dict(json.loads(now_text)).to_dict())

        def before(old_text: str = old_text) -> None:
            loaded = game.state_from_dict(json.loads(old_text))
            saved = loaded.to_dict()
            saved["state"]["log"] = plain_copy(loaded.log)
            json.dumps(saved)

        rounds = 300
        timing = {}
        for name, run_once in (("before", before), ("now", now)):
            start = time.perf_counter()
            for _ in range(rounds):
                run_once()
            timing[name] = (time.perf_counter() - start) / rounds * 1000
        print(
            f"action {action}: snapshot {len(now_text)} B (with log {len(old_text)} B); "
            f"restore + save {timing['now']:.3f} ms, before {timing['before']:.3f} ms "
            f"({timing['now'] / timing['before']:.2f}x)"
        )


async def run(setup: str, args, workdir: Path, root: Path = ROOT) -> None:
    server = Server(setup, workdir, root, args.profile, args.limits, args.one_process)
    try:
        http = Http(server.port)
        if args.rates_only:
            rates = await rates_part(http, args, server, workdir)
            print_rates(setup, root, args, rates)
            print(f"5xx {http.errors_5xx}, connection failures {http.failures}")
            return
        phones = await phones_part(http, args, server)
        rates = None if args.phones_only else await rates_part(http, args, server, workdir)
        long = None if args.phones_only else await long_game_part(http, args)
    finally:
        server.stop()
    print(
        f"\n## {setup} ({root}): {args.tables} tables x {args.phones} phones, "
        f"{args.seconds:g} s, one move per table every {args.interval:g} s"
    )
    ev, vw = phones["events"], phones["views"]
    holding, total, opened = phones["opened"]
    print(
        f"streams: {holding}/{total} phones held their stream after {opened:.1f} s of "
        "opening (ticket, then /events), before the moves started"
    )
    print(
        f"moves {phones['moves']}, events delivered {phones['delivered']:.1f} %, "
        f"streams opened {phones['streams']} (refused {phones['refused']})"
    )
    print(
        f"move -> every phone's event p50 {ev[0]:.0f} ms, p95 {ev[1]:.0f} ms, "
        f"p99 {ev[2]:.0f} ms; "
        f"move -> every phone's merged view p50 {vw[0]:.0f} ms, p95 {vw[1]:.0f} ms "
        f"({phones['complete']} moves seen by every phone)"
    )
    po, af = phones["posts"], phones["after"]
    moves = max(1, phones["moves"])
    per_move = phones["server_cpu"] * 1000 / moves
    trivial_ms, trivial_rate = phones["trivial"]
    kernel = 100 * phones["server_system"] / max(phones["server_cpu"], 1e-9)
    print(
        f"server CPU while playing (its own processes, not PostgreSQL's or Redis's): "
        f"{per_move:.2f} ms per move and its fan-out, "
        f"{100 * phones['server_cpu'] / args.seconds:.0f} % of one core; a trivial request "
        f"(GET /offline, same server, before the streams) {trivial_ms:.3f} ms "
        f"({trivial_rate:.0f}/s): a move = {per_move / trivial_ms:.2f} trivial requests"
        f"; of the move's CPU {kernel:.0f} % in the kernel (system time)"
    )
    if phones["idle"] is not None:
        idle = phones["idle"]
        marginal = (phones["server_cpu"] - idle * args.seconds) * 1000 / moves
        print(
            f"the streams held with nobody moving ({args.idle:g} s before the play): "
            f"{100 * idle:.0f} % of one core; taken out, a move and its fan-out cost "
            f"{marginal:.2f} ms = {marginal / trivial_ms:.2f} trivial requests"
        )
    if phones["per_worker"]:
        shares = ", ".join(f"{100 * t / args.seconds:.0f} %" for t in phones["per_worker"])
        print(f"each worker's CPU while playing (of one core): {shares}")
    services = phones["services_cpu"]
    print(
        f"PostgreSQL and Redis while playing (every process of theirs on this machine): "
        f"{services * 1000 / moves:.2f} ms of CPU per move, "
        f"{100 * services / args.seconds:.0f} % of one core"
    )
    print(
        f"load average (1 min) at the play's start / end: {phones['load'][0]:.2f} / "
        f"{phones['load'][1]:.2f}"
    )
    print(
        f"the move's own POST p50 {po[0]:.0f} ms, p95 {po[1]:.0f} ms; its answer -> every "
        f"phone's event p50 {af[0]:.0f} ms, p95 {af[1]:.0f} ms"
    )
    print(
        f"load client: {phones['cpu']:.0f} % of one core, event-loop lag p95 "
        f"{phones['lag'][0]:.1f} ms, max {phones['lag'][1]:.0f} ms (a reply may wait that "
        "long in the client before it is time-stamped)"
    )
    pauses = phones["gc"]
    print(
        f"load client's garbage collections while playing (stopped: none expected): "
        f"{len(pauses)}, "
        f"{sum(pauses) * 1000:.0f} ms in all, the longest {max(pauses, default=0) * 1000:.0f} ms"
    )
    print(f"5xx {http.errors_5xx}, connection failures {http.failures}")
    if rates is None or long is None:
        return
    print_rates(None, root, args, rates)
    print(
        f"long game ({long['reached']} actions): move POST median around action 10 "
        f"{long['early']:.1f} ms, around action {args.long - 10} {long['late']:.1f} ms, "
        f"ratio {long['late'] / long['early']:.2f}"
    )


def print_rates(setup: str | None, root: Path, args, rates: dict) -> None:
    if setup is not None:
        print(f"\n## {setup} ({root}): rates only")
    base = rates["trivial"]
    cpu = rates["cpu_ms"]
    print(
        f"rates at concurrency {args.concurrency}: trivial GET /offline {base:.0f}/s "
        f"({cpu['trivial']:.2f} ms of server CPU each)"
    )
    print(
        f"  view {rates['view']:.0f}/s = {rates['view'] / base:.2f}x trivial ({cpu['view']:.2f} ms)"
    )
    print(
        f"  move POST alone {rates['move']:.0f}/s = {rates['move'] / base:.2f}x trivial"
        f" ({cpu['move']:.2f} ms; {rates['refused']} refused)"
    )
    print(
        f"  move round trip (2 views + the move) {rates['round_trip']:.0f}/s = "
        f"{rates['round_trip'] / base:.2f}x trivial ({cpu['round_trip']:.2f} ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--setup", choices=["default", "scaled", "both"], default="default")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--phones", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--interval", type=float, default=2.0)
    parser.add_argument(
        "--open-timeout",
        type=float,
        default=120.0,
        help="seconds the phones may take to open their streams before the moves start",
    )
    parser.add_argument(
        "--grace", type=float, default=5.0, help="seconds the streams stay open after the moves"
    )
    parser.add_argument(
        "--idle",
        type=float,
        default=0.0,
        help="seconds the streams are held with nobody moving before the play, their server"
        " CPU taken out of a move's (what holding the phones costs, not the moves)",
    )
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument(
        "--trivial",
        type=int,
        default=2000,
        help="trivial requests timed for the CPU baseline before the phones part (0: none)",
    )
    parser.add_argument(
        "--py-spy",
        type=Path,
        help="sample every server worker with py-spy during the play, stacks into this folder",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="scaled only: cProfile each worker during the play, files into this folder",
    )
    parser.add_argument(
        "--one-process",
        action="store_true",
        help="scaled only: one gevent worker and no REDIS_URL (live updates in process, the "
        "limits in memory): what a move costs when a table's phones and moves share a process",
    )
    parser.add_argument("--rate-seconds", type=float, default=4)
    parser.add_argument("--long", type=int, default=210, help="actions in the long game")
    parser.add_argument(
        "--game", help="a game's slug; by default the first registered one that seats --phones"
    )
    parser.add_argument(
        "--baseline", type=Path, help="another checkout, run the same way after this one"
    )
    parser.add_argument("--snapshot-only", action="store_true")
    parser.add_argument(
        "--phones-only", action="store_true", help="the phones part alone (no rates, no long game)"
    )
    parser.add_argument("--rates-only", action="store_true", help="only the rates part")
    parser.add_argument(
        "--limits", action="store_true", help="the servers with their rate limits on (the default)"
    )
    args = parser.parse_args()
    # Every phone holds two connections (its stream and its requests): 1,000 x 5 phones
    # need some 10,000 descriptors here and in the server, which inherits this limit.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = max(soft, min(hard, 4 * args.tables * args.phones + 1024))
    if wanted > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    for folder in ("profile", "py_spy"):
        if getattr(args, folder) is not None:
            setattr(args, folder, getattr(args, folder).resolve())
            getattr(args, folder).mkdir(parents=True, exist_ok=True)
    if args.game is None:
        sys.path.insert(0, str(ROOT))
        from companion.games import GAMES

        fits = [g for g in GAMES.values() if g.min_players <= args.phones <= g.max_players]
        if not fits:
            raise SystemExit(f"no game seats {args.phones} players")
        args.game = fits[0].slug
    if not args.phones_only:
        snapshot_part(args.game, args.phones)
    if args.snapshot_only:
        return
    setups = ["default", "scaled"] if args.setup == "both" else [args.setup]
    roots = [ROOT] + ([args.baseline.resolve()] if args.baseline else [])
    with tempfile.TemporaryDirectory() as tmp:
        for setup in setups:
            for root in roots:
                asyncio.run(run(setup, args, Path(tmp), root))


if __name__ == "__main__":
    main()
