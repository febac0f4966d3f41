"""PULL! checks for the generic sweep: ``leak_check(state, seat, view)`` and
``conservation_check(state)``.

The leak check looks for every card id the viewer must not see (the unused shots, the
target deck, other hands and other seats' sealed picks) in the view, outside the two
public records that may name cards dealt again later (the last round and the table's
changes to target values), and checks the common block against the state.
"""

from __future__ import annotations

import json

from companion.games.pull import rules
from companion.games.pull.engine import SECOND


def hidden_from(state, seat):
    """Card ids that ``seat`` (None: the table) must not find in its view right now."""
    cards = state.to_dict()["state"]  # the engine keeps indexes, the snapshot ids
    hidden = set(cards["unused"]) | set(cards["target_deck"])
    for other in range(state.players):
        if other != seat:
            hidden |= set(cards["hands"][other])
            if cards["sealed"][other] is not None:
                hidden.add(cards["sealed"][other])
    return hidden


def leak_check(state, seat, view):
    # The last round is a record of shots already revealed to everybody; its ids may be
    # dealt again in a later hand, so it is checked against the state instead.
    assert view["last_round"] == state.last_round
    # The table's changes to target values name targets by id, whether or not they are
    # still in the deck; they are the (public) options, nothing else.
    changes = {
        c["card"]: {k: c[k] for k in ("double", "animal") if k in c} for c in view["target_changes"]
    }
    assert changes == state.options["targets"]
    # The result card tells the last round too (the same record, in other words).
    assert view["result"] == state.result()
    rest = {k: v for k, v in view.items() if k not in ("last_round", "target_changes", "result")}
    text = json.dumps(rest)
    for card in hidden_from(state, seat):
        assert f'"{card}"' not in text, f"{card} leaked to seat {seat}"
    cards = state.to_dict()["state"]
    if seat is None:
        assert "hand" not in view and "my_second" not in view
    else:
        assert view["hand"] == cards["hands"][seat] == state.hand_of(seat)
        assert view["my_second"] == cards["sealed"][seat]
    if state.phase == SECOND and state.players > 2:
        assert view["picked"] == [pick is not None for pick in cards["sealed"]]
    # The common block: scores per seat (partners show their side's), sides, winners.
    assert view["side_scores"] == state.totals
    assert view["scores"] == [state.totals[state.side_of[s]] for s in range(state.players)]
    assert view["sides"] == state.sides()
    assert view["to_act"] == state.to_act()
    if state.is_over():
        assert view["winners"] == [s for side in view["winning_sides"] for s in state.sides()[side]]
    else:
        assert view["winners"] == []


def conservation_check(state):
    cards = state.to_dict()["state"]  # the engine keeps indexes, the snapshot ids
    shots = list(cards["unused"]) + list(cards["shot_discards"])
    shots += [card for hand in cards["hands"] for card in hand]
    shots += [pick for pick in cards["sealed"] if pick is not None]
    shots += [card for target in cards["shots"] for _, card in target]
    assert sorted(shots) == sorted(rules.shot_ids()), "a shot card was lost or doubled"
    targets = list(cards["target_deck"]) + list(cards["targets"]) + list(cards["void"])
    targets += [entry["card"] for pile in cards["piles"] for entry in pile]
    assert sorted(targets) == sorted(rules.target_ids()), "a target was lost or doubled"
    assert len(cards["targets"]) in (0, 2)


# The options the shared sweep (tests/games/test_sweep.py) plays this game with.
def sweep_options(players, chooser):
    opts = {"hands": chooser.randint(1, 2)}
    if players == 4:
        opts["teams"] = chooser.random() < 0.7
    if chooser.random() < 0.1:
        opts = {"goal": 40, "teams": opts.get("teams", False)}
    if chooser.random() < 0.1:
        opts["targets"] = {"trap-T1": {"animal": True, "double": -3}}
    return opts


# The bots' honesty test (tests/games/test_bots.py): another state that ``seat`` cannot
# tell from ``state``, as a snapshot.
def perturb(state, seat, rng):
    """``state``'s snapshot with the other hands, their sealed picks and the unused shots
    dealt again from the same unseen cards, and the target deck shuffled: ``view(seat)``
    is the same."""
    snapshot = state.to_dict()
    data = snapshot["state"]
    others = [s for s in range(state.players) if s != seat]
    picks = [s for s in others if data["sealed"][s] is not None]
    pool = list(data["unused"]) + [c for s in others for c in data["hands"][s]]
    pool += [data["sealed"][s] for s in picks]
    rng.shuffle(pool)
    order = {card: i for i, card in enumerate(rules.shot_ids())}
    for s in others:
        size = len(data["hands"][s])
        data["hands"][s], pool = sorted(pool[:size], key=order.__getitem__), pool[size:]
    for s in picks:
        data["sealed"][s], pool = pool[0], pool[1:]
    data["unused"] = pool
    rng.shuffle(data["target_deck"])
    data["seed"] = rng.getrandbits(52)
    return snapshot


# Short games for the bots' full-game tests.
def bot_options(players):
    return {"hands": 1}
