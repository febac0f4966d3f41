"""Shoot! random sweep: 1,200 seeded games through the shared checks, plus ours.

Our leak check proves, rather than guesses, that a view hides what it must: it rebuilds the
state with every card the viewer cannot see (the other hands and the out-of-play stock)
dealt differently, and every sealed bid of another seat changed, and asserts the viewer's
view is exactly the same. It also scans the view for any hidden card id.
"""

from __future__ import annotations

import json
import random

import pytest

from companion.games.cards import standard_deck
from companion.games.shoot import rules
from companion.games.shoot.engine import sort_hand
from tests.games.sweep import run_sweep

from .helpers import GAME

# Parts of a view that show earlier, public events (the first-dealer draw, the last trick,
# past deals' turned-up cards): they may name cards that are hidden in the current deal.
HISTORY = ("draw", "last_trick", "results")


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
    return others, set(state.stock).union(*(state.hands[s] for s in others))


def leak_check(state, seat, view):
    others, hidden = hidden_from(state, seat)
    if seat is None:
        assert "hand" not in view and "my_bid" not in view, "the table view holds a hand"
    else:
        assert view["hand"] == state.hands[seat]
    current = {key: value for key, value in view.items() if key not in HISTORY}
    leaked = hidden & strings_in(current)
    assert not leaked, f"view of {seat} shows hidden cards {leaked}"
    # the history parts are exactly the public record
    assert view["draw"] == state.draw
    assert view["last_trick"] == state.last_trick
    assert view["results"] == state.results
    if state.phase == "bid":
        assert all(view["bids"][s] is None for s in others), "a sealed bid is visible"
        assert view["bid_total"] is None
    # nothing the viewer cannot see makes any difference to the view
    assert _with_hidden_changed(state, others).view(seat) == view, "the view hides too little"


def _with_hidden_changed(state, others):
    """A copy of ``state`` with the hidden cards redealt and others' sealed bids changed."""
    twin = GAME.state_class.__new__(GAME.state_class)
    twin.__dict__.update(vars(state))
    pool = list(state.stock) + [c for s in others for c in state.hands[s]]
    random.Random(len(state.log)).shuffle(pool)
    twin.hands = list(state.hands)
    for s in others:
        size = len(state.hands[s])
        twin.hands[s], pool = sort_hand(pool[:size]), pool[size:]
    twin.stock = pool
    if state.phase == "bid":
        twin.bids = [
            b if s not in others or b is None else (b + 1) % (state.hand_size + 1)
            for s, b in enumerate(state.bids)
        ]
    return twin


def conservation_check(state):
    cards = [c for hand in state.hands for c in hand]
    cards += state.played + [card for _, card in state.trick] + state.stock + [state.trump]
    assert len(cards) == 52 and set(cards) == set(standard_deck()), "a card is lost or doubled"
    assert sum(len(h) for h in state.hands) + len(state.played) + len(state.trick) == (
        state.players * state.hand_size
    )
    assert sum(state.taken) * state.players == len(state.played)
    if state.chips is not None:
        assert state.chips["pot"] + sum(state.chips["stacks"]) == 0, "chips appeared or vanished"
        assert state.chips["pot"] >= 0


def sweep_options(players, chooser):
    options = {"chips": chooser.random() < 0.5}
    shape = chooser.randrange(4)  # 0: the default ten deals
    if shape in (1, 2):
        top = rules.max_hand(players)
        options["schedule"] = [chooser.randint(1, top) for _ in range(chooser.randint(1, 4))]
    elif shape == 3:
        options["schedule"] = list(range(1, 8)) + list(range(6, 0, -1))
    return options


def test_random_sweep():
    totals = run_sweep(
        GAME,
        1200,
        [2, 3, 4, 5],
        options=sweep_options,
        leak_check=leak_check,
        conservation_check=conservation_check,
        deep_every=30,
    )
    assert totals["games"] == 1200
    assert totals["actions"] > 100_000


def test_sweep_games_end_with_a_full_score_table():
    for seed in range(40):
        players = 2 + seed % 4
        chooser = random.Random(seed)
        options = GAME.check_options(players, sweep_options(players, chooser))
        state = GAME.new_state(players, options, seed=seed)
        while not state.is_over():
            seat = chooser.choice(state.to_act())
            state.apply(seat, chooser.choice(state.legal_actions(seat)))
        schedule = options["schedule"]
        assert [r["cards"] for r in state.results] == schedule
        for result in state.results:
            assert sum(result["tricks"]) == result["cards"]
            assert result["points"] == rules.deal_scores(result["bids"], result["tricks"])
        totals = [sum(r["points"][s] for r in state.results) for s in range(players)]
        assert state.scores() == totals
        assert state.winners == [s for s in range(players) if totals[s] == max(totals)]
        json.dumps(state.view(None))


# -- the checks themselves catch what they are for ----------------------------------------


def _leaky(monkeypatch, extra):
    original = GAME.state_class.view

    def view(self, seat):
        return {**original(self, seat), "extra": extra(self, seat)}

    monkeypatch.setattr(GAME.state_class, "view", view)


@pytest.mark.parametrize(
    "extra",
    [
        lambda state, seat: state.stock[-1],  # the out-of-play stock
        lambda state, seat: state.hands[(seat or 0) + 1][0],  # another seat's card
        lambda state, seat: [list(h) for h in state.hands],  # the table shows hands
        lambda state, seat: sum(c[1] == "H" for c in state.hands[(seat or 0) + 1]),
        lambda state, seat: state.bids[2],  # a sealed bid
        lambda state, seat: sum(b or 0 for b in state.bids),  # the sealed total
    ],
)
def test_leak_check_catches_leaks(monkeypatch, extra):
    state = GAME.new_state(3, seed=4)
    state.apply(2, {"type": "bid", "bid": 3})
    leak_check(state, 0, state.view(0))  # the real view passes
    _leaky(monkeypatch, extra)
    with pytest.raises(AssertionError):
        for seat in (None, 0):
            leak_check(state, seat, state.view(seat))


def test_conservation_check_catches_a_lost_card():
    state = GAME.new_state(3, {"chips": True}, seed=4)
    conservation_check(state)
    state.stock.pop()
    with pytest.raises(AssertionError, match="lost or doubled"):
        conservation_check(state)
    state = GAME.new_state(3, {"chips": True}, seed=4)
    state.chips["pot"] += 1
    with pytest.raises(AssertionError, match="chips"):
        conservation_check(state)
