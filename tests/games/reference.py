"""Plain readings of the card rules the engines play on fast paths, for the tests to check
them against: dealing one card at a time, following suit, a trick's winner. No engine uses
these (each inlines its own faster version); they were ``companion/games/cards.py``'s.

Standard card ids: see :mod:`companion.games.cards`. Games with their own cards pass their
own ``suit`` and ``rank`` functions to :class:`Trick` and :func:`follow_suit`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from companion.games.cards import rank_of, suit_of


def deal_one_at_a_time(
    deck: Sequence[str], players: int, count: int, first: int, sort: bool = False
) -> list[list]:
    """Deal ``count`` cards to each seat, one at a time, starting with seat ``first``.

    Returns the hands by seat (each sorted if ``sort``); the cards used are
    ``deck[: players * count]``.
    """
    # Seat s gets every players-th card from its turn on: one slice each.
    end = players * count
    seats = range(players)
    if sort:
        return [sorted(deck[(seat - first) % players : end : players]) for seat in seats]
    return [list(deck[(seat - first) % players : end : players]) for seat in seats]


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


def trick_winner(plays: Sequence[Sequence], trump: str | None) -> int:
    """The seat winning ``plays`` (``[seat, card]`` pairs) when ``trump`` is the trump suit
    (standard cards; highest trump, else highest of the suit led)."""
    return Trick.of(plays, trump).winner
