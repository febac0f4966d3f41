"""Live streams under load, on real servers, with a baseline from the same run.

    python bench/streams.py [--idle 2000] [--tables 50] [--moves 4] [--workers 2] [--game …]
                            [--skip-default] [--skip-scaled]

Starts the servers itself on 127.0.0.1 (free ports) and drives them with a gevent client:

* **scaled**: the README's scaled command (gunicorn reading ``gunicorn.conf.py``: gevent
  workers), ``--workers`` workers, PostgreSQL (a fresh schema in the local ``test``
  database) and Redis; then the same with one worker for the idle streams;
* **default**: ``flask run`` (one threaded process, SQLite), unless ``--skip-default``.

Figures, each with the baseline (a seat's ``GET /api/tables/<code>/view``, alone) of the
same server in the same run:

1. 300 streams without a credential opened at once (each must get 401) with normal
   requests meanwhile (the goal: all within 1 s); then 300 more connections that send
   nothing;
2. delivery: ``--tables`` tables x 5 phones, each holding its seat's stream and fetching
   what its view adds after each event (``view?private=``), as the real client does;
   ``--moves`` moves per table, a move every ~2 s per table; delays from sending a move to
   every phone's event and to its refetched view;
3. (one worker) ``--idle`` authenticated idle streams held (spread over client addresses
   127.0.1.x, as phones are), the server's memory, normal requests meanwhile, and delivery
   to ``--tables``/5 tables while they are held.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import contextlib  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402
from gevent.pool import Pool  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games import GAMES  # noqa: E402

# The game played (--game): by default the one that seats 5 with the widest range of
# players (the measurements used a 5-player game).
PLAYED = {"game": max(GAMES, key=lambda s: (GAMES[s].max_players, -GAMES[s].min_players))}
BIN = Path(sys.executable).parent
PG_DSN = "host=127.0.0.1 port=5432 dbname=test"
REDIS = "redis://127.0.0.1:6379/0"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def call(port, method, path, body=None, token=None, source="127.0.0.1", timeout=30):
    conn = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=timeout, source_address=(source, 0)
    )
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if body is not None:
        headers["Content-Type"] = "application/json"
    try:
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = conn.getresponse()
        data = response.read()
    finally:
        conn.close()
    try:
        return response.status, json.loads(data)
    except ValueError:
        return response.status, None


class Server:
    def __init__(self, name, argv, env):
        self.name = name
        self.port = free_port()
        argv = [a.replace("PORT", str(self.port)) for a in argv]
        self.log = tempfile.TemporaryFile()  # noqa: SIM115  (read when it fails to start)
        self.process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if call(self.port, "GET", "/offline")[0] == 200:
                    return
            except OSError:
                gevent.sleep(0.2)
        self.stop()
        self.log.seek(0)
        raise SystemExit(f"{name} did not start:\n{self.log.read().decode()[-3000:]}")

    def worker_rss_mb(self) -> float:
        """Resident memory of the server's processes (master and worker), in MB."""
        out = subprocess.run(
            ["ps", "-o", "rss=", "--ppid", str(self.process.pid), "-p", str(self.process.pid)],
            capture_output=True,
            text=True,
        ).stdout.split()
        return sum(int(x) for x in out) / 1024

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(3)  # QUIT: gunicorn's quick shutdown
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def latencies(port, path, n=20, token=None) -> list[float]:
    out = []
    for _ in range(n):
        start = time.perf_counter()
        status, _ = call(port, "GET", path, token=token)
        out.append(time.perf_counter() - start)
        assert status == 200, status
    return out


def ms(values) -> str:
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
    p50 = statistics.median(values)
    return f"p50 {p50 * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, max {values[-1] * 1000:.1f} ms"


def host(number):
    """The address of the ``number``-th host (127.0.2.x, apart from the phones')."""
    return f"127.0.2.{number % 250 + 1}"


def make_table(port, players=5, source="127.0.0.1"):
    """A table and its seats' tokens, made from ``source`` (the host's address: the
    server limits how many tables one address creates a minute, so a run that makes
    dozens spreads them over addresses, as a venue's hosts are)."""
    body = {"game": PLAYED["game"], "players": players}
    status, table = call(port, "POST", "/api/tables", body, source=source)
    assert status == 201, table
    tokens = []
    for seat in range(players):
        status, joined = call(
            port,
            "POST",
            f"/api/tables/{table['code']}/seats",
            {"name": f"P{seat}"},
            source=source,
        )
        assert status == 201, joined
        tokens.append(joined["token"])
    return table["code"], tokens


class Stream:
    """An open event stream, read in its own greenlet; ``on_version(version)`` per event."""

    def __init__(self, port, path, source="127.0.0.1", on_version=None):
        self.sock = socket.create_connection(
            ("127.0.0.1", port), timeout=120, source_address=(source, 0)
        )
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        self.file = self.sock.makefile("rb")
        self.status = int(self.file.readline().split()[1])
        self.on_version = on_version
        self.reader = gevent.spawn(self.read) if self.status == 200 else None

    def read(self):
        name = None
        try:
            for raw in self.file:
                line = raw.decode().rstrip("\r\n")
                if line.startswith("event: "):
                    name = line[7:]
                elif line.startswith("data: ") and name == "version" and self.on_version:
                    self.on_version(json.loads(line[6:])["version"])
        except (OSError, ValueError):
            pass

    def close(self):
        if self.reader is not None:
            self.reader.kill(block=True, timeout=1)
        self.sock.close()


def ticket(port, code, token=None, source="127.0.0.1"):
    status, body = call(port, "POST", f"/api/tables/{code}/stream-ticket", {}, token, source)
    assert status == 200, body
    return body["events_url"]


def during_load(port, code, token, load) -> list[float]:
    """Latencies of 10 normal requests made while ``load`` (greenlets) runs."""
    during = []

    def normal():
        for _ in range(10):
            t0 = time.perf_counter()
            status, _ = call(port, "GET", f"/api/tables/{code}/view", token=token)
            during.append(time.perf_counter() - t0)
            assert status == 200
            gevent.sleep(0.05)

    checker = gevent.spawn(normal)
    gevent.joinall(load, timeout=60)
    checker.join(60)
    return during


def no_credential(server, code, token, base):
    """300 credential-less streams at once (kept open afterwards), then 300 connections
    that send nothing, each with normal requests meanwhile."""
    port = server.port
    statuses = []
    kept = []

    def refused():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", f"/api/tables/{code}/events", headers={"Accept": "text/event-stream"})
        response = conn.getresponse()
        statuses.append(response.status)
        response.read()
        kept.append(conn)  # left open (an idle keep-alive connection)

    def quiet():
        with contextlib.suppress(OSError):
            kept.append(socket.create_connection(("127.0.0.1", port), timeout=30))

    start = time.perf_counter()
    during = during_load(port, code, token, [gevent.spawn(refused) for _ in range(300)])
    took = time.perf_counter() - start
    ratio = statistics.median(during) / statistics.median(base)
    print(
        f"  300 streams without a credential at once: {statuses.count(401)}/300 answered 401"
        f" in {took:.2f} s; normal requests meanwhile: {ms(during)};"
        f" all within 1 s: {max(during) < 1.0} (p50 {ratio:.2f}x the baseline)"
    )
    during = during_load(port, code, token, [gevent.spawn(quiet) for _ in range(300)])
    after = latencies(port, f"/api/tables/{code}/view", 10, token)
    print(
        f"  + 300 connections that send nothing: normal requests meanwhile {ms(during)};"
        f" all within 1 s: {max(during) < 1.0}; afterwards, all 600 held: {ms(after)}"
    )
    for conn in kept:
        conn.close()


def idle_streams(server, n, base_path, token, base):
    port = server.port
    smallest = GAMES[PLAYED["game"]].min_players
    tables = [make_table(port, smallest, host(i)) for i in range(max(1, n // 40 + 1))]
    held = []
    addresses = [f"127.0.1.{i}" for i in range(1, 255)]
    rss_before = server.worker_rss_mb()
    start = time.perf_counter()
    pool = Pool(200)

    def open_one(i):
        code, _ = tables[i // 40]
        source = addresses[i // 150]
        url = ticket(port, code, None, source)
        stream = Stream(port, url, source)
        held.append(stream)
        return stream.status

    statuses = pool.map(open_one, range(n))
    opened = time.perf_counter() - start
    gevent.sleep(1)
    rss = server.worker_rss_mb()
    during = latencies(port, base_path, 20, token)
    print(
        f"  {statuses.count(200)}/{n} authenticated idle streams opened in {opened:.1f} s"
        " on one worker;"
        f" server memory {rss_before:.0f} -> {rss:.0f} MB"
        f" ({(rss - rss_before) * 1024 / max(1, n):.1f} KB a stream)"
    )
    print(
        f"  normal requests with them held: {ms(during)}"
        f" (p50 {statistics.median(during) / statistics.median(base):.2f}x the baseline)"
    )
    return held


def delivery(server, tables_n, moves):
    port = server.port
    tables = Pool(20).map(lambda i: make_table(port, 5, host(i)), range(tables_n))
    # (code, version) -> [move sent, move answered, -, event delays, refetched-view delays]
    waiting = {}
    streams = []

    def phone(code, token, source):
        def on_version(version):
            item = waiting.get((code, version))
            if item is None:
                return
            item[3].append(time.perf_counter() - item[0])
            call(
                port,
                "GET",
                f"/api/tables/{code}/view?private={version}",
                token=token,
                source=source,
            )
            item[4].append(time.perf_counter() - item[0])

        streams.append(Stream(port, ticket(port, code, token, source), source, on_version))

    jobs = []
    for t, (code, tokens) in enumerate(tables):
        for seat, token in enumerate(tokens):
            jobs.append(gevent.spawn(phone, code, token, f"127.0.2.{1 + (t * 5 + seat) % 250}"))
    gevent.joinall(jobs)
    ok = sum(s.status == 200 for s in streams)
    gevent.sleep(0.5)

    def play(code, tokens):
        gevent.sleep(random.uniform(0, 2.0))  # tables do not move in step
        for _ in range(moves):
            _, public = call(port, "GET", f"/api/tables/{code}/view")
            seat = public["to_act"][0]
            _, mine = call(port, "GET", f"/api/tables/{code}/view", token=tokens[seat])
            item = [0.0, 0.0, 0, [], []]
            waiting[(code, mine["version"] + 1)] = item
            item[0] = time.perf_counter()
            status, after = call(
                port,
                "POST",
                f"/api/tables/{code}/actions",
                {"action": mine["legal"][0], "version": mine["version"]},
                tokens[seat],
            )
            item[1] = time.perf_counter()  # the move's answer
            posts.append(item[1] - item[0])
            assert status == 200, after
            gevent.sleep(2.0)  # a move every ~2 s per table

    posts = []
    gevent.joinall([gevent.spawn(play, c, tk) for c, tk in tables])
    gevent.sleep(2)
    events = [x for item in waiting.values() for x in item[3]]
    # the streams' own share: from the move's answer to each phone's event
    after_answer = [
        max(0.0, x - (item[1] - item[0])) for item in waiting.values() for x in item[3] if item[1]
    ]
    views = [x for item in waiting.values() for x in item[4]]
    expected = len(waiting) * 5
    print(
        f"  {tables_n} tables x 5 phones ({ok} streams), {moves} moves a table:"
        f" {len(events)}/{expected} events delivered"
    )
    if events:
        print(f"  the move's own POST: {ms(posts)}")
        print(f"  move -> every phone's event: {ms(events)}")
        print(f"  the move's answer -> every phone's event: {ms(after_answer)}")
        print(f"  move -> every phone's refetched view: {ms(views)}")
    for s in streams:
        s.close()


def run(server, args, idle: bool):
    print(f"\n== {server.name} ==")
    code, tokens = make_table(server.port, 5)
    path = f"/api/tables/{code}/view"
    base = latencies(server.port, path, 30, tokens[0])
    print(f"  baseline (a seat's view, alone): {ms(base)}")
    if not idle:
        no_credential(server, code, tokens[0], base)
        delivery(server, args.tables, args.moves)
        return
    held = idle_streams(server, args.idle, path, tokens[0], base)
    delivery(server, max(1, args.tables // 5), args.moves)
    for s in held:
        s.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--idle", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--moves", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2, help="scaled server's workers")
    parser.add_argument("--game", default=PLAYED["game"], choices=sorted(GAMES))
    parser.add_argument("--skip-default", action="store_true")
    parser.add_argument("--skip-scaled", action="store_true")
    args = parser.parse_args()
    PLAYED["game"] = args.game
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update({"SECRET_KEY": "bench", "PYTHONPATH": str(ROOT)})
    tmp = tempfile.mkdtemp()
    if not args.skip_scaled:
        import psycopg

        schema = f"bench_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(PG_DSN, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
        scaled_env = dict(
            env,
            REDIS_URL=REDIS,
            DATABASE_URL=f"postgresql://127.0.0.1:5432/test?options=-csearch_path%3D{schema}",
        )
        command = [str(BIN / "gunicorn"), "--bind", "127.0.0.1:PORT", "wsgi:app"]
        try:
            for workers, idle in ((args.workers, False), (1, True)):
                server = Server(
                    f"scaled: gunicorn -c gunicorn.conf.py (gevent), {workers} worker(s),"
                    " PostgreSQL + Redis" + (", idle streams" if idle else ""),
                    command,
                    dict(scaled_env, WEB_CONCURRENCY=str(workers)),
                )
                try:
                    run(server, args, idle)
                finally:
                    server.stop()
        finally:
            with psycopg.connect(PG_DSN, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
    if not args.skip_default:
        default_env = dict(env, DATABASE_URL=f"sqlite:///{tmp}/bench.sqlite3")
        server = Server(
            "default: flask run (threaded, one process, SQLite)",
            [str(BIN / "flask"), "--app", "wsgi", "run", "--port", "PORT"],
            default_env,
        )
        try:
            run(server, args, False)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
