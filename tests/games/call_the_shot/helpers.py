"""Helpers for the Call the Shot tests: explicit deals and scripted duels (the sweep's leak
and conservation checks are in :mod:`.checks`)."""

from __future__ import annotations

from collections import Counter

from companion.games import GAMES
from companion.games.call_the_shot.rules import CARDS, COWARD, DECK

GAME = GAMES["call_the_shot"]


def make_deal(hand0=(), hand1=(), face_up=(), face_down=None, challenger=0) -> dict:
    """A full explicit deal: the given cards where stated, the rest filled in listing order.

    The Coward is used last, so it lies face down unless a test places it somewhere.
    """
    placed = Counter([*hand0, *hand1, *face_up, *(face_down or [])])
    assert not placed - Counter(DECK), f"more cards than the deck holds: {placed}"
    pool = sorted((Counter(DECK) - placed).elements(), key=lambda c: (c == COWARD, CARDS.index(c)))

    def take(cards, size):
        cards = list(cards)
        while len(cards) < size:
            cards.append(pool.pop(0))
        return cards

    deal = {
        "challenger": challenger,
        "hands": [take(hand0, 5), take(hand1, 5)],
        "face_up": take(face_up, 2),
        "face_down": take(face_down or [], 2),
    }
    assert not pool
    return deal


#: The deal of the rulebook's worked example. Player one (seat 0) challenges. He holds two
#: Shoot to Wound besides his Headshot and Man of Honour; player two (seat 1) holds no Shoot
#: to Wound, nothing that could beat a Man of Honour. The third Shoot to Wound lies face
#: down, so player one cannot be sure.
EXAMPLE = {
    "challenger": 0,
    "hands": [
        ["headshot", "man_of_honour", "shoot_to_wound", "shoot_to_wound", "deadly_aim"],
        ["coward", "shoot_to_kill", "headshot", "man_of_honour", "deadly_aim"],
    ],
    "face_up": ["man_of_honour", "deadly_aim"],
    "face_down": ["shoot_to_wound", "shoot_to_kill"],
}


def new(deal=None, seed=12345, **options):
    return GAME.new_state(2, options or None, seed=seed, deal=deal)


def act(state, *moves) -> None:
    """Apply ``moves`` for whoever is to act: ``"call"``, a card (claimed honestly) or
    ``(card, claim)``."""
    for move in moves:
        (seat,) = state.to_act()
        if move == "call":
            state.apply(seat, {"type": "call"})
        else:
            card, claim = move if isinstance(move, tuple) else (move, move)
            state.apply(seat, {"type": "play", "card": card, "claim": claim})


def duel(plays0, plays1, caller, held0=(), held1=(), face_up=(), **options):
    """Seat 0 challenges; the seats alternately play ``plays0`` / ``plays1`` (cards, claimed
    honestly), then ``caller`` calls. ``held`` cards stay in hand. Returns (state, result)."""
    if caller == 0:
        assert len(plays0) == len(plays1)
    else:
        assert len(plays0) == len(plays1) + 1
    state = new(make_deal([*plays0, *held0], [*plays1, *held1], face_up), **options)
    moves = []
    for i in range(len(plays0)):
        moves.append(plays0[i])
        if i < len(plays1):
            moves.append(plays1[i])
    act(state, *moves)
    assert state.to_act() == [caller]
    act(state, "call")
    return state, state.results[-1]


def snap(state) -> dict:
    """The state as its snapshot holds it (card ids), the way tests read hidden parts."""
    return state.to_dict()["state"]
