"""Builders for PULL! scenario tests: explicit deals and short scripted rounds."""

from __future__ import annotations

from companion.games.pull import rules
from companion.games.pull.engine import GAME


def make_deal(players: int, hands: dict[int, list[str]], targets: list[str], dealer: int = 0):
    """A full explicit deal: the given cards in the given hands, the rest filled in.

    Filler shots come from suits of neither of the first two targets where possible, so a
    test about following suit only sees the cards it asked for.
    """
    first_suits = {rules.target_suit(t) for t in targets[:2]}
    wanted = {card for cards in hands.values() for card in cards}
    spare = [c for c in rules.shot_ids() if c not in wanted]
    spare.sort(key=lambda c: rules.shot_suit(c) in first_suits)
    full = []
    for seat in range(players):
        hand = list(hands.get(seat, []))
        while len(hand) < rules.HAND_SIZE:
            hand.append(spare.pop(0))
        full.append(hand)
    deck = list(targets) + [t for t in rules.target_ids() if t not in targets]
    return {"dealer": dealer, "hands": full, "targets": deck}


def saved(state) -> dict:
    """The state as its snapshot holds it (cards as ids): the engine keeps indexes."""
    return state.to_dict()["state"]


def new(players: int, cards=None, targets=None, dealer=0, options=None):
    """A state from an explicit deal: ``cards`` maps a seat to cards it must hold."""
    targets = targets or ["trap-T2", "skeet-T2"]
    deal = make_deal(players, cards or {}, targets, dealer)
    return GAME.new_state(players, options, seed=12345, deal=deal)


def shoot(state, seat, card, target):
    state.apply(seat, {"type": "shoot", "card": card, "target": target})


def second(state, seat, card):
    state.apply(seat, {"type": "second", "card": card})
