"""The generic random sweep, with this game's leak and conservation checks, and the bench."""

import importlib.util
from pathlib import Path

from tests.games.sweep import run_sweep

from .checks import conservation_check, leak_check
from .helpers import GAME

ROOT = Path(__file__).resolve().parents[3]


def options(players, chooser):
    pick = chooser.randrange(4)
    return None if pick == 0 else {"shots_to_lose": pick}


def test_random_sweep():
    totals = run_sweep(
        GAME,
        1000,
        [2],
        options=options,
        leak_check=leak_check,
        conservation_check=conservation_check,
    )
    assert totals["games"] == 1000
    assert totals["actions"] > 10_000


def test_the_engine_benchmark_covers_call_the_shot():
    spec = importlib.util.spec_from_file_location("bench_engines", ROOT / "bench" / "engines.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert "call_the_shot" in bench.GAMES
    per_action, per_game, games = bench.measure(GAME, 2, 0.05)
    assert games >= 1 and per_action > 0 and per_game > 0
