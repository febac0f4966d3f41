"""Machine instructions per action of the engines' random playouts against OpenSpiel's
``oh_hell``, counted by valgrind: a figure the machine's other work does not move.

    apt-get install -y valgrind; pip install -e '.[bench]'
    PYTHONPATH=. python bench/instructions.py [--game SLUG ...] [--players N ...]
                                              [--games 40] [--warmup 100] [--tree DIR ...]

One process under ``valgrind --tool=callgrind`` per tree (this one unless ``--tree``
names others, e.g. an older commit exported with ``git archive C | tar -x -C DIR``: this
script drives each tree's own ``companion`` with this file's drivers, which are
``bench/engines.py``'s). In it every case (a game and a player count, and ``oh_hell`` with
each player count the games are compared with) first plays ``--warmup`` seeded games
uncounted (other seeds, as ``bench/engines.py`` warms up, so an engine's caches are as a
running server's), then ``--games`` seeded games counted: only the calls made inside
``ffi_call`` are counted (``--toggle-collect``), and the counted games are called through
a ``ctypes`` callback, which nothing else in a playout uses; ``--dump-after`` writes each
case's count apart. So the import and the interpreter's start count nowhere, and all the
cases share one start (valgrind's start of a Python with ``pyspiel`` costs about a minute).
``PYTHONHASHSEED=0`` keeps dictionaries alike from run to run: the counts repeat.

The ratio is ``oh_hell``'s instructions per decision over the engine's per action (above
1: the engine does less work), ``oh_hell`` with the same number of players, or 3 below
that (as ``bench/engines.py`` compares). The time ratios of ``bench/engines.py`` come out
lower than this one: an interpreted instruction of ours costs more time than a compiled
one of ``oh_hell``'s (bench/README.md).
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OH_HELL = "oh_hell"
#: Seeds of the warm-up games (bench/engines.py's WARMUP_SEEDS): far from the counted ones.
WARMUP_SEEDS = 10**9


def _drivers():
    """bench/engines.py's two playout drivers (imported from this tree's bench/, which
    the tree measured need not have)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from engines import id_playout, oh_hell_playout

    return id_playout, oh_hell_playout


def inner(cases: list[tuple[str, int]], games: int, warmup: int) -> None:
    """Under valgrind: play each case's warm-up games, then its counted ones inside a
    ctypes callback; print each case's actions, in order."""
    import ctypes

    from companion.games import GAMES  # the tree's (PYTHONPATH), before bench/engines.py

    id_playout, oh_hell_playout = _drivers()

    for name, players in cases:
        if name == OH_HELL:
            import pyspiel

            loaded = pyspiel.load_game(OH_HELL, {"players": players})

            def play(seed: int, loaded=loaded) -> int:
                return oh_hell_playout(loaded, seed)
        else:

            def play(seed: int, game=GAMES[name], players=players) -> int:
                return id_playout(game, players, seed)

        for seed in range(WARMUP_SEEDS, WARMUP_SEEDS + warmup):
            play(seed)
        done = []

        def counted(play=play, done=done) -> int:
            done.append(sum(map(play, range(games))))
            return 0

        ctypes.CFUNCTYPE(ctypes.c_int)(counted)()  # the one counted call: ffi_call
        print(f"actions {name} {players} {done[0]}", flush=True)


def count(tree: Path, cases: list[tuple[str, int]], games: int, warmup: int) -> list[tuple]:
    """[(name, players, instructions, actions)] of every case, counted in one run."""
    with tempfile.TemporaryDirectory(prefix="instructions.") as folder:
        out = os.path.join(folder, "callgrind.out")
        command = [
            "valgrind",
            "--tool=callgrind",
            "--collect-atstart=no",
            "--toggle-collect=ffi_call",
            "--dump-after=ffi_call",
            "--dump-line=no",
            "--compress-strings=no",
            f"--callgrind-out-file={out}",
            sys.executable,
            __file__,
            "--inner",
            str(games),
            str(warmup),
            *(f"{name}:{players}" for name, players in cases),
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(tree)}
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        if done.returncode:
            raise SystemExit(f"valgrind failed:\n{done.stderr[-3000:]}")
        actions = re.findall(r"^actions (\S+) (\d+) (\d+)$", done.stdout, re.MULTILINE)
        dumps = sorted(glob.glob(out + ".*"), key=lambda path: int(path.rsplit(".", 1)[1]))
        totals = []
        # ctypes' import makes a few calls of its own (about 1,000 instructions each),
        # before the first case: each case's count is one of the last dumps.
        for path in dumps[len(dumps) - len(cases) :]:
            text = Path(path).read_text()
            found = re.search(r"^(?:totals|summary):\s*(\d+)", text, re.MULTILINE)
            totals.append(int(found.group(1)))
    if len(dumps) < len(cases) or len(actions) != len(cases):
        raise SystemExit(f"expected {len(cases)} counts, got {len(dumps)} and {len(actions)}")
    return [
        (name, int(players), total, int(made))
        for (name, players, made), total in zip(actions, totals, strict=True)
    ]


def oh_hell_players(players: int) -> int:
    return min(max(players, 3), 7)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--inner":
        games, warmup, *specs = sys.argv[2:]
        cases = [(spec.split(":")[0], int(spec.split(":")[1])) for spec in specs]
        inner(cases, int(games), int(warmup))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game's slug (default: every game)")
    parser.add_argument(
        "--players", action="append", type=int, help="only these player counts (default: all)"
    )
    parser.add_argument("--games", type=int, default=40, help="counted games per case")
    parser.add_argument("--warmup", type=int, default=100, help="uncounted games first")
    parser.add_argument(
        "--tree", action="append", type=Path, help="a source tree to count (default: this one)"
    )
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from companion.games import GAMES

    slugs = args.game or list(GAMES)
    cases = [
        (slug, players)
        for slug in slugs
        for players in range(GAMES[slug].min_players, GAMES[slug].max_players + 1)
        if not args.players or players in args.players
    ]
    bases = sorted({oh_hell_players(players) for _, players in cases})
    cases += [(OH_HELL, players) for players in bases]
    print(f"{args.games} counted games a case after {args.warmup} uncounted; id path")
    print("| tree | game | players | actions | instructions per action | oh_hell / this |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for tree in args.tree or [ROOT]:
        tree = tree.resolve()
        counts = count(tree, cases, args.games, args.warmup)
        per = {(name, players): total / made for name, players, total, made in counts}
        for name, players, _, made in counts:
            base = per[(OH_HELL, oh_hell_players(players))]
            ratio = "" if name == OH_HELL else f"{base / per[(name, players)]:.3f}x"
            print(
                f"| {tree.name} | {name} | {players} | {made} | {per[(name, players)]:,.0f} "
                f"| {ratio} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
