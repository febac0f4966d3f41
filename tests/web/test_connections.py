"""Open connections per client address (companion/connections.py): `flask run`'s server
and gunicorn's gevent workers answer a connection past the bound with a clear 429 at once,
and serve again as soon as connections close. Loopback only."""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler, make_server

from companion import connections

ROOT = Path(__file__).resolve().parents[2]
HALF = b"GET /offline HTTP/1.1\r\nHost: 127.0.0.1\r\n"  # a request never finished


def get(port: int, timeout: float = 5.0) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(b"GET /offline HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
        return b"".join(chunks)


def test_the_count_is_per_address():
    counted = connections.PerAddress(2)
    assert counted.enter("198.51.100.1") and counted.enter("198.51.100.1")
    assert not counted.enter("198.51.100.1")
    assert counted.enter("203.0.113.1")  # another client is not affected
    counted.leave("198.51.100.1")
    assert counted.enter("198.51.100.1")
    assert counted.refused == 1
    assert connections.PerAddress(0).enter("x")  # 0: no bound


def test_the_setting_is_off_behind_a_proxy():
    assert connections.per_address({}) == connections.PER_ADDRESS
    assert connections.per_address({"PROXY_HOPS": "1"}) == 0
    assert connections.per_address({"PROXY_HOPS": "1", "CONNECTIONS_PER_ADDRESS": "9"}) == 9


@pytest.fixture
def dev_server(make_app, monkeypatch):
    """The app under Werkzeug's threaded server (as `flask run`), bounded at 3."""
    monkeypatch.setattr(WSGIRequestHandler, "timeout", None)
    app = make_app(CONNECTIONS_PER_ADDRESS=3, CONNECTION_TIMEOUT=2)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    assert isinstance(server, ThreadedWSGIServer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_port
    server.shutdown()
    server.server_close()
    connections.bound_development_server(connections.PER_ADDRESS)


def answers_429_past_the_bound_then_serves_again(port: int) -> None:
    """Three half-sent requests held from one address (the bound is 3): the next connection
    is answered 429 at once, and once they close the server serves again."""
    held = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(3)]
    for sock in held:
        sock.sendall(HALF)
    # The server counts a connection when it accepts it: wait until all three are held.
    deadline = time.monotonic() + 10
    while not (answer := get(port)).startswith(b"HTTP/1.1 429 "):
        assert time.monotonic() < deadline, answer[:80]
        time.sleep(0.1)
    assert b"Retry-After: 5" in answer and b"Too many connections" in answer
    for sock in held:
        sock.close()
    deadline = time.monotonic() + 10
    while b" 200 " not in get(port).split(b"\r\n")[0]:
        assert time.monotonic() < deadline, "the server did not serve again"
        time.sleep(0.05)


def test_flask_runs_server_answers_429_past_the_bound_then_serves_again(dev_server):
    answers_429_past_the_bound_then_serves_again(dev_server)


def test_a_silent_connection_is_let_go_after_the_timeout(dev_server):
    port = dev_server
    held = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(3)]
    for sock in held:
        sock.sendall(HALF)
    time.sleep(2.5)  # CONNECTION_TIMEOUT is 2 s: the half-sent requests were dropped
    assert get(port).startswith(b"HTTP/1.1 ")
    assert b" 429 " not in get(port).split(b"\r\n")[0]
    for sock in held:
        sock.close()


def test_gunicorns_worker_class_is_the_bounded_one():
    pytest.importorskip("gevent")
    spec = importlib.util.spec_from_file_location("gunicorn_conf", ROOT / "gunicorn.conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    from gunicorn.workers.ggevent import GeventWorker

    assert issubclass(conf.worker_class, GeventWorker)
    assert conf.worker_class.handle is not GeventWorker.handle


def test_gunicorn_parses_requests_with_its_c_parser():
    """gunicorn_h1c (the "scale" extra) is installed and gunicorn, set up by
    gunicorn.conf.py, takes it over its Python parser (about 20 us less a request)."""
    pytest.importorskip("gevent")
    from gunicorn.app.base import Application
    from gunicorn.http import message

    class Conf(Application):
        def init(self, parser, opts, args):
            return None

        def load_config(self):
            self.load_config_from_file(str(ROOT / "gunicorn.conf.py"))

        def load(self):  # pragma: no cover - never served
            return None

    cfg = Conf().cfg
    assert cfg.http_parser == "auto"
    assert message._check_fast_parser(cfg)


@pytest.fixture
def gunicorn_server(tmp_path):
    """The README's gunicorn line (``gunicorn wsgi:app``, reading ./gunicorn.conf.py), one
    worker on a loopback port, bounded at 3 connections per address."""
    pytest.importorskip("gevent")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = dict(
        os.environ,
        DATABASE_URL=f"sqlite:///{tmp_path / 'gunicorn.sqlite3'}",
        SECRET_KEY="test-connections",
        CONNECTIONS_PER_ADDRESS="3",
        RATELIMIT_ENABLED="0",
        BIND=f"127.0.0.1:{port}",
        WEB_CONCURRENCY="1",
    )
    for name in ("REDIS_URL", "PROXY_HOPS"):
        env.pop(name, None)
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "wsgi:app"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, "gunicorn stopped while starting"
            try:
                if b" 200 " in get(port, 2).split(b"\r\n")[0]:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.2)
        yield port
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def test_gunicorn_answers_429_past_the_bound_then_serves_again(gunicorn_server):
    answers_429_past_the_bound_then_serves_again(gunicorn_server)
