"""PULL! snapshots: the engine keeps cards as indexes, the snapshot as ids (SNAPSHOT.md).

``snapshot_today.json`` was written by the engine of commit 7ea3905 (cards as ids in
memory): a 3-player game stopped in hand 2, round 3, with one sealed second shot picked
(``snapshot``, log included, as tables stored it), the random actions that followed to the
end of the game (``actions``) and the state they led to (``final``, without the log).
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from companion.games.cards import reseeded, rng, shuffle
from companion.games.pull import deck, rules
from companion.games.pull.engine import GAME, SECOND
from tests.games.snapshots import (
    check_plays_on_as_before,
    check_writes_back_the_same_ids,
)

FIXTURE = json.loads(Path(__file__).with_name("snapshot_today.json").read_text())


def test_a_snapshot_of_today_loads_and_writes_back_the_same_ids():
    check_writes_back_the_same_ids(GAME, FIXTURE)


def test_a_snapshot_of_today_plays_on_exactly_as_the_old_engine_did():
    state = GAME.state_from_dict(copy.deepcopy(FIXTURE["snapshot"]))
    assert state.phase == SECOND and any(pick is not None for pick in state.sealed)
    check_plays_on_as_before(state, FIXTURE["actions"], FIXTURE["final"])


def test_a_hand_written_snapshot_with_other_hands_loads_and_plays_to_the_end():
    """What a bot does: the same snapshot with the hidden cards dealt differently."""
    snapshot = copy.deepcopy(FIXTURE["snapshot"])
    cards = snapshot["state"]
    pool = [c for hand in cards["hands"][1:] for c in hand] + cards["unused"]
    random.Random(3).shuffle(pool)
    sizes = [len(hand) for hand in cards["hands"]]
    for seat in (1, 2):
        cards["hands"][seat], pool = pool[: sizes[seat]], pool[sizes[seat] :]
    cards["unused"] = pool
    state = GAME.state_from_dict(snapshot)
    for seat in (1, 2):
        assert sorted(state.hand_of(seat)) == sorted(cards["hands"][seat])
    chooser = random.Random(5)
    while not state.is_over():
        seat = chooser.choice(state.to_act())
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
    assert all(isinstance(card, str) for card in state.to_dict()["state"]["shot_discards"])


def variants(state, seat, legal):
    """Actions to try: every legal one, and near misses (other cards, wrong types, extra
    or missing keys, the other phase's action)."""
    cards = state.to_dict()["state"]
    out = [dict(a) for a in legal]
    held = cards["hands"][seat]
    others = [c for hand in cards["hands"] for c in hand if c not in held] + cards["unused"]
    for card in held[:3] + others[:2] + [None, 7, ["trap-1"], "nonsense"]:
        for target in (0, 1, True, 1.0, "1", 2, -1):
            out.append({"type": "shoot", "card": card, "target": target})
        out.append({"type": "second", "card": card})
    if legal:
        out.append({**legal[0], "extra": 1})
        out.append({k: v for k, v in legal[0].items() if k != "card"})
        out.append({**legal[0], "type": "pass"})
    return out


def test_the_direct_legality_check_agrees_with_the_legal_list():
    chooser = random.Random(11)
    checked = 0
    for players in (2, 3, 4):
        for game_no in range(3):
            state = GAME.new_state(players, {"hands": 2}, seed=game_no)
            while not state.is_over():
                for seat in state.to_act():
                    legal = state.legal_actions(seat)
                    keys = {json.dumps(a, sort_keys=True) for a in legal}
                    for action in variants(state, seat, legal):
                        strictly_in = json.dumps(action, sort_keys=True) in keys
                        assert state._is_legal(seat, action) == strictly_in, action
                        checked += 1
                seat = chooser.choice(state.to_act())
                state.apply(seat, chooser.choice(state.legal_actions(seat)))
    assert checked > 5_000


def test_the_inline_shuffle_deals_exactly_as_random_shuffle():
    """Tables replay from their seed: the engine's shuffles must keep every deal (the
    shuffle on a generator of its own and on the thread's one, which the deals use)."""
    for seed in range(300):
        for size in (0, 1, 2, 24, 48, 60):
            ours, theirs = list(range(size)), list(range(size))
            shuffle(ours, rng(seed, "shots", seed % 7))
            rng(seed, "shots", seed % 7).shuffle(theirs)
            assert ours == theirs
            again = shuffle(list(range(size)), reseeded(f"{seed}:shots:{seed % 7}"))
            assert again == theirs


def resolve_card_by_card(target, shots, side_of):
    """Winning a target as the engine of commit 7ea3905 read it, on ids (the oracle)."""
    suit = rules.target_suit(target)
    distracted = any(rules.shot_value(card) == 1 for _, card in shots)
    cancelled = [card for _, card in shots if distracted and rules.shot_value(card) == 8]
    live = [(seat, card) for seat, card in shots if card not in cancelled]
    result = {"side": None, "seat": None, "card": None, "cancelled": cancelled, "void": False}
    if not live:
        return result
    best = max(rules.shot_value(card) for _, card in live)
    tied = [(seat, card) for seat, card in live if rules.shot_value(card) == best]
    matching = [(seat, card) for seat, card in tied if rules.shot_suit(card) == suit]
    if matching:
        seat, card = matching[0]
    elif len({side_of[seat] for seat, _ in tied}) == 1:
        seat, card = tied[0]
    else:
        result["void"] = True
        return result
    result.update(side=side_of[seat], seat=seat, card=card)
    return result


def test_targets_resolved_on_indexes_as_card_by_card():
    gen = random.Random(8)
    shots_deck, targets = rules.shot_ids(), rules.target_ids()
    for _ in range(5000):
        players = gen.choice([2, 3, 4])
        side_of = [0, 1, 0, 1] if players == 4 and gen.random() < 0.5 else list(range(players))
        # Low values often, so that ties, Distractions and 8s come up.
        pool = [c for c in shots_deck if rules.shot_value(c) in (1, 7, 8)] or shots_deck
        cards = gen.sample(pool if gen.random() < 0.6 else shots_deck, gen.randint(0, 8))
        shots = [[gen.randrange(players), card] for card in cards]
        target = gen.choice(targets)
        assert deck.resolve_target(target, shots, side_of) == resolve_card_by_card(
            target, shots, side_of
        )


def test_a_snapshot_with_an_unknown_card_is_refused_with_a_value_error():
    for change in (
        lambda s: s["hands"][0].append("trap-9"),
        lambda s: s["targets"].__setitem__(0, "trap-T9"),
        lambda s: s["sealed"].__setitem__(0, 7),
    ):
        snapshot = copy.deepcopy(FIXTURE["snapshot"])
        change(snapshot["state"])
        with pytest.raises(ValueError, match="not a PULL! snapshot"):
            GAME.state_from_dict(snapshot)
