"""The Shoot! bot: bids from its high cards and trumps, then plays to make its bid exactly.

The easy player reads only its own view. For the searches, :meth:`ShootBot.sample` deals
the unseen cards (other hands and the out-of-play stock) at random, keeping every public
fact: the cards already played this deal, the voids a seat showed by not following suit,
the revealed bids. Sealed bids still hidden are filled in with the easy bid of the sampled
hand. A playout runs to the end of the current deal (the next deal is a fresh shuffle).
"""

from __future__ import annotations

from typing import Any

from companion.bots import GameBot
from companion.games.cards import CARD_IDS, CARD_INDEX

from .engine import ACTION_IDS, BID, BIDS, PLAY
from .policy import (
    BID_REACH,
    BID_REACH_PER_CARD,
    DEALING,
    SUIT,
    easy_bid,
    expected_tricks,
    mask_of,
    others_bid,
    play_card,
    voids,
)
from .worlds import ShootWorlds, deal_pool, unseen_pool


class ShootBot(GameBot):
    bench = {"players": 4, "options": {"schedule": [5, 2]}}
    #: The card play searched by a tree over every seat's later cards on the fast worlds
    #: (companion.bots.tree); the bids by sequential halving, as before.
    strong_search = "tree"
    #: What each level was measured to do (bench/README.md), shown on the Play page.
    strength = {
        "easy": "Rules of thumb: about 3 points a deal ahead of random players.",
        "normal": "A quick look ahead: wins about 3 games in 10 against three easy bots, "
        "where an even share is 2.5.",
        "strong": "Thinks up to 0.4 s a move; beats a research bot (OpenSpiel's) that "
        "knows only the cards a player knows, by 0.3 points a deal.",
        "expert": "Strong's search with 8 times the time, a few seconds a move; ahead of "
        "strong by 0.15 points a deal over 4,000 deals.",
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
        bids within :data:`BID_REACH` (and :data:`BID_REACH_PER_CARD` a card in the hand)
        tricks of what the hand is estimated to take, and 0 (ducking every trick), and one
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
            reach = BID_REACH + BID_REACH_PER_CARD * len(hand)
            near = [
                a
                for a in legal
                if a["type"] == "bid" and (abs(a["bid"] - estimate) <= reach or a["bid"] == 0)
            ]
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
        pool = unseen_pool(view, seen)
        dealt, stock = deal_pool(pool, view["hand_sizes"], voids(view), seat, rng)
        if "others_hold" in view:  # the stock: the cards no hand holds
            held = mask_of(pool)
            stock = [card for card in range(len(CARD_IDS)) if not (seen | held) >> card & 1]
            rng.shuffle(stock)
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
            for s, bid in enumerate(view.get("open_bids") or ()):
                if bid is not None and s != seat:  # a benchmark's (ShootWorlds.open_bids)
                    bids[s] = bid
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
        """How well the world explains what the others did in the open
        (:meth:`.worlds.ShootWorlds.weight`)."""
        hands = [[CARD_INDEX[card] for card in hand] for hand in world["state"]["hands"]]
        return ShootWorlds(view, self.payoff).weight(hands)

    def search_worlds(self, view):
        """The strong search's worlds on integer cards, played without the engine."""
        return ShootWorlds(view, self.payoff)

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
