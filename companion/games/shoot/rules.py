"""Shoot! rules shared by the engine and the score sheet: schedules, tricks, scoring, chips.

Everything here is a pure function of plain values, so engine mode and score mode can never
disagree about a score.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import IllegalAction
from ..spec import is_whole

DECK_SIZE = 52
BONUS = 5  # for taking exactly the bid; the same amount is lost otherwise
STAKE = 50  # chips each player puts into the pot (chips option)
MAX_DEALS = 30


def default_schedule() -> list[int]:
    """Ten deals: 10 cards each, then 9, ... down to 1."""
    return list(range(10, 0, -1))


def max_hand(players: int) -> int:
    """The largest hand that still leaves one card to turn up for trump."""
    return (DECK_SIZE - 1) // players


def check_schedule(players: int, schedule: Any) -> list[int]:
    """A valid list of hand sizes, one per deal, or :class:`IllegalAction` saying why not."""
    if not isinstance(schedule, list) or not schedule:
        raise IllegalAction("The schedule must be a list of hand sizes, one per deal.")
    if len(schedule) > MAX_DEALS:
        raise IllegalAction(f"A game can have at most {MAX_DEALS} deals.")
    limit = max_hand(players)
    for number, size in enumerate(schedule, 1):
        if not is_whole(size):
            raise IllegalAction(f"Deal {number}: a hand size must be a whole number.")
        if not 1 <= size <= limit:
            raise IllegalAction(
                f"Deal {number}: with {players} players each hand holds 1 to {limit} cards "
                "(one card must be left to turn up for trump)."
            )
    return list(schedule)


def dealer_of(first_dealer: int, deal_index: int, players: int) -> int:
    """The dealer of the deal numbered ``deal_index`` (from 0): the deal passes left."""
    return (first_dealer + deal_index) % players


def deal_points(bid: int, tricks: int) -> int:
    """One point per trick, plus the bonus for an exact bid or minus it for a miss."""
    return tricks + (BONUS if tricks == bid else -BONUS)


def deal_scores(bids: Sequence[int], tricks: Sequence[int]) -> list[int]:
    """:func:`deal_points` of each seat (by ``map``: the engine settles every deal)."""
    if len(bids) != len(tricks):
        raise ValueError("one bid and one count of tricks per seat")
    return list(map(deal_points, bids, tricks))


def buy_in(players: int) -> tuple[int, list[int]]:
    """The pot and the stacks after everyone has put in the stake.

    A stack counts the chips a player has won or lost so far, the stake included, so the
    pot plus all stacks is always 0.
    """
    return STAKE * players, [-STAKE] * players


def settle_chips(pot: int, stacks: Sequence[int], points: Sequence[int]) -> dict[str, Any]:
    """Chips after one deal: negative deal scores are paid in, then positive ones taken out.

    If the pot cannot pay every positive score, each player first adds another stake (as
    often as needed). Returns ``{"pot", "stacks", "top_ups"}``; ``top_ups`` counts the extra
    stakes each player added.
    """
    stacks = list(stacks)
    for seat, score in enumerate(points):
        if score < 0:
            pot -= score
            stacks[seat] += score
    claims = sum(score for score in points if score > 0)
    top_ups = 0
    while pot < claims:
        top_ups += 1
        pot += STAKE * len(stacks)
        stacks = [stack - STAKE for stack in stacks]
    for seat, score in enumerate(points):
        if score > 0:
            pot -= score
            stacks[seat] += score
    return {"pot": pot, "stacks": stacks, "top_ups": top_ups}


def share_pot(pot: int, stacks: Sequence[int]) -> dict[str, Any]:
    """At the end the pot is shared equally; chips that don't divide evenly stay in it.

    Returns ``{"pot", "stacks", "shared"}``; ``shared`` is what each player received.
    """
    share = pot // len(stacks)
    return {
        "pot": pot - share * len(stacks),
        "stacks": [stack + share for stack in stacks],
        "shared": share,
    }
