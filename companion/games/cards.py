"""Card helpers shared by the engines: the standard deck, seeded shuffles, dealing, tricks.

Standard card ids are rank then suit: ``"AS"``, ``"TD"``, ``"7H"`` (ranks ``2-9 T J Q K A``,
suits ``C D H S``), aces high. (The plain, slow readings of dealing, following suit and
a trick's winner, which the engines' fast paths are checked against, are the tests':
``tests/games/reference.py``.)

Inside an engine a standard card may be a small integer instead, its place in
:func:`standard_deck`: ``suit * 13 + rank - 2`` (``"2C"`` is 0, ``"AS"`` is 51). Sorting
integers sorts a hand suit by suit, low to high, and the cards of one suit are a run of
consecutive integers. Ids stay strings everywhere outside the engine (actions, views,
snapshots): :data:`CARD_IDS` and :data:`CARD_INDEX` convert at the edges.
"""

from __future__ import annotations

import random
import threading
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from functools import cache
from hashlib import blake2b
from operator import ge, mod
from struct import Struct

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANK_NAMES = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}


def standard_deck() -> list[str]:
    """The 52 cards in a fixed order (suit by suit, low to high)."""
    return [rank + suit for suit in SUITS for rank in RANKS]


#: Integer card -> id, and back.
CARD_IDS: tuple[str, ...] = tuple(standard_deck())
CARD_INDEX: dict[str, int] = {card: index for index, card in enumerate(CARD_IDS)}
#: Integer card -> its suit as an integer (0 clubs .. 3 spades).
SUIT_INDEX: tuple[int, ...] = tuple(index // len(RANKS) for index in range(len(CARD_IDS)))


def card_ints(cards: Iterable[str]) -> list[int]:
    """Ids -> integers (:class:`KeyError` for an id that is not a standard card)."""
    return [CARD_INDEX[card] for card in cards]


def card_ids(cards: Iterable[int]) -> list[str]:
    return [CARD_IDS[card] for card in cards]


def suit_run(hand: Sequence[int], suit: int) -> Sequence[int]:
    """The cards of ``suit`` in a sorted hand of integers (a slice: one run)."""
    low = suit * len(RANKS)
    return hand[bisect_left(hand, low) : bisect_left(hand, low + len(RANKS))]


def trick_winner_ints(plays: Iterable[Sequence[int]], trump: int | None) -> int | None:
    """The seat winning ``plays`` (``[seat, card]`` with integer cards, in playing order):
    the highest trump, else the highest card of the suit led; None for no plays."""
    best_seat, best, led = None, -1, None
    for seat, card in plays:
        suit = SUIT_INDEX[card]
        if led is None:
            led = suit
        # Within a suit the integers run low to high; trumps outrank everything else.
        value = card + 100 if suit == trump else card if suit == led else -1
        if value > best:
            best_seat, best = seat, value
    return best_seat


def is_standard_card(card: object) -> bool:
    return isinstance(card, str) and len(card) == 2 and card[0] in RANKS and card[1] in SUITS


def suit_of(card: str) -> str:
    return card[1]


def rank_of(card: str) -> int:
    """2 for a two up to 14 for an ace."""
    return RANKS.index(card[0]) + 2


def card_name(card: str) -> str:
    """``"QH"`` -> ``"queen of hearts"``."""
    return f"{RANK_NAMES.get(card[0], card[0])} of {SUIT_NAMES[card[1]]}"


RED_SUITS = "DH"


def card_text(card: str) -> str:
    """What a screen prints: ``"7D"`` -> ``"7♦"``, ``"TS"`` -> ``"10♠"``."""
    rank = "10" if card[0] == "T" else card[0]
    return f"{rank}{SUIT_SYMBOLS[card[1]]}"


def standard_faces() -> dict[str, dict[str, str]]:
    """The faces of the standard deck as :meth:`Game.card_faces` gives them to the pages:
    ``{"7D": {"text": "7♦", "label": "7 of diamonds", "colour": "red"}, ...}``."""
    return {
        card: {
            "text": card_text(card),
            "label": card_name(card),
            "colour": "red" if suit_of(card) in RED_SUITS else "black",
        }
        for card in standard_deck()
    }


def rng(seed: int, *parts: object) -> random.Random:
    """A generator for one purpose of one game, e.g. ``rng(seed, "deal", 3)``.

    Each deal gets its own stream derived from the game's seed, so a state needs to keep
    only the seed (never a generator's internal state) to stay reproducible. It is
    ``random.Random("<seed>:<part>:...")``: Python's documented string seeding (version 2,
    the SHA-512 of the text), whose draws are the same on every platform and release, so a
    stored game deals the same cards again (``tests/games/test_cards_seeding.py`` holds
    the draws to figures written down once).
    """
    if len(parts) < len(_TEXTS):
        # "%s" is str(), so this is ":".join(map(str, (seed, *parts))) a little faster.
        return random.Random(_TEXTS[len(parts)] % (seed, *parts))
    return random.Random(":".join(map(str, (seed, *parts))))


#: The seed's text for a seed and 0, 1, 2 ... parts.
_TEXTS = tuple(":".join(["%s"] * (1 + count)) for count in range(6))
#: rng's generator from its text already joined: ``seeded(f"{seed}:deal:3")`` is
#: ``rng(seed, "deal", 3)``, one call less for an engine that deals often.
seeded = random.Random


class _Scratch(threading.local):
    """Each thread's one generator for :func:`reseeded`."""

    def __init__(self) -> None:
        self.generator = random.Random()


_SCRATCH = _Scratch()


def reseeded(text: str) -> random.Random:
    """The draws of ``seeded(text)`` for a caller that is done with the generator before
    it calls again (a deal's shuffle): this thread's one generator, seeded again with
    the public ``Random.seed`` (which sets its whole state), rather than a new one, which
    is 2.5 KB to allocate and clear."""
    generator = _SCRATCH.generator
    generator.seed(text)
    return generator


@cache
def shuffle_steps(size: int) -> tuple[tuple[int, int], ...]:
    """Random.shuffle's steps for ``size`` cards: (place, bits of the bound place + 1)."""
    return tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


def shuffle(cards: list, generator: random.Random) -> list:
    """``generator.shuffle(cards)``: in place, and returned."""
    if type(generator) is not random.Random:
        generator.shuffle(cards)
        return cards
    # Random.shuffle's own loop and its _randbelow (the same getrandbits draws, hence the
    # same order; tests/games/test_card_ints.py compares), without two calls per card:
    # a deal's shuffle is a good part of an engine's playout.
    getrandbits = generator.getrandbits
    for i, bits in shuffle_steps(len(cards)):
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def shuffled(cards: Iterable[str], generator: random.Random) -> list[str]:
    """A new list of ``cards`` in the order ``generator.shuffle`` gives them."""
    return shuffle(list(cards), generator)


# -- the second way of dealing: keyed orders ----------------------------------------------
#
# rng() seeds a Mersenne Twister from a text for every deal: some 28,000 machine
# instructions of CPython's seeding before the first card, then a shuffle of every card of
# the pack. A keyed order reads its numbers straight from BLAKE2b digests of the same kind
# of text (the same on every platform and Python) and draws only the cards a deal uses:
# a quarter of the work for a two-player deal. An engine that deals this way records
# it (``State.dealing``), so a stored game keeps the way it was dealt.

#: 2 ** 32, the range of one word of a keyed order's numbers.
_WORD = 1 << 32
#: Words in one BLAKE2b digest (64 bytes). Block k of a text's words is the digest of the
#: text, and for k > 0 of the text, a NUL and k (no text of ours holds a NUL, so no
#: block is another text's).
_BLOCK_WORDS = 16


@cache
def _words_format(count: int) -> Struct:
    """``count`` unsigned 32-bit words, little-endian (the same on every platform)."""
    return Struct(f"<{count}I")


#: size -> _steps(size), filled as sizes are asked for (read first: no call).
_STEPS: dict[int, tuple] = {}


def _steps(size: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]:
    """For a pack of ``size``: its numbers in order (a tuple, which ``[*pack]`` copies at
    once), the numbers left at each draw (``size - i``), the words each draw accepts
    (below the largest multiple of its bound that fits in a word, so that ``word %
    bound`` is exactly uniform), and the smallest of those."""
    places = tuple(range(size, 0, -1))
    accepted = tuple(_WORD - _WORD % bound for bound in places)
    steps = _STEPS[size] = tuple(range(size)), places, accepted, min(accepted)
    return steps


def _words(data: bytes, count: int) -> tuple[int, ...]:
    """The first ``count`` words drawn from ``data``, 16 per BLAKE2b digest."""
    raw = blake2b(data).digest()
    block = 1
    while len(raw) < 4 * count:
        raw += blake2b(data + b"\0%d" % block).digest()
        block += 1
    return _words_format(count).unpack_from(raw)


def keyed_order(text: str, size: int, count: int) -> list[int]:
    """``range(size)`` in an order drawn from ``text`` alone, uniformly at random in its
    first ``count`` places (the rest are the numbers left over, in their order): ``count``
    numbers drawn one by one without replacement, by words read from BLAKE2b digests of
    ``text``.

    Draw ``i`` takes the number at place ``word % (size - i)`` of those left (a
    ``list.pop``: the whole draw runs in C). A word from the top sliver of its range
    (which ``%`` would favour: fewer than ``size`` values in 2 ** 32) is passed over for
    the next one, so every draw is exactly uniform."""
    if count >= size:
        count = size - 1  # the last number has no choice left
    steps = _STEPS.get(size) or _steps(size)
    data = text.encode()
    if count <= _BLOCK_WORDS:  # _words inline: one digest
        words = _words_format(count).unpack_from(blake2b(data).digest())
    else:
        words = _words(data, count)
    if words and max(words) >= steps[3] and any(map(ge, words, steps[2])):
        words = _accepted_words(data, count, steps[2])  # about once in 10 million deals
    left = [*steps[0]]
    drawn = list(map(left.pop, map(mod, words, steps[1])))
    drawn += left
    return drawn


def _accepted_words(data: bytes, count: int, accepted: Sequence[int]) -> list[int]:
    """The first ``count`` words drawn from ``data`` that their steps accept, in order
    (further blocks of the same draws when the first ones run out)."""
    length = count + _BLOCK_WORDS
    while True:
        taken: list[int] = []
        for word in _words(data, length):
            if word < accepted[len(taken)]:
                taken.append(word)
                if len(taken) == count:
                    return taken
        length += _BLOCK_WORDS
