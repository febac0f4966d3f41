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
from companion.games.cards import CARD_IDS, CARD_INDEX, RANKS

from .engine import ACTION_IDS, BID, BIDS, PLAY, ShootGame

# The policy reads integer cards (companion.games.cards: suit * 13 + rank, "2C" is 0), as
# the engine keeps them: the easy player converts its view's ids, the playouts read the
# sampled world's own integers. Cards as bits of a mask (bit c for card c) mark sets.
SUIT_SIZE = len(RANKS)
DEALING = ShootGame.dealings[-1]  # how a sampled world deals after the deal in progress
SUIT = tuple(card // SUIT_SIZE for card in range(len(CARD_IDS)))
RANK = tuple(card % SUIT_SIZE for card in range(len(CARD_IDS)))  # 0 for a two .. 12 an ace
#: Card -> the mask of the higher cards of its suit.
ABOVE = tuple(
    ((1 << (SUIT[card] + 1) * SUIT_SIZE) - 1) & ~((1 << card + 1) - 1) for card in range(52)
)
#: [trump suit][card]: how much a card is worth keeping (trumps above everything, then rank).
LOW_KEY = tuple(
    tuple((SUIT[c] == trump) * SUIT_SIZE + RANK[c] for c in range(52)) for trump in range(4)
)
#: [trump suit][card]: which card to lead among masters (side suits first, then rank).
LEAD_KEY = tuple(
    tuple((SUIT[c] != trump) * SUIT_SIZE + RANK[c] for c in range(52)) for trump in range(4)
)


def _trick_value(card: int, trump: int, led: int) -> int:
    if SUIT[card] == trump:
        return 2 * SUIT_SIZE + RANK[card]
    return SUIT_SIZE + RANK[card] if SUIT[card] == led else 0


#: [trump suit][led suit][card]: what a card is worth in the trick (0: it cannot win).
TRICK_KEY = tuple(
    tuple(tuple(_trick_value(c, trump, led) for c in range(52)) for led in range(4))
    for trump in range(4)
)
#: The others, in the searches' worlds, bid this many times the easy estimate: the easy
#: player bids low (0.87 a seat on average at 4 players, hand sizes 1-10, where a seat's
#: share of the tricks is 1.39), and worlds of such low bidders, who duck every trick they
#: do not need, taught the searches to bid high for the tricks left over; OpenSpiel's
#: ISMCTS bid 1.24 a seat on the same hands and fought for them (bench/README.md).
OTHERS_BID = 1.4
BID_REACH = 2.5  # the bids the searches try: this close to the hand's estimate (+ size / 4)
BID_SPREAD = 1.0  # how far (in tricks) a bid strays from the hand's estimate, roughly
MISPLAY = 0.3  # how much less likely a world is for each play the easy player would not make


def mask_of(cards) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def expected_tricks(hand: list[int], trump_card: int, players: int, leads: bool) -> float:
    """Roughly how many tricks ``hand`` (integer cards) takes with ``trump_card`` turned
    up: each card wins when no opponent holds a higher card of its suit (and, off trump,
    when nobody trumps it)."""
    size = len(hand)
    if size == 0:
        return 0.0
    trump = SUIT[trump_card]
    if size == 1:
        # one card each: the leader usually wins; otherwise only a trump is a fair chance
        return 1.0 if leads or SUIT[hand[0]] == trump else 0.0
    unseen = 52 - size - 1
    share = (players - 1) * size / unseen if unseen else 0.0
    known = ~(mask_of(hand) | 1 << trump_card)
    lengths = [0, 0, 0, 0]
    for card in hand:
        lengths[SUIT[card]] += 1
    total = 0.0
    for card in hand:
        chance = (1 - share) ** (ABOVE[card] & known).bit_count()
        suit = SUIT[card]
        if suit != trump:
            # the longer my suit, the sooner the others run out of it and trump
            chance *= max(0.2, 1 - 0.03 * (players - 1) * min(lengths[suit], size) * size / 5)
            # a low card wins mostly when nobody else has its suit: rarer than it looks
            chance *= 0.5 + 0.5 * RANK[card] / 12
        total += chance
    return total


def easy_bid(hand: list[int], trump_card: int, players: int, leads: bool) -> int:
    estimate = expected_tricks(hand, trump_card, players, leads)
    return max(0, min(len(hand), int(estimate + 0.5)))


def others_bid(hand: list[int], trump_card: int, players: int, leads: bool) -> int:
    """What the searches expect another seat to bid: :data:`OTHERS_BID` times the easy
    estimate (see there)."""
    estimate = OTHERS_BID * expected_tricks(hand, trump_card, players, leads)
    return max(0, min(len(hand), int(estimate + 0.5)))


def play_card(
    hand: list[int],
    playable: list[int],
    trick: list[list[int]],
    trump: int,
    players: int,
    need: int,
    seen: int,
) -> int:
    """The easy card play (integer cards, ``trump`` a suit): take tricks while the bid
    still needs them, and once it is lost either way (more tricks than it needs to make,
    ``need`` below 0, or more than the cards left: the bonus is gone, each trick is still a
    point); lose them while the bid stands made. ``seen`` is the mask of the cards the
    player has seen (its hand, the cards played, the turned-up trump); it is read only
    when leading for tricks."""
    low = LOW_KEY[trump].__getitem__
    if need < 0:
        need = len(hand)  # taken too many already: every trick left is a point
    if not trick:
        if need > 0:
            # lead a master (nothing higher of its suit is still out), side suits first
            unseen = ~seen
            masters = [c for c in playable if not ABOVE[c] & unseen]
            if masters:
                return max(masters, key=LEAD_KEY[trump].__getitem__)
            if need >= len(hand):
                return max(playable, key=low)
        return min(playable, key=low)
    value = TRICK_KEY[trump][SUIT[trick[0][1]]]
    best = max([value[card] for _, card in trick])
    last = len(trick) == players - 1
    if need > 0:
        winners = [c for c in playable if value[c] > best]
        if winners:
            return (min if last else max)(winners, key=value.__getitem__)
        return min(playable, key=low)
    losers = [c for c in playable if value[c] <= best]
    if losers:
        return max(losers, key=low)
    return (max if last else min)(playable, key=value.__getitem__)


def finished_tricks(view: dict[str, Any]) -> list[list[list[int]]]:
    """This deal's finished tricks as ``[seat, card]`` plays (integer cards), rebuilt
    from ``played``."""
    players = view["players"]
    played = [CARD_INDEX[card] for card in view["played"]]
    by_led = TRICK_KEY[SUIT[CARD_INDEX[view["trump"]]]]
    leader = (view["dealer"] + 1) % players
    tricks = []
    for start in range(0, len(played), players):
        chunk = played[start : start + players]
        plays = [[(leader + i) % players, card] for i, card in enumerate(chunk)]
        tricks.append(plays)
        value = by_led[SUIT[chunk[0]]]
        leader = max(plays, key=lambda play: value[play[1]])[0]
    return tricks


def voids(view: dict[str, Any]) -> list[int]:
    """The suits each seat has shown it lacks this deal (by not following suit), as a
    mask of suits (bit s for suit s)."""
    found = [0] * view["players"]
    current = [[seat, CARD_INDEX[card]] for seat, card in view["trick"]]
    for plays in [*finished_tricks(view), current]:
        if not plays:
            continue
        led = SUIT[plays[0][1]]
        for seat, card in plays[1:]:
            if SUIT[card] != led:
                found[seat] |= 1 << led
    return found


class ShootBot(GameBot):
    bench = {"players": 4, "options": {"schedule": [5, 2]}}
    #: What each level was measured to do (bench/README.md), shown on the Play page.
    strength = {
        "easy": "Rules of thumb: about 2 points a deal ahead of random players.",
        "normal": "A quick look ahead: wins 4 games in 10 against three easy bots.",
        "strong": "Thinks up to 0.4 s a move: wins 3 games in 10 against three normal bots "
        "(a fair share is 2.5); OpenSpiel's ISMCTS still beats it by about a point a deal.",
        "expert": "Strong's search with 8 times the time, a few seconds a move; "
        "not yet shown to beat strong.",
    }

    def should_act(self, view: dict[str, Any]) -> bool:
        if view.get("over"):
            return False
        if view["phase"] == BID:
            return view["my_bid"] is None
        return view["turn"] == view["seat"]

    def easy(self, view, legal, rng):
        seat = view["seat"]
        n = view["players"]
        hand = [CARD_INDEX[card] for card in view["hand"]]
        trump_card = CARD_INDEX[view["trump"]]
        if view["phase"] == BID:
            leads = (view["dealer"] + 1) % n == seat
            estimate = expected_tricks(hand, trump_card, n, leads)
            # the legal bid nearest the estimate (every bid is legal in Shoot!, but a
            # caller may offer fewer, as oh_hell's last bidder has: bench/bots_vs_openspiel)
            bids = [a["bid"] for a in legal if a["type"] == "bid"]
            bid = easy_bid(hand, trump_card, n, leads)
            if bid not in bids:
                bid = min(bids, key=lambda b: (abs(b - estimate), b))
            return {"type": "bid", "bid": bid}
        playable = [CARD_INDEX[a["card"]] for a in legal if a["type"] == "play"]
        trick = [[s, CARD_INDEX[card]] for s, card in view["trick"]]
        seen = mask_of(hand) | mask_of(CARD_INDEX[card] for card in view["played"])
        seen |= mask_of(card for _, card in trick) | 1 << trump_card
        # a lost bid (need > cards left): take what can be taken, each trick a point
        need = min(view["bids"][seat] - view["taken"][seat], len(hand))
        card = play_card(hand, playable, trick, SUIT[trump_card], n, need, seen)
        return {"type": "play", "card": CARD_IDS[card]}

    def candidates(self, view, legal, rng):
        """The actions worth telling apart, so the searches try each on more worlds: the
        bids within :data:`BID_REACH` tricks of what the hand is estimated to take, and one
        card of each run of equivalent cards (two cards of a suit are equivalent when
        every card between them is in the hand, in a finished trick or the turned-up
        trump: they win and lose the same tricks; a card on the table now still splits
        them). Reads the view alone."""
        hand = [CARD_INDEX[card] for card in view["hand"]]
        trump_card = CARD_INDEX[view["trump"]]
        if view["phase"] == BID:
            n = view["players"]
            leads = (view["dealer"] + 1) % n == view["seat"]
            estimate = expected_tricks(hand, trump_card, n, leads)
            reach = BID_REACH + len(hand) / 4
            near = [a for a in legal if a["type"] == "bid" and abs(a["bid"] - estimate) <= reach]
            return near or legal
        gone = mask_of(hand) | mask_of(CARD_INDEX[c] for c in view["played"]) | 1 << trump_card
        kept = []
        last = None
        for action in sorted(legal, key=lambda a: CARD_INDEX[a["card"]]):
            card = CARD_INDEX[action["card"]]
            if last is not None and SUIT[last] == SUIT[card]:
                between = ((1 << card) - 1) & ~((1 << last + 1) - 1)
                if between & ~gone == 0:
                    last = card
                    continue  # the same as the card kept before it
            kept.append(action)
            last = card
        return kept

    def rollout_id(self, state, seat, rng):
        """The easy player again, reading the sampled world's integer cards and legal ids
        directly (no view, no dict): a play's id is its card, a bid of n is BIDS + n."""
        hand = state.hands[seat]
        if state.phase == BID:
            leads = (state.dealer + 1) % state.players == seat
            return BIDS + others_bid(hand, state.trump, state.players, leads)
        playable = state.legal_ids(seat)
        if len(playable) == 1:
            return playable[0]
        trick = state.trick
        need = state.bids[seat] - state.taken[seat]
        if need > len(hand):
            need = len(hand)
        seen = 0
        if need and not trick:  # only a lead for tricks looks for masters
            seen = mask_of(hand) | mask_of(state.played) | 1 << state.trump
        return play_card(hand, playable, trick, SUIT[state.trump], state.players, need, seen)

    def rollout(self, state, seat, rng):
        """:meth:`rollout_id`'s move as an action."""
        return ACTION_IDS.copy_of(self.rollout_id(state, seat, rng))

    # -- the searches' worlds ----------------------------------------------------------

    def sample(self, view, rng):
        n = view["players"]
        seat = view["seat"]
        hand = list(view["hand"])
        trump_card = CARD_INDEX[view["trump"]]
        seen = mask_of(CARD_INDEX[card] for card in hand) | 1 << trump_card
        seen |= mask_of(CARD_INDEX[card] for card in view["played"])
        seen |= mask_of(CARD_INDEX[card] for _, card in view["trick"])
        pool = [card for card in range(len(CARD_IDS)) if not seen >> card & 1]
        dealt, stock = self._deal(pool, view["hand_sizes"], voids(view), seat, rng)
        hands = [[CARD_IDS[card] for card in cards] for cards in dealt]
        hands[seat] = hand
        if view["phase"] == BID:
            leader = (view["dealer"] + 1) % n
            # a sealed bid already in: the easy bid of the sampled hand
            bids = [
                others_bid(dealt[s], trump_card, n, s == leader) if view["bids_in"][s] else None
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
            "dealing": DEALING,  # the world's later deals: the quicker way
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
            "stock": [CARD_IDS[card] for card in stock],
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
        """How well the world explains what the others did in the open: each revealed
        bid near what the bidder's hand (as it was when bidding: what it holds now and
        what it has played this deal) would bid, and each card played with a choice the
        one the easy player would have played from that hand (a different card makes the
        world :data:`MISPLAY` times as likely: the others need not play that way)."""
        if view["phase"] != PLAY:
            return 1.0
        data = world["state"]
        n = view["players"]
        me = view["seat"]
        leader = (view["dealer"] + 1) % n
        trump_card = CARD_INDEX[view["trump"]]
        trump = SUIT[trump_card]
        bids = view["bids"]
        tricks = finished_tricks(view)
        current = [[s, CARD_INDEX[card]] for s, card in view["trick"]]
        tricks.append(current)
        held = [[CARD_INDEX[card] for card in hand] for hand in data["hands"]]
        for plays in tricks:
            for s, card in plays:
                held[s].append(card)  # now: every card each seat held at the bid
        misfit = 0.0
        for s in range(n):
            held[s].sort()
            if s != me:
                guess = OTHERS_BID * expected_tricks(held[s], trump_card, n, s == leader)
                misfit += (guess - bids[s]) ** 2
        likely = math.exp(-misfit / (2 * BID_SPREAD**2))
        # replay the deal's plays: would the easy player have chosen each one?
        seen_all = 1 << trump_card
        taken = [0] * n
        for plays in tricks:
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

    @staticmethod
    def _deal(pool, sizes, lacking, seat, rng) -> tuple[list[list[int]], list[int]]:
        """Deal the unseen ``pool`` (integer cards) to the other seats, none getting a
        suit it showed void in (``lacking``: masks of suits; seats with the most voids
        first; a rare dead end deals again). Returns the sorted hands (the seat's own
        empty) and the cards left over, in random order."""
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
