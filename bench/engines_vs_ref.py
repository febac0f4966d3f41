"""Random-playout speed of engines in this tree against the same engines at a git ref,
and against OpenSpiel's ``oh_hell``, all in one run.

    PYTHONPATH=. python bench/engines_vs_ref.py --game SLUG [--game SLUG ...] \\
        [--ref main] [--overlay engines1:companion/games/base.py] [--seconds 2] [--rounds 2] [--ids]

``--ref`` names the code to compare with (``git archive`` of its ``companion`` folder);
``--overlay REF:PATH`` puts one file of another ref into *both* trees first (e.g. a
``base.py`` that is being changed on another branch), so that only the engines differ.
Each measurement runs in its own process, the trees one after the other, ``--rounds``
times; the best of each is kept (the least disturbed by other work on the machine), and
rates are per CPU second of the measuring process. ``--ids`` drives the integer action
path (``legal_ids`` / ``apply_id``, as bench/engines.py judges the goals), else the
dict path. The driver is the one of
``bench/engines.py``: a uniformly random legal action of a seat to act, until the game is
over. ``oh_hell`` (``pip install -e '.[bench]'``) is played by the same driver; its deals
are chance nodes, played in its time but not counted (our engines deal inside ``apply``).
Two-player games are compared with its 3-player game.
The ``(no-op engine)`` line is a game whose actions do nothing, played by the same driver
through this tree's ``base.py``: the most any engine could reach here.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def playout(game, players: int, seed: int) -> int:
    import random

    chooser = random.Random(seed)
    state = game.new_state(players, seed=seed)
    actions = 0
    while not state.is_over():
        seat = chooser.choice(state.to_act())
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
        actions += 1
    return actions


def id_playout(game, players: int, seed: int) -> int:
    """:func:`playout` through the integer action path (``legal_ids`` / ``apply_id``), the
    path bench/engines.py judges the goals on (``--ids``)."""
    import random

    chooser = random.Random(seed)
    state = game.new_state(players, seed=seed)
    actions = 0
    while not state.is_over():
        seats = state.to_act()
        seat = seats[0] if len(seats) == 1 else chooser.choice(seats)
        state.apply_id(seat, chooser.choice(state.legal_ids(seat)))
        actions += 1
    return actions


def oh_hell_playout(game, seed: int) -> int:
    import random

    chooser = random.Random(seed)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        decisions += not state.is_chance_node()
        state.apply_action(chooser.choice(state.legal_actions()))
    return decisions


def measure(run, seconds: float) -> float:
    """Actions per CPU second of this process (``time.process_time``: on a machine
    shared with other work, wall time counts their share too)."""
    actions = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        actions += run(games)
        games += 1
    return actions / (time.process_time() - start)


def noop_game():
    """A game whose actions do nothing (200 a game, two legal ones each time): what
    ``base.py``'s contract and the driver cost by themselves, the floor of every engine."""
    from companion.games.base import Game, State

    class Noop(State):
        def _setup(self) -> None:
            self.done = 0

        def is_over(self) -> bool:
            return self.done >= 200

        def _to_act(self) -> list[int]:
            return [self.done % self.players]

        def _legal(self, seat: int) -> list[dict]:
            return [{"type": "play", "card": "a"}, {"type": "play", "card": "b"}]

        def _is_legal(self, seat: int, action: dict) -> bool:
            return action in self._legal(seat)

        def _apply(self, seat: int, action: dict) -> None:
            self.done += 1

    class NoopGame(Game):
        state_class = Noop

        def new_state(self, players, options=None, seed=None, deal=None):
            return self.start(players, {}, seed or 0, None)

    return NoopGame()


def worker(name: str, players: int, seconds: float) -> None:
    """Print actions/s of one game in this process's tree: a registered slug, ``noop``
    (:func:`noop_game`) or ``oh_hell``."""
    others = {"noop": noop_game, "oh_hell": None}
    if name not in others:
        from companion.games import GAMES

        game = GAMES[name]
        drive = id_playout if os.environ.get("BENCH_IDS") else playout
        rate = measure(lambda seed: drive(game, players, seed), seconds)
    elif others[name] is not None:
        game = others[name]()
        rate = measure(lambda seed: playout(game, players, seed), seconds)
    else:
        import pyspiel

        oh_hell = pyspiel.load_game("oh_hell", {"players": max(3, players)})
        rate = measure(lambda seed: oh_hell_playout(oh_hell, seed), seconds)
    print(json.dumps(rate))


def export(ref: str | None, into: Path, overlays: list[str]) -> Path:
    """``companion`` of ``ref`` (None: this working tree) in ``into``, overlays applied."""
    into.mkdir(parents=True)
    if ref is None:
        shutil.copytree(ROOT / "companion", into / "companion")
    else:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", ref, "companion"],
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    for overlay in overlays:
        other, path = overlay.split(":", 1)
        text = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{other}:{path}"], check=True, capture_output=True
        ).stdout
        (into / path).write_bytes(text)
    return into


def run(tree: Path, slug: str, players: int, seconds: float) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, __file__, "--worker", slug, str(players), str(seconds)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=tree,
    ).stdout
    return float(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", default=[], help="a slug (repeatable)")
    parser.add_argument("--ref", default="main", help="the code to compare with")
    parser.add_argument("--overlay", action="append", default=[], help="REF:PATH, both trees")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--rounds", type=int, default=2, help="measurements of each (best)")
    parser.add_argument("--players", type=int, action="append", help="only these counts")
    parser.add_argument("--ids", action="store_true", help="the integer action path")
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        slug, players, seconds = args.worker
        worker(slug, int(players), float(seconds))
        return
    if not args.game:
        parser.error("name at least one --game")
    if args.ids:
        os.environ["BENCH_IDS"] = "1"  # the workers inherit it

    sys.path.insert(0, str(ROOT))
    from companion.games import GAMES

    with tempfile.TemporaryDirectory() as tmp:
        trees = {
            args.ref: export(args.ref, Path(tmp) / "ref", args.overlay),
            "this tree": export(None, Path(tmp) / "this", args.overlay),
        }
        overlays = f" (both with {', '.join(args.overlay)})" if args.overlay else ""
        path = "id path" if args.ids else "dict path"
        print(f"ref = {args.ref}{overlays}; {path}; best of {args.rounds} x {args.seconds}s each")
        print(
            f"{'game':<15}{'players':>8}{'oh_hell/s':>11}{'ref/s':>10}{'this/s':>10}"
            f"{'this/ref':>10}{'ref/oh':>8}{'this/oh':>9}"
        )
        floor = max(run(trees["this tree"], "noop", 3, args.seconds) for _ in range(args.rounds))
        print(f"{'(no-op engine)':<15}{3:>8}{'':>11}{'':>10}{floor:>10,.0f}")
        for slug in args.game:
            game = GAMES[slug]
            for players in range(game.min_players, game.max_players + 1):
                if args.players and players not in args.players:
                    continue
                best = {"oh_hell": 0.0, args.ref: 0.0, "this tree": 0.0}
                for _ in range(args.rounds):
                    best["oh_hell"] = max(
                        best["oh_hell"], run(trees[args.ref], "oh_hell", players, args.seconds)
                    )
                    for name, tree in trees.items():
                        best[name] = max(best[name], run(tree, slug, players, args.seconds))
                oh, ref, this = best["oh_hell"], best[args.ref], best["this tree"]
                print(
                    f"{slug:<15}{players:>8}{oh:>11,.0f}{ref:>10,.0f}{this:>10,.0f}"
                    f"{this / ref:>9.2f}x{ref / oh:>7.2f}x{this / oh:>8.2f}x"
                )


if __name__ == "__main__":
    main()
