"""Shoot! checks for the generic sweep: ``leak_check(state, seat, view)`` and
``conservation_check(state)``.

The leak check proves, rather than guesses, that a view hides what it must: it rebuilds the
state with every card the viewer cannot see (the other hands and the out-of-play stock)
dealt differently, and every sealed bid of another seat changed, and asserts the viewer's
view is exactly the same. It also scans the view for any hidden card id.
"""

from __future__ import annotations

import random

from companion.games import GAMES
from companion.games.cards import standard_deck
from companion.games.shoot import rules
from companion.games.shoot.engine import sort_hand

GAME = GAMES["shoot"]

# Parts of a view that show earlier, public events (the first-dealer draw, the last trick,
# past deals' turned-up cards): they may name cards that are hidden in the current deal.
HISTORY = ("draw", "last_trick", "results", "result")


def strings_in(value, found=None):
    found = set() if found is None else found
    if isinstance(value, dict):
        for key, item in value.items():
            found.add(key)
            strings_in(item, found)
    elif isinstance(value, list):
        for item in value:
            strings_in(item, found)
    elif isinstance(value, str):
        found.add(value)
    return found


def hidden_from(state, seat):
    others = [s for s in range(state.players) if s != seat]
    snapshot = state.to_dict()["state"]
    return others, set(snapshot["stock"]).union(*(snapshot["hands"][s] for s in others))


def leak_check(state, seat, view):
    others, hidden = hidden_from(state, seat)
    if seat is None:
        assert "hand" not in view and "my_bid" not in view, "the table view holds a hand"
    else:
        assert view["hand"] == state.hand_of(seat)
    current = {key: value for key, value in view.items() if key not in HISTORY}
    leaked = hidden & strings_in(current)
    assert not leaked, f"view of {seat} shows hidden cards {leaked}"
    # the history parts are exactly the public record
    assert view["draw"] == state.draw
    assert view["last_trick"] == state.last_trick
    assert view["results"] == state.results
    assert view["result"] == state.result()
    if state.phase == "bid":
        assert all(view["bids"][s] is None for s in others), "a sealed bid is visible"
        assert view["bid_total"] is None
    # nothing the viewer cannot see makes any difference to the view
    assert _with_hidden_changed(state, others).view(seat) == view, "the view hides too little"


def _with_hidden_changed(state, others):
    """A copy of ``state`` with the hidden cards redealt and others' sealed bids changed,
    written as a snapshot and loaded (as a bot builds a determinized state)."""
    snapshot = state.to_dict()
    twin = snapshot["state"]
    pool = list(twin["stock"]) + [c for s in others for c in twin["hands"][s]]
    random.Random(len(twin["played"]) + len(twin["trick"])).shuffle(pool)
    hands = list(twin["hands"])
    for s in others:
        size = len(hands[s])
        hands[s], pool = sort_hand(pool[:size]), pool[size:]
    twin["hands"], twin["stock"] = hands, pool
    if state.phase == "bid":
        twin["bids"] = [
            b if s not in others or b is None else (b + 1) % (state.hand_size + 1)
            for s, b in enumerate(state.bids)
        ]
    return GAME.state_from_dict(snapshot)


def conservation_check(state):
    snapshot = state.to_dict()["state"]
    hands, played, trick = snapshot["hands"], snapshot["played"], snapshot["trick"]
    cards = [c for hand in hands for c in hand]
    cards += played + [card for _, card in trick] + snapshot["stock"] + [snapshot["trump"]]
    assert len(cards) == 52 and set(cards) == set(standard_deck()), "a card is lost or doubled"
    assert sum(len(h) for h in hands) + len(played) + len(trick) == (
        state.players * state.hand_size
    )
    assert sum(state.taken) * state.players == len(played)
    if state.chips is not None:
        assert state.chips["pot"] + sum(state.chips["stacks"]) == 0, "chips appeared or vanished"
        assert state.chips["pot"] >= 0


# The options the shared sweep (tests/games/test_sweep.py) plays this game with.
def sweep_options(players, chooser):
    options = {"chips": chooser.random() < 0.5}
    shape = chooser.randrange(4)  # 0: the default ten deals
    if shape in (1, 2):
        top = rules.max_hand(players)
        options["schedule"] = [chooser.randint(1, top) for _ in range(chooser.randint(1, 4))]
    elif shape == 3:
        options["schedule"] = list(range(1, 8)) + list(range(6, 0, -1))
    return options


# The bots' honesty test (tests/games/test_bots.py): another state that ``seat`` cannot
# tell from ``state``, as a snapshot.
def perturb(state, seat, rng):
    """``state``'s snapshot with the other hands and the stock dealt again from the same
    unseen cards and every other seat's sealed bid changed: ``view(seat)`` is the same."""
    snapshot = state.to_dict()
    data = snapshot["state"]
    others = [s for s in range(state.players) if s != seat]
    pool = list(data["stock"]) + [c for s in others for c in data["hands"][s]]
    rng.shuffle(pool)
    for s in others:
        size = len(data["hands"][s])
        data["hands"][s], pool = sort_hand(pool[:size]), pool[size:]
    data["stock"] = pool
    if data["phase"] == "bid":
        data["bids"] = [
            b
            if s == seat or b is None
            else (b + 1 + rng.randrange(data["hand_size"])) % (data["hand_size"] + 1)
            for s, b in enumerate(data["bids"])
        ]
    data["seed"] = rng.getrandbits(52)
    return snapshot


# Short games for the bots' full-game tests.
def bot_options(players):
    return {"schedule": [3, 1]}
