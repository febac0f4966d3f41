"""PULL! cards as small integers for the engine, and the tables that read them.

The engine keeps its live cards (hands, unused shots, the target deck, the two targets,
the shots on them and the sealed picks) as indexes: a shot is its place in
:func:`rules.shot_ids` (0-47), a target its place in :func:`rules.target_ids` (0-23).
Suits and values are looked up in the tuples below instead of parsing ids. Ids (strings)
are what every action, view and snapshot carries; :data:`SHOT` / :data:`TARGET` turn an
index back into its id and :data:`SHOT_INDEX` / :data:`TARGET_INDEX` an id into its index.
"""

from __future__ import annotations

from typing import Any

from ..cards import shuffle  # noqa: F401  (deck.shuffle: the engine deals with it)
from . import rules

SHOT: tuple[str, ...] = tuple(rules.shot_ids())
TARGET: tuple[str, ...] = tuple(rules.target_ids())
SHOT_INDEX: dict[str, int] = {card: i for i, card in enumerate(SHOT)}
TARGET_INDEX: dict[str, int] = {card: i for i, card in enumerate(TARGET)}

SUIT_IDS: tuple[str, ...] = tuple(rules.suits())
_SUIT_NO = {suit: i for i, suit in enumerate(SUIT_IDS)}
#: Suit number (index into SUIT_IDS) and value of each shot; suit number of each target.
SHOT_SUIT: tuple[int, ...] = tuple(_SUIT_NO[rules.shot_suit(c)] for c in SHOT)
SHOT_VALUE: tuple[int, ...] = tuple(rules.shot_value(c) for c in SHOT)
TARGET_SUIT: tuple[int, ...] = tuple(_SUIT_NO[rules.target_suit(c)] for c in TARGET)


def shots_of(cards: list[str]) -> list[int]:
    return [SHOT_INDEX[c] for c in cards]


def targets_of(cards: list[str]) -> list[int]:
    return [TARGET_INDEX[c] for c in cards]


DISTRACTION, CANCELLED = rules.DISTRACTION, rules.CANCELLED


def take(target: int, shots: list, side_of: list[int]) -> list | None:
    """The shot (one of ``shots``, ``[seat, shot index]`` pairs) that takes ``target``,
    None when nobody does: the rules of :func:`rules.resolve_target`, with no record
    written (a round's end needs only the winners; :func:`resolve` writes the record)."""
    values = [SHOT_VALUE[card] for _, card in shots]
    if not values:
        return None
    best = max(values)
    if best == CANCELLED and DISTRACTION in values:  # a 1 cancels every 8
        best = max(value for value in values if value != CANCELLED)
    if values.count(best) == 1:  # a single highest shot takes it (cancelled 8s are lower)
        return shots[values.index(best)]
    tied = [shot for shot, value in zip(shots, values, strict=True) if value == best]
    suit = TARGET_SUIT[target]
    for shot in tied:
        # One card per suit and value: at most one shot can match at the top value.
        if SHOT_SUIT[shot[1]] == suit:
            return shot
    side = side_of[tied[0][0]]
    if all(side_of[seat] == side for seat, _ in tied):
        # Partners tied with no matching shot: their side still takes the target.
        return tied[0]
    return None  # void: opponents tied with no matching shot


def resolve(target: int, shots: list, side_of: list[int]) -> dict[str, Any]:
    """:func:`rules.resolve_target` on indexes: ``shots`` are ``[seat, shot index]`` pairs.

    Returns the round's record of the target, cards named by id: ``card`` (the target),
    ``shots`` (``[seat, id]``), ``side``, ``seat`` and ``winning_shot`` (None when nobody
    takes it), ``cancelled`` (the 8s a Distraction cancelled) and ``void``."""
    won = take(target, shots, side_of)
    seat, card = (None, None) if won is None else won
    values = [SHOT_VALUE[c] for _, c in shots]
    return {
        "card": TARGET[target],
        "shots": [[who, SHOT[shot]] for who, shot in shots],
        "side": None if seat is None else side_of[seat],
        "seat": seat,
        "winning_shot": None if card is None else SHOT[card],
        "cancelled": [SHOT[c] for _, c in shots if SHOT_VALUE[c] == CANCELLED]
        if DISTRACTION in values
        else [],
        "void": won is None and bool(shots),
    }
