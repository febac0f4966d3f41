"""Random-playout speed of every registered engine against OpenSpiel's ``oh_hell``.

    pip install -e '.[bench]'        # open-spiel
    PYTHONPATH=. python bench/engines.py [--seconds 2] [--turns 10] [--game SLUG]
                                         [--goal SLUG=RATIO]

Every engine and ``oh_hell`` (driven through ``pyspiel``'s Python API in the same process)
are played by the same random-playout driver: pick a uniformly random legal action for a
seat to act, apply it, until the game is over. Our engines are driven twice: through the
integer action path (``legal_ids`` / ``apply_id``, as ``oh_hell`` is driven through its
integer ``legal_actions`` / ``apply_action``) and through the dict contract the API uses
(``legal_actions`` / ``apply``). Each line gives actions per second of both and their
ratios to ``oh_hell`` with the same number of players (``oh_hell`` needs 3 to 7: two-player
games are compared with its three-player game), measured in turns with the engine (``--turns``
short slices of each, alternately), so that a change of load on the machine hits both alike;
times are this process's CPU time, so other processes on a shared machine count less.
Each side first plays untimed for ``--warmup`` seconds (other seeds), as benchmarks warm
up: the figures are the rate a running server keeps, not its first second's.
``oh_hell`` deals through chance nodes: they are played in its time (uniformly, like every
deal here), but only players' decisions are counted as actions, as our engines deal
inside ``apply``.
Each line says whether the id path meets its goal: 0.5 times ``oh_hell`` unless ``--goal``
sets another for a game (issue 10 asks 1.0 of its fastest trick-taker; see bench/README.md).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games import GAMES  # noqa: E402

DEFAULT_GOAL = 0.5
OH_HELL_PLAYERS = range(3, 8)


def seat_to_act(state, choice) -> int:
    """The seat that acts next: the only one to act, as ``oh_hell``'s current player is
    (no draw: its driver draws only the action), else one of several acting at once
    (sealed choices), drawn at random like the order their phones' answers arrive."""
    seats = state.to_act()
    return seats[0] if len(seats) == 1 else choice(seats)


def id_playout(game, players: int, seed: int, dealing: int | None = None) -> int:
    """One game of uniformly random legal actions through the integer action path
    (``legal_ids`` / ``apply_id``, as ``oh_hell`` is driven), dealt the newest way unless
    ``dealing`` says; returns how many were applied."""
    choice = random.Random(seed).choice
    state = game.new_state(players, seed=seed, dealing=dealing)
    actions = 0
    while not state.is_over():
        seat = seat_to_act(state, choice)
        state.apply_id(seat, choice(state.legal_ids(seat)))
        actions += 1
    return actions


def playout(game, players: int, seed: int) -> int:
    """The same through the dict contract (``legal_actions`` / ``apply``), as the API
    and the views use it."""
    choice = random.Random(seed).choice
    state = game.new_state(players, seed=seed)
    actions = 0
    while not state.is_over():
        seat = seat_to_act(state, choice)
        state.apply(seat, choice(state.legal_actions(seat)))
        actions += 1
    return actions


def oh_hell_playout(game, seed: int) -> int:
    """The same driver on a ``pyspiel`` state; returns the players' decisions applied."""
    choice = random.Random(seed).choice
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        decisions += not state.is_chance_node()
        state.apply_action(choice(state.legal_actions()))
    return decisions


def check_uniform_chance(game) -> None:
    """Choosing a chance node's outcome uniformly is fair only if its outcomes are."""
    state = game.new_initial_state()
    while state.is_chance_node():
        odds = {p for _, p in state.chance_outcomes()}
        assert max(odds) - min(odds) < 1e-9, "oh_hell has a non-uniform chance node"
        state.apply_action(state.legal_actions()[0])


def measure(run, seconds: float) -> tuple[float, float, int]:
    """(actions/s, games/s, games) of ``run(seed) -> actions`` for about ``seconds``."""
    actions, games, elapsed = slices([run], seconds, 1)[0]
    return actions / elapsed, games / elapsed, games


#: Seeds of the warm-up games: far from the measured games' (0, 1, 2 ...), so that no
#: measured game was played before.
WARMUP_SEEDS = 10**9


def warm_up(runs, seconds: float) -> None:
    """Play each of ``runs`` for ``seconds`` untimed first: an engine's caches (score
    cards of a round, group searches, the bids' ids) fill as a server's would over its
    first games, so the figures are the steady rate, not the first second's."""
    for run in runs:
        start, seed = time.process_time(), WARMUP_SEEDS
        while time.process_time() - start < seconds:
            run(seed)
            seed += 1


def slices(runs, seconds: float, turns: int) -> list[tuple[int, int, float]]:
    """Each of ``runs`` (``run(seed) -> actions``) played for ``seconds`` in all, in
    ``turns`` alternating slices; (actions, games, elapsed) for each."""
    totals = [[0, 0, 0.0] for _ in runs]
    for _ in range(turns):
        for run, total in zip(runs, totals, strict=True):
            start = time.process_time()
            while time.process_time() - start < seconds / turns:
                total[0] += run(total[1])
                total[1] += 1
            total[2] += time.process_time() - start
    return [tuple(total) for total in totals]


def oh_hell_players(players: int) -> int:
    return min(max(players, OH_HELL_PLAYERS.start), OH_HELL_PLAYERS.stop - 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument(
        "--turns", type=int, default=10, help="alternating slices each measurement is cut into"
    )
    parser.add_argument(
        "--warmup", type=float, default=0.5, help="untimed play of each side before measuring"
    )
    parser.add_argument("--game", action="append", help="only these slugs")
    parser.add_argument(
        "--goal", action="append", default=[], help="SLUG=RATIO: a goal other than 0.5"
    )
    args = parser.parse_args()
    goals = {slug: float(ratio) for slug, ratio in (goal.split("=") for goal in args.goal)}
    try:
        import pyspiel
    except ImportError:
        sys.exit("open-spiel is missing: pip install -e '.[bench]'")

    cases = [
        (slug, game, players)
        for slug, game in GAMES.items()
        if not args.game or slug in args.game
        for players in range(game.min_players, game.max_players + 1)
    ]
    oh_hells = {}
    for count in sorted({oh_hell_players(players) for _, _, players in cases}):
        oh_hells[count] = pyspiel.load_game("oh_hell", {"players": count})
        check_uniform_chance(oh_hells[count])
    print(
        f"{'game':<15}{'players':>8}{'ids act/s':>12}{'ratio':>7}{'dicts act/s':>13}"
        f"{'ratio':>7}{'games/s':>9}{'oh_hell':>9}{'actions/s':>11}{'goal':>6}"
    )
    for slug, game, players in cases:
        count = oh_hell_players(players)
        runs = [
            lambda seed, g=game, n=players: id_playout(g, n, seed),
            lambda seed, g=game, n=players: playout(g, n, seed),
            lambda seed, g=oh_hells[count]: oh_hell_playout(g, seed),
        ]
        warm_up(runs, args.warmup)
        (ids, games, elapsed), (dicts, _, dict_elapsed), (base_actions, _, base_elapsed) = slices(
            runs, args.seconds, turns=args.turns
        )
        base = base_actions / base_elapsed
        per_id, per_dict = ids / elapsed, dicts / dict_elapsed
        ratio = per_id / base
        goal = goals.get(slug, DEFAULT_GOAL)
        print(
            f"{slug:<15}{players:>8}{per_id:>12,.0f}{ratio:>6.2f}x{per_dict:>13,.0f}"
            f"{per_dict / base:>6.2f}x{games / elapsed:>9,.1f}{count:>8}p{base:>11,.0f}"
            f"{goal:>5.1f}x {'met' if ratio >= goal else 'NOT met'} (ids)"
        )


if __name__ == "__main__":
    main()
