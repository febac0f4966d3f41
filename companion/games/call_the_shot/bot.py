"""The Call the Shot bot.

The easy player gets rid of the Coward first (claiming a strong card), then keeps its
strongest card on top (a Man of Honour against a claimed Headshot or Shoot to Kill, a
strong card straight after its own Deadly Aim), tells the truth about strong cards and
bluffs with weak ones, and calls the shot when its own top card beats what the opponent
claims for theirs.

:meth:`CallTheShotBot.sample` deals the cards the seat cannot see (the other hand, the
other player's face-down plays and the two cards set aside face down) at random from the
cards not in sight, keeping the one fact a claim proves: a card announced as anything but
a Man of Honour is not a Man of Honour. A playout runs to the end of the current duel.
"""

from __future__ import annotations

from typing import Any

from companion.bots import GameBot

from .rules import (
    COWARD,
    DEADLY_AIM,
    DECK,
    HEADSHOT,
    MAN_OF_HONOUR,
    SHOOT_TO_KILL,
    SHOOT_TO_WOUND,
    reveal,
    showdown,
    sort_cards,
)

#: The order the easy player prefers to have a card on top, strongest first.
STRENGTH = [HEADSHOT, SHOOT_TO_KILL, SHOOT_TO_WOUND, MAN_OF_HONOUR, DEADLY_AIM, COWARD]
BLUFFS = [HEADSHOT, SHOOT_TO_KILL]


def claimed_top(claims: list[str]) -> dict[str, Any] | None:
    """What a player's last card would reveal if every claim were true."""
    if not claims:
        return None
    return reveal([{"card": claim, "claim": claim} for claim in claims])


def coward_may_be_with_opponent(view: dict[str, Any]) -> bool:
    mine = set(view["hand"]) | {p["card"] for p in view["my_plays"]} | set(view["face_up"])
    return COWARD not in mine


def choose(
    hand: list[str], mine: list[dict], claims: list[str], may_call: bool, rng
) -> dict[str, str]:
    """The easy move: call when the own top card beats the claimed one, else play the
    Coward first, a Man of Honour against a claimed Headshot or Shoot to Kill, otherwise
    the strongest card (a Deadly Aim last, as on top it is worth nothing)."""
    if not hand:
        return {"type": "call"}
    theirs = claimed_top(claims)
    if may_call and mine and theirs is not None:
        winner, _reason = showdown(reveal(mine), theirs)
        if winner == 0:
            return {"type": "call"}
    if COWARD in hand:
        card = COWARD
    elif (
        theirs is not None
        and theirs["card"] in (HEADSHOT, SHOOT_TO_KILL)
        and (MAN_OF_HONOUR in hand)
    ):
        card = MAN_OF_HONOUR
    else:
        card = min(hand, key=STRENGTH.index)
    if card in (HEADSHOT, SHOOT_TO_KILL, SHOOT_TO_WOUND, MAN_OF_HONOUR):
        claim = card
    else:
        claim = BLUFFS[rng.randrange(len(BLUFFS))]
    return {"type": "play", "card": card, "claim": claim}


class CallTheShotBot(GameBot):
    bench = {"players": 2, "options": {"shots_to_lose": 3}}

    def should_act(self, view):
        return not view["over"] and view["turn"] == view["seat"]

    def easy(self, view, legal, rng):
        seat = view["seat"]
        may_call = any(a["type"] == "call" for a in legal)
        action = choose(view["hand"], view["my_plays"], view["claims"][1 - seat], may_call, rng)
        return action if action in legal else legal[0]

    def rollout(self, state, seat, rng):
        """The easy player reading the sampled world directly (no view built); worlds
        whose engine keeps cards in another form than the snapshot's take the view path."""
        hand = state.hands[seat]
        played = state.played
        if not hand or not isinstance(hand[0], str):
            return super().rollout(state, seat, rng)
        may_call = bool(played[0]) and bool(played[1])
        claims = [p["claim"] for p in played[1 - seat]]
        return choose(hand, played[seat], claims, may_call, rng)

    # -- the searches' worlds ----------------------------------------------------------

    def sample(self, view, rng):
        seat = view["seat"]
        other = 1 - seat
        pool = list(DECK)
        for card in [*view["hand"], *(p["card"] for p in view["my_plays"]), *view["face_up"]]:
            pool.remove(card)
        rng.shuffle(pool)
        # a play announced as anything but a Man of Honour is not one
        their_plays = []
        for claim in view["claims"][other]:
            if claim == MAN_OF_HONOUR:
                their_plays.append({"card": None, "claim": claim})
                continue
            index = next(i for i, c in enumerate(pool) if c != MAN_OF_HONOUR)
            their_plays.append({"card": pool.pop(index), "claim": claim})
        for play in their_plays:
            if play["card"] is None:
                play["card"] = pool.pop()
        count = view["hand_counts"][other]
        hands = [[], []]
        hands[seat] = list(view["hand"])
        hands[other] = sort_cards(pool[:count])
        face_down = pool[count:]
        played = [[], []]
        played[seat] = [dict(p) for p in view["my_plays"]]
        played[other] = their_plays
        state = {
            "players": 2,
            "options": {"shots_to_lose": view["shots_to_lose"]},
            "seed": rng.getrandbits(52),
            "deal": None,
            "log": [],
            "shots": list(view["scores"]),
            "first_challenger": view["first_challenger"],
            "duel": view["duel"] - 1,
            "challenger": view["challenger"],
            "turn": view["turn"],
            "phase": view["phase"],
            "hands": hands,
            "face_up": list(view["face_up"]),
            "face_down": face_down,
            "played": played,
            "results": view["duels"],
            "loser": view["loser"],
        }
        return {"game": "call_the_shot", "state": state}

    def observe(self, action, mover, seat):
        """A card goes down face down: the other player sees only the claim."""
        if mover != seat and action["type"] == "play":
            return ("play", action["claim"])
        return (action["type"], action.get("card"), action.get("claim"))

    def done(self, start, state):
        return state.is_over() or state.duel != start["duel"] - 1


BOT = CallTheShotBot()
