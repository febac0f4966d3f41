"""Machine instructions per action of an engine's random playouts against OpenSpiel's
``oh_hell``, counted by cachegrind: a figure the machine's noise does not move.

    apt-get install -y valgrind; pip install -e '.[bench]'
    PYTHONPATH=. python bench/instructions.py --game SLUG [--players 2] [--games 100]
                                              [--dealing N] [--warmup 300]

Each side runs under ``valgrind --tool=cachegrind`` twice, with no playout and with
``--games`` seeded playouts through ``bench/engines.py``'s own drivers, both after the same
``--warmup`` games (other seeds, as ``bench/engines.py`` warms up), so the import, the
interpreter's start and the filling of an engine's caches cancel out: the figure is the
steady cost of an action; ``PYTHONHASHSEED=0`` keeps both runs' dictionaries
alike. ``oh_hell`` plays with the same number of players, or 3 below that (as
``bench/engines.py`` compares). The ratio is ``oh_hell``'s instructions per decision over
the engine's per action: above 1 the engine does less work. Time ratios come out lower
than this one on this machine (bench/README.md, fifth session): an interpreted
instruction costs more time than a compiled one.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

ROOT = Path(__file__).resolve().parent.parent
OH_HELL = "oh_hell"


def playouts(name: str, players: int, games: int, dealing: int | None, warmup: int) -> int:
    """Play ``warmup`` seeded random games of ``name`` (a slug, or ``oh_hell``) uncounted,
    then ``games`` others: one side of a count; returns the actions of the ``games``."""
    from engines import WARMUP_SEEDS, id_playout, oh_hell_playout

    if name == OH_HELL:
        import pyspiel

        loaded = pyspiel.load_game(OH_HELL, {"players": players})

        def play(seed: int) -> int:
            return oh_hell_playout(loaded, seed)
    else:
        from companion.games import GAMES

        def play(seed: int) -> int:
            return id_playout(GAMES[name], players, seed, dealing)

    for seed in range(WARMUP_SEEDS, WARMUP_SEEDS + warmup):
        play(seed)
    return sum(play(seed) for seed in range(games))


def counted(
    game: str, players: int, games: int, dealing: int | None, warmup: int
) -> tuple[int, int]:
    """(instructions, actions) of one run under cachegrind."""
    command = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--inner",
        game,
        str(players),
        str(games),
        "" if dealing is None else str(dealing),
        str(warmup),
    ]
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    actions = re.search(r"^actions (\d+)$", done.stdout, re.MULTILINE)
    if refs is None or actions is None:
        raise SystemExit(f"cachegrind gave no count:\n{done.stderr[-2000:]}")
    return int(refs.group(1).replace(",", "")), int(actions.group(1))


def per_action(
    game: str, players: int, games: int, dealing: int | None, warmup: int = 0
) -> tuple[float, int]:
    base, _ = counted(game, players, 0, dealing, warmup)
    total, actions = counted(game, players, games, dealing, warmup)
    return (total - base) / actions, actions


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--inner":
        game, players, games, dealing, warmup = sys.argv[2:7]
        dealt = int(dealing) if dealing else None
        count = playouts(game, int(players), int(games), dealt, int(warmup))
        print(f"actions {count}")
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, help="a game's slug")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--dealing", type=int, default=None, help="a way of dealing")
    parser.add_argument(
        "--warmup", type=int, default=300, help="games played first in both runs of a side"
    )
    args = parser.parse_args()
    oh_players = max(args.players, 3)
    ours, actions = per_action(args.game, args.players, args.games, args.dealing, args.warmup)
    theirs, decisions = per_action(OH_HELL, oh_players, args.games, None, args.warmup)
    way = "newest" if args.dealing is None else args.dealing
    print("| engine | players | dealing | actions | instructions per action |")
    print("| --- | ---: | --- | ---: | ---: |")
    print(f"| {args.game} | {args.players} | {way} | {actions} | {ours:,.0f} |")
    print(f"| oh_hell | {oh_players} | | {decisions} | {theirs:,.0f} |")
    print(f"\noh_hell's instructions per decision / {args.game}'s per action: {theirs / ours:.2f}x")


if __name__ == "__main__":
    main()
