"""Our Shoot! bots against OpenSpiel's ISMCTS and a uniform random player, in ``oh_hell``.

    pip install -e '.[bench]'        # open-spiel
    PYTHONPATH=. python bench/bots_vs_openspiel.py --side strong --side ismcts
        [--deals 200] [--players 4] [--sims 6000] [--uct-c 2] [--budget strong=100000:0.1]
        [--workers 2] [--seed 1] [--dealt-worlds] [--open-bids] [--sizes 1,2,3]
        [--bids-by ismcts | --play-by ismcts] [--honest-ismcts 4]

Shoot! is Oh Hell with sealed bids and a bonus of +5 or -5 where OpenSpiel's ``oh_hell``
gives +10 or nothing, so one deal of either is the same game up to a constant. Each deal
is drawn once by ``oh_hell``'s chance nodes (seeded: the dealer, the hands, the turned-up
trump, uniformly) with ``--players`` seats and a hand size running down Shoot!'s default
schedule (10, 9 ... 1, then again), and the same cards are dealt to a one-deal Shoot! game
(``deal=``). The two ``--side`` players sit alternately round the table (an even number
of seats) and every deal is played twice, the sides swapping seats (duplicate deals: each
hand is held once by each side, so the luck of the cards cancels out).

Every decision is made by the side of the seat ``oh_hell`` asks, and applied to both
states. A side is one of our levels (``companion.bots.decide`` on the Shoot! seat's view
and legal actions, its budget from ``--budget``), ``ismcts`` (``pyspiel.ISMCTSBot``:
random rollouts, ``--sims`` simulations, UCT, the most visited move) or ``random``
(uniform over the legal actions). Three differences stay, the first two favouring
OpenSpiel's bots: ``oh_hell`` bids in turn from the dealer's left and its bots see the
earlier bids, which Shoot!'s sealed bids hide from ours; ``oh_hell``'s resampling for
ISMCTS (``ResampleFromInfostate``) deals the other seats only the cards they really hold,
in a random order, never a card of the undealt stock, so ISMCTS knows which cards are in
play (in a one-card deal at four players, the other three cards exactly), where ours deal
from every card they have not seen; and ``oh_hell``'s last bidder may not make the bids
add up to the tricks, so for that bid our bots choose among the bids ``oh_hell`` allows.

``--dealt-worlds`` tells our bots the first (the view gets ``others_hold``, the cards the
other seats hold, and their worlds deal only those) and ``--open-bids`` the second (the
view gets ``open_bids``, the bids made before its turn): the same information for both
sides, which Shoot! itself never gives. ``--honest-ismcts K`` goes the other way: ISMCTS
gets a Shoot! player's information about the cards (:meth:`Match.honest_step`: it searches
K worlds dealt as our bots deal theirs, from every card it has not seen, instead of
``oh_hell``'s resampling); it still sees the earlier bids. ``--sizes 1,2,3`` plays only
the deals of those hand sizes (the same deal numbers, so the same cards, as the whole run).
``--bids-by PLAYER`` (a diagnostic) makes every seat's bids with one player, so the sides
differ only in their card play; ``--play-by PLAYER`` plays every seat's cards with one
player, so they differ only in their bids.
At each deal's end every seat's Shoot! score is asserted equal to its ``oh_hell`` return
minus 5.

``--log FILE`` appends every play's result as it comes in, and ``--summarise FILE``
reports a log's whole deals (a run stopped early still counts). ``--summarise NEW
--against OLD`` (two logs of the same seed) adds the paired difference: deal by deal, the
first side's lead in NEW less its lead in OLD, over the deals both logs hold whole, and by
hand length (the cards cancel; each run's ISMCTS draws stay).

Prints each side's mean score a seat a deal (Shoot! points) with its 95 % interval over
deals, their difference (paired by deal), whether the two intervals lie apart, and each
side's CPU time per decision with a choice (``time.thread_time`` around the decision: the
machine's other work does not count). Our searches' clock is set to the thread's CPU time
too (``companion.bots.search.CLOCK``), so a level's ``seconds`` are CPU seconds and the two
sides can be given the same thinking: ``--sims`` for ISMCTS, ``--budget`` for ours.
Then each side's bids by hand size: the mean bid, the mean tricks, the bids made and the
score a seat.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import random
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.bots import BUDGETS, LEVELS, bot_for, decide, search  # noqa: E402
from companion.games.cards import CARD_IDS, RANKS, SUITS  # noqa: E402
from companion.games.shoot import GAME as SHOOT  # noqa: E402  (the oh_hell relative)
from companion.games.shoot.rules import BONUS, default_schedule  # noqa: E402
from companion.games.shoot.worlds import ShootWorlds  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bots import parse_budget  # noqa: E402  (bench/bots.py: LEVEL=ITERATIONS[:SECONDS])

OPENSPIEL_SIDES = ("ismcts", "random")
MADE_BID_BONUS = 10  # oh_hell's bonus for an exact bid (its kMadeBidBonus)
SIZES = default_schedule()  # 10 cards down to 1


def card_table(game) -> dict[int, str]:
    """``oh_hell``'s card actions -> our card ids, read from its own names of them
    (a suit letter and a rank letter, in either order)."""
    state = game.new_initial_state()
    while state.is_chance_node() and len(state.legal_actions()) < 52:
        state.apply_action(state.legal_actions()[0])
    table = {}
    for action in state.legal_actions():
        name = state.action_to_string(action)
        suit = next(c for c in name if c in SUITS)
        rank = next(c for c in name if c in RANKS)
        table[action] = rank + suit
    assert sorted(table.values()) == sorted(CARD_IDS), "oh_hell's deck is not ours"
    return table


class Match:
    """One worker's games: ``oh_hell`` per hand size, their card tables, ISMCTS bots."""

    def __init__(
        self,
        players: int,
        sims: int,
        uct_c: float,
        cpu: float | None = None,
        dealt_worlds: bool = False,
        open_bids: bool = False,
        bids_by: str | None = None,
        play_by: str | None = None,
        honest: int = 0,
    ):
        import pyspiel

        self.pyspiel = pyspiel
        self.dealt_worlds, self.open_bids = dealt_worlds, open_bids
        # --bids-by / --play-by (a diagnostic): one player makes every seat's bids, or
        # plays every seat's cards, so the two sides differ only in the other half
        self.bids_by, self.play_by = bids_by, play_by
        self.players, self.sims, self.uct_c = players, sims, uct_c
        # --ismcts-cpu: each decision's simulations from the CPU time a simulation has
        # cost this worker so far (a running mean), so ISMCTS thinks about ``cpu`` seconds
        self.cpu = cpu
        self.sim_cost: float | None = None
        # --honest-ismcts: ISMCTS's worlds dealt from every card its seat has not seen
        self.honest = honest
        self.games = {
            size: pyspiel.load_game("oh_hell", {"players": players, "num_tricks_fixed": size})
            for size in SIZES
        }
        self.cards = card_table(self.games[SIZES[0]])
        self.actions = {card: action for action, card in self.cards.items()}
        self.shoot = SHOOT

    def ismcts(self, size: int, seed: int, sims: int | None = None, normalised: bool = False):
        """OpenSpiel's ISMCTS bot: the most visited move, or with ``normalised`` its
        policy is each move's share of the visits (``step_with_policy``)."""
        pyspiel = self.pyspiel
        final = pyspiel.ISMCTSFinalPolicyType
        return pyspiel.ISMCTSBot(
            seed,
            pyspiel.RandomRolloutEvaluator(1, seed),
            self.uct_c,
            sims or self.sims,
            -1,  # unlimited world samples
            final.NORMALIZED_VISIT_COUNT if normalised else final.MAX_VISIT_COUNT,
            False,  # information state strings, not observations (oh_hell gives only those)
            False,  # consistent action sets
        )

    def play(self, sides: list[str], deal: int, rotation: int, seed: int) -> dict:
        """Deal ``deal`` (seeded) played with side ``(seat + rotation) % 2`` in each seat."""
        n = self.players
        size = SIZES[deal % len(SIZES)]
        game = self.games[size]
        chance = random.Random(seed * 1_000_003 + deal)
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes = [action for action, _ in state.chance_outcomes()]
            state.apply_action(chance.choice(outcomes))
        hands, trump, dealer = self._deal_of(state, size)
        shoot = self.shoot.new_state(
            n,
            {"schedule": [size]},
            seed=seed,
            deal={"dealer": dealer, "hands": hands, "trump": trump},
        )
        side_of = [(seat + rotation) % 2 for seat in range(n)]
        rngs = [random.Random(f"{seed}:{deal}:{rotation}:{seat}") for seat in range(n)]
        bots = {
            seat: self.ismcts(size, rngs[seat].getrandbits(31))
            for seat in range(n)
            if sides[side_of[seat]] == "ismcts"
        }
        cpu: list[list[float]] = [[], []]
        sims_used: list[int] = []
        while not state.is_terminal():
            seat = state.current_player()
            legal = state.legal_actions()
            kind = self._player(sides[side_of[seat]], bidding=legal[0] >= 52)
            start = time.thread_time()
            if kind == "ismcts" and self.cpu and len(legal) > 1:
                sims = self.sims if self.sim_cost is None else self.cpu / self.sim_cost
                sims = max(20, min(200_000, round(sims)))
                start = time.thread_time()
                if self.honest:
                    view = shoot.view(seat)
                    action, spent = self.honest_step(state, view, size, sims, rngs[seat])
                else:
                    action = self.ismcts(size, rngs[seat].getrandbits(31), sims).step(state)
                    spent = time.thread_time() - start
                cost = spent / sims
                self.sim_cost = cost if self.sim_cost is None else 0.9 * self.sim_cost + 0.1 * cost
                sims_used.append(sims)
                move = self._move(shoot, seat, action)
            elif kind == "ismcts":
                if seat not in bots:  # a seat --bids-by or --play-by hands to ISMCTS
                    bots[seat] = self.ismcts(size, rngs[seat].getrandbits(31))
                action = bots[seat].step(state)
                move = self._move(shoot, seat, action)
            elif kind == "random":
                action = rngs[seat].choice(legal)
                move = self._move(shoot, seat, action)
            else:
                allowed = [self._move(shoot, seat, a) for a in legal]
                view = shoot.view(seat)
                if self.open_bids and view["phase"] == "bid":
                    # the bids made so far, as oh_hell shows them to ISMCTS
                    view["open_bids"] = [shoot.bids[s] if s != seat else None for s in range(n)]
                if self.dealt_worlds:
                    # what oh_hell's resampling tells ISMCTS: the cards the others hold
                    hands = [shoot.view(s)["hand"] for s in range(n) if s != seat]
                    view["others_hold"] = [card for hand in hands for card in hand]
                move = decide(self.shoot, view, allowed, kind, rngs[seat])
                action = legal[allowed.index(move)]
            if len(legal) > 1:
                cpu[side_of[seat]].append(time.thread_time() - start)
            assert action in legal
            state.apply_action(action)
            shoot.apply(seat, move)
        returns = state.returns()
        scores = shoot.scores()
        assert shoot.is_over()
        for seat in range(n):
            # a trick a point in both; Shoot!'s +5 / -5 is oh_hell's +10 / 0, less 5
            assert scores[seat] == returns[seat] - (MADE_BID_BONUS - BONUS), (scores, returns)
        return {
            "deal": deal,
            "rotation": rotation,
            "size": size,
            "scores": [[scores[s] for s in range(n) if side_of[s] == k] for k in (0, 1)],
            "bids": shoot.results[-1]["bids"],
            "tricks": shoot.results[-1]["tricks"],
            "sides": side_of,
            "cpu": cpu,
            "sims": sims_used,
        }

    def honest_step(
        self, state, view: dict, size: int, sims: int, rng: random.Random
    ) -> tuple[int, float]:
        """ISMCTS's move with a Shoot! player's information (``--honest-ismcts K``).

        ``oh_hell``'s ``ResampleFromInfostate`` only shuffles the cards the other seats
        really hold, so every world ISMCTS samples has the true cards in play. Here ISMCTS
        searches ``K`` worlds of its own instead, each dealt as our bots deal theirs from
        the seat's Shoot! ``view`` (``ShootWorlds.deal``: the other hands from every card
        the seat has not seen, none of a suit a seat showed void in), each seat's played
        cards put back into its hand (:func:`redeal`), the same bids and plays replayed
        on it. Each world gets ``sims / K`` simulations (OpenSpiel's resampling then
        shuffles that world's cards among the others), and the move with the most visits
        over the ``K`` searches is played. Returns it with the CPU seconds the searches
        took: the simulations a decision are set from those alone, so the deals and
        replays (Python, where OpenSpiel's resampling is C++) come on top of ISMCTS's
        thinking time, in its favour."""
        game, k = self.games[size], self.honest
        worlds = ShootWorlds(view)
        visits: collections.Counter[int] = collections.Counter()
        searching = 0.0
        for _ in range(k):
            held = [
                [self.actions[CARD_IDS[card]] for card in hand + played]
                for hand, played in zip(worlds.deal(rng), worlds.played_by, strict=True)
            ]
            world = game.new_initial_state()
            for action in redeal(state.history(), held, self.players, size):
                world.apply_action(action)
            bot = self.ismcts(size, rng.getrandbits(31), max(1, sims // k), normalised=True)
            start = time.thread_time()
            policy, _action = bot.step_with_policy(world)
            searching += time.thread_time() - start
            for action, share in policy:
                visits[action] += share
        return max(state.legal_actions(), key=lambda action: visits[action]), searching

    def _player(self, side: str, bidding: bool) -> str:
        """Who makes this decision for ``side``: the side itself, or the player
        ``--bids-by`` (while bidding) or ``--play-by`` (in the card play) names."""
        return (self.bids_by if bidding else self.play_by) or side

    def _deal_of(self, state, size: int) -> tuple[list[list[str]], str, int]:
        """The hands, the trump and the dealer of a dealt ``oh_hell`` state, read from its
        chance history (cards go round from seat 0, the trump is the next card; the dealer
        is the second chance outcome, after the number of tricks)."""
        history = state.history()
        dealer = history[1]
        cards = history[2:]
        n = self.players
        hands = [[self.cards[a] for a in cards[seat : n * size : n]] for seat in range(n)]
        return hands, self.cards[cards[n * size]], dealer

    def _move(self, shoot, seat: int, action: int) -> dict:
        """An ``oh_hell`` action as the Shoot! action it is (a card, or a bid: 52 + n)."""
        if action >= 52:
            return {"type": "bid", "bid": action - 52}
        return {"type": "play", "card": self.cards[action]}


def redeal(history: list[int], held: list[list[int]], players: int, size: int) -> list[int]:
    """``history`` (a dealt ``oh_hell`` state's) with the cards dealt anew: each seat's
    ``held`` (the ``size`` cards it is to have been dealt, as ``oh_hell`` actions) go round
    from seat 0 as ``oh_hell`` deals (:meth:`Match._deal_of`); the number of tricks, the
    dealer, the turned-up trump and every bid and play after it stay."""
    head = 2 + players * size  # the tricks, the dealer, then the deal; the trump next
    deal = [held[i % players][i // players] for i in range(players * size)]
    return [*history[:2], *deal, *history[head:]]


_MATCH: Match | None = None


def start_worker(budgets: dict, payoff: str, *match) -> None:
    """A worker's :class:`Match` (``match``: its arguments), our levels' budgets and
    payoff."""
    global _MATCH
    _MATCH = Match(*match)
    bot_for(_MATCH.shoot).payoff = payoff
    search.CLOCK = time.thread_time  # our levels' seconds are CPU seconds, as ISMCTS's are
    for level, limits in budgets.items():
        BUDGETS[level] = dict(limits)


def play_task(task: tuple[list[str], int, int, int]) -> dict:
    sides, deal, rotation, seed = task
    return _MATCH.play(sides, deal, rotation, seed)


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % interval (normal approximation)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else math.nan


def scores_by_deal(results: list[dict]) -> dict[int, list[list[int]]]:
    """Deal -> each side's seat scores over the deal's two plays."""
    by_deal: dict[int, list[list[int]]] = {}
    for result in results:
        seats = by_deal.setdefault(result["deal"], [[], []])
        for side in (0, 1):
            seats[side].extend(result["scores"][side])  # rotation moves seats, not sides
    return by_deal


def report(sides: list[str], results: list[dict], labels: list[str]) -> None:
    by_deal = scores_by_deal(results)
    means = [[statistics.fmean(d[k]) for d in by_deal.values()] for k in (0, 1)]
    (m0, h0), (m1, h1) = interval(means[0]), interval(means[1])
    diff, hd = interval([a - b for a, b in zip(means[0], means[1], strict=True)])
    apart = m0 - h0 > m1 + h1 or m1 - h1 > m0 + h0
    print(f"{len(by_deal)} duplicate deals ({len(results)} plays), score a seat a deal:")
    print(f"  {labels[0]:<28} {m0:6.2f} ± {h0:.2f}")
    print(f"  {labels[1]:<28} {m1:6.2f} ± {h1:.2f}")
    print(
        f"  difference (first - second) {diff:+6.2f} ± {hd:.2f}   intervals apart: "
        f"{'yes' if apart else 'no'}"
    )
    print("CPU time per decision with a choice (ms):  n, mean, p50, p95")
    for k in (0, 1):
        times = []
        for result in results:
            times.extend(result["cpu"][k])
        ms = [t * 1000 for t in times]
        print(
            f"  {labels[k]:<28} {len(ms):6d} {statistics.fmean(ms):8.2f} "
            f"{percentile(ms, 0.5):8.2f} {percentile(ms, 0.95):8.2f}"
        )
    sims = [n for result in results for n in result.get("sims", ())]
    if sims:
        print(f"ISMCTS simulations a decision (--ismcts-cpu): mean {statistics.fmean(sims):.0f}")


def whole_deals(path: str) -> list[dict]:
    """A --log file's plays, whole duplicate deals only (a deal's second play may not have
    finished when a run was stopped)."""
    with open(path) as lines:
        results = [json.loads(line) for line in lines]
    plays = collections.Counter(result["deal"] for result in results)
    return [result for result in results if plays[result["deal"]] == 2]


def leads(results: list[dict]) -> dict[int, tuple[int, float]]:
    """Deal -> (its hand size, the first side's mean score a seat less the second's)."""
    sizes = {result["deal"]: result["size"] for result in results}
    by_deal = scores_by_deal(results)
    return {
        deal: (sizes[deal], statistics.fmean(a) - statistics.fmean(b))
        for deal, (a, b) in by_deal.items()
    }


def paired(new: list[dict], old: list[dict]) -> None:
    """The first side's lead a deal in ``new`` less its lead in ``old``, deal by deal over
    the deals both hold, with its 95 % interval; then by hand length."""
    a, b = leads(new), leads(old)
    common = sorted(set(a) & set(b))
    if not common:
        print("paired: no deal in both logs")
        return
    groups = [("all", 1, 99), ("8-10 cards", 8, 10), ("4-7 cards", 4, 7), ("1-3 cards", 1, 3)]
    print(f"Paired by deal (this log's lead less the other's), {len(common)} deals:")
    for name, low, high in groups:
        here = [a[d][1] - b[d][1] for d in common if low <= a[d][0] <= high]
        if here:
            mean, half = interval(here)
            print(f"  {name:<11} {len(here):4d} deals  {mean:+6.2f} ± {half:.2f}")


def bid_table(results: list[dict], labels: list[str]) -> None:
    """Each side's bids by hand size: the mean bid, the mean tricks taken, how often the
    bid was made exactly and the mean score a seat, then the difference of the two
    sides' scores: where the points are lost."""
    print("By hand size, each side: bid, tricks, bids made (%), score a seat; difference")
    for size in sorted({result["size"] for result in results}, reverse=True):
        here = [result for result in results if result["size"] == size]
        cells, scores = [], []
        for k in (0, 1):
            seats = [
                (result["bids"][s], result["tricks"][s])
                for result in here
                for s, side in enumerate(result["sides"])
                if side == k
            ]
            bid = statistics.fmean(b for b, _ in seats)
            took = statistics.fmean(t for _, t in seats)
            made = 100 * statistics.fmean(b == t for b, t in seats)
            scores.append(statistics.fmean(t + (BONUS if b == t else -BONUS) for b, t in seats))
            cells.append(f"{bid:5.2f} {took:5.2f} {made:4.0f}% {scores[-1]:+6.2f}")
        deals = len({result["deal"] for result in here})
        difference = scores[0] - scores[1]
        print(f"  {size:2d} cards, {deals:3d} deals  {'   '.join(cells)}   {difference:+6.2f}")
    print(f"  (the first side {labels[0]}, the second {labels[1]})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    choices = [*LEVELS, *OPENSPIEL_SIDES]
    parser.add_argument("--side", action="append", choices=choices, help="twice: the two sides")
    parser.add_argument(
        "--deals", type=int, default=200, help="duplicate deals (each played twice)"
    )
    parser.add_argument(
        "--first-deal",
        type=int,
        default=0,
        help="play deals FIRST .. FIRST + DEALS - 1 (to share one run among processes)",
    )
    parser.add_argument(
        "--sizes",
        help="play only the deals (of the range) with these hand sizes, e.g. 1,2,3 (the deal"
        " numbers, so the cards, stay those of the whole run)",
    )
    parser.add_argument("--players", type=int, default=4, help="an even number, 4 or 6")
    parser.add_argument("--sims", type=int, default=6000, help="ISMCTS simulations a move")
    parser.add_argument(
        "--ismcts-cpu",
        type=float,
        help="instead of a fixed --sims, give ISMCTS about this many CPU seconds a decision"
        " (its simulations from what one has cost so far; --sims is the first guess)",
    )
    parser.add_argument(
        "--dealt-worlds",
        action="store_true",
        help="our bots' worlds deal the other seats only the cards they hold, as oh_hell's"
        " resampling does for ISMCTS (the same information for both sides; not Shoot!'s)",
    )
    parser.add_argument(
        "--open-bids",
        action="store_true",
        help="show our bots the bids made before theirs, as oh_hell shows them to ISMCTS"
        " (their worlds keep them and are weighed by them; not Shoot!'s sealed bids)",
    )
    parser.add_argument(
        "--bids-by",
        choices=choices,
        help="a diagnostic: this player makes every seat's bids (the sides then differ only"
        " in their card play)",
    )
    parser.add_argument(
        "--play-by",
        choices=choices,
        help="a diagnostic: this player plays every seat's cards (the sides then differ"
        " only in their bids)",
    )
    parser.add_argument(
        "--honest-ismcts",
        type=int,
        default=0,
        metavar="K",
        help="with --ismcts-cpu: ISMCTS searches K worlds dealt from every card it has not"
        " seen (a Shoot! player's information) instead of oh_hell's resampling, which"
        " knows the cards in play; 0 (the default): oh_hell's",
    )
    parser.add_argument("--uct-c", type=float, default=2.0, help="ISMCTS exploration constant")
    parser.add_argument("--budget", type=parse_budget, action="append", default=[])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log", help="append each play's result to this file (JSON lines)")
    parser.add_argument("--summarise", help="report a --log file's whole deals, play nothing")
    parser.add_argument(
        "--against",
        help="with --summarise: another log of the same deals; print the paired difference",
    )
    parser.add_argument(
        "--payoff",
        choices=("own", "lead"),
        default="own",
        help="what our searches maximise: oh_hell's payoff (a seat's own score, the default)"
        " or a Shoot! game's (the lead over the others' mean)",
    )
    args = parser.parse_args()
    if not args.side or len(args.side) != 2:
        parser.error("name two --side players")
    if args.honest_ismcts and not args.ismcts_cpu:
        parser.error("--honest-ismcts needs --ismcts-cpu")
    if args.players % 2 or not 4 <= args.players <= 6:
        parser.error("--players must be 4 or 6 (the sides alternate round the table)")
    budgets = dict(args.budget)
    labels = []
    for side in args.side:
        if side == "ismcts":
            sims = f"{args.ismcts_cpu:g} s CPU" if args.ismcts_cpu else f"{args.sims} sims"
            labels.append(f"ismcts ({sims})")
        elif side in BUDGETS:
            limits = budgets.get(side, BUDGETS[side])
            labels.append(f"{side} ({limits['seconds']:g} s CPU)")
        else:
            labels.append(side)
    deals = range(args.first_deal, args.first_deal + args.deals)
    if args.sizes:
        sizes = {int(size) for size in args.sizes.split(",")}
        deals = [deal for deal in deals if SIZES[deal % len(SIZES)] in sizes]
    tasks = [(args.side, d, r, args.seed) for d in deals for r in (0, 1)]
    match = (args.players, args.sims, args.uct_c, args.ismcts_cpu)
    init = (
        budgets,
        args.payoff,
        *match,
        args.dealt_worlds,
        args.open_bids,
        args.bids_by,
        args.play_by,
        args.honest_ismcts,
    )
    started = time.perf_counter()
    results = []
    log = open(args.log, "a") if args.log else None  # noqa: SIM115 (kept open for the run)
    if args.summarise:
        results = whole_deals(args.summarise)
        tasks = []
    if tasks and args.workers > 1:
        pool = Pool(args.workers, start_worker, init)
        played = pool.imap_unordered(play_task, tasks, chunksize=1)
    elif tasks:
        start_worker(*init)
        pool, played = None, map(play_task, tasks)
    for result in played if tasks else ():
        results.append(result)
        if log:
            print(json.dumps(result), file=log, flush=True)
    if tasks and pool is not None:
        pool.close()
    print(
        f"oh_hell, {args.players} players, hand sizes {SIZES} in turn, seed {args.seed}, "
        f"our payoff {args.payoff}, "
        f"{'dealt worlds (the same cards as ISMCTS), ' if args.dealt_worlds else ''}"
        f"{'open bids (the earlier bids, as ISMCTS sees them), ' if args.open_bids else ''}"
        f"{f'honest ISMCTS ({args.honest_ismcts} worlds), ' if args.honest_ismcts else ''}"
        f"{f'every bid by {args.bids_by}, ' if args.bids_by else ''}"
        f"{f'every card by {args.play_by}, ' if args.play_by else ''}"
        f"{time.perf_counter() - started:.0f} s"
    )
    report(args.side, results, labels)
    bid_table(results, labels)
    if args.summarise and args.against:
        paired(results, whole_deals(args.against))


if __name__ == "__main__":
    main()
