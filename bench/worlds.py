"""How much of its sampled worlds the strong level really uses: the effective sample size
of the world weights, game by game and phase by phase.

    PYTHONPATH=. python bench/worlds.py [--worlds 200] [--games 4] [--every 5] [--game SLUG]

The strong level weighs each sampled world by ``GameBot.weight`` (how well it explains
what the other seats did in the open) and averages its playouts with those weights. When
a few worlds carry nearly all the weight, the others are playouts spent for nothing: the
effective sample size, (sum of weights)^2 / (sum of squared weights), says how many equally
weighted worlds the sample is worth. For every game with a bot, easy bots play ``--games``
seeded games on the bench table (``GameBot.bench``); at every ``--every``-th decision with
more than one candidate, ``--worlds`` worlds are sampled from the deciding seat's view and
weighed. Prints, per phase, the positions measured and the effective sample size as a share
of the worlds drawn: its 10th percentile, median and mean. Seeded; stops by itself.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bots import easy_positions  # noqa: E402
from companion.bots import bot_for  # noqa: E402
from companion.games import GAMES  # noqa: E402


def effective_size(weights: list[float]) -> float:
    """(sum w)^2 / sum w^2: how many equally weighted worlds ``weights`` are worth."""
    total = sum(weights)
    squares = sum(w * w for w in weights)
    return total * total / squares if squares else 0.0


def measure(slug: str, worlds: int, games: int, every: int) -> dict[str, list[float]]:
    """Effective sample sizes as shares of ``worlds``, by the phase of the decision."""
    bot = bot_for(GAMES[slug])
    shares: dict[str, list[float]] = {}
    rng = random.Random(1)
    positions = easy_positions(slug, range(10_000, 10_000 + games))
    for number, (view, _legal) in enumerate(positions, start=1):
        if number % every == 0:
            weights = [bot.weight(view, bot.sample(view, rng)) for _ in range(worlds)]
            phase = str(view.get("phase", "-"))
            shares.setdefault(phase, []).append(effective_size(weights) / worlds)
    return shares


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worlds", type=int, default=200, help="worlds drawn per position")
    parser.add_argument("--games", type=int, default=4, help="seeded games per game")
    parser.add_argument("--every", type=int, default=5, help="measure every n-th decision")
    parser.add_argument("--game", action="append", help="only these slugs")
    args = parser.parse_args()
    slugs = [s for s, g in GAMES.items() if bot_for(g) is not None]
    if args.game:
        slugs = [s for s in slugs if s in args.game]
    print("| Game | Phase | Positions | ESS p10 | ESS median | ESS mean |")
    print("|---|---|---|---|---|---|")
    for slug in slugs:
        for phase, shares in measure(slug, args.worlds, args.games, args.every).items():
            ordered = sorted(shares)
            p10 = ordered[int(0.1 * (len(ordered) - 1))]
            print(
                f"| {GAMES[slug].name} | {phase} | {len(shares)} | {100 * p10:.0f}% | "
                f"{100 * statistics.median(shares):.0f}% | "
                f"{100 * statistics.fmean(shares):.0f}% |",
                flush=True,
            )


if __name__ == "__main__":
    main()
