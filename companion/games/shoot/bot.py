"""The Shoot! bot: bids from its high cards and trumps, then plays to make its bid exactly.

The easy player reads only its own view. For the searches, :meth:`ShootBot.sample` deals
the unseen cards (other hands and the out-of-play stock) at random, keeping every public
fact: the cards already played this deal, the voids a seat showed by not following suit,
the revealed bids. Sealed bids still hidden are filled in with the easy bid of the sampled
hand. A playout runs to the end of the current deal (the next deal is a fresh shuffle).
"""

from __future__ import annotations

import math
from typing import Any

from companion.bots import GameBot
from companion.games.cards import RANKS, standard_deck

from .engine import BID, PLAY, sort_hand
from .rules import trick_winner

RANK = {rank: index for index, rank in enumerate(RANKS)}
BID_SPREAD = 1.0  # how far (in tricks) a bid strays from the hand's estimate, roughly


def rank(card: str) -> int:
    return RANK[card[0]]


def expected_tricks(hand: list[str], trump_card: str, players: int, leads: bool) -> float:
    """Roughly how many tricks ``hand`` takes with ``trump_card`` turned up: each card wins
    when no opponent holds a higher card of its suit (and, off trump, when nobody trumps it)."""
    size = len(hand)
    if size == 0:
        return 0.0
    trump = trump_card[1]
    unseen = 52 - size - 1
    in_others = (players - 1) * size
    share = in_others / unseen if unseen else 0.0
    mine = set(hand)
    total = 0.0
    for card in hand:
        suit = card[1]
        higher = sum(
            1 for r in RANKS[rank(card) + 1 :] if r + suit not in mine and r + suit != trump_card
        )
        chance = (1 - share) ** higher
        if suit != trump:
            length = sum(1 for c in hand if c[1] == suit)
            # the longer my suit, the sooner the others run out of it and trump
            chance *= max(0.2, 1 - 0.03 * (players - 1) * min(length, size) * size / 5)
            # a low card wins mostly when nobody else has its suit: rarer than it looks
            chance *= 0.5 + 0.5 * rank(card) / 12
        total += chance
    if size == 1:
        card = hand[0]
        # one card each: the leader usually wins; otherwise only a trump is a fair chance
        return 1.0 if leads or card[1] == trump else 0.0
    return total


def easy_bid(hand: list[str], trump_card: str, players: int, leads: bool) -> int:
    estimate = expected_tricks(hand, trump_card, players, leads)
    return max(0, min(len(hand), int(estimate + 0.5)))


def _key(card: str, led: str | None, trump: str) -> tuple[int, int]:
    if card[1] == trump:
        return (2, rank(card))
    if card[1] == led:
        return (1, rank(card))
    return (0, 0)


def _low_key(card: str, trump: str) -> tuple[int, int]:
    """How much a card is worth keeping: trumps above everything, then by rank."""
    return (card[1] == trump, rank(card))


def play_card(
    hand: list[str],
    playable: list[str],
    trick: list[list],
    trump: str,
    players: int,
    need: int,
    gone: set[str],
) -> str:
    """The easy card play: take tricks while the bid still needs them (and once it can no
    longer be made), lose them once it is made. ``gone`` are the cards already played."""
    left = len(hand)
    wants = need > 0
    if not trick:
        if wants:
            # lead a master (nothing higher of its suit is still out), side suits first
            seen = gone | set(hand)
            masters = [c for c in playable if all(r + c[1] in seen for r in RANKS[rank(c) + 1 :])]
            if masters:
                return max(masters, key=lambda c: (c[1] != trump, rank(c)))
            if need >= left:
                return max(playable, key=lambda c: _low_key(c, trump))
            return min(playable, key=lambda c: _low_key(c, trump))
        return min(playable, key=lambda c: _low_key(c, trump))
    led = trick[0][1][1]
    best = max((_key(card, led, trump) for _, card in trick))
    winners = [c for c in playable if _key(c, led, trump) > best]
    losers = [c for c in playable if c not in winners]
    last = len(trick) == players - 1
    if wants:
        if winners:
            if last:
                return min(winners, key=lambda c: _key(c, led, trump))
            return max(winners, key=lambda c: _key(c, led, trump))
        return min(playable, key=lambda c: _low_key(c, trump))
    if losers:
        return max(losers, key=lambda c: _low_key(c, trump))
    if last:
        return max(winners, key=lambda c: _key(c, led, trump))
    return min(winners, key=lambda c: _key(c, led, trump))


def finished_tricks(view: dict[str, Any]) -> list[list[list]]:
    """This deal's finished tricks as ``[seat, card]`` plays, rebuilt from ``played``."""
    players = view["players"]
    played = view["played"]
    trump = view["trump"][1]
    leader = (view["dealer"] + 1) % players
    tricks = []
    for start in range(0, len(played), players):
        chunk = played[start : start + players]
        plays = [[(leader + i) % players, card] for i, card in enumerate(chunk)]
        tricks.append(plays)
        leader = trick_winner(plays, trump)
    return tricks


def voids(view: dict[str, Any]) -> list[set[str]]:
    """The suits each seat has shown it lacks this deal (by not following suit)."""
    found: list[set[str]] = [set() for _ in range(view["players"])]
    for plays in [*finished_tricks(view), view["trick"]]:
        if not plays:
            continue
        led = plays[0][1][1]
        for seat, card in plays[1:]:
            if card[1] != led:
                found[seat].add(led)
    return found


class ShootBot(GameBot):
    bench = {"players": 4, "options": {"schedule": [5, 2]}}

    def should_act(self, view: dict[str, Any]) -> bool:
        if view.get("over"):
            return False
        if view["phase"] == BID:
            return view["my_bid"] is None
        return view["turn"] == view["seat"]

    def easy(self, view, legal, rng):
        seat = view["seat"]
        hand = view["hand"]
        if view["phase"] == BID:
            leads = (view["dealer"] + 1) % view["players"] == seat
            bid = easy_bid(hand, view["trump"], view["players"], leads)
            return {"type": "bid", "bid": bid}
        playable = [a["card"] for a in legal if a["type"] == "play"]
        gone = set(view["played"]) | {card for _, card in view["trick"]} | {view["trump"]}
        need = view["bids"][seat] - view["taken"][seat]
        if need > len(hand):
            need = len(hand)  # the bid is lost: take what can be taken, each trick a point
        trump = view["trump"][1]
        card = play_card(hand, playable, view["trick"], trump, view["players"], need, gone)
        return {"type": "play", "card": card}

    def rollout(self, state, seat, rng):
        """The easy player again, reading the sampled world directly (no view built): a
        playout is several times faster. Worlds whose engine keeps cards in another form
        than the snapshot's strings take the view path."""
        trump = state.trump
        if not isinstance(trump, str):
            return super().rollout(state, seat, rng)
        hand = state.hand_of(seat)
        if state.phase == BID:
            leads = (state.dealer + 1) % state.players == seat
            return {"type": "bid", "bid": easy_bid(hand, trump, state.players, leads)}
        trick = state.trick
        led = trick[0][1][1] if trick else None
        playable = [card for card in hand if card[1] == led] or list(hand)
        gone = set(state.played)
        gone.update(card for _, card in trick)
        gone.add(trump)
        need = min(state.bids[seat] - state.taken[seat], len(hand))
        card = play_card(hand, playable, trick, trump[1], state.players, need, gone)
        return {"type": "play", "card": card}

    # -- the searches' worlds ----------------------------------------------------------

    def sample(self, view, rng):
        n = view["players"]
        seat = view["seat"]
        hand = list(view["hand"])
        sizes = view["hand_sizes"]
        seen = set(hand) | set(view["played"]) | {c for _, c in view["trick"]} | {view["trump"]}
        pool = [card for card in standard_deck() if card not in seen]
        lacking = voids(view)
        hands = self._deal(pool, sizes, lacking, seat, rng)
        hands[seat] = hand
        dealt = {c for h in hands for c in h}
        stock = [card for card in pool if card not in dealt]
        rng.shuffle(stock)
        if view["phase"] == BID:
            leader = (view["dealer"] + 1) % n
            # a sealed bid already in: the easy bid of the sampled hand
            bids = [
                easy_bid(hands[s], view["trump"], n, s == leader) if view["bids_in"][s] else None
                for s in range(n)
            ]
            bids[seat] = view["my_bid"]
        else:
            bids = list(view["bids"])
        index = view["deal"] - 1
        state = {
            "players": n,
            "options": {"schedule": list(view["schedule"]), "chips": view["chips"] is not None},
            "seed": rng.getrandbits(52),
            "deal": None,
            "log": [],
            "phase": view["phase"],
            "draw": view["draw"],
            "first_dealer": (view["dealer"] - index) % n,
            "deal_index": index,
            "dealer": view["dealer"],
            "hand_size": view["hand_size"],
            "hands": hands,
            "trump": view["trump"],
            "stock": stock,
            "bids": bids,
            "taken": list(view["taken"]),
            "played": list(view["played"]),
            "trick": [list(play) for play in view["trick"]],
            "turn": view["turn"],
            "last_trick": view["last_trick"],
            "results": view["results"],
            "totals": list(view["scores"]),
            "chips": view["chips"],
        }
        return {"game": "shoot", "state": state}

    def weight(self, view, world):
        """Worlds in which each revealed bid is near what the bidder's hand (as it was
        when bidding: what it holds now and what it has played this deal) would bid."""
        if view["phase"] != PLAY:
            return 1.0
        data = world["state"]
        n = view["players"]
        leader = (view["dealer"] + 1) % n
        played: list[list[str]] = [[] for _ in range(n)]
        for plays in [*finished_tricks(view), view["trick"]]:
            for s, card in plays:
                played[s].append(card)
        misfit = 0.0
        for s in range(n):
            if s == view["seat"]:
                continue
            held = data["hands"][s] + played[s]
            guess = expected_tricks(held, view["trump"], n, s == leader)
            misfit += (guess - view["bids"][s]) ** 2
        return math.exp(-misfit / (2 * BID_SPREAD**2))

    @staticmethod
    def _deal(pool, sizes, lacking, seat, rng) -> list[list[str]]:
        """Deal the unseen ``pool`` to the other seats, none getting a suit it showed void
        in (seats with the most voids first; a rare dead end deals again)."""
        others = [s for s in range(len(sizes)) if s != seat]
        for _attempt in range(100):
            hands: list[list[str]] = [[] for _ in sizes]
            left = list(pool)
            rng.shuffle(left)
            order = sorted(others, key=lambda s: (-len(lacking[s]), s))
            for s in order:
                fits = [c for c in left if c[1] not in lacking[s]]
                if len(fits) < sizes[s]:
                    break
                chosen = fits[: sizes[s]]
                hands[s] = sort_hand(chosen)
                taken = set(chosen)
                left = [c for c in left if c not in taken]
            else:
                return hands
        raise RuntimeError("no deal fits the voids shown")  # pragma: no cover

    def actor(self, state):
        if state.phase == BID:
            for s, bid in enumerate(state.bids):
                if bid is None:
                    return s
            return None
        return state.turn if state.phase == PLAY else None

    def done(self, start, state):
        return state.is_over() or state.deal_index != start["deal"] - 1


BOT = ShootBot()
