"""Pirate Tricks crew cards as small integers for the engine, and bitmask recruitment.

A crew card is ``20 * suit + number - 1`` with suits red 0, green 1, blue 2: ``"R1"`` is
0, ``"G3"`` 22, ``"B20"`` 59. Integer order is hand order (red, green, blue, each low to
high), so a sorted list of indexes is a sorted hand. A set of cards is a bitmask (bit
``i`` for card ``i``). Ids (strings) are what every action, view and snapshot carries;
:data:`CARD` turns an index into its id, :data:`INDEX` an id into its index.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from functools import lru_cache

from ..cards import shuffle  # noqa: F401  (deck.shuffle: the engine deals with it)
from . import rules

CARD: tuple[str, ...] = tuple(f"{s}{n}" for s in rules.SUITS for n in range(1, 21))
INDEX: dict[str, int] = {card: i for i, card in enumerate(CARD)}
SUIT_SIZE = 20
SUIT: tuple[int, ...] = tuple(i // SUIT_SIZE for i in range(60))
#: The lowest card of each card's suit: a suit is the cards ``low .. low + SUIT_SIZE - 1``.
SUIT_LOW: tuple[int, ...] = tuple(SUIT_SIZE * SUIT[i] for i in range(60))
NUMBER: tuple[int, ...] = tuple(i % 20 + 1 for i in range(60))
SUIT_LETTER: tuple[str, ...] = tuple(rules.SUITS)
TRUMP = rules.SUITS.index(rules.TRUMP)
#: Auction tie-break (``rules.reveal_key``) as one number: higher number, then red
#: over green over blue.
REVEAL: tuple[int, ...] = tuple(4 * NUMBER[i] + (3 - SUIT[i]) for i in range(60))


def indexes(cards: list[str]) -> list[int]:
    return [INDEX[c] for c in cards]


def ids(cards: list[int]) -> list[str]:
    return [CARD[c] for c in cards]


#: BIT[i] is card i's bit, made once (``1 << card`` makes a new integer every time).
BIT: tuple[int, ...] = tuple(1 << i for i in range(60))


def mask_of(cards: list[int]) -> int:
    mask = 0
    for card in cards:
        mask |= BIT[card]
    return mask


def cards_of(mask: int) -> list[int]:
    """The cards of ``mask``, lowest first (a sorted hand)."""
    return [card for card in range(60) if mask >> card & 1]


@lru_cache(maxsize=8)
def _deck(players: int) -> tuple[int, ...]:
    return tuple(indexes(rules.crew_deck(players)))


def deck(players: int) -> list[int]:
    """The indexes of ``rules.crew_deck(players)``, in the same order (a new list)."""
    return list(_deck(players))


# -- tricks -------------------------------------------------------------------------------


def suit_run(hand: list[int], card: int) -> list[int]:
    """The cards of the sorted ``hand`` in the suit of ``card`` (one run of it; a new
    list, empty when the hand holds none)."""
    low = SUIT_LOW[card]
    start = bisect_left(hand, low)
    return hand[start : bisect_left(hand, low + SUIT_SIZE, start)]


def _strength(card: int, led: int) -> int:
    """How strongly ``card`` plays to a trick led in suit ``led``: reds above the suit
    led, each by number; any other card never wins."""
    suit = SUIT[card]
    return 40 + card if suit == TRUMP else (20 + card % 20 if suit == led else -1)


#: STRENGTH[led][card]: :func:`_strength` looked up.
STRENGTH: tuple[tuple[int, ...], ...] = tuple(
    tuple(_strength(card, led) for card in range(60)) for led in range(3)
)


def trick_winner(plays: list) -> int:
    """The seat winning ``[seat, card]`` plays so far: the highest red, else the highest
    card of the suit led (the cards of a trick are all different)."""
    strength = STRENGTH[SUIT[plays[0][1]]]
    best_seat, best = plays[0][0], -1
    for seat, card in plays:
        if strength[card] > best:
            best_seat, best = seat, strength[card]
    return best_seat


# -- filters and recruitment --------------------------------------------------------------


@lru_cache(maxsize=256)
def _filter_mask(key: str) -> int:
    card_filter = json.loads(key)
    return mask_of([i for i in range(60) if rules.matches(card_filter, CARD[i])])


_BY_OBJECT: dict[int, tuple[dict, dict, int]] = {}


def filter_mask(card_filter: dict) -> int:
    """The cards that meet a (validated) filter, as a mask (cached by the JSON of the
    filter; a filter met before, such as a catalog entry's, is found again by identity
    and an equality check with a copy, without building the JSON)."""
    seen = _BY_OBJECT.get(id(card_filter))
    if seen is not None and seen[0] is card_filter and seen[1] == card_filter:
        return seen[2]
    mask = _filter_mask(json.dumps(card_filter, sort_keys=True))
    if len(_BY_OBJECT) > 1024:
        _BY_OBJECT.clear()
    # The entry holds the filter itself, so its id is not reused while it is cached.
    _BY_OBJECT[id(card_filter)] = (card_filter, json.loads(json.dumps(card_filter)), mask)
    return mask


@lru_cache(maxsize=64)
def candidates(shape: str, size: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every group of the whole deck as ``(mask, cards)``, in the order of
    ``rules._candidates`` (which says what a group is)."""
    groups = rules._candidates(shape, size, list(CARD))
    return tuple((mask_of(indexes(list(g))), tuple(indexes(list(g)))) for g in groups)


@lru_cache(maxsize=64)
def _layout(shape: str, size: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple, ...]]:
    """How to find the groups of a hand quickly: the shapes of the groups (the offsets of
    their cards from the lowest one, each shape once) and :func:`candidates` sorted out
    by their lowest card (60 tuples, each in the order of :func:`candidates`)."""
    shapes: dict[tuple[int, ...], None] = {}
    by_lowest: list[list] = [[] for _ in range(60)]
    for mask, group in candidates(shape, size):
        low, *rest = sorted(group)
        shapes[tuple(card - low for card in rest)] = None
        by_lowest[low].append((mask, group))
    return tuple(shapes), tuple(map(tuple, by_lowest))


def _usable(shape: str, size: int, hand: int) -> list[tuple[int, tuple[int, ...]]]:
    """The groups of the cards in mask ``hand`` as ``(mask, cards)``, by their lowest card
    (in the order of :func:`candidates` for one lowest card)."""
    offsets, by_lowest = _layout(shape, size)
    # The cards that may be the lowest of a group: those whose offsets of some shape
    # all hold a card of the hand.
    starts = 0
    for shifts in offsets:
        found = hand
        for shift in shifts:
            found &= hand >> shift
        starts |= found
    usable = []
    while starts:
        low = starts & -starts
        starts ^= low
        for m, g in by_lowest[low.bit_length() - 1]:
            if m & hand == m:
                usable.append((m, g))
    return usable


def best_groups(shape: str, size: int, hand: int) -> list[tuple[int, ...]]:
    """The largest number of disjoint groups of the cards in mask ``hand`` (each card in
    one group at most). Among equally many, the same groups as the rules always chose:
    the lowest card either starts one of the groups it belongs to (first such group
    first) or is left out, whichever gives more. The groups come lowest card first."""
    return [g for _, g in _best_groups(shape, size, hand)]


def _best_groups(shape: str, size: int, hand: int) -> list[tuple[int, tuple[int, ...]]]:
    """:func:`best_groups` as ``(mask, cards)``."""
    usable = _usable(shape, size, hand)
    union = 0
    for m, _ in usable:
        union |= m
    if union.bit_count() == size * len(usable):
        return usable  # no two share a card: all of them
    found = [pair for cluster in _clusters(usable) for pair in _best_within(shape, size, cluster)]
    found.sort(key=lambda pair: pair[1])  # by lowest card (the groups are disjoint)
    return found


def _clusters(usable: list[tuple[int, tuple[int, ...]]]) -> list[int]:
    """The masks of the clusters of ``usable`` groups linked by shared cards. Groups
    sharing no card with each other are chosen independently: the search runs on each
    cluster (a small mask, often met again)."""
    clusters: list[int] = []
    for m, _ in usable:
        joined = m
        apart = []
        for cluster in clusters:
            if cluster & joined:
                joined |= cluster
            else:
                apart.append(cluster)
        apart.append(joined)
        clusters = apart
    return clusters


@lru_cache(maxsize=4096)
def _best_within(shape: str, size: int, cards: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """:func:`_best_groups` of the cards in mask ``cards``, by the search itself."""
    usable_all = _usable(shape, size, cards)
    memo: dict[int, tuple] = {}

    def best(available: int) -> tuple:
        if available in memo:
            return memo[available]
        usable = [(m, g) for m, g in usable_all if m & available == m]
        if not usable:
            memo[available] = ()
            return ()
        union = 0
        for m, _ in usable:
            union |= m
        pivot = union & -union  # the lowest card in any usable group
        choice: tuple = ()
        for m, g in usable:
            if m & pivot:
                option = ((m, g), *best(available & ~m))
                if len(option) > len(choice):
                    choice = option
        skip = best(available & ~pivot)
        found = skip if len(skip) > len(choice) else choice
        memo[available] = found
        return found

    return best(cards)


def recruit_loon(carddef: dict, mask: int) -> int:
    """What the cards in ``mask`` earn from one recruitment card (``recruitment_loon``
    on a bitmask, without the checks and the names; :func:`recruit` names them)."""
    return plan_loon(recruit_plan(carddef), mask)


def recruit_plan(carddef: dict) -> tuple[tuple[int, int, str | None, int], ...]:
    """The effects of a recruitment card that pay, as ``(loon, mask, shape, size)``: a
    per-card effect with the mask of its filter (shape None), a groups effect with its
    shape and size."""
    plan = []
    for effect in carddef["effects"]:
        if not effect["loon"]:
            continue
        if effect["kind"] == "per_card":
            plan.append((effect["loon"], filter_mask(effect["filter"]), None, 0))
        elif effect["kind"] == "groups":
            plan.append((effect["loon"], 0, effect["shape"], effect["size"]))
    return tuple(plan)


def plan_loon(plan: tuple, mask: int) -> int:
    """:func:`recruit_loon` of a card's :func:`recruit_plan`."""
    loon = 0
    for pay, matching, shape, size in plan:
        if shape is None:
            loon += pay * (mask & matching).bit_count()
        else:
            loon += pay * _group_count(shape, size, mask)
    return loon


#: Each suit's cards as a mask (red, green, blue), and per card the mask of its suit.
SUIT_MASKS: tuple[int, ...] = tuple(((1 << SUIT_SIZE) - 1) << SUIT_SIZE * s for s in range(3))
SUIT_MASK_OF: tuple[int, ...] = tuple(SUIT_MASKS[SUIT[i]] for i in range(60))
#: Per run size, the cards a run of that size may start from (it ends in the same suit).
RUN_STARTS: dict[int, int] = {
    size: mask_of([i for i in range(60) if i % SUIT_SIZE + size <= SUIT_SIZE])
    for size in range(2, SUIT_SIZE + 1)
}


def _run_count(size: int, hand: int) -> int:
    """How many disjoint runs of ``size`` the cards in mask ``hand`` hold: each stretch
    of numbers in a row in one suit holds its length // ``size`` of them, and stretches
    share no card (so this is ``len(_best_groups("run", size, hand))``)."""
    starts = hand & RUN_STARTS[size]
    for shift in range(1, size):
        starts &= hand >> shift
    count = 0
    while starts:
        # The lowest start begins its stretch (a lower card in a row with it would start
        # a run too). Adding it to the hand carries through the stretch: the bits that
        # change are the stretch's and the first gap's above it, cut at the suit's end.
        low = starts & -starts
        stretch = ((hand + low) ^ hand) & hand & SUIT_MASK_OF[low.bit_length() - 1]
        count += stretch.bit_count() // size
        starts &= ~stretch
    return count


def _set_count(size: int, hand: int) -> int:
    """How many disjoint sets of ``size`` (2 or 3: one card of one number in each of that
    many suits) the cards in mask ``hand`` hold: one per number held in at least ``size``
    suits (three suits hold one set of two, not more)."""
    suit = SUIT_MASKS[0]  # each suit's cards brought down to red's bits
    red, green, blue = hand & suit, hand >> SUIT_SIZE & suit, hand >> 2 * SUIT_SIZE
    if size == 3:
        return (red & green & blue).bit_count()
    return (red & green | red & blue | green & blue).bit_count()


def _group_count(shape: str, size: int, hand: int) -> int:
    """``len(_best_groups(shape, size, hand))``, without listing or sorting the groups:
    counted on the bits for runs and for sets alone, searched for runs or sets."""
    if shape == "run":
        return _run_count(size, hand)
    if shape == "set":
        return _set_count(size, hand)
    usable = _usable(shape, size, hand)
    union = 0
    for m, _ in usable:
        union |= m
    if union.bit_count() == size * len(usable):
        return len(usable)
    return sum(len(_best_within(shape, size, _lowered(cluster))) for cluster in _clusters(usable))


#: The bits of one suit's 20 cards (numbers 1 to 20) at the bottom of a mask.
_NUMBERS = (1 << SUIT_SIZE) - 1


def _lowered(cards: int) -> int:
    """The cards in mask ``cards`` moved down in number until the lowest is a 1 (same
    suits). Groups are runs and sets, made by numbers next to each other or equal, so
    the moved cards hold as many as the cards did; the search's cache
    (:func:`_best_within`) then meets the same cluster wherever it lies: a playout's
    new hands mostly hit it rather than search."""
    numbers = (cards | cards >> SUIT_SIZE | cards >> 2 * SUIT_SIZE) & _NUMBERS
    return cards >> (numbers & -numbers).bit_length() - 1


def recruit(carddef: dict, hands: list[list[int]]) -> list[dict]:
    """``recruitment_detail`` on indexes, for each hand of ``hands``: what it earns
    from one recruitment card, the cards shown (in the hand's order) and the groups, all
    named by id."""
    plan = [
        (effect, filter_mask(effect["filter"]) if effect["kind"] == "per_card" else 0)
        for effect in carddef["effects"]
    ]
    details = []
    for hand in hands:
        mask = mask_of(hand)
        loon = 0
        shown = 0
        groups: list[list[str]] = []
        for effect, matching in plan:
            if effect["kind"] == "per_card":
                hits = mask & matching
                loon += effect["loon"] * hits.bit_count()
                if effect["loon"]:
                    shown |= hits
            elif effect["kind"] == "groups":
                found = _best_groups(effect["shape"], effect["size"], mask)
                loon += effect["loon"] * len(found)
                if effect["loon"]:
                    for m, group in found:
                        groups.append([CARD[c] for c in group])
                        shown |= m
        cards = [CARD[c] for c in hand if shown >> c & 1] if shown else []
        details.append({"loon": loon, "cards": cards, "groups": groups})
    return details


def best_groups_in(shape: str, size: int, hand: list[str]) -> list[list[str]]:
    """The largest number of disjoint groups of ``hand`` (each card in one group at most),
    found on bitmasks by :func:`best_groups`."""
    found = best_groups(shape, size, mask_of(indexes(hand)))
    return [[CARD[card] for card in group] for group in found]


def recruitment_detail(carddef: dict, hand: list[str]) -> dict:
    """What ``hand`` earns from one recruitment card: loon, the cards shown (in ``hand``'s
    order) and the groups (:func:`recruit` on card indexes)."""
    rules.check_cards(hand, "The hand")
    return recruit(carddef, [indexes(hand)])[0]


def recruitment_loon(carddef: dict, hand: list[str]) -> int:
    """Loon ``hand`` earns from one recruitment card (never negative)."""
    return recruitment_detail(carddef, hand)["loon"]
