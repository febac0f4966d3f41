"""``bench/move_floor.py`` still runs: the floor app served as the README's scaled line
serves the app (gunicorn reading ``gunicorn.conf.py``, gevent workers, PostgreSQL and
Redis), a few phones hold their streams and every move reaches every one of them. Its
figures are for ``bench/README.md``; here only that it works end to end."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.scale


def test_the_floor_bench_delivers_every_move_to_every_phone(postgres_url, redis_url):
    command = [sys.executable, str(ROOT / "bench" / "move_floor.py")]
    command += ["--tables", "3", "--phones", "5", "--seconds", "2", "--interval", "0.5"]
    command += ["--idle", "0", "--grace", "2", "--open-timeout", "60"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    found = re.search(r"moves (\d+), events delivered ([\d.]+) %, 5xx (\d+)", done.stdout)
    assert found, done.stdout
    moves, delivered, errors = int(found.group(1)), float(found.group(2)), int(found.group(3))
    assert moves >= 6 and delivered == 100.0 and errors == 0
    assert re.search(r"server CPU while playing .*: [\d.]+ ms per move", done.stdout)
