"""Real server processes (gunicorn with gevent workers, as the README's scaled command):
phones of one table held by two processes sharing PostgreSQL and Redis see every move;
gunicorn refuses several workers without ``REDIS_URL``."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = str(Path(sys.executable).with_name("gunicorn"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(env: dict, workers: int = 1) -> tuple[subprocess.Popen, int]:
    port = free_port()
    process = subprocess.Popen(
        [GUNICORN, "--workers", str(workers), "--bind", f"127.0.0.1:{port}", "wsgi:app"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    return process, port


def stop(process: subprocess.Popen) -> None:
    """Quick shutdown (gunicorn's QUIT): open streams are not waited for."""
    if process.poll() is None:
        process.send_signal(signal.SIGQUIT)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
    process.stderr.close()


def wait_up(process: subprocess.Popen, port: int, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(process.stderr.read().decode()[-2000:])
        try:
            status, _ = call(port, "GET", "/offline")
            if status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError("the server did not come up")


def call(port: int, method: str, path: str, body=None, token: str | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if body is not None:
        headers["Content-Type"] = "application/json"
    try:  # closed even when a slow server times the request out (an unclosed socket fails)
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = conn.getresponse()
        data = response.read()
    finally:
        conn.close()
    try:
        return response.status, json.loads(data)
    except ValueError:
        return response.status, data


class Stream:
    """One phone's event stream: reads ``version`` events as they come."""

    def __init__(self, port: int, path: str):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
        self.conn.request("GET", path, headers={"Accept": "text/event-stream"})
        self.response = self.conn.getresponse()
        assert self.response.status == 200, self.response.read()
        self.versions: list[int] = []

    def until(self, version: int) -> list[int]:
        name = None
        while not self.versions or self.versions[-1] < version:
            line = self.response.fp.readline().decode().rstrip("\n")
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: ") and name == "version":
                envelope = json.loads(line[6:])
                assert "hand" not in json.dumps(envelope["view"]) or envelope["seat"] is None
                self.versions.append(envelope["version"])
        return self.versions

    def close(self) -> None:
        self.conn.close()


def server_env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update({"SECRET_KEY": "two-servers-share-this-key", "PYTHONPATH": str(ROOT)})
    env.update(extra)
    return env


@pytest.mark.scale
def test_phones_held_by_two_server_processes_see_every_move(postgres_url, redis_url):
    env = server_env(DATABASE_URL=postgres_url, REDIS_URL=redis_url, WEB_CONCURRENCY="1")
    first = start_server(env)
    try:
        wait_up(*first)  # the first one brings the schema up; then the second starts
        second = start_server(env)
        try:
            wait_up(*second)
            ports = [first[1], second[1]]
            status, table = call(ports[0], "POST", "/api/tables", {"game": "shoot", "players": 4})
            assert status == 201, table
            code = table["code"]
            tokens = []
            for seat in range(4):
                status, joined = call(
                    ports[seat % 2], "POST", f"/api/tables/{code}/seats", {"name": f"P{seat}"}
                )
                assert status == 201, joined
                tokens.append(joined["token"])
            # each phone holds its stream on one of the two processes
            streams = []
            for seat in range(4):
                port = ports[seat % 2]
                status, ticket = call(
                    port, "POST", f"/api/tables/{code}/stream-ticket", {}, tokens[seat]
                )
                assert status == 200, ticket
                streams.append(Stream(port, ticket["events_url"]))
            status, env0 = call(ports[0], "GET", f"/api/tables/{code}/view")
            for stream in streams:
                assert stream.until(env0["version"])[-1] == env0["version"]
            moves = []
            for n in range(12):  # moves made on both processes in turn
                port = ports[n % 2]
                _, public = call(port, "GET", f"/api/tables/{code}/view")
                seat = public["to_act"][0]
                _, mine = call(port, "GET", f"/api/tables/{code}/view", token=tokens[seat])
                status, after = call(
                    port,
                    "POST",
                    f"/api/tables/{code}/actions",
                    {"action": mine["legal"][0], "version": mine["version"]},
                    tokens[seat],
                )
                assert status == 200, after
                moves.append(after["version"])
                for stream in streams:
                    stream.until(after["version"])
            for stream in streams:
                assert set(moves) <= set(stream.versions)
                stream.close()
        finally:
            stop(second[0])
    finally:
        stop(first[0])


def test_gunicorn_refuses_several_workers_without_redis(tmp_path):
    env = server_env(DATABASE_URL=f"sqlite:///{tmp_path / 'x.sqlite3'}")
    process, _ = start_server(env, workers=2)
    try:
        code = process.wait(30)
        message = process.stderr.read().decode()
    finally:
        stop(process)
    assert code != 0 and "without REDIS_URL" in message
