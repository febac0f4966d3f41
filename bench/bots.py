"""Bot strength and thinking time: each level against the level below, game by game.

    python bench/bots.py [--games 500] [--workers 2] [--game SLUG ...] [--seed 1]
                         [--pairing strong-normal ...] [--duplicate]
                         [--budget normal=8] [--budget strong=400:0.4]
                         [--budget expert=1000000:0.1:full]

For every game with a bot, and for each pairing (normal vs easy, strong vs normal), plays
``--games`` complete games on the table the bot declares (``GameBot.bench``: player count
and a short game's options): one seat at the higher level, every other seat at the lower
one, the higher seat rotating round the table. Prints, with 95% intervals (normal
approximation over games): the higher seat's mean score and the lower seats' mean score,
their difference per game, and both sides' win rates per seat (a shared win split
evenly), and whether the two levels' intervals lie apart (the higher level's wholly on
the better side: issue 14's goal), for the score and for the win rate. Then the
thinking time per level, p50 and p95 over decisions with a choice, at the configured
budgets (``companion.bots.BUDGETS``): wall time, which the time caps bound, and the
process's CPU time, which tells a busy machine (the process waiting for a core) from a
slow search. Seeded; stops after the games;
spreads games over ``--workers`` processes.

``--duplicate`` deals the same cards to each rotation of the higher seat: game ``i`` uses
the seed of game ``i // players`` (``--games`` is rounded up to whole deals of every game
measured), and the difference is averaged over each deal's rotations before its
interval is taken. With every seat at the lower level the rotations' differences of a
deal sum to zero, so what remains is the higher level's edge with the luck of the cards
(which seat was dealt the good hands) taken out: a narrower interval for the same games.

``--budget LEVEL=ITERATIONS[:SECONDS[:full|settle]]`` replaces a level's budget for the
run (in every worker), e.g. to measure a variant before changing
:data:`companion.bots.BUDGETS`; ``full`` makes the level's search think to its time cap
(no early stop on a settled choice: the budget's ``settle`` 0), ``settle`` lets it stop
early; without either, the level's own (:data:`companion.bots.SETTLES`: expert thinks to
its cap, strong stops early).

``--regret N`` measures the searches themselves instead, free of the clock and of luck:
``N`` positions with a choice, met while easy bots play seeded games on the bench table;
in each, every candidate's value is estimated on ``--truth-worlds`` sampled worlds (the
same playouts the searches run, weighted as strong weighs them), then normal and strong
decide (three seeds each, their iteration budgets, no time cap). Prints each level's mean
regret (the best candidate's value minus the chosen one's) and how often it chose the best.

``--tree-regret N`` does the same for a tree search's card play (``GameBot.strong_search``
"tree", on the decisions its worlds can walk) on the clock, as the levels really think:
thinking is the thread's CPU time, the truth is one search of ``--truth-seconds`` (no
settled stop; its root means, ``tree.root_means``), then strong and expert decide with
their budgets' seconds and settled stop (``--budget`` to change them). Prints each
level's mean regret by the long search's means, how often it chose the long search's
card, and how often two strong searches (other seeds) agree with each other.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Iterable, Iterator
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.bots import (  # noqa: E402
    BUDGETS,
    LEVELS,
    SETTLES,
    bot_for,
    decide,
    search,
    should_act,
    tree,
)
from companion.games import GAMES  # noqa: E402

PAIRINGS = [(LEVELS[i + 1], LEVELS[i]) for i in range(len(LEVELS) - 1)]
#: Not a level: a player choosing uniformly among its legal actions, which a pairing may
#: name (``--pairing normal-random``) to measure a level against a player without a plan.
RANDOM = "random"


def play_one(task: tuple[str, str, str, int, int, bool]) -> dict:
    """One game: ``high`` at seat ``index % players``, ``low`` elsewhere (with
    ``duplicate``, on the cards of deal ``index // players``)."""
    slug, high, low, index, seed, duplicate = task
    game = GAMES[slug]
    setup = bot_for(game).bench
    players = setup.get("players", game.min_players)
    hero = index % players
    levels = [low] * players
    levels[hero] = high
    game_seed = seed * 1_000_003 + (index // players if duplicate else index)
    state = game.new_state(players, setup.get("options"), seed=game_seed)
    rngs = [random.Random(game_seed * 7 + s) for s in range(players)]
    times: dict[str, list[float]] = {high: [], low: []}
    cpu_times: dict[str, list[float]] = {high: [], low: []}
    began = time.process_time()
    while not state.is_over():
        view = None
        for seat in state.to_act():  # the first seat with a move to make (one view each)
            view = state.view(seat)
            if should_act(game, view):
                break
        legal = state.legal_actions(seat)
        start, start_cpu = time.perf_counter(), time.process_time()
        if levels[seat] == RANDOM:
            action = rngs[seat].choice(legal)
        else:
            action = decide(game, view, legal, levels[seat], rngs[seat])
        if len(legal) > 1:
            times[levels[seat]].append(time.perf_counter() - start)
            cpu_times[levels[seat]].append(time.process_time() - start_cpu)
        state.apply(seat, action)
    return {
        "hero": hero,
        "scores": state.scores(),
        "winners": state.winners(),
        "times": times,
        "cpu_times": cpu_times,
        "cpu": time.process_time() - began,
    }


def set_payoff(payoff: str | None) -> None:
    """Every bot's :attr:`GameBot.payoff` for this run (None: each game's own)."""
    if payoff:
        for game in GAMES.values():
            bot = bot_for(game)
            if bot is not None:
                bot.payoff = payoff


def start_worker(budgets: dict[str, dict[str, float]], payoff: str | None) -> None:
    set_budgets(budgets)
    set_payoff(payoff)


def set_budgets(budgets: dict[str, dict[str, float]]) -> None:
    """Replace levels' budgets in this process (a worker's initializer), and time the
    searches by the thread's CPU time, so that a busy machine does not cut their thinking
    (a level's ``seconds`` are CPU seconds here)."""
    search.CLOCK = time.thread_time
    for level, limits in budgets.items():
        BUDGETS[level] = dict(limits)


def parse_budget(text: str) -> tuple[str, dict[str, float]]:
    """``normal=8``, ``strong=400:0.4`` or ``expert=1000:0.1:full`` -> (level, limits)."""
    level, _, spec = text.partition("=")
    iterations, _, rest = spec.partition(":")
    seconds, _, stop = rest.partition(":")
    if level not in BUDGETS or not iterations or stop not in ("", "full", "settle"):
        raise argparse.ArgumentTypeError(
            f"expected LEVEL=ITERATIONS[:SECONDS[:full|settle]], LEVEL in {list(BUDGETS)}"
        )
    limits = dict(BUDGETS[level])
    limits["iterations"] = int(iterations)
    if seconds:
        limits["seconds"] = float(seconds)
    if stop:
        limits["settle"] = int(stop == "settle")
    return level, limits


def play_task(task: tuple[str, str, str, int, int, bool]) -> tuple[tuple, dict]:
    """:func:`play_one`, handing its task back with the result (and the game's index)."""
    result = play_one(task)
    result["index"] = task[3]
    return task, result


def easy_positions(slug: str, seeds: Iterable[int]) -> Iterator[tuple[dict, list]]:
    """Every position with a choice (more than one candidate to search) met while easy
    bots play a seeded game on the bench table for each of ``seeds``: (view, legal)."""
    game = GAMES[slug]
    bot = bot_for(game)
    setup = bot.bench
    players = setup.get("players", game.min_players)
    for game_seed in seeds:
        state = game.new_state(players, setup.get("options"), seed=game_seed)
        rngs = [random.Random(game_seed * 7 + s) for s in range(players)]
        while not state.is_over():
            view = None
            for seat in state.to_act():
                view = state.view(seat)
                if should_act(game, view):
                    break
            legal = state.legal_actions(seat)
            if len(bot.candidates(view, legal, random.Random(0))) > 1:
                yield view, legal
            state.apply(seat, decide(game, view, legal, "easy", rngs[seat]))


def regret(slug: str, positions: int, truth_worlds: int, seed: int) -> list[str]:
    """Rows of the ``--regret`` table for one game (see the module docstring)."""
    game = GAMES[slug]
    bot = bot_for(game)
    found = list(easy_positions(slug, (seed * 1_000_003 + number for number in range(3))))
    chosen = random.Random(seed).sample(found, min(positions, len(found)))
    losses: dict[str, list[float]] = {"normal": [], "strong": []}
    for view, legal in chosen:
        tried = bot.candidates(view, legal, random.Random(0))
        ids = search.root_ids(game, tried)
        rng = random.Random(seed + 999)
        values = [0.0] * len(tried)
        for _ in range(truth_worlds):
            snapshot = bot.sample(view, rng)
            weight = bot.weight(view, snapshot)
            world = search.World(game, snapshot)
            for index, action_id in enumerate(ids):
                values[index] += weight * search._try(bot, view, world, action_id, rng)
        best = max(values)
        for level, run in (("normal", search.monte_carlo), ("strong", search.halving)):
            limits = {"iterations": BUDGETS[level]["iterations"], "seconds": math.inf}
            for rep in range(3):
                action = run(bot, game, view, tried, random.Random(rep), limits)
                losses[level].append((best - values[tried.index(action)]) / truth_worlds)
    return [
        f"| {game.name} | {len(chosen)} | {level} | {fmt(lost, digits=3)} | "
        f"{100 * sum(x <= 1e-12 for x in lost) / len(lost):.0f}% |"
        for level, lost in losses.items()
    ]


def tree_regret(slug: str, positions: int, truth_seconds: float, seed: int) -> list[str]:
    """Rows of the ``--tree-regret`` table for one game (see the module docstring)."""
    game = GAMES[slug]
    bot = bot_for(game)
    search.CLOCK = time.thread_time
    found = list(easy_positions(slug, (seed * 1_000_003 + number for number in range(6))))
    found = [(v, legal) for v, legal in found if bot.search_worlds(v).walks]
    chosen = random.Random(seed).sample(found, min(positions, len(found)))
    losses: dict[str, list[float]] = {"strong": [], "expert": []}
    agree = {"strong": 0, "expert": 0, "strong twice": 0}
    truth = {"iterations": 10**9, "seconds": truth_seconds, "settle": 0}
    for number, (view, legal) in enumerate(chosen):
        tried = bot.candidates(view, legal, random.Random(0))
        rng = random.Random(seed * 7919 + number)
        means = tree.root_means(bot.search_worlds(view), game, view, tried, rng, truth)
        best = max(range(len(tried)), key=means.__getitem__)
        picks = {}
        for level, rep in (("strong", 0), ("expert", 0), ("strong twice", 1)):
            name = level.split()[0]
            limits = {"settle": float(SETTLES[name]), **BUDGETS[name]}
            rng = random.Random(seed * 31 + number * 2 + rep)
            picks[level] = tried.index(tree.tree_search(bot, game, view, tried, rng, limits))
        for level in losses:
            losses[level].append(means[best] - means[picks[level]])
            agree[level] += picks[level] == best
        agree["strong twice"] += picks["strong"] == picks["strong twice"]
    count = len(chosen)
    rows = [
        f"| {game.name} | {count} | {level} ({BUDGETS[level]['seconds']:g} s) | "
        f"{fmt(lost, digits=3)} | {100 * agree[level] / count:.0f}% |"
        for level, lost in losses.items()
    ]
    twice = 100 * agree["strong twice"] / count
    rows.append(f"| {game.name} | {count} | strong, two seeds agree | | {twice:.0f}% |")
    return rows


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def fmt(values: list[float], scale: float = 1.0, digits: int = 2) -> str:
    mean, half = interval(values)
    return f"{mean * scale:.{digits}f} ± {half * scale:.{digits}f}"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else math.nan


def summarise(slug: str, high: str, low: str, results: list[dict], duplicate: bool = False) -> str:
    game = GAMES[slug]
    sign = -1 if game.spec.lower_wins else 1
    hero_scores, low_scores, diffs, hero_wins, low_wins = [], [], [], [], []
    for result in results:
        scores, hero, winners = result["scores"], result["hero"], result["winners"]
        others = [s for i, s in enumerate(scores) if i != hero]
        hero_scores.append(scores[hero])
        low_scores.append(statistics.fmean(others))
        diffs.append(sign * (scores[hero] - statistics.fmean(others)))
        share = 1 / len(winners) if winners else 0.0
        hero_wins.append(share if hero in winners else 0.0)
        low_wins.append(sum(share for w in winners if w != hero) / len(others))
    if duplicate:  # one value per deal: the mean of its rotations
        by_deal: dict[int, list[float]] = {}
        for result, diff in zip(results, diffs, strict=True):
            by_deal.setdefault(result["index"] // len(result["scores"]), []).append(diff)
        diffs = [statistics.fmean(rotations) for rotations in by_deal.values()]
    (diff, half) = interval(diffs)
    verdict = "higher ahead" if diff - half > 0 else ("lower ahead" if diff + half < 0 else "tie")
    return (
        f"| {game.name} | {high} vs {low} | {len(results)} | {fmt(hero_scores)} | "
        f"{fmt(low_scores)} | {fmt(diffs)} | {fmt(hero_wins, 100, 1)}% | "
        f"{fmt(low_wins, 100, 1)}% | {verdict} | {apart(hero_scores, low_scores, sign)} / "
        f"{apart(hero_wins, low_wins)} |"
    )


def paired_rows(groups: list[tuple[str, str, str]], done: dict[tuple, list[dict]]) -> list[str]:
    """For two pairings of a game with the same lower level (``--pairing normal-random
    --pairing easy-random``), the difference of the higher seat's score game by game: the
    same game index is the same deal, hero seat and lower players' seeds, so the luck of
    the cards cancels out. Rows of a table."""
    rows = []
    for i, (slug, high, low) in enumerate(groups):
        for other_slug, other_high, other_low in groups[i + 1 :]:
            if other_slug != slug or other_low != low or other_high == high:
                continue
            sign = -1 if GAMES[slug].spec.lower_wins else 1
            mine = {r["index"]: r["scores"][r["hero"]] for r in done[slug, high, low]}
            theirs = {r["index"]: r["scores"][r["hero"]] for r in done[slug, other_high, low]}
            diffs = [sign * (mine[k] - theirs[k]) for k in sorted(mine.keys() & theirs.keys())]
            if len(diffs) < 2:
                continue
            mean, half = interval(diffs)
            verdict = "yes, first ahead" if mean - half > 0 else "no"
            if mean + half < 0:
                verdict = "yes, second ahead"
            rows.append(
                f"| {GAMES[slug].name} | {low} | {high} | {other_high} | {len(diffs)} | "
                f"{fmt(diffs)} | {verdict} |"
            )
    return rows


def apart(higher: list[float], lower: list[float], sign: int = 1) -> str:
    """Issue 14's goal for one measure: "yes" when the higher level's 95% interval lies
    wholly on the better side of the lower level's (``sign`` -1: lower is better), so
    the two intervals do not overlap."""
    (high, high_half), (low, low_half) = interval(higher), interval(lower)
    return "yes" if sign * (high - low) > high_half + low_half else "no"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games per pairing")
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--game", action="append", help="only these slugs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairing", action="append", help="only these, e.g. strong-normal")
    parser.add_argument("--regret", type=int, metavar="N", help="search regret on N positions")
    parser.add_argument("--truth-worlds", type=int, default=100, help="with --regret")
    parser.add_argument(
        "--tree-regret", type=int, metavar="N", help="a tree search's regret on N positions"
    )
    parser.add_argument(
        "--truth-seconds", type=float, default=1.0, help="with --tree-regret (CPU seconds)"
    )
    parser.add_argument(
        "--duplicate", action="store_true", help="the same cards for each rotation of a deal"
    )
    parser.add_argument(
        "--budget",
        action="append",
        type=parse_budget,
        default=[],
        metavar="LEVEL=ITERATIONS[:SECONDS[:full|settle]]",
        help="a level's budget for this run, e.g. normal=8, strong=400:0.4, expert=1000:0.1:full",
    )
    parser.add_argument(
        "--payoff", choices=("lead", "own"), help="what every search maximises (GameBot.payoff)"
    )
    args = parser.parse_args()
    budgets = dict(args.budget)
    set_budgets(budgets)
    if budgets:
        print("Budgets: " + ", ".join(f"{k} {v}" for k, v in BUDGETS.items()) + "\n")
    slugs = [s for s, g in GAMES.items() if bot_for(g) is not None]
    if args.game:
        unknown = sorted(set(args.game) - set(slugs))
        if unknown:
            parser.error(f"no bot for: {', '.join(unknown)} (games with a bot: {slugs})")
        slugs = [s for s in slugs if s in args.game]
    if args.tree_regret:
        started = time.perf_counter()
        print("| Game | Positions | Level | Mean regret | The long search's card |")
        print("|---|---|---|---|---|")
        for slug in slugs:
            if bot_for(GAMES[slug]).strong_search == "tree":
                for row in tree_regret(slug, args.tree_regret, args.truth_seconds, args.seed):
                    print(row, flush=True)
        print(f"\nRun time {time.perf_counter() - started:.0f} s")
        return
    if args.regret:
        started = time.perf_counter()
        print("| Game | Positions | Level | Mean regret | Best chosen |")
        print("|---|---|---|---|---|")
        for slug in slugs:
            for row in regret(slug, args.regret, args.truth_worlds, args.seed):
                print(row, flush=True)
        print(f"\nRun time {time.perf_counter() - started:.0f} s")
        return
    print(
        "| Game | Pairing | Games | Higher seat score | Lower seats' score | "
        "Difference (better +) | Higher win % | Lower win % per seat | Verdict | "
        "Apart (score / win) | CPU s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    times: dict[tuple[str, str], list[float]] = {}
    cpu_times: dict[tuple[str, str], list[float]] = {}
    started = time.perf_counter()
    pairings = PAIRINGS
    if args.pairing:
        pairings = [tuple(p.split("-", 1)) for p in args.pairing]
        for pair in pairings:
            if len(pair) != 2 or not set(pair) <= {*LEVELS, RANDOM}:
                parser.error(f"a pairing is HIGH-LOW of {[*LEVELS, RANDOM]}")
    groups = [(slug, high, low) for slug in slugs for high, low in pairings]
    # one queue for every pairing of every game (no worker waits for a pairing's last
    # game), game by game in turn so that each pairing's row is printed as it completes
    if args.duplicate:  # whole deals in every game: each rotation of the higher seat
        tables = [
            bot_for(GAMES[slug]).bench.get("players", GAMES[slug].min_players) for slug in slugs
        ]
        rotations = math.lcm(*tables)
        args.games = -(-args.games // rotations) * rotations
    tasks = [(*group, i, args.seed, args.duplicate) for i in range(args.games) for group in groups]
    done: dict[tuple[str, str, str], list[dict]] = {group: [] for group in groups}
    printed = set()
    with Pool(args.workers, initializer=start_worker, initargs=(budgets, args.payoff)) as pool:
        for task, result in pool.imap_unordered(play_task, tasks):
            done[task[:3]].append(result)
            for group in groups:  # in order, each as soon as all its games are in
                if group in printed:
                    continue
                if len(done[group]) < args.games:
                    break
                printed.add(group)
                results = sorted(done[group], key=lambda r: (r["hero"], r["index"]))
                for result in results:
                    for level, spent in result["times"].items():
                        times.setdefault((group[0], level), []).extend(spent)
                    for level, spent in result["cpu_times"].items():
                        cpu_times.setdefault((group[0], level), []).extend(spent)
                cpu = sum(r["cpu"] for r in results)
                row = summarise(*group, results, args.duplicate)
                print(row + f" {cpu:.0f} |", flush=True)
    paired = paired_rows(groups, done)
    if paired:
        print()
        print("Two levels against the same lower players, game by game (the same deals, seats")
        print("and seeds): the first's seat score minus the second's (better +).")
        print("| Game | Against | First | Second | Games | Difference | Apart from 0 |")
        print("|---|---|---|---|---|---|---|")
        for row in paired:
            print(row)
    print()
    print("| Game | Level | Decisions | p50 ms | p95 ms | max ms | CPU p50 ms | CPU p95 ms |")
    print("|---|---|---|---|---|---|---|---|")
    for (slug, level), spent in sorted(
        times.items(), key=lambda kv: (slugs.index(kv[0][0]), [*LEVELS, RANDOM].index(kv[0][1]))
    ):
        p50, p95 = percentile(spent, 0.5) * 1000, percentile(spent, 0.95) * 1000
        cpu = cpu_times[slug, level]
        c50, c95 = percentile(cpu, 0.5) * 1000, percentile(cpu, 0.95) * 1000
        print(
            f"| {GAMES[slug].name} | {level} | {len(spent)} | {p50:.1f} | {p95:.1f} | "
            f"{max(spent) * 1000:.1f} | {c50:.1f} | {c95:.1f} |"
        )
    cpu = sum(r["cpu"] for group in done.values() for r in group)
    print(
        f"\nRun time {time.perf_counter() - started:.0f} s with {args.workers} workers "
        f"({cpu:.0f} CPU s in the games)"
    )


if __name__ == "__main__":
    main()
