"""High card's hooks for the generic game tests (tests/games/test_sweep.py and the others
that look hooks up by name in ``tests/games/<slug>/checks.py``)."""

from __future__ import annotations


def leak_check(state, seat, view):
    """A view holds the viewer's own hand only: no other seat's card still in hand."""
    own = set() if seat is None else {f"c{card}" for card in state.hands[seat]}
    hidden = {f"c{card}" for hand in state.hands for card in hand} - own
    shown = set(view.get("hand") or []) | {card for _, card in view.get("trick") or []}
    assert not shown & hidden, f"seat {seat} sees {sorted(shown & hidden)}"
    if seat is None:
        assert "hand" not in view


def conservation_check(state):
    """Every card dealt is in a hand, on the table or in a finished trick's count."""
    held = sum(len(hand) for hand in state.hands) + len(state.trick)
    assert held + sum(state.tricks) * state.players == state.options["cards"] * state.players


def sweep_options(players, chooser):
    return {"cards": chooser.randint(1, 8)}
