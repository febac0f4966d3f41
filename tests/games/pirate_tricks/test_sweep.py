"""Pirate Tricks through the generic random sweep, with its own leak and conservation checks."""

from __future__ import annotations

import json
import os
import re
from collections import Counter

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
        current = [e for e in view["events"] if (e["row"], e["pass"]) == (a["row"], a["pass"])]
        assert all(e["result"] == "zero" for e in current) or not current
        assert all("bids" not in e or e["pass"] != a["pass"] for e in current)
        assert view["auction"]["your_bid"] == (None if seat is None else a["bids"][seat])
    if state.phase == REVEAL:
        assert view["events"][-1].get("reveals") is None, "reveals shown before all chose"
        assert view["auction"]["your_reveal"] == (None if seat is None else a["reveals"][seat])


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


# 600 random games (about 25 s); PT_SWEEP_GAMES=5000 for a longer run before a release.
SWEEP_GAMES = int(os.environ.get("PT_SWEEP_GAMES", "600"))


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
