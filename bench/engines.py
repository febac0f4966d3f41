"""Random-playout speed of every registered engine.

    python bench/engines.py [--seconds 3]

For each game and player count: actions per second and games per second over uniformly
random legal play (the same driver as the test sweep, without its checks). The first line
is a baseline measured in the same run (a pure-Python loop of fixed work), and each game's
figure is also given as a ratio to it, so runs on noisy machines can be compared.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games import GAMES  # noqa: E402


def baseline(seconds: float) -> float:
    """Loops per second of a fixed pure-Python workload (list shuffles and sorts)."""
    gen = random.Random(0)
    data = list(range(52))
    loops, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        gen.shuffle(data)
        sorted(data)
        loops += 1
    return loops / (time.perf_counter() - start)


def playout(game, players: int, seed: int) -> int:
    chooser = random.Random(seed)
    state = game.new_state(players, seed=seed)
    while not state.is_over():
        seat = chooser.choice(state.to_act())
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
    return len(state.log)


def measure(game, players: int, seconds: float) -> tuple[float, float, int]:
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions += playout(game, players, games)
        games += 1
    elapsed = time.perf_counter() - start
    return actions / elapsed, games / elapsed, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--game", action="append", help="only these slugs")
    args = parser.parse_args()

    base = baseline(args.seconds)
    print(f"baseline: {base:,.0f} loops/s (shuffle+sort of 52)")
    print(f"{'game':<15}{'players':>8}{'actions/s':>12}{'games/s':>10}{'games':>7}{'ratio':>9}")
    for slug, game in GAMES.items():
        if args.game and slug not in args.game:
            continue
        for players in range(game.min_players, game.max_players + 1):
            try:
                per_action, per_game, games = measure(game, players, args.seconds)
            except NotImplementedError:
                print(f"{slug:<15}{players:>8}  (engine not built yet)")
                break
            ratio = per_action / base
            print(
                f"{slug:<15}{players:>8}{per_action:>12,.0f}{per_game:>10,.1f}"
                f"{games:>7}{ratio:>9.3f}"
            )


if __name__ == "__main__":
    main()
