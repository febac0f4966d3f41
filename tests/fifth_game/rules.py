"""High card's rules, shared by its engine and its score sheet."""

from __future__ import annotations

from collections.abc import Sequence

DECK = 40  # cards 1..40


def trick_winner(trick: Sequence[Sequence[int]]) -> int:
    """The seat of the highest card of a trick of ``[seat, card]`` plays."""
    return max(trick, key=lambda play: play[1])[0]


def add_tricks(totals: Sequence[int], tricks: Sequence[int]) -> list[int]:
    """The running totals after one hand: a trick is a point."""
    return [total + count for total, count in zip(totals, tricks, strict=True)]
