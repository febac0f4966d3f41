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


DISTRACTION, CANCELLED = rules.DISTRACTION, rules.CANCELLED


#: RANK[target suit][shot]: twice the shot's value, plus one if it matches the target's
#: suit. The highest rank takes the target: among shots of the top value the matching one
#: (there is at most one), and a tie at the top rank is a tie with no matching shot.
RANK: tuple[tuple[int, ...], ...] = tuple(
    tuple(2 * SHOT_VALUE[card] + (SHOT_SUIT[card] == suit) for card in range(len(SHOT)))
    for suit in range(len(SUIT_IDS))
)
_EIGHTS = 2 * CANCELLED  # ranks from here up are 8s
_ONES = (2 * DISTRACTION, 2 * DISTRACTION + 1)


def take(target: int, shots: list, side_of: list[int]) -> list | None:
    """The shot (one of ``shots``, ``[seat, shot index]`` pairs) that takes ``target``,
    None when nobody does: the rules of :func:`resolve_target`, with no record
    written (a round's end needs only the winners; :func:`resolve` writes the record)."""
    rank = RANK[TARGET_SUIT[target]]
    # The usual round in one plain loop (cheaper than building the ranks' list): the
    # first shot of the top rank, whether another shot ties it, and the lowest rank.
    best, lowest, won, tied = -1, _EIGHTS, None, False
    for shot in shots:
        value = rank[shot[1]]
        if value > best:
            best, won, tied = value, shot, False
        elif value == best:
            tied = True
        if value < lowest:
            lowest = value
    if won is None or (not tied and (best < _EIGHTS or lowest > _ONES[1])):
        return won
    return _take_ranked([rank[card] for _, card in shots], shots, side_of)


def _take_ranked(ranks: list[int], shots: list, side_of: list[int]) -> list | None:
    """:func:`take` once a tie or a 1 beside an 8 needs the whole rule."""
    best = max(ranks)
    if best >= _EIGHTS and (_ONES[0] in ranks or _ONES[1] in ranks):
        # A 1 cancels every 8: the 8s drop below every other shot.
        ranks = [0 if value >= _EIGHTS else value for value in ranks]
        best = max(ranks)
    first = ranks.index(best)
    if ranks.count(best) == 1:
        return shots[first]
    # Shots of one value, none matching: partners still take it, opponents void it.
    side = side_of[shots[first][0]]
    for (seat, _), value in zip(shots, ranks, strict=True):
        if value == best and side_of[seat] != side:
            return None
    return shots[first]


def resolve(target: int, shots: list, side_of: list[int]) -> dict[str, Any]:
    """:func:`resolve_target` on indexes: ``shots`` are ``[seat, shot index]`` pairs.

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


def resolve_target(target: str, shots: list, side_of: list[int]) -> dict[str, Any]:
    """Who wins ``target`` given ``shots`` (``[seat, card]`` pairs) and each seat's side.

    Returns ``{"side", "seat", "card", "cancelled", "void"}``: the winning side, seat and
    shot (all ``None`` when nobody takes it), the 8s cancelled by a Distraction, and whether
    the target is void (a tie for highest between opponents with no matching shot).
    :func:`resolve` on card indexes does the work (the score sheet's and tests' way in).
    """
    played = [[seat, SHOT_INDEX[card]] for seat, card in shots]
    record = resolve(TARGET_INDEX[target], played, side_of)
    return {
        "side": record["side"],
        "seat": record["seat"],
        "card": record["winning_shot"],
        "cancelled": record["cancelled"],
        "void": record["void"],
    }
