"""The Pirate Tricks bot: bids for the row that improves its hand most, ditches what adds
least, predicts and plays its tricks by the score cards in play.

The easy player values a hand as what the two recruitment cards pay for it plus the tricks
it should take (red is trump; high numbers win) times what a trick pays this round. It bids
on a row a share of how much more the row adds than the other open rows would (never a
big share of its loon), shows its highest card in a tie, ditches the two cards whose loss
costs least, predicts the tricks it expects, and plays to take tricks while they pay (and
its prediction is not yet made), ducking them otherwise.

For the searches, :meth:`PirateTricksBot.sample` deals the unseen crew cards (the other
hands, their ditched cards, the face-down row cards) at random, keeping every public
fact: the row cards each player took, the cards shown in a tie or for recruitment (still
held unless played), the cards each player took in tricks, the suit a seat showed it
lacks in the current or last trick. Loon behind the screens is worked out from the open
payments (bids paid, loon found on rows, recruitment, score cards, top-ups), sealed bids
and reveals not yet shown are the easy player's for the sampled hand; what every world of
one view shares is worked out once per view. A playout runs to the end of the round, where
the world's game ends (so later score cards are never drawn and stay in one order).

Playouts (:meth:`PirateTricksBot.rollout_id`) play the easy player's ways on the engine's
integer cards and ids, with a fast stand-in for a hand's worth (:func:`quick_value`) in the
auction and the ditch. The searches try a few bids and ditches, one card of each run of
equivalent cards, and the highest or lowest card in a tie-break (:meth:`candidates`); the
strong level prefers worlds where the others ditched cards worth little (:meth:`weight`):
once the hands are played from, each sampled world chooses which of a seat's cards it
ditched in proportion to how likely that ditch is, and weighs the world by how likely
its cards make a ditch at all (:meth:`PirateTricksBot._split_ditches`).
"""

from __future__ import annotations

import functools
import json
from typing import Any

from companion.bots import GameBot

from . import deck, rules
from .engine import (
    ACTION_IDS,
    ASSIGN,
    ASSIGNS,
    BID,
    BIDS,
    DITCH,
    HAND_SIZE,
    OVER,
    PAIR_BASE,
    PLAY,
    PREDICT,
    PREDICTS,
    REVEAL,
    REVEALS,
    ROW_DOWN,
    ROW_UP,
    _index,
)

BID_SHARE = 0.5  # of the loon a row is worth above the others, bid on it
BID_CAP = 0.4  # never more than this share of one's loon on a row
DITCH_ODDS = 0.6  # a world's weight per held card worth less than one ditched
TRICK_GUESS = 1.5  # loon a trick is guessed to be worth when no card pays for tricks


@functools.lru_cache(maxsize=8)
def _scale(players: int) -> float:
    """Makes :func:`expected_tricks` of an average ten-card hand 10 / players."""
    deck = rules.crew_deck(players)
    mean = sum(power(card, players) for card in deck) / len(deck)
    return 1.0 / (players * mean)


def power(card: str, players: int) -> float:
    """How likely ``card`` is to take a trick, before scaling: reds far more than others,
    high numbers far more than low ones."""
    low = rules.LOWEST[players]
    share = (rules.number(card) - low) / (20 - low)
    if rules.suit(card) == rules.TRUMP:
        return 0.3 + 0.7 * share**2
    return 0.5 * share**4


def expected_tricks(hand: list[str], players: int) -> float:
    return sum(power(card, players) for card in hand) * _scale(players)


def trick_worth(score_cards: dict, players: int) -> float:
    """What one more trick pays this round, roughly, from the treasure and capture cards."""
    worth = 0.0
    for kind in ("treasure", "capture"):
        for effect in score_cards[kind]["effects"]:
            if effect["kind"] == "per_trick":
                worth += effect["loon"]
            elif effect["kind"] == "trick_rank":
                worth += effect["payouts"][0] / 3
            elif effect["kind"] == "fewest_tricks":
                worth -= effect["loon"] / 4
    return worth if worth else TRICK_GUESS


def taken_worth(cards: list[str], score_cards: dict) -> float:
    """What capturing ``cards`` pays through the per-card capture effects."""
    total = 0.0
    for kind in ("treasure", "capture"):
        for effect in score_cards[kind]["effects"]:
            if effect["kind"] == "per_captured":
                total += effect["loon"] * sum(rules.matches(effect["filter"], c) for c in cards)
    return total


def hand_value(hand: list[str], score_cards: dict, players: int) -> float:
    """Recruitment loon for ``hand`` plus its expected tricks at a trick's worth."""
    index = deck.INDEX
    mask = 0
    for card in hand:
        mask |= 1 << index[card]
    recruited = sum(deck.recruit_loon(card, mask) for card in score_cards["recruitment"])
    return recruited + trick_worth(score_cards, players) * expected_tricks(hand, players)


def easy_bid(
    hand: list[str], rows: list[dict], row: int, loon: int, score_cards: dict, players: int
) -> int:
    """A share of how much more ``row`` adds to ``hand`` than the other open rows would."""
    open_rows = [r for r, entry in enumerate(rows) if entry["owner"] is None]
    others = [r for r in open_rows if r != row]
    if not others or loon <= 0:
        return 0

    def with_row(r: int) -> float:
        return hand_value(hand + rows[r]["up"], score_cards, players) + rows[r]["loon"]

    gain = with_row(row) - sum(with_row(r) for r in others) / len(others)
    if gain <= 0:
        return 0
    return max(0, min(int(gain * BID_SHARE + 0.5), int(loon * BID_CAP)))


def easy_ditch(hand: list[str], score_cards: dict, players: int) -> list[str]:
    """The two cards whose loss costs the hand least (pairs among the five cards that
    cost least alone, so that a pair in a recruitment group is not broken blindly)."""
    return ditch_ranking(hand, score_cards, players)[0]


def ditch_ranking(hand: list[str], score_cards: dict, players: int) -> list[list[str]]:
    """Pairs of cards to ditch, best first (pairs among the five cards that cost least
    alone), each in hand order."""
    whole = hand_value(hand, score_cards, players)
    alone = sorted(
        hand, key=lambda c: whole - hand_value([x for x in hand if x != c], score_cards, players)
    )
    few = alone[:5]
    order = {card: i for i, card in enumerate(hand)}
    pairs = []
    for i, a in enumerate(few):
        for b in few[i + 1 :]:
            kept = [x for x in hand if x != a and x != b]
            pairs.append(
                (-hand_value(kept, score_cards, players), i, sorted([a, b], key=order.get))
            )
    pairs.sort(key=lambda entry: entry[:2])
    return [pair for _, _, pair in pairs]


def quick_value(card: str, score_cards: dict, players: int) -> float:
    """A fast stand-in for what one card adds to a hand (playouts): its trick chance at a
    trick's worth plus what the per-card recruitment effects pay for it (groups left out)."""
    value = trick_worth(score_cards, players) * power(card, players) * _scale(players)
    for carddef in score_cards["recruitment"]:
        for effect in carddef["effects"]:
            if effect["kind"] == "per_card" and rules.matches(effect["filter"], card):
                value += effect["loon"]
    return value


def _key(card: str, led: str | None) -> tuple[int, int]:
    if rules.suit(card) == rules.TRUMP:
        return (2, rules.number(card))
    if rules.suit(card) == led:
        return (1, rules.number(card))
    return (0, 0)


def _keep_key(card: str) -> tuple[bool, int]:
    """How much a card is worth keeping: trumps above everything, then by number."""
    return (rules.suit(card) == rules.TRUMP, rules.number(card))


def play_card(
    hand: list[str],
    playable: list[str],
    trick: list[list],
    players: int,
    wants: bool,
    gone: set[str],
    score_cards: dict,
) -> str:
    """Take the trick while tricks pay (and cheaply), duck it otherwise. ``gone``: cards
    that can no longer be played by anyone else (played, or in this hand)."""
    low = rules.LOWEST[players]
    if not trick:
        if wants:
            masters = [
                c
                for c in playable
                if all(f"{rules.suit(c)}{n}" in gone for n in range(rules.number(c) + 1, 21))
                and (rules.suit(c) == rules.TRUMP or all(f"R{n}" in gone for n in range(low, 21)))
            ]
            if masters:
                return max(masters, key=_keep_key)
        return min(playable, key=_keep_key)
    led = rules.suit(trick[0][1])
    best = max(_key(card, led) for _, card in trick)
    winners = [c for c in playable if _key(c, led) > best]
    losers = [c for c in playable if c not in winners]
    last = len(trick) == players - 1
    on_table = [card for _, card in trick]
    if wants and winners:
        cheapest = min(winners, key=lambda c: _key(c, led))
        if taken_worth([*on_table, cheapest], score_cards) >= -1:
            if last:
                return cheapest
            return max(winners, key=lambda c: _key(c, led))
    if losers:
        return max(losers, key=_keep_key) if not wants else min(losers, key=_keep_key)
    if last:
        return max(winners, key=lambda c: _key(c, led))
    return min(winners, key=lambda c: _key(c, led))


def wants_tricks(
    seat: int, score_cards: dict, predictions: list | None, tricks: list[int], players: int
) -> bool:
    """Whether one more trick helps ``seat``: not once its prediction is made (when a card
    pays for an exact one), nor when the cards pay for few tricks."""
    if predictions is not None and predictions[seat] is not None:
        return tricks[seat] < predictions[seat]
    return trick_worth(score_cards, players) > 0


def loon_of(view: dict[str, Any]) -> list[int]:
    """Every seat's loon, worked out from the open payments of the game so far."""
    n = view["players"]
    loon = [rules.STARTING_LOON] * n
    for past in view["history"]:
        for s in range(n):
            loon[s] += past["top_ups"][s] - past["paid_for_rows"][s] + past["paid"][s]
            loon[s] += sum(per_card[s] for per_card in past["recruitment"])
    if view["phase"] == OVER:
        return loon
    if view["round"] > 1:
        loon = rules.top_up(loon)
    for event in view["events"]:
        if "taker" in event:
            loon[event["taker"]] += event.get("row_loon", 0) - event.get("paid", 0)
    for per_card in view["recruitment"] or []:
        for s, entry in enumerate(per_card):
            loon[s] += entry["loon"]
    return loon


def voids(view: dict[str, Any]) -> list[set[str]]:
    """Suits each seat showed it lacks this round, in the current and the last trick."""
    found: list[set[str]] = [set() for _ in range(view["players"])]
    tricks = []
    if view["trick"]:
        tricks.append(view["trick"]["plays"])
    if view["last_trick"] and view["phase"] == PLAY:
        tricks.append(view["last_trick"]["plays"])
    for plays in tricks:
        if not plays:
            continue
        led = rules.suit(plays[0][1])
        for s, card in plays[1:]:
            if rules.suit(card) != led:
                found[s].add(led)
    return found


def hand_sizes(view: dict[str, Any]) -> list[int]:
    """How many cards each seat holds now (its ditched cards apart)."""
    n = view["players"]
    phase = view["phase"]
    owners = {row["owner"] for row in view["rows"]}
    if phase in (BID, REVEAL, ASSIGN):
        return [HAND_SIZE + (ROW_UP + ROW_DOWN if s in owners else 0) for s in range(n)]
    if phase == DITCH:
        return [10 if done else 12 for done in view["ditch_done"]]
    if phase == PREDICT:
        return [10] * n
    done = sum(view["tricks"])
    playing = {s for s, _ in (view["trick"] or {}).get("plays", [])}
    return [rules.HAND - done - (1 if s in playing else 0) for s in range(n)]


# -- the easy player on the engine's integer cards (playouts) ------------------------------

_TRUMP = deck.TRUMP
#: ``_keep_key`` and ``_key`` of a card index as one number each (same order).
KEEP = tuple((100 if deck.SUIT[c] == _TRUMP else 0) + deck.NUMBER[c] for c in range(60))
#: The cards above ``c`` in its suit, as a mask.
HIGHER = tuple(((1 << (20 * (c // 20 + 1))) - 1) & ~((1 << (c + 1)) - 1) for c in range(60))
#: Every red card of the deck for ``players``, as a mask.
REDS = {
    n: deck.mask_of([deck.INDEX[f"R{k}"] for k in range(low, 21)])
    for n, low in rules.LOWEST.items()
}


_ORDER = deck.INDEX.__getitem__  # hand order of card ids (as rules.sort_key)


class Tables:
    """What the fast policy reads per card for one round's score cards and player count:
    :func:`quick_value`, the scaled :func:`power`, the capture worth of taking it
    (:func:`taken_worth`), and whether a trick pays and predictions are made."""

    __slots__ = ("capture", "keep", "power", "predicting", "quick", "score_cards", "worth")

    def __init__(self, score_cards: dict, players: int):
        self.score_cards = score_cards  # held so that the cache's ids stay unique
        cards = rules.crew_deck(players)
        scale = _scale(players)
        self.quick = [0.0] * 60
        self.power = [0.0] * 60
        self.capture = [0.0] * 60
        for card in cards:
            c = deck.INDEX[card]
            self.quick[c] = quick_value(card, score_cards, players)
            self.power[c] = power(card, players) * scale
            self.capture[c] = taken_worth([card], score_cards)
        self.worth = trick_worth(score_cards, players)
        self.predicting = any(
            rules.needs_prediction(score_cards[kind]) for kind in ("treasure", "capture")
        )
        self.keep = KEEP


_TABLES: dict[tuple, Tables] = {}


def tables_of(state: Any) -> Tables:
    """The :class:`Tables` of ``state``'s round, cached by the ids of the round's score
    cards, the player count and the table's catalog changes."""
    decks, k = state.score_decks, state.round
    catalog = state.options.get("catalog")
    key = (
        decks["recruitment"][2 * k - 2],
        decks["recruitment"][2 * k - 1],
        decks["treasure"][k - 1],
        decks["capture"][k - 1],
        state.players,
        json.dumps(catalog, sort_keys=True) if catalog else None,
    )
    found = _TABLES.get(key)
    if found is None:
        if len(_TABLES) > 256:
            _TABLES.clear()
        found = _TABLES[key] = Tables(state._score_cards(), state.players)
    return found


def _round_tables(score_cards: dict, players: int, catalog: Any) -> Tables:
    """:class:`Tables` for a view's score cards (catalog entries), cached by their ids and
    the table's catalog changes (the view's ``catalog``)."""
    key = (
        "view",
        *(card["id"] for card in score_cards["recruitment"]),
        score_cards["treasure"]["id"],
        score_cards["capture"]["id"],
        players,
        json.dumps(catalog, sort_keys=True) if catalog else None,
    )
    found = _TABLES.get(key)
    if found is None:
        if len(_TABLES) > 256:
            _TABLES.clear()
        found = _TABLES[key] = Tables(score_cards, players)
    return found


def play_id(state: Any, seat: int, tables: Tables) -> int:
    """:func:`play_card` on the engine's integer cards: the card (its id) to play."""
    n = state.players
    hand = state.hands[seat]
    trick = state.trick
    keep = KEEP
    predictions = state.predictions
    if tables.predicting and predictions[seat] is not None:
        wants = state.tricks[seat] < predictions[seat]
    else:
        wants = tables.worth > 0
    if trick:
        led = deck.SUIT[trick[0][1]]
        playable = [c for c in hand if deck.SUIT[c] == led] or hand
    else:
        playable = hand
    if not trick:
        if wants:
            gone = 0
            for c in hand:
                gone |= 1 << c
            for pile in state.won:
                for c in pile:
                    gone |= 1 << c
            reds = REDS[n]
            red_gone = gone & reds == reds
            best = -1
            for c in playable:
                higher = HIGHER[c]
                master = gone & higher == higher and (red_gone or deck.SUIT[c] == _TRUMP)
                if master and (best < 0 or keep[c] > keep[best]):
                    best = c
            if best >= 0:
                return best
        return min(playable, key=keep.__getitem__)
    suit = deck.SUIT

    def strength(c: int) -> int:
        s = suit[c]
        return 200 + c if s == _TRUMP else (100 + c if s == led else 0)

    top = max(strength(c) for _, c in trick)
    winners = [c for c in playable if strength(c) > top]
    last = len(trick) == n - 1
    if wants and winners:
        cheapest = min(winners, key=strength)
        capture = tables.capture
        if sum(capture[c] for _, c in trick) + capture[cheapest] >= -1:
            return cheapest if last else max(winners, key=strength)
    losers = [c for c in playable if c not in winners] if winners else playable
    if losers:
        return max(losers, key=keep.__getitem__) if not wants else min(losers, key=keep.__getitem__)
    if last:
        return max(winners, key=strength)
    return min(winners, key=strength)


def ditch_splits(
    cards: list[str], shown: set[str], lacks: set[str], quick: list[float]
) -> tuple[list[tuple[str, str]], list[float]]:
    """Every way another seat's ``cards`` (its hand now and the two it ditched, as one
    sampled world deals them) can split into those two, with the likelihood of each
    (``DITCH_ODDS`` per card kept in hand that is worth less (:func:`quick_value`, by
    ``quick``) than one ditched: a player ditches what adds least). A card shown for
    recruitment stays in hand; a card of a suit the seat showed it lacks was ditched."""
    value = [quick[deck.INDEX[c]] for c in cards]
    less = [sum(1 for w in value if w < v) for v in value]
    free = [i for i, c in enumerate(cards) if c not in shown]
    must = [i for i in free if cards[i][0] in lacks]
    pairs: list[tuple[str, str]] = []
    odds: list[float] = []
    for a_at, a in enumerate(free):
        for b in free[a_at + 1 :]:
            if any(i != a and i != b for i in must):
                continue
            # the cards kept below each ditched one: the other ditched card is not kept
            below = less[a] + less[b] - (value[a] != value[b])
            pairs.append((cards[a], cards[b]))
            odds.append(DITCH_ODDS**below)
    return pairs, odds


class PirateTricksBot(GameBot):
    bench = {"players": 4, "options": {"rounds": 3}}
    #: What each level was measured to do (bench/README.md), shown on the Play page.
    strength = {
        "easy": "Rules of thumb: won all 100 games against three random players.",
        "normal": "A quick look ahead: wins half its games against three easy bots.",
        "strong": "Thinks up to 0.4 s a move: wins 36 games in 100 against three normal "
        "bots (a fair share is 25).",
        "expert": "Strong's search with 8 times the time, a few seconds a move; at 4 times "
        "strong's time, about 3 points a game ahead of three strong bots.",
    }

    def should_act(self, view):
        return not view.get("over") and view["seat"] in view["to_act"]

    # -- the easy player -----------------------------------------------------------------

    def easy(self, view, legal, rng):
        seat = view["seat"]
        n = view["players"]
        hand = view["hand"]
        cards_in_play = view["score_cards"]
        phase = view["phase"]
        if phase == BID:
            row = view["auction"]["row"]
            bid = easy_bid(hand, view["rows"], row, view["loon"][seat], cards_in_play, n)
            return {"type": "bid", "loon": min(bid, view["loon"][seat])}
        if phase == REVEAL:
            return {"type": "reveal", "card": max(hand, key=rules.reveal_key)}
        if phase == ASSIGN:
            row = view["auction"]["row"]
            others = [r for r, e in enumerate(view["rows"]) if e["owner"] is None and r != row]
            mine = easy_bid(hand, view["rows"], row, 100, cards_in_play, n) > 0 or not others
            tied = [s for s in view["auction"]["tied"] if s != seat]
            return {"type": "assign", "seat": seat if mine or not tied else tied[0]}
        if phase == DITCH:
            return {"type": "ditch", "cards": easy_ditch(hand, cards_in_play, n)}
        if phase == PREDICT:
            guess = int(expected_tricks(hand, n) + 0.5)
            return {"type": "predict", "tricks": max(0, min(rules.TRICKS, guess))}
        playable = [a["card"] for a in legal]
        trick = view["trick"]["plays"]
        gone = set(hand) | {c for pile in view["won"] for c in pile} | {c for _, c in trick}
        wants = wants_tricks(seat, cards_in_play, view["predictions"], view["tricks"], n)
        card = play_card(hand, playable, trick, n, wants, gone, cards_in_play)
        return {"type": "play", "card": card}

    def candidates(self, view, legal, rng):
        """The searches try a few bids around the easy one, the easy player's six best
        pairs to ditch and predictions near its own, not every amount and every pair."""
        phase = view["phase"]
        seat, n, hand = view["seat"], view["players"], view["hand"]
        if phase == BID:
            have = view["loon"][seat]
            bid = easy_bid(hand, view["rows"], view["auction"]["row"], have, view["score_cards"], n)
            amounts = {0, bid // 2, bid, bid + 2, 2 * bid + 1}
            return [a for a in legal if a["loon"] in amounts]
        if phase == DITCH:
            pairs = ditch_ranking(hand, view["score_cards"], n)[:6]
            return [a for a in legal if a["cards"] in pairs]
        if phase == PREDICT:
            guess = expected_tricks(hand, n)
            return [a for a in legal if abs(a["tricks"] - guess) <= 2] or legal
        if phase == REVEAL:
            # Only the highest card can win the tie: show it, or show the lowest and let
            # the row go.
            ends = {max(hand, key=rules.reveal_key), min(hand, key=rules.reveal_key)}
            return [a for a in legal if a["card"] in ends]
        if phase == PLAY:
            return self._distinct_plays(view, legal, rng)
        return legal

    def _distinct_plays(self, view, legal, rng):
        """One card of each set of equivalent ones: cards of a suit with nothing between
        them that anybody else could still play (the cards between are in this hand or
        already played) win and lose the same tricks; they must also count alike for the
        score cards that count captured cards. The easy player's card stands for its set."""
        if len(legal) < 2:
            return legal
        cards = view["score_cards"]
        masks = [
            deck.filter_mask(effect["filter"])
            for kind in ("treasure", "capture")
            for effect in rules.filtered_effects(cards[kind])
        ]
        out = set(view["hand"]) | set(view["ditched"] or [])
        out |= {c for pile in view["won"] for c in pile}
        out |= {c for _, c in view["trick"]["plays"]}
        gone = deck.mask_of(deck.indexes(sorted(out)))
        easy = self.easy(view, legal, rng)["card"]
        playable = sorted(deck.INDEX[a["card"]] for a in legal)
        groups: list[list[int]] = []
        for card in playable:
            if groups:
                last = groups[-1][-1]
                between = range(last + 1, card)
                same = deck.SUIT[last] == deck.SUIT[card] and all(gone >> c & 1 for c in between)
                alike = all((m >> last & 1) == (m >> card & 1) for m in masks)
                if same and alike:
                    groups[-1].append(card)
                    continue
            groups.append([card])
        keep = set()
        for group in groups:
            ids = [deck.CARD[c] for c in group]
            keep.add(easy if easy in ids else ids[0])
        return [a for a in legal if a["card"] in keep]

    def rollout(self, state, seat, rng):
        """The fast policy's move as a dict (the strong search's tree reads dicts)."""
        return ACTION_IDS.copy_of(self.rollout_id(state, seat, rng))

    def rollout_id(self, state, seat, rng):
        """The easy player's ways on the sampled world's integer cards, with the fast
        stand-in for a hand's worth (:func:`quick_value`) in the auction and the ditch: no
        view, no dict, an id of ``state.legal_ids(seat)``."""
        phase = state.phase
        if phase == PLAY:
            return play_id(state, seat, tables_of(state))
        tables = tables_of(state)
        hand = state.hands[seat]
        if phase == BID:
            a = state.auction
            rows = state.rows
            quick = tables.quick

            def worth(r: int) -> float:
                row = rows[r]
                return sum(quick[c] for c in row["up"]) + row["loon"]

            here = a["row"]
            others = [r for r, row in enumerate(rows) if row["owner"] is None and r != here]
            have = state.loon[seat]
            gain = worth(here) - sum(map(worth, others)) / len(others) if others else 0.0
            bid = max(0, min(int(gain * BID_SHARE + 0.5), int(have * BID_CAP))) if gain > 0 else 0
            return BIDS + min(bid, have)
        if phase == REVEAL:
            return REVEALS + max(hand, key=deck.REVEAL.__getitem__)
        if phase == ASSIGN:
            return ASSIGNS + seat
        if phase == DITCH:
            x, y = sorted(hand, key=tables.quick.__getitem__)[:2]
            return PAIR_BASE[x] + y if x < y else PAIR_BASE[y] + x
        if phase == PREDICT:
            guess = int(sum(tables.power[c] for c in hand) + 0.5)
            return PREDICTS + max(0, min(rules.TRICKS, guess))
        raise ValueError(f"no move in phase {phase!r}")

    # -- the searches' worlds ------------------------------------------------------------

    def sample(self, view, rng):
        seen = self._seen(view)
        n, seat = seen["players"], seen["seat"]
        known = seen["known"]
        hands, ditched, downs = self._deal(
            seen["pool"],
            known,
            seen["shown"],
            seen["sizes"],
            seen["lacks"],
            seen["ditch_done"],
            seat,
            seen["unowned"],
            rng,
        )
        hands[seat] = list(seen["hand"])
        ditched[seat] = list(view["ditched"]) if view["ditched"] else None
        weight = self._split_ditches(view, seen, hands, ditched, rng)
        everything = seen["deck"]
        rows = []
        for row in view["rows"]:
            owner = row["owner"]
            if owner is None:
                down = downs.pop()
            elif owner == seat:
                down = list(row["down"])
            else:
                # Taken into the owner's hand long ago (no rule reads them again): two of
                # its unknown cards if it has them, else any two.
                held = hands[owner] + (ditched[owner] or [])
                theirs = [c for c in held if c not in known[owner]]
                down = list(dict.fromkeys(theirs + held + everything))[:ROW_DOWN]
            rows.append({"up": list(row["up"]), "down": down, "owner": owner, "loon": row["loon"]})
        loon = list(seen["loon"])
        trick = view["trick"]
        # The cards still in the score decks stay in one order: a world ends with this
        # round (:meth:`done`), so no later round ever draws them.
        decks = {kind: drawn + rest for kind, (drawn, rest) in seen["decks"]}
        state = {
            "players": n,
            "options": {"rounds": view["rounds"], "catalog": view["catalog"]},
            "seed": rng.getrandbits(52),
            "deal": None,
            "log": [],
            "rounds": view["rounds"],
            "round": view["round"],
            "loon": loon,
            "history": view["history"],
            "score_decks": decks,
            "top_ups": list(seen["top_ups"]),
            "hands": [sorted(h, key=_ORDER) for h in hands],
            "rows": rows,
            "go_first": view["go_first"],
            "events": view["events"],
            "ditched": ditched,
            "predictions": list(view["predictions"]) if seen["predicting"] else [None] * n,
            "recruitment": view["recruitment"],
            "leader": trick["leader"] if trick else None,
            "turn": view["turn"],
            "trick": [list(p) for p in trick["plays"]] if trick else [],
            "last_trick": view["last_trick"],
            "tricks": list(view["tricks"]),
            "won": [list(pile) for pile in view["won"]],
            "auction": self._auction(view, hands, loon, rng),
            "phase": view["phase"],
        }
        return {"game": "pirate_tricks", "state": state, "weight": weight}

    def _split_ditches(self, view, seen, hands, ditched, rng) -> float:
        """Once hands are played from (predictions and tricks), choose which two of each
        other seat's sampled cards it ditched in proportion to how likely that ditch is
        (:func:`ditch_splits`), instead of as dealt (not with ``rng`` None: the weight
        alone); returns the world's weight, which
        is then what the seat's cards explain of its ditch: for each seat, the mean
        likelihood over the ways its cards could split.

        The same target as weighing each world by the likelihood of the ditch it was
        dealt (the old way), with far steadier weights: with the ditch dealt at random,
        early in the tricks a few worlds out of hundreds carried nearly all the weight."""
        if view["phase"] not in (PREDICT, PLAY):
            return 1.0
        quick = _round_tables(view["score_cards"], view["players"], view["catalog"]).quick
        weight = 1.0
        for s, out in enumerate(ditched):
            if s == view["seat"] or not out:
                continue
            cards = hands[s] + out
            pairs, odds = ditch_splits(cards, seen["shown"][s], seen["lacks"][s], quick)
            if rng is not None:
                pair = rng.choices(pairs, weights=odds)[0]
                ditched[s] = sorted(pair, key=_ORDER)
                hands[s] = [c for c in cards if c not in pair]
            weight *= sum(odds) / len(odds)
        return weight

    _last_seen: tuple | None = None

    def _seen(self, view) -> dict[str, Any]:
        """What every world of ``view`` shares (the unseen pool, what each seat is known to
        hold or lack, the loon behind the screens, the score card decks drawn so far),
        worked out once per view: a search samples the same view many times."""
        trick = view["trick"]
        mark = (
            tuple(view["hand"]),
            view["phase"],
            view["round"],
            len(view["events"]),
            tuple(view["tricks"]),
            len(trick["plays"]) if trick else -1,
            tuple(view["to_act"]),
        )
        last = self._last_seen
        if last is not None and last[0] is view and last[1] == mark:
            return last[2]
        seen = self._work_out(view)
        self._last_seen = (view, mark, seen)  # the view is held: its id stays its own
        return seen

    def _work_out(self, view) -> dict[str, Any]:
        n = view["players"]
        seat = view["seat"]
        hand = list(view["hand"])
        mine = set(hand) | set(view["ditched"] or [])
        for row in view["rows"]:
            if row["owner"] == seat and row["down"]:
                mine.update(row["down"])
        played = {c for pile in view["won"] for c in pile}
        if view["trick"]:
            played.update(c for _, c in view["trick"]["plays"])
        public = played | {c for row in view["rows"] for c in row["up"]}
        # What each other seat is known to hold (in hand, or ditched) and must hold in hand.
        known: list[set[str]] = [set() for _ in range(n)]
        shown: list[set[str]] = [set() for _ in range(n)]
        for row in view["rows"]:
            if row["owner"] is not None:
                known[row["owner"]].update(row["up"])
        for event in view["events"]:
            for s, card in enumerate(event.get("reveals") or []):
                if card:
                    known[s].add(card)
        for per_card in view["recruitment"] or []:
            for s, entry in enumerate(per_card):
                shown[s].update(entry["cards"])
                known[s].update(entry["cards"])
        for s in range(n):
            known[s] -= played
            shown[s] -= played
        known[seat] = set()
        held_known = set().union(*known)
        everything = rules.crew_deck(n)
        pool = [c for c in everything if c not in mine and c not in public and c not in held_known]
        loon = loon_of(view)
        before = list(loon)
        for event in view["events"]:
            if "taker" in event:
                before[event["taker"]] -= event.get("row_loon", 0) - event.get("paid", 0)
        for per_card in view["recruitment"] or []:
            for s, entry in enumerate(per_card):
                before[s] -= entry["loon"]
        had = loon_of({**view, "round": 1, "events": [], "recruitment": None})
        options = {"rounds": view["rounds"], "catalog": view["catalog"]}
        return {
            "players": n,
            "seat": seat,
            "hand": hand,
            "known": known,
            "shown": shown,
            "pool": pool,
            "deck": everything,
            "sizes": hand_sizes(view),
            "lacks": voids(view),
            "ditch_done": view["ditch_done"],
            "unowned": sum(1 for row in view["rows"] if row["owner"] is None),
            "loon": loon,
            "top_ups": [b - h for b, h in zip(before, had, strict=True)],
            "predicting": view["predictions"] is not None,
            "decks": self._decks(view, options),
        }

    @staticmethod
    def _deal(pool, known, shown, sizes, lacks, ditched_done, seat, unowned, rng):
        """Hands and ditched cards of the other seats and the face-down cards of the open
        rows, from the unseen ``pool``: each seat keeps its known cards (those shown for
        recruitment in hand), its hand has none of a suit it showed lacking."""
        n = len(sizes)
        others = sorted(
            (s for s in range(n) if s != seat), key=lambda s: (-len(lacks[s]), -len(known[s]), s)
        )
        for _attempt in range(200):
            left = list(pool)
            rng.shuffle(left)
            hands: list[list[str]] = [[] for _ in range(n)]
            ditched: list[list[str] | None] = [None] * n
            ok = True
            for s in others:
                fixed = sorted(known[s], key=_ORDER)
                if ditched_done[s]:
                    free = [c for c in fixed if c not in shown[s]]
                    rng.shuffle(free)
                    out = [c for c in free if c[0] in lacks[s]]
                    keep = [c for c in fixed if c not in out]
                    while len(keep) > sizes[s] and len(out) < 2:
                        movable = [c for c in keep if c not in shown[s]]
                        if not movable:
                            break
                        out.append(movable[0])
                        keep.remove(movable[0])
                    if len(out) > 2 or len(keep) > sizes[s]:
                        ok = False
                        break
                else:
                    keep, out = fixed, []
                fits = [c for c in left if c[0] not in lacks[s]]
                need = sizes[s] - len(keep)
                if len(fits) < need:
                    ok = False
                    break
                drawn = fits[:need]
                left = [c for c in left if c not in set(drawn)]
                if ditched_done[s]:
                    extra = 2 - len(out)
                    if len(left) < extra:
                        ok = False
                        break
                    out = out + left[:extra]
                    left = left[extra:]
                    ditched[s] = sorted(out, key=_ORDER)
                hands[s] = keep + drawn
            if ok and len(left) == 2 * unowned:
                downs = [left[2 * i : 2 * i + 2] for i in range(unowned)]
                return hands, ditched, downs
        raise RuntimeError("no deal fits what the seat has seen")  # pragma: no cover

    def _auction(self, view, hands, loon, rng) -> dict[str, Any]:
        """The auction record: sealed bids and reveals not yet shown are the easy ones for
        the sampled hands."""
        n = view["players"]
        seat = view["seat"]
        seen = view["auction"]
        passes = [event["pass"] for event in view["events"]] or [1]
        auction = {
            "pass": max(passes),
            "row": None,
            "bidders": [],
            "bids": [None] * n,
            "tied": [],
            "reveals": [None] * n,
            "chooser": None,
        }
        if seen is None:
            return auction
        auction.update(
            {
                "pass": seen["pass"],
                "row": seen["row"],
                "bidders": list(seen["bidders"]),
                "tied": list(seen["tied"]),
                "chooser": seen["chooser"],
            }
        )
        waiting = set(seen["waiting"])
        if view["phase"] == BID:
            bids: list[int | None] = [None] * n
            for s in seen["bidders"]:
                if s == seat:
                    bids[s] = seen["your_bid"]
                elif s not in waiting:
                    bid = easy_bid(
                        hands[s], view["rows"], seen["row"], loon[s], view["score_cards"], n
                    )
                    bids[s] = min(bid, loon[s])
            auction["bids"] = bids
            return auction
        last = view["events"][-1]
        auction["bids"] = list(last["bids"])
        if view["phase"] == REVEAL:
            reveals: list[str | None] = [None] * n
            for s in seen["tied"]:
                if s == seat:
                    reveals[s] = seen["your_reveal"]
                elif s not in waiting:
                    reveals[s] = max(hands[s], key=rules.reveal_key)
            auction["reveals"] = reveals
        else:
            auction["reveals"] = list(last["reveals"])
        return auction

    @staticmethod
    def _decks(view, options) -> list[tuple[str, tuple[list[str], list[str]]]]:
        """Per score card deck, the cards drawn so far in order and the rest (sorted)."""
        drawn: dict[str, list[str]] = {"recruitment": [], "treasure": [], "capture": []}
        rounds = [past["score_cards"] for past in view["history"]]
        if view["phase"] != OVER:
            cards = view["score_cards"]
            rounds.append(
                {
                    "recruitment": [c["id"] for c in cards["recruitment"]],
                    "treasure": cards["treasure"]["id"],
                    "capture": cards["capture"]["id"],
                }
            )
        for ids in rounds:
            drawn["recruitment"].extend(ids["recruitment"])
            drawn["treasure"].append(ids["treasure"])
            drawn["capture"].append(ids["capture"])
        index = _index(options)
        return [
            (kind, (ids, sorted(c for c in index[kind] if c not in ids)))
            for kind, ids in drawn.items()
        ]

    def weight(self, view, world):
        """How well the world explains the others' ditches (a player ditches cards worth
        little to it): as :meth:`sample` worked it out while choosing them, else the same
        from the world's cards (see :meth:`_split_ditches`; it does not depend on which
        of a seat's cards the world holds as ditched)."""
        if "weight" in world:
            return world["weight"]
        state = world["state"]
        if state["ditched"] is None:
            return 1.0
        hands, ditched = list(state["hands"]), list(state["ditched"])
        return self._split_ditches(view, self._seen(view), hands, ditched, None)

    def observe(self, action, mover, seat):
        """Another seat's ditch is sealed and never shown: the seat sees that it ditched,
        not what (every other move is shown, the sealed bids and reveals as soon as the
        last one is in, before the seat's next choice)."""
        if action["type"] == "ditch" and mover != seat:
            return ("ditch",)
        return super().observe(action, mover, seat)

    # -- the playout's horizon -----------------------------------------------------------

    def done(self, start, state):
        """The end of the round seen at the decision. A world is the search's own copy:
        it is told the game ends with that round, so that the round's end settles the
        score cards and stops instead of dealing the next round for nothing (the loon
        is the same; the next round's top-ups, which a playout used to count, are not)."""
        if state.rounds > start["round"]:
            state.rounds = start["round"]
        return state.is_over() or state.round != start["round"]


BOT = PirateTricksBot()
