"""Card helpers shared by the engines: the standard deck, seeded shuffles, dealing, tricks.

Standard card ids are rank then suit: ``"AS"``, ``"TD"``, ``"7H"`` (ranks ``2-9 T J Q K A``,
suits ``C D H S``), aces high. Games with their own cards pass their own ``suit`` and
``rank`` functions to :class:`Trick` and :func:`follow_suit`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANK_NAMES = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}


def standard_deck() -> list[str]:
    """The 52 cards in a fixed order (suit by suit, low to high)."""
    return [rank + suit for suit in SUITS for rank in RANKS]


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


def rng(seed: int, *parts: object) -> random.Random:
    """A generator for one purpose of one game, e.g. ``rng(seed, "deal", 3)``.

    Each deal gets its own stream derived from the game's seed, so a state needs to keep
    only the seed (never a generator's internal state) to stay reproducible.
    """
    return random.Random(":".join(str(p) for p in (seed, *parts)))


def shuffled(cards: Iterable[str], generator: random.Random) -> list[str]:
    deck = list(cards)
    generator.shuffle(deck)
    return deck


def deal_one_at_a_time(deck: Sequence[str], players: int, count: int, first: int) -> list[list]:
    """Deal ``count`` cards to each seat, one at a time, starting with seat ``first``.

    Returns the hands by seat; the cards used are ``deck[: players * count]``.
    """
    hands: list[list] = [[] for _ in range(players)]
    for i in range(players * count):
        hands[(first + i) % players].append(deck[i])
    return hands


def follow_suit(
    hand: Sequence[str], led: str | None, suit: Callable[[str], str] = suit_of
) -> list[str]:
    """The cards of ``hand`` that may be played: the led suit if held, else any card."""
    if led is None:
        return list(hand)
    same = [card for card in hand if suit(card) == led]
    return same or list(hand)


@dataclass(frozen=True)
class Trick:
    """A trick in progress or complete: ``plays`` are ``(seat, card)`` in playing order.

    The highest card of the trump suit wins; without trumps, the highest card of the suit
    led. Cards of other suits never win.
    """

    plays: tuple[tuple[int, str], ...] = ()
    trump: str | None = None
    suit: Callable[[str], str] = suit_of
    rank: Callable[[str], int] = rank_of

    @classmethod
    def of(cls, plays: Iterable[Sequence], trump: str | None = None, **kw) -> Trick:
        """From stored JSON: a list of ``[seat, card]`` pairs."""
        return cls(tuple((int(seat), card) for seat, card in plays), trump, **kw)

    def add(self, seat: int, card: str) -> Trick:
        return Trick(self.plays + ((seat, card),), self.trump, self.suit, self.rank)

    @property
    def led(self) -> str | None:
        return self.suit(self.plays[0][1]) if self.plays else None

    def _key(self, card: str) -> tuple[int, int]:
        card_suit = self.suit(card)
        if self.trump is not None and card_suit == self.trump:
            return (2, self.rank(card))
        if card_suit == self.led:
            return (1, self.rank(card))
        return (0, 0)

    @property
    def winning(self) -> tuple[int, str] | None:
        """The ``(seat, card)`` winning so far, or ``None`` for an empty trick."""
        if not self.plays:
            return None
        return max(self.plays, key=lambda play: self._key(play[1]))

    @property
    def winner(self) -> int | None:
        best = self.winning
        return None if best is None else best[0]
