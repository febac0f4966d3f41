"""The engine benchmark covers Call the Shot (the shared sweep in tests/games/test_sweep.py
plays it with this game's checks)."""

import importlib.util
from pathlib import Path

from .helpers import GAME

ROOT = Path(__file__).resolve().parents[3]


def test_the_engine_benchmark_covers_call_the_shot():
    spec = importlib.util.spec_from_file_location("bench_engines", ROOT / "bench" / "engines.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert "call_the_shot" in bench.GAMES
    per_action, per_game, games = bench.measure(lambda seed: bench.playout(GAME, 2, seed), 0.05)
    assert games >= 1 and per_action > 0 and per_game > 0
