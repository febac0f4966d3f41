"""Pirate Tricks checks for the generic sweep: ``leak_check(state, seat, view)`` and
``conservation_check(state)``.

The leak check looks for every crew card the viewer must not know in the view (other
hands, sealed reveals, ditched cards, face-down row cards), checks that other seats' loon
stays hidden (in ``loon`` and in the common block's ``scores``) until the game is over,
that changing a secret never changes the view, and checks the common block against the
state.
"""

from __future__ import annotations

import json
import re
from collections import Counter

from companion.games import GAMES
from companion.games.pirate_tricks import rules
from companion.games.pirate_tricks.engine import ASSIGN, BID, REVEAL

CREW_ID = re.compile(r'"([RGB](?:1[0-9]|20|[1-9]))"')


def crew_strings(obj) -> set[str]:
    """Every string in a JSON value that is a crew card id (keys and values)."""
    return set(CREW_ID.findall(json.dumps(obj)))


def public_cards(cards: dict) -> set[str]:
    """Crew cards of this round everybody has seen: row faces, reveals, shown, played
    (``cards``: the snapshot's state, where cards are ids)."""
    seen = {c for row in cards["rows"] for c in row["up"]}
    for event in cards["events"]:
        seen.update(c for c in event.get("reveals") or [] if c)
    for per_seat in cards["recruitment"] or []:
        for entry in per_seat:
            seen.update(entry["cards"])
    seen.update(c for _, c in cards["trick"])
    for pile in cards["won"]:
        seen.update(pile)
    return seen


def known_to(state, seat: int | None) -> set[str]:
    cards = state.to_dict()["state"]  # the engine keeps indexes, the snapshot ids
    known = public_cards(cards)
    if seat is not None:
        known.update(cards["hands"][seat])
        known.update(cards["ditched"][seat] or [])
        for row in cards["rows"]:
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
    # The common block: one-seat sides, the loon as scores (own only until over).
    assert view["sides"] == [[s] for s in range(state.players)]
    assert view["to_act"] == state.to_act()
    assert isinstance(view["prompt"], str)
    if over:
        assert view["scores"] == state.loon
        best = max(state.loon)
        assert view["winners"] == [s for s, have in enumerate(state.loon) if have == best]
    else:
        assert view["winners"] == []
        assert view["scores"] == [
            state.loon[s] if s == seat else None for s in range(state.players)
        ]
        if seat is not None and seat in state.to_act():
            assert view["prompt"], "a seat to act gets no prompt"
    a = state.auction
    if state.phase == BID:
        assert view["auction"]["your_bid"] == (None if seat is None else a["bids"][seat])
    if state.phase == REVEAL:
        assert view["events"][-1].get("reveals") is None, "reveals shown before all chose"
        reveals = state.to_dict()["state"]["auction"]["reveals"]
        assert view["auction"]["your_reveal"] == (None if seat is None else reveals[seat])
    assert_view_ignores_secrets(state, seat, view)


def assert_view_ignores_secrets(state, seat: int | None, view: dict) -> None:
    """Changing what ``seat`` may not know must not change its view.

    The secrets: other seats' loon (until the end), their sealed bids and reveal picks,
    their ditched cards, and the face-down cards of rows that are not ``seat``'s. They
    are changed in the snapshot (to other crew cards), which is loaded into a new state.
    """
    snapshot = state.to_dict()
    cards = snapshot["state"]
    a = cards["auction"]
    deck = rules.crew_deck(state.players)

    def other_than(*now):
        return next(c for c in reversed(deck) if c not in now)

    for s in range(state.players):
        if s == seat:
            continue
        if not state.is_over():
            cards["loon"][s] += 1000
        if a["bids"][s] is not None:
            a["bids"][s] += 1000
        if a["reveals"][s] is not None:
            a["reveals"][s] = other_than(a["reveals"][s])
        if cards["ditched"][s] is not None:
            first = other_than(*cards["ditched"][s])
            cards["ditched"][s] = [first, other_than(first, *cards["ditched"][s])]
    for row in cards["rows"]:
        if seat is None or row["owner"] != seat:
            first = other_than(*row["down"])
            row["down"] = [first, other_than(first, *row["down"])]
    changed = GAMES[state.slug].state_from_dict(snapshot)
    assert changed.view(seat) == view, f"seat {seat}'s view depends on a secret"


DECKS = {n: frozenset(rules.crew_deck(n)) for n in (3, 4, 5)}


def conservation_check(state) -> None:
    cards = state.to_dict()["state"]  # the engine keeps indexes, the snapshot ids
    held = [c for hand in cards["hands"] for c in hand]
    on_rows = [c for row in cards["rows"] if row["owner"] is None for c in row["up"] + row["down"]]
    ditched = [c for d in cards["ditched"] if d for c in d]
    played = [c for pile in cards["won"] for c in pile] + [c for _, c in cards["trick"]]
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


# The options the shared sweep (tests/games/test_sweep.py) plays this game with.
def sweep_options(players, chooser):
    return {"rounds": chooser.choice([3, 4, 5])}


# The bots' honesty test (tests/games/test_bots.py): another state that ``seat`` cannot
# tell from ``state``, as a snapshot.
def perturb(state, seat, rng):
    """``state``'s snapshot with the cards only others know dealt again: the other seats'
    unseen cards (their first five, the face-down cards of their rows, their ditched cards)
    and the face-down cards of the open rows change places, and every other seat's loon,
    sealed bid and sealed reveal change: ``view(seat)`` is the same."""
    snapshot = state.to_dict()
    data = snapshot["state"]
    n = state.players
    known = known_to(state, seat)
    others = [s for s in range(n) if s != seat]
    # Swap unseen cards between the other seats' hands and ditches and the open rows.
    places = [("hands", s) for s in others] + [("ditched", s) for s in others]
    places += [("rows", r) for r, row in enumerate(data["rows"]) if row["owner"] is None]

    def cards_at(place):
        kind, k = place
        if kind == "rows":
            return data["rows"][k]["down"]
        return data[kind][k] or []

    pool = [c for place in places for c in cards_at(place) if c not in known]
    rng.shuffle(pool)
    for place in places:
        cards = cards_at(place)
        for i, card in enumerate(cards):
            if card not in known:
                cards[i] = pool.pop()
    for s in others:
        data["hands"][s].sort(key=rules.sort_key)
        if data["ditched"][s]:
            data["ditched"][s].sort(key=rules.sort_key)
    a = data["auction"]
    for s in others:
        data["loon"][s] += 1 + rng.randrange(5)
        if state.phase == BID and a["bids"][s] is not None:
            a["bids"][s] = rng.randrange(data["loon"][s] + 1)
        if state.phase == REVEAL and a["reveals"][s] is not None:
            a["reveals"][s] = rng.choice(data["hands"][s])
    data["seed"] = rng.getrandbits(52)
    return snapshot


# Short games for the bots' full-game tests.
def bot_options(players):
    return {"rounds": 3}
