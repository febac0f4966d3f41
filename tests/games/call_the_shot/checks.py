"""Call the Shot checks for the generic sweep: ``leak_check(state, seat, view)`` and
``conservation_check(state)``.

The leak check proves that a view hides what it must: it rebuilds the state with every
card the viewer may not see changed (and the seed too) and asserts the view is the same.
"""

from __future__ import annotations

from collections import Counter

from companion.games import GAMES
from companion.games.call_the_shot.rules import CARDS, DECK

from .helpers import snap

GAME = GAMES["call_the_shot"]

# -- hidden information ------------------------------------------------------------------

#: Each card id mapped to a different one.
OTHER = {card: CARDS[(i + 1) % len(CARDS)] for i, card in enumerate(CARDS)}

#: The common block every view carries (see ``State.view``).
COMMON_KEYS = {
    "game", "seat", "players", "sides", "scores", "winners", "over",
    "to_act", "doing", "prompt", "result",
}  # fmt: skip
VIEW_KEYS = COMMON_KEYS | {
    "phase", "duel", "first_challenger", "challenger", "turn", "shots_to_lose", "loser",
    "face_up", "claims", "hand_counts", "face_down_count", "can_call", "must_call",
    "last_duel", "duels",
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
    snapshot = state.to_dict()
    copy = snapshot["state"]  # a fresh copy: changed as a bot writes a snapshot, then loaded
    copy["seed"] = state.seed + 1
    copy["face_down"] = [OTHER[c] for c in copy["face_down"]]
    for s in (0, 1):
        if s != seat:
            copy["hands"][s] = [OTHER[c] for c in copy["hands"][s]]
            for play in copy["played"][s]:
                play["card"] = OTHER[play["card"]]
    return GAME.state_from_dict(snapshot)


def leak_check(state, seat, view) -> None:
    """Fails when ``view`` depends on anything ``seat`` must not see: the same view must
    come out of a state whose hidden cards were all changed. Also checks the keys."""
    other = disguise(state, seat)
    assert snap(other)["face_down"] != snap(state)["face_down"]
    assert other.view(seat) == view, f"the view of seat {seat} depends on hidden cards"
    assert set(view) == VIEW_KEYS | (SEAT_KEYS if seat is not None else set())
    for result in view["duels"]:
        assert set(result) == RESULT_KEYS
        for revealed in result["revealed"]:
            assert set(revealed) == REVEALED_KEYS
    if seat is not None:
        assert view["hand"] == snap(state)["hands"][seat]


def conservation_check(state) -> None:
    """All 14 cards are somewhere in the current duel, and the bookkeeping adds up."""
    snapshot = snap(state)
    hands, face_up, face_down = snapshot["hands"], snapshot["face_up"], snapshot["face_down"]
    played = [[p["card"] for p in plays] for plays in snapshot["played"]]
    every = hands[0] + hands[1] + face_up + face_down
    assert Counter(every + played[0] + played[1]) == Counter(DECK)
    assert len(face_up) == 2 and len(face_down) == 2
    for s in (0, 1):
        assert len(hands[s]) + len(played[s]) == 5
    c = state.challenger
    assert len(played[c]) - len(played[1 - c]) in (0, 1), "turns did not alternate"
    assert state.shots == [sum(r["shot"] == s for r in state.results) for s in (0, 1)]
    assert max(state.shots) <= state.options["shots_to_lose"]


# The options the shared sweep (tests/games/test_sweep.py) plays this game with.
def sweep_options(players, chooser):
    pick = chooser.randrange(4)
    return None if pick == 0 else {"shots_to_lose": pick}


# The bots' honesty test (tests/games/test_bots.py): another state that ``seat`` cannot
# tell from ``state``, as a snapshot.
def perturb(state, seat, rng):
    """``state``'s snapshot with the cards ``seat`` cannot see (the other hand, the other
    player's face-down plays, the two cards set aside face down) dealt again among
    themselves, keeping Man of Honour plays claimed as such: ``view(seat)`` is the same."""
    snapshot = state.to_dict()
    data = snapshot["state"]
    other = 1 - seat
    plays = data["played"][other]
    free = [p for p in plays if p["claim"] != "man_of_honour"]
    # cards that may move anywhere except onto a play claimed as something else
    pool = data["hands"][other] + data["face_down"] + [p["card"] for p in free]
    rng.shuffle(pool)
    for play in free:
        index = next(i for i, card in enumerate(pool) if card != "man_of_honour")
        play["card"] = pool.pop(index)
    count = len(data["hands"][other])
    data["hands"][other] = sorted(pool[:count], key=CARDS.index)
    data["face_down"] = pool[count:]
    data["seed"] = rng.getrandbits(52)
    return snapshot


# Short games for the bots' full-game tests.
def bot_options(players):
    return {"shots_to_lose": 2}
