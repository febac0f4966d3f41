"""Helpers for the Call the Shot tests: explicit deals, scripted duels and the leak check."""

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


# -- hidden information ------------------------------------------------------------------

#: Each card id mapped to a different one.
OTHER = {card: CARDS[(i + 1) % len(CARDS)] for i, card in enumerate(CARDS)}

VIEW_KEYS = {
    "game", "seat", "phase", "duel", "first_challenger", "challenger", "turn", "shots",
    "shots_to_lose", "loser", "winner", "face_up", "claims", "hand_counts", "face_down_count",
    "can_call", "must_call", "last_duel", "duels",
}  # fmt: skip
SEAT_KEYS = {"hand", "my_plays", "my_turn"}
RESULT_KEYS = {
    "duel", "challenger", "caller", "claims", "revealed", "coward", "shot", "reason", "shots",
}  # fmt: skip
REVEALED_KEYS = {"card", "deadly_aim", "value", "from_hand"}


def disguise(state, seat):
    """A copy of ``state`` in which every card ``seat`` may not see is a different card (and
    the seed differs too): the face-down set-aside cards, and the other hand and face-down
    plays (both hands and all plays for the table view)."""
    copy = GAME.state_from_dict(state.to_dict())
    copy.seed = state.seed + 1
    copy.face_down = [OTHER[c] for c in copy.face_down]
    for s in (0, 1):
        if s != seat:
            copy.hands[s] = [OTHER[c] for c in copy.hands[s]]
            for play in copy.played[s]:
                play["card"] = OTHER[play["card"]]
    return copy


def leak_check(state, seat, view) -> None:
    """Fails when ``view`` depends on anything ``seat`` must not see: the same view must
    come out of a state whose hidden cards were all changed. Also checks the keys."""
    other = disguise(state, seat)
    assert other.face_down != state.face_down
    assert other.view(seat) == view, f"the view of seat {seat} depends on hidden cards"
    assert set(view) == VIEW_KEYS | (SEAT_KEYS if seat is not None else set())
    for result in view["duels"]:
        assert set(result) == RESULT_KEYS
        for revealed in result["revealed"]:
            assert set(revealed) == REVEALED_KEYS
    if seat is not None:
        assert view["hand"] == state.hands[seat]


def conservation_check(state) -> None:
    """All 14 cards are somewhere in the current duel, and the bookkeeping adds up."""
    played = [[p["card"] for p in plays] for plays in state.played]
    every = state.hands[0] + state.hands[1] + state.face_up + state.face_down
    assert Counter(every + played[0] + played[1]) == Counter(DECK)
    assert len(state.face_up) == 2 and len(state.face_down) == 2
    for s in (0, 1):
        assert len(state.hands[s]) + len(played[s]) == 5
    c = state.challenger
    assert len(played[c]) - len(played[1 - c]) in (0, 1), "turns did not alternate"
    assert state.shots == [sum(r["shot"] == s for r in state.results) for s in (0, 1)]
    assert max(state.shots) <= state.options["shots_to_lose"]
