"""The Shoot! searches' worlds on integer cards, without the engine.

A strong decision samples hundreds of worlds and plays each to the end of the deal. Going
through snapshots, ``state_from_dict`` and the engine's ``apply_id`` (its checks, its log)
cost most of a search's time; :class:`ShootWorlds` reads the view once, deals each world
as lists of integer cards and plays it on with the same policy as the engine-path rollout
(:func:`.policy.play_card`, the others bidding :func:`.policy.others_bid`), scoring the
deal as the rules do. Its results equal the engine path's (tests/games/shoot/test_bot.py
plays both on the same worlds).

It reads the seat's view alone: the hidden cards are dealt from what the seat has not seen.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left
from typing import Any

from companion.games.cards import CARD_IDS, CARD_INDEX

from .engine import BID, BIDS, PLAY
from .policy import (
    BID_SPREAD,
    OTHERS_BID,
    SUIT,
    SUIT_SIZE,
    TRICK_KEY,
    expected_tricks,
    finished_tricks,
    mask_of,
    others_bid,
    play_card,
    voids,
)
from .rules import BONUS

#: In the searches' worlds, each other seat plays a random card instead of the easy
#: player's this often (the seat itself always plays the easy card play): the others at a
#: table do not all play by our rules of thumb. Against OpenSpiel's ISMCTS on the same
#: deals, 0.3 did no worse than 0 or 1 (bench/README.md); none of them closed the gap.
NOISE = 0.3
MISPLAY = 0.7  # how much less likely a world is for each play the easy player would not make


def deal_pool(
    pool: list[int], sizes: list[int], lacking: list[int], seat: int, rng: random.Random
) -> tuple[list[list[int]], list[int]]:
    """Deal the unseen ``pool`` (integer cards) to the other seats, none getting a suit it
    showed void in (``lacking``: masks of suits; seats with the most voids first; a rare
    dead end deals again). Returns the sorted hands (the seat's own empty) and the cards
    left over, in random order."""
    others = sorted(
        (s for s in range(len(sizes)) if s != seat),
        key=lambda s: (-lacking[s].bit_count(), s),
    )
    for _attempt in range(100):
        hands: list[list[int]] = [[] for _ in sizes]
        left = list(pool)
        rng.shuffle(left)
        for s in others:
            lack, size = lacking[s], sizes[s]
            if not lack:
                hands[s] = sorted(left[:size])
                left = left[size:]
                continue
            fits = [c for c in left if not lack >> SUIT[c] & 1]
            if len(fits) < size:
                break
            chosen = fits[:size]
            hands[s] = sorted(chosen)
            taken = set(chosen)
            left = [c for c in left if c not in taken]
        else:
            return hands, left
    return _deal_tight(pool, sizes, lacking, others, rng)


def _deal_tight(
    pool: list[int], sizes: list[int], lacking: list[int], others: list[int], rng: random.Random
) -> tuple[list[list[int]], list[int]]:
    """:func:`deal_pool` where its quick way keeps running into dead ends (the voids leave
    few ways to deal, as when the pool is just the cards the others hold): the cards that
    fewest seats may take go first, each to one of those seats (or the left-over pile)
    at random by the room it has left."""
    spare = len(pool) - sum(sizes[s] for s in others)  # the left-over pile's room
    for _attempt in range(1000):
        room = {s: sizes[s] for s in others}
        hands: list[list[int]] = [[] for _ in sizes]
        left: list[int] = []
        cards = list(pool)
        rng.shuffle(cards)
        cards.sort(key=lambda c: sum(not lacking[s] >> SUIT[c] & 1 for s in others))
        for card in cards:
            seats = [s for s in others if room[s] and not lacking[s] >> SUIT[card] & 1]
            weights = [room[s] for s in seats]
            if spare > len(left):
                seats.append(-1)
                weights.append(spare - len(left))
            if not seats:
                break
            chosen = rng.choices(seats, weights)[0]
            if chosen < 0:
                left.append(card)
            else:
                hands[chosen].append(card)
                room[chosen] -= 1
        else:
            for hand in hands:
                hand.sort()
            return hands, left
    raise RuntimeError("no deal fits the voids shown")  # pragma: no cover


def unseen_pool(view: dict[str, Any], seen: int) -> list[int]:
    """The cards a world deals the other seats from: every card the seat has not seen
    (``seen``, a mask). A benchmark may hand a view ``others_hold``, the cards the other
    seats hold now, to give the bot what OpenSpiel's ``oh_hell`` resampling gives its
    ISMCTS (bench/bots_vs_openspiel.py ``--dealt-worlds``): then only those are dealt. A
    game's own views never carry it."""
    held = view.get("others_hold")
    if held is not None:
        return sorted(CARD_INDEX[card] for card in held)
    return [card for card in range(len(CARD_IDS)) if not seen >> card & 1]


def play_out(
    hands: list[list[int]],
    trick: list[list[int]],
    turn: int,
    bids: list[int],
    taken: list[int],
    trump_card: int,
    out: int,
    me: int = -1,
    noise: float = 0.0,
    rng: Any = None,
) -> None:
    """Play the deal to its end with the easy card play for every seat (as the engine
    path's rollout does), counting the tricks into ``taken``. ``hands`` (sorted) and
    ``trick`` are used up; ``out`` is the mask of the cards played this deal (the
    finished tricks' and the trick's)."""
    players = len(hands)
    trump = SUIT[trump_card]
    keys = TRICK_KEY[trump]
    out |= 1 << trump_card
    while True:
        hand = hands[turn]
        playable = hand
        if trick:
            low = SUIT[trick[0][1]] * SUIT_SIZE
            start = bisect_left(hand, low)
            stop = bisect_left(hand, low + SUIT_SIZE)
            if start < stop:
                playable = hand[start:stop]
        if len(playable) == 1:
            card = playable[0]
        elif noise and turn != me and rng.random() < noise:
            card = playable[rng.randrange(len(playable))]
        else:
            need = bids[turn] - taken[turn]
            if need > len(hand):
                need = len(hand)
            seen = out | mask_of(hand) if need and not trick else 0
            card = play_card(hand, playable, trick, trump, players, need, seen)
        hand.remove(card)
        trick.append([turn, card])
        out |= 1 << card
        if len(trick) < players:
            turn = (turn + 1) % players
            continue
        value = keys[SUIT[trick[0][1]]]
        best = -1
        for who, played in trick:
            if value[played] > best:
                best, turn = value[played], who
        taken[turn] += 1
        if not hand:
            return
        trick = []


def points(bids: list[int], taken: list[int]) -> list[int]:
    """Each seat's points for the deal (:func:`.rules.deal_points`)."""
    return [t + BONUS if t == b else t - BONUS for b, t in zip(bids, taken, strict=True)]


class ShootWorlds:
    """One decision's worlds (the interface of :class:`companion.bots.search.Worlds`): a
    world is the other seats' hands (and, while bidding, their bids); :meth:`value` plays
    an action id in it to the end of the deal and returns the seat's payoff."""

    def __init__(self, view: dict[str, Any], payoff: str = "lead"):
        self.view = view
        self.payoff = payoff
        self.players = n = view["players"]
        self.seat = view["seat"]
        self.hand = sorted(CARD_INDEX[card] for card in view["hand"])
        self.trump_card = trump_card = CARD_INDEX[view["trump"]]
        self.bidding = view["phase"] == BID
        self.leader = (view["dealer"] + 1) % n
        tricks = finished_tricks(view)
        self.trick = [[s, CARD_INDEX[card]] for s, card in view["trick"]]
        self.tricks = [*tricks, self.trick]  # this deal's plays, by trick
        played = [card for plays in self.tricks for _, card in plays]
        self.out = mask_of(played)
        seen = self.out | mask_of(self.hand) | 1 << trump_card
        self.pool = unseen_pool(view, seen)
        self.sizes = list(view["hand_sizes"])
        self.lacking = voids(view)
        self.bids = list(view["bids"])
        self.taken = list(view["taken"])
        self.totals = list(view["scores"])  # the running totals before this deal ends
        self.turn = view["turn"]
        self.played_by: list[list[int]] = [[] for _ in range(n)]
        for plays in self.tricks:
            for s, card in plays:
                self.played_by[s].append(card)

    def deal(self, rng: random.Random) -> list[list[int]]:
        """Every seat's hand in one sampled world (the seat's own as it is)."""
        dealt, _stock = deal_pool(self.pool, self.sizes, self.lacking, self.seat, rng)
        dealt[self.seat] = self.hand
        return dealt

    def draw(self, rng: random.Random) -> tuple[tuple[list[list[int]], list], float]:
        hands = self.deal(rng)
        if self.bidding:
            n, trump_card, leader = self.players, self.trump_card, self.leader
            bids = [others_bid(hands[s], trump_card, n, s == leader) for s in range(n)]
            return (hands, bids), self.open_bids(hands, bids)
        return (hands, self.bids), self.weight(hands)

    def value(self, world: tuple[list[list[int]], list], action_id: int, rng: Any) -> float:
        hands, bids = world
        hands = [hand.copy() for hand in hands]
        seat, n, trump_card, noise = self.seat, self.players, self.trump_card, NOISE
        if self.bidding:
            bids = bids.copy()
            bids[seat] = action_id - BIDS
            taken = [0] * self.players
            play_out(hands, [], self.leader, bids, taken, trump_card, 0, seat, noise, rng)
        else:
            taken = self.taken.copy()
            trick = [play.copy() for play in self.trick]
            hands[seat].remove(action_id)
            trick.append([seat, action_id])
            out = self.out | 1 << action_id
            if len(trick) < self.players:
                play_out(
                    hands, trick, (seat + 1) % n, bids, taken, trump_card, out, seat, noise, rng
                )
            else:
                value = TRICK_KEY[SUIT[self.trump_card]][SUIT[trick[0][1]]]
                winner = max(trick, key=lambda play: value[play[1]])[0]
                taken[winner] += 1
                if hands[seat]:
                    play_out(hands, [], winner, bids, taken, trump_card, out, seat, noise, rng)
        scores = [t + p for t, p in zip(self.totals, points(bids, taken), strict=True)]
        mine = float(scores[seat])
        if self.payoff == "own":
            return mine
        return mine - (sum(scores) - mine) / (self.players - 1)

    def open_bids(self, hands: list[list[int]], bids: list[int]) -> float:
        """While bidding, the bids a benchmark shows the seat (a view's ``open_bids``: the
        earlier bids OpenSpiel's ``oh_hell`` shows its ISMCTS, bench/bots_vs_openspiel.py
        ``--open-bids``; a Shoot! view never carries them, its bids are sealed) replace
        the world's guesses in ``bids``; returns how well the world's hands explain them
        (as :meth:`weight` weighs revealed bids), 1 without any."""
        shown = self.view.get("open_bids")
        if not shown:
            return 1.0
        misfit = 0.0
        n, trump_card = self.players, self.trump_card
        for s, bid in enumerate(shown):
            if bid is not None and s != self.seat:
                guess = OTHERS_BID * expected_tricks(hands[s], trump_card, n, s == self.leader)
                misfit += (guess - bid) ** 2
                bids[s] = bid
        return math.exp(-misfit / (2 * BID_SPREAD**2))

    def weight(self, hands: list[list[int]]) -> float:
        """How well a world (every seat's hand now) explains what the others did in the
        open: each revealed bid near what the bidder's hand (as it was when bidding: what
        it holds now and what it has played this deal) would bid, and each card played with
        a choice the one the easy player would have played from that hand (a different
        card makes the world :data:`MISPLAY` times as likely: the others need not play
        that way). While bidding, :meth:`open_bids`' weight (1: no bid is revealed)."""
        if self.view["phase"] != PLAY:
            return self.open_bids(hands, [0] * self.players)
        n, me, bids = self.players, self.seat, self.bids
        trump_card = self.trump_card
        trump = SUIT[trump_card]
        held = [sorted(hands[s] + self.played_by[s]) for s in range(n)]
        misfit = 0.0
        for s in range(n):
            if s != me:
                guess = OTHERS_BID * expected_tricks(held[s], trump_card, n, s == self.leader)
                misfit += (guess - bids[s]) ** 2
        likely = math.exp(-misfit / (2 * BID_SPREAD**2))
        # replay the deal's plays: would the easy player have chosen each one?
        seen_all = 1 << trump_card
        taken = [0] * n
        for plays in self.tricks:
            trick: list[list[int]] = []
            for s, card in plays:
                hand = held[s]
                if s != me:
                    playable = hand
                    if trick:
                        led = SUIT[trick[0][1]]
                        playable = [c for c in hand if SUIT[c] == led] or hand
                    if len(playable) > 1:
                        need = min(bids[s] - taken[s], len(hand))
                        seen = seen_all | mask_of(hand)
                        if play_card(hand, playable, trick, trump, n, need, seen) != card:
                            likely *= MISPLAY
                hand.remove(card)
                trick.append([s, card])
                seen_all |= 1 << card
            if len(trick) == n:
                value = TRICK_KEY[trump][SUIT[trick[0][1]]]
                taken[max(trick, key=lambda play: value[play[1]])[0]] += 1
        return likely

    # -- the tree search's walks (companion.bots.tree): a world played a card at a time --

    @property
    def walks(self) -> bool:
        """Whether :mod:`companion.bots.tree` may walk these worlds a card at a time: in
        the play (while bidding the strong search halves over the bids)."""
        return not self.bidding

    def walk(self, world: tuple[list[list[int]], list]) -> list:
        """A world at the decision, to be played on a card at a time: every hand (copied),
        the trick, whose turn, the tricks taken, the cards out (a mask), the bids."""
        hands, bids = world
        trick = [play.copy() for play in self.trick]
        out = self.out | 1 << self.trump_card
        return [[hand.copy() for hand in hands], trick, self.turn, self.taken.copy(), out, bids]

    def mover(self, walk: list) -> int | None:
        """Whose card it is, or None once the deal is played out."""
        turn = walk[2]
        return turn if walk[0][turn] else None

    def moves(self, walk: list) -> list[int]:
        """The cards (ids) the mover may play in this world: its cards of the suit led,
        or any card when it has none."""
        hand, trick = walk[0][walk[2]], walk[1]
        if trick:
            low = SUIT[trick[0][1]] * SUIT_SIZE
            start, stop = bisect_left(hand, low), bisect_left(hand, low + SUIT_SIZE)
            if start < stop:
                return hand[start:stop]
        return hand

    def preferred(self, walk: list) -> int:
        """The easy player's card for the mover in this world (tried first in the tree)."""
        hands, trick, turn, taken, out, bids = walk
        hand = hands[turn]
        playable = self.moves(walk)
        if len(playable) == 1:
            return playable[0]
        need = min(bids[turn] - taken[turn], len(hand))
        seen = out | mask_of(hand) if need and not trick else 0
        return play_card(hand, playable, trick, SUIT[self.trump_card], self.players, need, seen)

    def play(self, walk: list, card: int) -> None:
        """The mover plays ``card`` (one of :meth:`moves`)."""
        hands, trick, turn = walk[0], walk[1], walk[2]
        hands[turn].remove(card)
        trick.append([turn, card])
        walk[4] |= 1 << card
        if len(trick) < self.players:
            walk[2] = (turn + 1) % self.players
            return
        value = TRICK_KEY[SUIT[self.trump_card]][SUIT[trick[0][1]]]
        winner = max(trick, key=lambda play: value[play[1]])[0]
        walk[3][winner] += 1
        walk[1] = []
        walk[2] = winner

    def finish(self, walk: list, rng: Any) -> list[float]:
        """Play the walk to the deal's end as :meth:`value` does (the others' cards with
        :data:`NOISE`) and return every seat's payoff (each seat's own, or its lead over
        the others' mean, as :attr:`payoff` says)."""
        hands, trick, turn, taken, out, bids = walk
        if hands[turn]:
            play_out(hands, trick, turn, bids, taken, self.trump_card, out, self.seat, NOISE, rng)
        scores = [t + p for t, p in zip(self.totals, points(bids, taken), strict=True)]
        if self.payoff == "own":
            return [float(score) for score in scores]
        total, others = sum(scores), self.players - 1
        return [score - (total - score) / others for score in scores]
