"""Fits Shoot!'s bid estimate (``policy.CALIBRATION``) and prints the table to paste.

    python -m companion.games.shoot.calibration [--deals 3000] [--seed 1]

(Kept with the game, a tool of its own: no file outside a game's places names it.)

For every player count (2-5) and hand size (2 to the largest the rules allow) deals
``--deals`` random deals, every seat bids as the easy player and the deal is played out
with the easy card play (``worlds.play_out``, the searches' rollouts). Per (players,
size) it fits the tricks a seat took against the raw per-card sum
(``policy.card_chances``) by least squares: the raw sum's mean and the slope. Random
hands take size / players tricks on average (every trick goes to someone), so the
calibrated estimate is that share plus the slope times the hand's distance from the mean.

Two passes: the first with the easy bids of the raw sum (main's before the calibration),
the second with the easy bids of the first pass's calibration (the bids the easy players
make once it is in); the second's table is printed, with the calibrated estimate's mean
and the raw sum's against the share. Seeded, so the table is reproducible.
"""

from __future__ import annotations

import argparse
import random

from . import policy
from .rules import max_hand
from .worlds import play_out

MIN_SLOPE = 0.1  # keeps the estimate's ordering of hands when a fit comes out flat


def simulate(players: int, size: int, deals: int, rng: random.Random):
    """(raw sums, tricks taken, calibrated estimates) of every seat of ``deals`` deals."""
    raws, tricks, estimates = [], [], []
    deck = list(range(52))
    for _ in range(deals):
        rng.shuffle(deck)
        hands = [sorted(deck[s * size : (s + 1) * size]) for s in range(players)]
        trump_card = deck[players * size]
        bids = [policy.easy_bid(hands[s], trump_card, players, s == 0) for s in range(players)]
        raws += [policy.card_chances(hand, trump_card, players) for hand in hands]
        estimates += [
            policy.expected_tricks(hands[s], trump_card, players, s == 0) for s in range(players)
        ]
        taken = [0] * players
        play_out([list(h) for h in hands], [], 0, bids, taken, trump_card, 0)
        tricks += taken
    return raws, tricks, estimates


def fit(raws: list[float], tricks: list[int]) -> tuple[float, float]:
    """The raw sums' mean and the least-squares slope of tricks on them."""
    n = len(raws)
    mean_raw = sum(raws) / n
    mean_tricks = sum(tricks) / n
    spread = sum((r - mean_raw) ** 2 for r in raws)
    moved = sum((r - mean_raw) * (t - mean_tricks) for r, t in zip(raws, tricks, strict=True))
    return mean_raw, max(MIN_SLOPE, moved / spread if spread else 1.0)


def calibrate(deals: int, seed: int) -> dict[tuple[int, int], tuple[float, float, float]]:
    """One pass over every table and size with the current ``policy.CALIBRATION``:
    (players, size) -> (raw mean, slope, the current estimate's mean)."""
    table = {}
    for players in range(2, 6):
        for size in range(2, max_hand(players) + 1):
            rng = random.Random(f"{seed}:{players}:{size}")
            raws, tricks, estimates = simulate(players, size, deals, rng)
            table[players, size] = (*fit(raws, tricks), sum(estimates) / len(estimates))
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    policy.CALIBRATION.clear()
    first = calibrate(args.deals, args.seed)
    policy.CALIBRATION.update({key: (m, s) for key, (m, s, _) in first.items()})
    second = calibrate(args.deals, args.seed)
    print("# players, size: raw mean, slope | share, mean estimate (pass 1 calibration), raw")
    for (players, size), (mean, slope, estimate) in second.items():
        share = size / players
        print(
            f"# {players} {size:2}: {mean:.3f} {slope:.3f} | {share:.2f} {estimate:.2f} {mean:.2f}"
        )
    print("CALIBRATION = {")
    for (players, size), (mean, slope, _) in second.items():
        print(f"    ({players}, {size}): ({mean:.3f}, {slope:.3f}),")
    print("}")


if __name__ == "__main__":
    main()
