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


def resolve(target: int, shots: list, side_of: list[int]) -> dict[str, Any]:
    """:func:`rules.resolve_target` on indexes: ``shots`` are ``[seat, shot index]`` pairs.

    The result names cards by id (``card``, ``cancelled``), as the round's record keeps
    them."""
    suit = TARGET_SUIT[target]
    values = SHOT_VALUE
    distracted = False
    for _, card in shots:
        if values[card] == rules.DISTRACTION:
            distracted = True
            break
    cancelled = [card for _, card in shots if values[card] == rules.CANCELLED] if distracted else []
    result: dict[str, Any] = {
        "side": None,
        "seat": None,
        "card": None,
        "cancelled": [SHOT[c] for c in cancelled],
        "void": False,
    }
    best = -1
    tied: list = []
    for seat, card in shots:
        if card in cancelled:
            continue
        value = values[card]
        if value > best:
            best, tied = value, [(seat, card)]
        elif value == best:
            tied.append((seat, card))
    if not tied:
        return result
    for seat, card in tied:  # noqa: B007 - the matching shot is used below
        # One card per suit and value: at most one shot can match at the top value.
        if SHOT_SUIT[card] == suit:
            break
    else:
        seat, card = tied[0]
        if any(side_of[s] != side_of[seat] for s, _ in tied):
            # Opponents tied with no matching shot: nobody takes the target.
            result["void"] = True
            return result
        # Partners tied with no matching shot: their side still takes the target.
    result.update(side=side_of[seat], seat=seat, card=SHOT[card])
    return result
