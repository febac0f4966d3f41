"""psycopg's wait on a gevent watcher (``companion/greenwait.py``), in a gevent-patched
process of its own (this one must stay unpatched): statements, a reply of many reads and
an error come back as with psycopg's own wait, and other greenlets run meanwhile."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = """
from gevent import monkey

monkey.patch_all()

import json, sys
import gevent, psycopg
from psycopg import waiting
from companion import greenwait

greenwait.install()
ticks = []


def ticker():
    while True:
        ticks.append(1)
        gevent.sleep(0.01)


def run(dsn):
    with psycopg.connect(dsn, autocommit=True) as conn:
        before = len(ticks)
        slept = conn.execute("SELECT pg_sleep(0.2), %s::int", (7,)).fetchone()[1]
        during = len(ticks) - before
        rows = [conn.execute("SELECT %s::int * 2", (i,)).fetchone()[0] for i in range(8)]
        long = len(conn.execute("SELECT repeat('x', 3000000)").fetchone()[0])
        try:
            conn.execute("SELECT 1 / 0")
            error = None
        except psycopg.errors.DivisionByZero:
            error = "division"
        after = conn.execute("SELECT 'still here'").fetchone()[0]
    return {"slept": slept, "during": during, "rows": rows, "long": long, "error": error,
            "after": after, "ours": waiting.wait is greenwait.wait}


gevent.spawn(ticker)
print(json.dumps(gevent.spawn(run, sys.argv[1]).get()))
"""


def test_psycopg_waits_on_a_gevent_watcher(postgres_url):
    dsn = "host=127.0.0.1 port=5432 dbname=test"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, dsn], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer["ours"] is True
    assert answer["slept"] == 7 and answer["during"] > 0  # the ticker ran during the wait
    assert answer["rows"] == [2 * i for i in range(8)]
    assert answer["long"] == 3_000_000
    assert answer["error"] == "division" and answer["after"] == "still here"


pytestmark = pytest.mark.scale
