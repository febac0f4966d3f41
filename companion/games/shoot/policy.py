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
#: The others, in the searches' worlds, bid this many times the easy estimate. Before the
#: estimate was calibrated (:data:`CALIBRATION`) it ran far below a seat's share of the
#: tricks in long hands and this was 1.4 (bench/README.md); calibrated, the estimate is
#: the share on average, a little above what OpenSpiel's ISMCTS bids (2.27 at 10 cards,
#: 4 players, share 2.5); 0.9 measured no better than 1.0 (bench/README.md).
OTHERS_BID = 1.0
BID_REACH = 1.0  # the bids the searches try: this close to the hand's estimate,
BID_REACH_PER_CARD = 0.125  # and this much further per card in the hand
BID_SPREAD = 1.0  # how far (in tricks) a bid strays from the hand's estimate, roughly


#: (players, hand size) -> (the mean of :func:`card_chances` over random hands, the
#: tricks a hand takes per unit of it above that mean): :func:`expected_tricks` is a seat's
#: share of the tricks (size / players, what random hands take on average) plus the slope
#: times the hand's distance from the mean. Fitted by ``companion/games/shoot/calibration.py``
#: (seeded; it prints this table) from deals played out by the easy players.
CALIBRATION: dict[tuple[int, int], tuple[float, float]] = {  # --deals 2000 --seed 1
    (2, 2): (1.306, 1.076),
    (2, 3): (1.750, 1.047),
    (2, 4): (2.113, 1.028),
    (2, 5): (2.381, 1.056),
    (2, 6): (2.556, 0.937),
    (2, 7): (2.704, 0.950),
    (2, 8): (2.773, 0.893),
    (2, 9): (2.840, 0.895),
    (2, 10): (2.830, 0.959),
    (2, 11): (2.806, 0.971),
    (2, 12): (2.757, 0.998),
    (2, 13): (2.694, 1.016),
    (2, 14): (2.638, 1.082),
    (2, 15): (2.524, 1.048),
    (2, 16): (2.423, 1.112),
    (2, 17): (2.278, 1.109),
    (2, 18): (2.118, 1.140),
    (2, 19): (2.014, 1.050),
    (2, 20): (1.878, 1.147),
    (2, 21): (1.787, 1.001),
    (2, 22): (1.673, 1.023),
    (2, 23): (1.625, 0.927),
    (2, 24): (1.589, 0.863),
    (2, 25): (1.552, 0.711),
    (3, 2): (1.061, 0.869),
    (3, 3): (1.315, 0.750),
    (3, 4): (1.436, 0.770),
    (3, 5): (1.513, 0.825),
    (3, 6): (1.542, 0.887),
    (3, 7): (1.509, 0.927),
    (3, 8): (1.475, 0.981),
    (3, 9): (1.404, 1.086),
    (3, 10): (1.317, 1.210),
    (3, 11): (1.234, 1.280),
    (3, 12): (1.147, 1.278),
    (3, 13): (1.048, 1.397),
    (3, 14): (0.970, 1.337),
    (3, 15): (0.893, 1.317),
    (3, 16): (0.842, 1.275),
    (3, 17): (0.818, 1.089),
    (4, 2): (0.886, 0.695),
    (4, 3): (1.012, 0.702),
    (4, 4): (1.056, 0.735),
    (4, 5): (1.046, 0.761),
    (4, 6): (1.003, 0.877),
    (4, 7): (0.962, 0.980),
    (4, 8): (0.887, 1.151),
    (4, 9): (0.806, 1.257),
    (4, 10): (0.728, 1.284),
    (4, 11): (0.665, 1.311),
    (4, 12): (0.616, 1.328),
    (5, 2): (0.741, 0.630),
    (5, 3): (0.791, 0.694),
    (5, 4): (0.798, 0.742),
    (5, 5): (0.761, 0.818),
    (5, 6): (0.716, 0.936),
    (5, 7): (0.659, 0.973),
    (5, 8): (0.581, 1.146),
    (5, 9): (0.526, 1.269),
    (5, 10): (0.479, 1.264),
}


def mask_of(cards) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def expected_tricks(hand: list[int], trump_card: int, players: int, leads: bool) -> float:
    """Roughly how many tricks ``hand`` (integer cards) takes with ``trump_card`` turned
    up: :func:`card_chances` moved onto the tricks such hands really take, by
    :data:`CALIBRATION` for the table's size and the hand's."""
    size = len(hand)
    if size == 0:
        return 0.0
    if size == 1:
        # one card each: the leader usually wins; otherwise only a trump is a fair chance
        return 1.0 if leads or SUIT[hand[0]] == SUIT[trump_card] else 0.0
    raw = card_chances(hand, trump_card, players)
    mean, slope = CALIBRATION[players, size]  # every table size and hand size the rules allow
    return min(float(size), max(0.0, size / players + slope * (raw - mean)))


def card_chances(hand: list[int], trump_card: int, players: int) -> float:
    """The sum over a hand of two or more cards of each card's rough chance to win: when
    no opponent holds a higher card of its suit (and, off trump, when nobody trumps it).
    Its ordering of hands is good, its scale is not (far below a seat's share of the
    tricks in long hands): :func:`expected_tricks` calibrates it."""
    size = len(hand)
    trump = SUIT[trump_card]
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
