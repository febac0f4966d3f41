"""The Shoot! rule-of-thumb policy on integer cards: the bid estimate, the card play, and
what a view shows of a deal (its finished tricks, the voids shown). The easy player, the
searches' rollouts and their fast worlds (:mod:`.worlds`) all play it."""

from __future__ import annotations

from typing import Any

from companion.games.cards import CARD_IDS, CARD_INDEX, RANKS

from .engine import ShootGame

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
BID_REACH = 1.0  # the bids the searches try: this close to the hand's estimate,
BID_REACH_PER_CARD = 0.125  # and this much further per card in the hand
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
