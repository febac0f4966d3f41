"""Pirate Tricks through the generic random sweep, with its own leak and conservation checks."""

from __future__ import annotations

import json
import os
import re
from collections import Counter

import pytest

from companion.games import GAMES
from companion.games.pirate_tricks import rules
from companion.games.pirate_tricks.engine import ASSIGN, BID, REVEAL
from tests.games.sweep import run_sweep

GAME = GAMES["pirate_tricks"]


CREW_ID = re.compile(r'"([RGB](?:1[0-9]|20|[1-9]))"')


def crew_strings(obj) -> set[str]:
    """Every string in a JSON value that is a crew card id (keys and values)."""
    return set(CREW_ID.findall(json.dumps(obj)))


def public_cards(state) -> set[str]:
    """Crew cards of this round everybody has seen: row faces, reveals, shown, played."""
    seen = {c for row in state.rows for c in row["up"]}
    for event in state.events:
        seen.update(c for c in event.get("reveals") or [] if c)
    for per_seat in state.recruitment or []:
        for entry in per_seat:
            seen.update(entry["cards"])
    seen.update(c for _, c in state.trick)
    for pile in state.won:
        seen.update(pile)
    return seen


def known_to(state, seat: int | None) -> set[str]:
    known = public_cards(state)
    if seat is not None:
        known.update(state.hands[seat])
        known.update(state.ditched[seat] or [])
        for row in state.rows:
            if row["owner"] == seat:
                known.update(row["down"])
    return known


def leak_check(state, seat: int | None, view: dict) -> None:
    hidden = set(rules.crew_deck(state.players)) - known_to(state, seat)
    leaked = hidden.intersection(crew_strings(view))
    assert not leaked, f"seat {seat} sees hidden cards {sorted(leaked)}"
    over = state.is_over()
    for s in range(state.players):
        if s != seat and not over:
            assert view["loon"][s] is None, f"seat {seat} sees seat {s}'s loon"
    if seat is None:
        assert view["hand"] is None and view["ditched"] is None
    for row in view["rows"]:
        if seat is None or row["owner"] != seat:
            assert row["down"] is None, "a face-down row card is shown to a non-owner"
    a = state.auction
    if state.phase == BID:
        assert view["auction"]["your_bid"] == (None if seat is None else a["bids"][seat])
    if state.phase == REVEAL:
        assert view["events"][-1].get("reveals") is None, "reveals shown before all chose"
        assert view["auction"]["your_reveal"] == (None if seat is None else a["reveals"][seat])
    assert_view_ignores_secrets(state, seat, view)


def assert_view_ignores_secrets(state, seat: int | None, view: dict) -> None:
    """Changing what ``seat`` may not know must not change its view.

    The secrets: other seats' loon (until the end), their sealed bids and reveal picks,
    their ditched cards, and the face-down cards of rows that are not ``seat``'s.
    """
    a = state.auction
    saved = (
        list(state.loon),
        list(a["bids"]),
        list(a["reveals"]),
        list(state.ditched),
        [list(row["down"]) for row in state.rows],
    )
    try:
        for s in range(state.players):
            if s == seat:
                continue
            if not state.is_over():
                state.loon[s] += 1000
            if a["bids"][s] is not None:
                a["bids"][s] += 1000
            if a["reveals"][s] is not None:
                a["reveals"][s] = "secret reveal"
            if state.ditched[s] is not None:
                state.ditched[s] = ["secret ditch", "secret ditch"]
        for row in state.rows:
            if seat is None or row["owner"] != seat:
                row["down"] = ["secret down", "secret down"]
        assert state.view(seat) == view, f"seat {seat}'s view depends on a secret"
    finally:
        state.loon[:], a["bids"][:], a["reveals"][:], state.ditched[:], downs = saved
        for row, down in zip(state.rows, downs, strict=True):
            row["down"] = down


DECKS = {n: frozenset(rules.crew_deck(n)) for n in (3, 4, 5)}


def conservation_check(state) -> None:
    held = [c for hand in state.hands for c in hand]
    on_rows = [c for row in state.rows if row["owner"] is None for c in row["up"] + row["down"]]
    ditched = [c for d in state.ditched if d for c in d]
    played = [c for pile in state.won for c in pile] + [c for _, c in state.trick]
    every = held + on_rows + ditched + played
    deck = DECKS[state.players]
    assert len(every) == len(deck) and set(every) == deck, "a crew card is lost or doubled"
    assert all(x >= 0 for x in state.loon)
    owners = [r["owner"] for r in state.rows if r["owner"] is not None]
    assert len(owners) == len(set(owners)), "a player owns two rows"
    if state.phase not in (BID, REVEAL, ASSIGN):
        assert sorted(owners) == list(range(state.players)), "the auction left a row over"
    # Nobody bids more than twice on one row in a round.
    bids = Counter(
        (e["row"], s)
        for e in state.events
        for s, b in enumerate(e.get("bids") or [])
        if b is not None
    )
    assert all(v <= 2 for v in bids.values())


def options(players, chooser):
    return {"rounds": chooser.choice([3, 4, 5])}


# 1,000 random games (about 40 s of CPU); PT_SWEEP_GAMES=3000 for a longer run.
SWEEP_GAMES = int(os.environ.get("PT_SWEEP_GAMES", "1000"))


def test_sweep_many_games():
    totals = run_sweep(
        GAME,
        SWEEP_GAMES,
        [3, 4, 5],
        options=options,
        leak_check=leak_check,
        conservation_check=conservation_check,
        deep_every=25,
    )
    assert totals["games"] == SWEEP_GAMES
    assert totals["actions"] > SWEEP_GAMES * 100


def _leaky(monkeypatch, extra):
    original = GAME.state_class.view

    def view(self, seat):
        return {**original(self, seat), "extra": extra(self, seat)}

    monkeypatch.setattr(GAME.state_class, "view", view)


def _other(seat):
    return 1 if seat in (None, 0) else 0


@pytest.mark.parametrize(
    "extra",
    [
        lambda st, seat: st.hands[_other(seat)][0],  # another seat's card
        lambda st, seat: [list(h) for h in st.hands],  # every hand
        lambda st, seat: st.rows[2]["down"],  # face-down cards of a row nobody owns
        lambda st, seat: st.loon[_other(seat)],  # loon behind another screen
        lambda st, seat: sum(st.loon),  # the total loon
        lambda st, seat: st.auction["bids"][2],  # a sealed bid
        lambda st, seat: sum(b or 0 for b in st.auction["bids"]),  # the sealed total
    ],
)
def test_leak_check_catches_leaks_in_the_auction(monkeypatch, extra):
    state = GAME.new_state(3, seed=4)
    state.apply(0, {"type": "bid", "loon": 7})  # row 0 to seat 0
    state.apply(1, {"type": "bid", "loon": 0})
    state.apply(2, {"type": "bid", "loon": 0})
    state.apply(2, {"type": "bid", "loon": 3})  # sealed, on row 1
    for seat in (None, 0, 1):
        leak_check(state, seat, state.view(seat))  # the real views pass
    _leaky(monkeypatch, extra)
    with pytest.raises(AssertionError):
        for seat in (None, 0, 1):
            leak_check(state, seat, state.view(seat))


@pytest.mark.parametrize(
    "extra",
    [
        lambda st, seat: st.auction["reveals"],  # a sealed reveal pick
        lambda st, seat: st.rows[0]["down"],  # the row not yet taken
    ],
)
def test_leak_check_catches_a_sealed_reveal(monkeypatch, extra):
    state = GAME.new_state(3, seed=4)
    for seat in range(3):
        state.apply(seat, {"type": "bid", "loon": 2})
    state.apply(0, {"type": "reveal", "card": state.hands[0][0]})
    leak_check(state, 1, state.view(1))
    _leaky(monkeypatch, extra)
    with pytest.raises(AssertionError):
        leak_check(state, 1, state.view(1))


def test_leak_check_catches_a_ditched_card(monkeypatch):
    state = GAME.new_state(3, seed=4)
    while state.phase == "bid":
        state.apply(
            state.to_act()[0],
            {"type": "bid", "loon": 0} if len(state.to_act()) > 1 else {"type": "bid", "loon": 1},
        )
    while state.phase != "ditch":
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    state.apply(0, state.legal_actions(0)[-1])
    leak_check(state, 1, state.view(1))
    _leaky(monkeypatch, lambda st, seat: st.ditched[0])
    with pytest.raises(AssertionError):
        leak_check(state, 1, state.view(1))


def test_conservation_check_catches_a_lost_card():
    state = GAME.new_state(4, seed=4)
    conservation_check(state)
    state.hands[0].pop()
    with pytest.raises(AssertionError, match="lost or doubled"):
        conservation_check(state)
    state = GAME.new_state(4, seed=4)
    state.hands[0].append(state.hands[1][0])
    with pytest.raises(AssertionError, match="lost or doubled"):
        conservation_check(state)
