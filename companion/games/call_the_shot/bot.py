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

from companion.bots import GameBot

from .engine import ACTION_IDS, CALL_ID, INDEX, SIZE
from .rules import (
    CARDS,
    COWARD,
    DEADLY_AIM,
    DECK,
    HEADSHOT,
    MAN_OF_HONOUR,
    POINTS,
    SHOOT_TO_KILL,
    SHOOT_TO_WOUND,
    sort_cards,
)

# The policy reads integer cards (a card's place in CARDS), as the engine keeps them: the
# easy player converts its view's ids, the playouts read the sampled world's integers.
HONOUR, AIM, WOUND, KILL, HEAD, COWARD_ = (
    INDEX[card]
    for card in (MAN_OF_HONOUR, DEADLY_AIM, SHOOT_TO_WOUND, SHOOT_TO_KILL, HEADSHOT, COWARD)
)
VALUE = tuple(POINTS[card] for card in CARDS)
#: The order the easy player prefers to have a card on top, strongest first.
STRENGTH = [HEADSHOT, SHOOT_TO_KILL, SHOOT_TO_WOUND, MAN_OF_HONOUR, DEADLY_AIM, COWARD]
PREFERENCE = tuple(STRENGTH.index(card) for card in CARDS)  # card -> its place there
BLUFFS = [HEAD, KILL]
HONEST = (HEAD, KILL, WOUND, HONOUR)  # the cards the easy player announces truly


def top(cards: list[int]) -> tuple[int, int]:
    """What the last of ``cards`` (played in order, integers) reveals: (card, value), a
    Deadly Aim directly under it doubling its value."""
    card = cards[-1]
    aimed = len(cards) >= 2 and cards[-2] == AIM
    return card, VALUE[card] * (2 if aimed else 1)


def beats(mine: tuple[int, int], theirs: tuple[int, int]) -> bool:
    """Whether the revealed ``mine`` wins the showdown against ``theirs`` (rules.showdown
    on integers)."""
    if mine[0] == HONOUR and theirs[0] in (HEAD, KILL):
        return True
    if theirs[0] == HONOUR and mine[0] in (HEAD, KILL):
        return False
    return mine[1] > theirs[1]


def choose_id(hand: list[int], mine: list[int], claims: list[int], may_call: bool, rng) -> int:
    """The easy move as an action id (integer cards): call when the own top card beats the
    claimed one, else play the Coward first, a Man of Honour against a claimed Headshot or
    Shoot to Kill, otherwise the strongest card (a Deadly Aim last, as on top it is worth
    nothing). ``mine`` are the cards the player has played, ``claims`` what the other
    announced, in order."""
    if not hand:
        return CALL_ID
    theirs = top(claims) if claims else None
    if may_call and mine and theirs is not None and beats(top(mine), theirs):
        return CALL_ID
    if COWARD_ in hand:
        card = COWARD_
    elif theirs is not None and theirs[0] in (HEAD, KILL) and HONOUR in hand:
        card = HONOUR
    else:
        card = min(hand, key=PREFERENCE.__getitem__)
    claim = card if card in HONEST else BLUFFS[rng.randrange(len(BLUFFS))]
    return card * SIZE + claim


class CallTheShotBot(GameBot):
    # A duel is claims and calls answering each other: the tree learns the seat's later
    # call from the claims it sees, which root-only halving cannot (it measured a tie with
    # normal over 500 games, the tree +0.47 shots).
    strong_search = "ismcts"
    bench = {"players": 2, "options": {"shots_to_lose": 3}}
    #: What each level was measured to do (bench/README.md), shown on the Play page.
    strength = {
        "easy": "Rules of thumb: beats a random player in 87 games of 100.",
        "normal": "A quick look ahead: beats the easy bot in 97 games of 100.",
        "strong": "Thinks up to 0.4 s a move: beats the normal bot in 63 games of 100.",
        "expert": "Strong's search with 8 times the time, a few seconds a move; at 4 times "
        "strong's time it beat strong in 56 games of 100.",
    }

    def should_act(self, view):
        return not view["over"] and view["turn"] == view["seat"]

    def easy(self, view, legal, rng):
        seat = view["seat"]
        may_call = any(a["type"] == "call" for a in legal)
        hand = [INDEX[card] for card in view["hand"]]
        mine = [INDEX[play["card"]] for play in view["my_plays"]]
        claims = [INDEX[claim] for claim in view["claims"][1 - seat]]
        action = ACTION_IDS.copy_of(choose_id(hand, mine, claims, may_call, rng))
        return action if action in legal else legal[0]

    def rollout_id(self, state, seat, rng):
        """The easy player reading the sampled world's integer cards directly (no view,
        no dict): playing card c claimed as k is id c * 6 + k, the call CALL_ID."""
        played = state.played
        may_call = bool(played[0]) and bool(played[1])
        mine = [card for card, _ in played[seat]]
        claims = [claim for _, claim in played[1 - seat]]
        return choose_id(state.hands[seat], mine, claims, may_call, rng)

    def rollout(self, state, seat, rng):
        """:meth:`rollout_id`'s move as an action."""
        return ACTION_IDS.copy_of(self.rollout_id(state, seat, rng))

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
