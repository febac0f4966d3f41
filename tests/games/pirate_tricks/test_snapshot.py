"""Pirate Tricks snapshots: the engine keeps crew cards as indexes, the snapshot as ids
(SNAPSHOT.md).

``snapshot_today.json`` was written by the engine of commit 7ea3905 (cards as ids in
memory), from two random games: ``play`` (4 players, round 2, a trick half played, every
seat's ditch made) and ``reveal`` (3 players, round 2, a tie on row 1 with one reveal
picked). Each holds the ``snapshot`` (log included, as tables stored it), the random
actions that followed to the end of the game and the state they led to (``final``,
without the log).
"""

from __future__ import annotations

import copy
import functools
import json
import random
from pathlib import Path

import pytest

from companion.games import GAMES
from companion.games.pirate_tricks import deck, rules
from tests.games.snapshots import (
    check_plays_on_as_before,
    check_writes_back_the_same_ids,
)

GAME = GAMES["pirate_tricks"]
FIXTURES = json.loads(Path(__file__).with_name("snapshot_today.json").read_text())


@pytest.mark.parametrize("name", ["play", "reveal"])
def test_a_snapshot_of_today_loads_and_writes_back_the_same_ids(name):
    check_writes_back_the_same_ids(GAME, FIXTURES[name])


@pytest.mark.parametrize("name", ["play", "reveal"])
def test_a_snapshot_of_today_plays_on_exactly_as_the_old_engine_did(name):
    fixture = FIXTURES[name]
    state = GAME.state_from_dict(copy.deepcopy(fixture["snapshot"]))
    assert state.phase == name
    check_plays_on_as_before(state, fixture["actions"], fixture["final"])


def test_the_reveal_picked_in_a_snapshot_of_today_is_kept_and_shown_only_to_its_seat():
    state = GAME.state_from_dict(copy.deepcopy(FIXTURES["reveal"]["snapshot"]))
    picked = FIXTURES["reveal"]["snapshot"]["state"]["auction"]["reveals"]
    seat = next(s for s, card in enumerate(picked) if card is not None)
    assert state.view(seat)["auction"]["your_reveal"] == picked[seat]
    assert all(state.view(s)["auction"]["your_reveal"] is None for s in range(3) if s != seat)


def test_a_hand_written_snapshot_with_other_hands_loads_and_plays_to_the_end():
    """What a bot does: the same snapshot with the other seats' cards dealt differently."""
    snapshot = copy.deepcopy(FIXTURES["play"]["snapshot"])
    cards = snapshot["state"]
    pool = [c for hand in cards["hands"][1:] for c in hand]
    random.Random(3).shuffle(pool)
    for seat in range(1, 4):
        size = len(cards["hands"][seat])
        cards["hands"][seat], pool = pool[:size], pool[size:]
    state = GAME.state_from_dict(snapshot)
    for seat in range(1, 4):
        assert state.hand_of(seat) == sorted(cards["hands"][seat], key=rules.sort_key)
    chooser = random.Random(5)
    while not state.is_over():
        seat = chooser.choice(state.to_act())
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
    assert all(isinstance(c, str) for pile in state.to_dict()["state"]["won"] for c in pile)


def variants(state, seat, legal):
    """Actions to try: every legal one, and near misses (other cards, wrong types, extra
    or missing keys, other kinds)."""
    cards = state.to_dict()["state"]
    held = cards["hands"][seat]
    others = [c for hand in cards["hands"] for c in hand if c not in held][:2]
    out = [dict(a) for a in legal[:40]]
    for card in held[:4] + others + [None, 7, ["R1"], "R0", "X9"]:
        out.append({"type": "play", "card": card})
        out.append({"type": "reveal", "card": card})
    pairs = [held[:2], held[1::-1], [held[0], held[0]] if held else [], held[:3], others]
    for pair in pairs + ["R1", None, [1, 2]]:
        out.append({"type": "ditch", "cards": pair})
    for n in (0, 1, 3, 10, 11, -1, True, 1.0, "1", None, state.loon[seat], state.loon[seat] + 1):
        out += [{"type": "bid", "loon": n}, {"type": "predict", "tricks": n}]
        out.append({"type": "assign", "seat": n})
    if legal:
        out.append({**legal[0], "extra": 1})
        out.append({"type": legal[0]["type"]})
        out.append({**legal[0], "type": "pass"})
    return out


def test_the_direct_legality_check_agrees_with_the_legal_list():
    chooser = random.Random(11)
    checked = 0
    for players in (3, 4, 5):
        state = GAME.new_state(players, {"rounds": 3}, seed=players)
        while not state.is_over():
            for seat in state.to_act():
                legal = state.legal_actions(seat)
                keys = {json.dumps(a, sort_keys=True) for a in legal}
                for action in variants(state, seat, legal):
                    strictly_in = json.dumps(action, sort_keys=True) in keys
                    assert state._is_legal(seat, action) == strictly_in, (state.phase, action)
                    checked += 1
            seat = chooser.choice(state.to_act())
            state.apply(seat, chooser.choice(state.legal_actions(seat)))
    assert checked > 5_000


def test_trick_winners_on_indexes_follow_the_rules():
    """The highest red wins, else the highest card of the suit led; off-suit never."""
    gen = random.Random(2)
    for _ in range(2000):
        n = gen.randint(1, 5)
        plays = [[seat, card] for seat, card in enumerate(gen.sample(range(60), n))]
        ids = [[seat, deck.CARD[card]] for seat, card in plays]
        reds = [(rules.number(c), s) for s, c in ids if rules.suit(c) == "R"]
        led = rules.suit(ids[0][1])
        same = [(rules.number(c), s) for s, c in ids if rules.suit(c) == led]
        assert deck.trick_winner(plays) == max(reds or same)[1]


def groups_card_by_card(shape, size, hand):
    """The groups search as the engine of commit 7ea3905 ran it, on ids and frozensets
    (the oracle for the bitmask search: the same groups, in the same order)."""
    candidates = rules._candidates(shape, size, hand)
    order = {card: i for i, card in enumerate(sorted(set(hand), key=rules.sort_key))}

    @functools.cache
    def best(available):
        usable = [g for g in candidates if available.issuperset(g)]
        if not usable:
            return ()
        pivot = min((card for g in usable for card in g), key=order.__getitem__)
        choice = ()
        for group in usable:
            if pivot in group:
                option = (group, *best(available - set(group)))
                if len(option) > len(choice):
                    choice = option
        skip = best(available - {pivot})
        return skip if len(skip) > len(choice) else choice

    return [list(group) for group in best(frozenset(hand))]


def test_recruitment_on_bitmasks_finds_the_groups_the_card_by_card_search_found():
    catalog = rules.load_catalog()
    gen = random.Random(4)
    shapes = [
        (shape, size) for shape in rules.SHAPES for size in (2, 3, 4) if shape == "run" or size < 4
    ]
    for _ in range(300):
        hand = sorted(gen.sample(range(60), gen.randint(6, 12)))
        ids = deck.ids(hand)
        for shape, size in shapes:
            found = deck.best_groups(shape, size, deck.mask_of(hand))
            assert [deck.ids(list(g)) for g in found] == groups_card_by_card(shape, size, ids)
        for card in catalog["recruitment"]:
            (detail,) = deck.recruit(card, [hand])
            loon = 0
            for effect in card["effects"]:
                if effect["kind"] == "per_card":
                    hits = sum(rules.matches(effect["filter"], c) for c in ids)
                    loon += effect["loon"] * hits
                else:
                    found = groups_card_by_card(effect["shape"], effect["size"], ids)
                    loon += effect["loon"] * len(found)
            assert detail["loon"] == loon


def test_a_snapshot_with_an_unknown_card_is_refused_with_a_value_error():
    for change in (
        lambda s: s["hands"][0].append("R21"),
        lambda s: s["rows"][0]["up"].__setitem__(0, "X1"),
        lambda s: s["trick"].append([2, None]),
    ):
        snapshot = copy.deepcopy(FIXTURES["play"]["snapshot"])
        change(snapshot["state"])
        with pytest.raises(ValueError, match="not a Pirate Tricks snapshot"):
            GAME.state_from_dict(snapshot)


def test_a_shared_snapshot_keeps_its_ids_while_the_state_plays_on():
    # The service loads and saves inside base.shared_json (no second copy of the JSON it
    # just parsed): the engine must not turn the loaded dict's nested rows and auction
    # into integers, nor write ids into the live state's own dicts.
    from companion.games.base import shared_json

    game = GAMES["pirate_tricks"]
    chooser = random.Random(5)
    state = game.new_state(4, seed=5)
    for _ in range(40):
        seat = chooser.choice(state.to_act())
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
        stored = json.loads(json.dumps(state.to_dict()))
        pristine = copy.deepcopy(stored)
        with shared_json():
            loaded = game.state_from_dict(stored)
            assert stored == pristine  # loading changed nothing in the stored JSON
            again = loaded.to_dict()
        assert json.loads(json.dumps(again)) == pristine
        seat = chooser.choice(loaded.to_act())
        loaded.apply(seat, chooser.choice(loaded.legal_actions(seat)))  # still plays
        game.state_from_dict(json.loads(json.dumps(loaded.to_dict())))


def test_counting_groups_on_the_bits_counts_what_the_search_finds():
    gen = random.Random(11)
    # Runs and sets are counted on the bits; runs-or-sets search as best_groups does, each
    # cluster moved down to the lowest numbers first (deck._lowered): the same count.
    shapes = [("run", size) for size in range(2, 13)] + [("set", 2), ("set", 3)]
    shapes += [("run_or_set", 2), ("run_or_set", 3)]
    for _ in range(3000):
        mask = deck.mask_of(gen.sample(range(60), gen.randint(0, 30)))
        for shape, size in shapes:
            assert deck.plan_loon(((1, 0, shape, size),), mask) == len(
                deck.best_groups(shape, size, mask)
            ), (shape, size, deck.ids(deck.cards_of(mask)))


@pytest.mark.parametrize(
    ("cards", "shape", "size", "count"),
    [
        (["R18", "R19", "R20", "G1", "G2"], "run", 3, 1),  # a run stops at the suit's end
        (["R19", "R20", "G1"], "run", 2, 1),
        (["B14", "B15", "B16", "B17", "B18", "B19", "B20"], "run", 3, 2),  # 7 in a row
        (["G1", "G2", "G3", "G5", "G6", "G7", "G8"], "run", 4, 1),
        (["R7", "G7", "B7"], "set", 2, 1),  # three of a number hold one pair
        (["R7", "G7", "B7", "R9", "B9"], "set", 2, 2),
        (["R7", "G7", "B7", "R9", "B9"], "set", 3, 1),
        (["R1", "G20", "B10"], "set", 2, 0),
    ],
)
def test_counting_groups_on_the_bits_at_the_edges(cards, shape, size, count):
    mask = deck.mask_of(deck.indexes(cards))
    assert deck.plan_loon(((1, 0, shape, size),), mask) == count
