"""Call the Shot engine: a two-player bluffing duel with 14 cards.

Each duel the 14 cards are shuffled; two are set aside face down (nobody ever sees them),
two face up (both see them) and each player gets five. The challenger starts and turns
alternate. On a turn a player either plays a card face down while announcing which card it
is (any of the six names; lying is allowed, except that a Man of Honour must be announced as
one), or, once both have played a card, calls the shot. Both then reveal their last card;
the higher value wins, a Man of Honour beats a Headshot or Shoot to Kill, a Deadly Aim
doubles the card its owner played directly on top of it, and a player who did not call but
still holds the Coward shows it and loses. The loser takes a shot card; the first with
``shots_to_lose`` (default 3) shot cards loses the game.

Settings
    ``options``: ``{"shots_to_lose": 1..9}`` (default 3), declared in :mod:`.spec`.
    ``deal`` (optional, the first duel only): ``{"challenger": 0 | 1, "hands": [[5 cards],
    [5 cards]], "face_up": [2 cards], "face_down": [2 cards]}``; together exactly the 14
    cards. ``challenger`` may be left out (then a seeded coin toss decides), or given
    alone (then the cards come from the seed). Later duels are
    dealt from ``rng(seed, "duel", k)``, k counting duels from 0.
    Card ids: ``man_of_honour``, ``deadly_aim``, ``shoot_to_wound``, ``shoot_to_kill``,
    ``headshot``, ``coward``.

Actions
    ``{"type": "play", "card": id, "claim": id}`` and ``{"type": "call"}``.

Our reading where the rulebook is silent (also on the rules page,
``templates/games/call_the_shot/reading.html``; each one is tested):

* Equal values: nobody is shot; the next duel is dealt and the other player challenges.
* Running out: a player whose turn comes with an empty hand must call. Turns alternate
  strictly and the challenger starts, so after ten plays the challenger is empty-handed
  and must call (the opponent has played too, so the call is always allowed): a duel lasts
  at most eleven turns and can never get stuck.
* Deadly Aim: only the card played directly before the revealed card, by the same player,
  counts. A Deadly Aim there is revealed with the card (even when doubling changes
  nothing) and doubles its printed value; a Deadly Aim revealed as the last card is worth
  0, and with two in a row the last one is 0 doubled, still 0. Earlier cards stay hidden.
* Man of Honour: beats a Headshot or Shoot to Kill, doubled or not; otherwise it is worth
  0, so a Shoot to Wound beats it and against another 0 (Man of Honour, Deadly Aim, a
  played Coward) it is a tie.
* The Coward: only the player who did not call can be caught. If they still hold it, they
  show it instead of their last card (which stays hidden) and are shot whatever was played;
  the caller still reveals their own card. A caller holding the Coward gains and loses
  nothing; a Coward played face down and revealed is worth 0; set aside it plays no part.
* First challenger: the deal's ``challenger`` if given, else a coin toss from
  ``rng(seed, "challenger")``; then the role alternates every duel, ties included.
* Undo (the host's): a face-down play goes back one at a time while the duel runs (the
  notice does not say which card it was). Calling the shot shows the cards, so the host
  cannot undo a call: the answer says why, and the duel's result stands.
* Rematch: the challenger keeps alternating, so the next game's first challenger is the
  player who did not challenge the last duel.
* Between duels the next duel is dealt at once; the view keeps every finished duel's
  result (claims, revealed cards, any Deadly Aim and Coward shown, who was shot).

Views: a seat sees its own hand and, while the duel runs, its own face-down cards with
what it claimed; everybody sees the face-up set-aside cards, both sequences of claims,
card counts, shots, whose turn it is and past results. Nobody ever sees the face-down
set-aside cards, the other hand, or a played card that was not revealed, even after the
duel (the state does not keep finished duels' hidden cards at all).
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

from .. import moments as m
from ..base import Action, ActionIds, Game, IllegalAction, State, plain_copy
from ..cards import reseeded, shuffled
from . import rules
from .rules import CARDS, DECK, FACE_DOWN, FACE_UP, HAND_SIZE, MAN_OF_HONOUR
from .sheet import CallTheShotSheet
from .spec import SPEC

PLAYING = "playing"
#: Why the duel went as it did, in a sentence's words (the result card).
_REASONS = {
    "coward": "the other still held the Coward",
    "honour": "a Man of Honour beats a Headshot or Shoot to Kill",
    "higher": "the higher value wins",
    "tie": "equal values",
}
OVER = "over"

CALL: Action = {"type": "call"}

# Inside the engine a card is its place in CARDS (0 Man of Honour .. 5 Coward): sorting the
# integers sorts in listing order. Ids stay strings outside (actions, views, snapshots).
INDEX: dict[str, int] = {card: index for index, card in enumerate(CARDS)}
HONOUR = INDEX[MAN_OF_HONOUR]
INT_DECK: list[int] = [INDEX[card] for card in DECK]
DEALT = FACE_DOWN + FACE_UP  # the shuffled deck's first cards are set aside, the rest dealt
AIM = INDEX[rules.DEADLY_AIM]
COWARD = INDEX[rules.COWARD]
VALUE = tuple(rules.POINTS[card] for card in CARDS)


# The fixed numbering of the actions: playing card c (an integer) claimed as k is id
# c * 6 + k, calling the shot is CALL_ID. Ids in that order follow a sorted hand's
# legal list: each card once, with every claim in listing order, then the call.
ACTION_IDS = ActionIds(
    [{"type": "play", "card": card, "claim": claim} for card in CARDS for claim in CARDS]
    + [dict(CALL)]
)
SIZE = len(CARDS)
CALL_ID = SIZE * SIZE
HONOUR_ID = HONOUR * SIZE + HONOUR  # the Man of Honour claimed as one
ACTIONS = [ACTION_IDS.action_of(action_id) for action_id in range(len(ACTION_IDS))]  # private


@cache
def _play_ids_of(hand: tuple[int, ...]) -> tuple[int, ...]:
    """The ids of the plays a sorted hand may make: each card once, with every claim,
    except a Man of Honour that can only be announced as one. A sorted hand is one of a
    few hundred multisets of the 14 cards, so each is worked out once."""
    return tuple(
        card * len(CARDS) + claim
        for card in dict.fromkeys(hand)
        for claim in ([HONOUR] if card == HONOUR else range(len(CARDS)))
    )


def _ids(cards: list[int]) -> list[str]:
    return [CARDS[card] for card in cards]


def _ints(cards: list[str]) -> list[int]:
    return [INDEX[card] for card in cards]


def _card_list(value: Any, size: int, what: str) -> list[str]:
    if not isinstance(value, list) or len(value) != size:
        raise IllegalAction(f"The deal needs exactly {size} cards {what}.")
    for card in value:
        if card not in CARDS:
            raise IllegalAction(f"{card!r} ({what}) is not a Call the Shot card.")
    return list(value)


def check_deal(deal: dict[str, Any]) -> None:
    """Refuse an explicit deal that could not happen; raises :class:`IllegalAction`."""
    unknown = sorted(set(deal) - {"challenger", "hands", "face_up", "face_down"})
    if unknown:
        raise IllegalAction(f"A Call the Shot deal has no {', '.join(map(str, unknown))}.")
    missing = [key for key in ("hands", "face_up", "face_down") if key not in deal]
    if missing and len(missing) < 3:
        raise IllegalAction(f"The deal is missing {', '.join(missing)}.")
    challenger = deal.get("challenger")
    if challenger is not None and (isinstance(challenger, bool) or challenger not in (0, 1)):
        raise IllegalAction("The challenger must be seat 0 or seat 1.")
    if missing:
        return  # the challenger alone
    hands = deal["hands"]
    if not isinstance(hands, list) or len(hands) != 2:
        raise IllegalAction("The deal needs two hands, one per player.")
    every = [
        card for i, hand in enumerate(hands) for card in _card_list(hand, HAND_SIZE, f"in hand {i}")
    ]
    every += _card_list(deal["face_up"], FACE_UP, "face up")
    every += _card_list(deal["face_down"], FACE_DOWN, "face down")
    if not rules.is_full_deck(every):
        extra = Counter(every) - Counter(DECK)
        short = Counter(DECK) - Counter(every)
        raise IllegalAction(
            "The deal must use each of the 14 cards exactly once"
            f" (too many: {', '.join(sorted(extra)) or 'none'};"
            f" missing: {', '.join(sorted(short)) or 'none'})."
        )


class CallTheShotState(State):
    action_ids = ACTION_IDS

    shots: list[int]
    first_challenger: int
    duel: int  # 0-based number of the duel being played (or the last one, once over)
    challenger: int
    turn: int | None
    phase: str
    # Cards are integers in memory (INDEX) and ids in the snapshot: to_dict and
    # CallTheShotGame.state_from_dict convert hands, face_up, face_down and played.
    hands: list[list[int]]
    face_up: list[int]
    face_down: list[int]
    played: list[list[list[int]]]  # per seat: [card, claim] in playing order
    results: list[dict[str, Any]]  # public record of every finished duel
    loser: int | None

    # -- setting up ----------------------------------------------------------------------

    def _setup(self) -> None:
        """The first duel: the deal's challenger or a seeded coin toss, and its cards."""
        layout = self.deal
        if layout is not None and layout.get("challenger") is not None:
            self.first_challenger = layout["challenger"]
        else:
            # rng(seed, "challenger")'s toss from the thread's one generator (no new one)
            self.first_challenger = reseeded(f"{self.seed}:challenger").randrange(2)
        self.shots = [0, 0]
        self.duel = 0
        self.phase = PLAYING
        self.results = []
        self.loser = None
        self._deal_duel(layout)

    def _deal_duel(self, layout: dict[str, Any] | None) -> None:
        """Deal duel number ``self.duel``: from ``layout`` if given, else shuffled."""
        challenger = self.first_challenger if self.duel % 2 == 0 else 1 - self.first_challenger
        self.challenger = challenger
        if layout is None or "hands" not in layout:
            self._deal_cards()
        else:
            self.face_down = _ints(layout["face_down"])
            self.face_up = sorted(_ints(layout["face_up"]))
            self.hands = [sorted(_ints(hand)) for hand in layout["hands"]]
        self.played = [[], []]
        self.turn = challenger

    def _deal_cards(self) -> None:
        """Shuffle and deal the cards of duel ``duel`` from the seed."""
        # rng(seed, "duel", k)'s draws from the thread's one generator (no new one)
        deck = shuffled(INT_DECK, reseeded(f"{self.seed}:duel:{self.duel}"))
        challenger = self.challenger
        self.face_down = deck[:FACE_DOWN]
        self.face_up = sorted(deck[FACE_DOWN:DEALT])
        # deal_one_at_a_time inline: from the challenger, one card at a time
        self.hands = [sorted(deck[DEALT + (seat - challenger) % 2 :: 2]) for seat in range(2)]

    # -- the contract --------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == OVER

    def sealed_step(self) -> str | None:
        return f"the plays of duel {self.duel + 1}" if self.phase == PLAYING else None

    def scores(self) -> list[int]:
        """The shot cards each seat has taken (fewer is better)."""
        return list(self.shots)

    def winners(self) -> list[int]:
        """The opponent of the player who took the last shot; [] while the game goes on."""
        return [] if self.loser is None else [1 - self.loser]

    def to_act(self) -> list[int]:
        """As the base's (one call less: no turn once the game is over)."""
        return [] if self.turn is None else [self.turn]

    def _to_act(self) -> list[int]:
        return [] if self.turn is None else [self.turn]

    def _may_call(self) -> bool:
        return bool(self.played[0]) and bool(self.played[1])

    def _legal_ids(self, seat: int) -> list[int]:
        """As the base's :meth:`legal_ids`, seat check included (so it is the method
        itself: one call on a playout's hot path)."""
        if seat != self.turn or type(seat) is not int:  # no turn once the game is over
            return []
        ids = list(_play_ids_of(tuple(self.hands[seat])))
        if self.played[0] and self.played[1]:  # _may_call inline
            ids.append(CALL_ID)
        return ids

    legal_ids = _legal_ids

    def apply_id(self, seat: int, action_id: int) -> None:
        """As the base's, with the check of a legal play or call inline (the hot path of
        a playout); anything else goes to the base, which refuses it (or, should this
        check be stricter than ``_id_legal``, applies it all the same)."""
        if seat == self.turn and type(seat) is int and type(action_id) is int:
            if 0 <= action_id < CALL_ID:
                card = action_id // SIZE
                hand = self.hands[seat]
                if card in hand and (card != HONOUR or action_id == HONOUR_ID):
                    hand.remove(card)  # _apply_id inline
                    self.played[seat].append([card, action_id - card * SIZE])
                    self.turn = 1 - seat
                    self._record([seat, ACTIONS[action_id].copy()])
                    return
            elif action_id == CALL_ID and self.played[0] and self.played[1]:
                self._showdown(caller=seat)
                self._record([seat, {"type": "call"}])
                return
        super().apply_id(seat, action_id)

    def _id_legal(self, seat: int, action_id: int) -> bool:
        if seat != self.turn:
            return False
        if action_id == CALL_ID:
            return self._may_call()
        card, claim = divmod(action_id, len(CARDS))
        return card in self.hands[seat] and (card != HONOUR or claim == HONOUR)

    @staticmethod
    def _id_of(action: Action) -> int | None:
        """The id of ``action`` as strictly as the table's look-up (exact types, keys)."""
        kind = action["type"]
        if kind == "play":
            if len(action) != 3:
                return None
            card, claim = action.get("card"), action.get("claim")
            if type(card) is not str or type(claim) is not str:
                return None
            card, claim = INDEX.get(card), INDEX.get(claim)
            if card is None or claim is None:
                return None
            return card * len(CARDS) + claim
        return CALL_ID if kind == "call" and len(action) == 1 else None

    def _explain(self, seat: int, action: Action) -> str:
        kind = action["type"]
        if kind == "call":
            if set(action) != {"type"}:
                return 'To call the shot, send just {"type": "call"}.'
            if not self.played[seat]:
                return "You can't call the shot before you have played a card yourself."
            return "You can't call the shot before your opponent has played a card."
        if kind != "play":
            return "On your turn you either play a card (and say which it is) or call the shot."
        if not self.hands[seat]:
            return "You have no cards left, so you must call the shot."
        if set(action) != {"type", "card", "claim"}:
            return (
                "A play needs the card you put down and the card you claim it is: "
                '{"type": "play", "card": ..., "claim": ...}.'
            )
        card, claim = action["card"], action["claim"]
        if card not in CARDS:
            return f"{str(card)[:40]!r} is not a Call the Shot card."
        if claim not in CARDS:
            return (
                f"{str(claim)[:40]!r} is not a card you can claim; say one of: "
                + ", ".join(rules.name(c) for c in CARDS)
                + "."
            )
        if INDEX[card] not in self.hands[seat]:
            return f"You don't have a {rules.name(card)} in your hand."
        if card == MAN_OF_HONOUR:
            return "A Man of Honour can't lie: you must announce it as a Man of Honour."
        return super()._explain(seat, action)

    def _not_your_turn(self, seat: int) -> str:
        return "It is your opponent's turn."

    def _apply_id(self, seat: int, action_id: int) -> None:
        if action_id == CALL_ID:
            self._showdown(caller=seat)
            return
        card, claim = divmod(action_id, len(CARDS))
        self.hands[seat].remove(card)
        self.played[seat].append([card, claim])
        self.turn = 1 - seat

    def _played_ids(self) -> list[list[dict[str, str]]]:
        """The plays as the rules and the snapshot name them: ``{"card", "claim"}`` ids."""
        return [
            [{"card": CARDS[card], "claim": CARDS[claim]} for card, claim in plays]
            for plays in self.played
        ]

    def _showdown(self, caller: int) -> None:
        # rules.resolve on the integers: each seat reveals its last card, and the Deadly
        # Aim directly under it; the other seat shows the Coward instead if it holds it.
        revealed = []
        for plays in self.played:
            card = plays[-1][0]
            aimed = len(plays) >= 2 and plays[-2][0] == AIM
            revealed.append(
                {
                    "card": CARDS[card],
                    "deadly_aim": aimed,
                    "value": VALUE[card] * 2 if aimed else VALUE[card],
                    "from_hand": False,
                }
            )
        other = 1 - caller
        if COWARD in self.hands[other]:
            revealed[other] = {
                "card": rules.COWARD,
                "deadly_aim": False,
                "value": 0,
                "from_hand": True,
            }
            outcome = {"revealed": revealed, "shot": other, "reason": rules.COWARD_CAUGHT}
        else:
            winner, reason = rules.showdown(revealed[0], revealed[1])
            shot = None if winner is None else 1 - winner
            outcome = {"revealed": revealed, "shot": shot, "reason": reason}
        shot = outcome["shot"]
        if shot is not None:
            self.shots[shot] += 1
        self.results.append(
            {
                "duel": self.duel + 1,
                "challenger": self.challenger,
                "caller": caller,
                "claims": [[CARDS[claim] for _, claim in plays] for plays in self.played],
                "revealed": outcome["revealed"],
                "coward": shot if outcome["reason"] == rules.COWARD_CAUGHT else None,
                "shot": shot,
                "reason": outcome["reason"],
                "shots": list(self.shots),
            }
        )
        if shot is not None and self.shots[shot] >= self.options["shots_to_lose"]:
            self.loser = shot
            self.phase = OVER
            self.turn = None
            return
        self.duel += 1
        self._deal_duel(None)

    # -- words for people ----------------------------------------------------------------

    def prompt(self, seat: int | None) -> str:
        if self.phase == OVER:
            if seat is None:
                return "The game is over."
            return (
                "The game is over: you won."
                if seat != self.loser
                else "The game is over: you lost."
            )
        duel = f"Duel {self.duel + 1}"
        if seat is None:
            played = len(self.played[0]) + len(self.played[1])
            if not played:
                return f"{duel}: the challenger opens."
            return f"{duel}: {played} card{'s' if played != 1 else ''} played."
        if seat != self.turn:
            return "Wait: your opponent is to play."
        if not self.hands[seat]:
            return "You have no cards left: call the shot."
        if self._may_call():
            return "Play a card face down and say which it is (lie if you dare), or call the shot."
        return (
            "Play a card face down and say which it is: lie if you dare, "
            "but not about a Man of Honour."
        )

    def describe(self, action: Action) -> str:
        kind = action.get("type")
        if kind == "call":
            return "Call the shot"
        if kind == "play" and action.get("card") in CARDS and action.get("claim") in CARDS:
            return f"Play {rules.name(action['card'])}, say “{rules.name(action['claim'])}”"
        return super().describe(action)

    # -- the moments every screen shows (companion/games/moments.py) -----------------------

    def result(self) -> dict[str, Any] | None:
        """The last duel's reveal: both last cards, any Deadly Aim and Coward, who was shot
        and why, and the shots so far."""
        if not self.results:
            return None
        last = self.results[-1]
        shot, caller = last["shot"], last["caller"]
        if shot is None:
            headline: list[Any] = ["Nobody is shot: the cards are equal"]
        else:
            headline = [m.seat(shot), " is shot"]
        why = _REASONS[last["reason"]]
        lines = [[m.seat(caller), " called the shot."]]
        for seat, shown in enumerate(last["revealed"]):
            name = rules.name(shown["card"])
            if shown["deadly_aim"]:
                lines.append([m.seat(seat), f"'s {name} is doubled by a Deadly Aim under it."])
            if shown["from_hand"]:
                lines.append([m.seat(seat), " still held the Coward and had to show it."])
        if shot is not None:
            lines.append([m.seat(1 - shot), " wins the duel: ", why, "."])
        out = self.options["shots_to_lose"]
        return m.result_card(
            f"duel-{last['duel']}",
            "duel",
            f"Duel {last['duel']}: the reveal",
            headline,
            cards=[[seat, shown["card"]] for seat, shown in enumerate(last["revealed"])],
            columns=["Value", "Shots"],
            rows=[
                m.row([seat], [shown["value"], f"{last['shots'][seat]} of {out}"], seat != shot)
                for seat, shown in enumerate(last["revealed"])
            ],
            lines=lines,
            # The game's own part (static/js/games/call_the_shot.js, resultPart): what
            # each player claimed on the way, now that the bluffs can be judged.
            own={"claims": plain_copy(last["claims"])},  # a copy: a view never shares state
        )

    def chapter(self) -> str:
        return f"Duel {self.duel + 1}"

    def public_words(self, seat: int, action: Action) -> str | None:
        """A play is face down: the table hears only the claim."""
        if action.get("type") == "play":
            return f"Plays a card face down, says “{rules.name(action['claim'])}”"
        return self.describe(action)

    # -- what a seat sees ----------------------------------------------------------------

    def _view(self, seat: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "phase": self.phase,
            "duel": self.duel + 1,
            "first_challenger": self.first_challenger,
            "challenger": self.challenger,
            "turn": self.turn,
            "shots_to_lose": self.options["shots_to_lose"],
            "loser": self.loser,
            "face_up": _ids(self.face_up),
            "claims": [[CARDS[claim] for _, claim in plays] for plays in self.played],
            "hand_counts": [len(hand) for hand in self.hands],
            "face_down_count": len(self.face_down),
            "can_call": self.phase == PLAYING and self._may_call(),
            "must_call": self.phase == PLAYING and not self.hands[self.turn],
            "last_duel": self.results[-1] if self.results else None,
            "duels": list(self.results),
        }
        if seat is not None:
            view["hand"] = _ids(self.hands[seat])
            view["my_plays"] = self._played_ids()[seat] if self.phase == PLAYING else []
            view["my_turn"] = self.turn == seat
        return plain_copy(view)

    def to_dict(self) -> dict[str, Any]:
        """As the base, with card ids for the integers (the snapshot format is ids)."""
        d = super().to_dict()
        state = dict(d["state"])  # new lists only: never change what the base gave
        state["hands"] = [_ids(hand) for hand in self.hands]
        state["face_up"] = _ids(self.face_up)
        state["face_down"] = _ids(self.face_down)
        state["played"] = self._played_ids()
        return {**d, "state": state}


class CallTheShotGame(Game):
    spec = SPEC
    state_class = CallTheShotState
    sheet_class = CallTheShotSheet

    def check_deal(self, players: int, options: dict[str, Any], deal: dict[str, Any]) -> None:
        check_deal(deal)

    def state_from_dict(self, d: dict[str, Any]) -> State:
        """As the base, cards read from ids into integers (:class:`ValueError` for an id
        that is not a Call the Shot card).

        Quicker than the base's deep copy (the searches load a sampled world once per
        action tried): the state gets new lists of everything it changes in play, and
        shares with ``d`` only the records it never changes once written (each finished
        duel's row of ``results``, the last action)."""
        if d.get("game") != self.slug:
            raise ValueError(f"not a {self.slug} state: {d.get('game')!r}")
        source = d["state"]
        data = dict(source)
        try:
            data["hands"] = [_ints(hand) for hand in source["hands"]]
            data["face_up"] = _ints(source["face_up"])
            data["face_down"] = _ints(source["face_down"])
            data["played"] = [
                [[INDEX[play["card"]], INDEX[play["claim"]]] for play in plays]
                for plays in source["played"]
            ]
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a card id in a Call the Shot state: {error}") from None
        for key in ("shots", "results"):
            if key in source:
                data[key] = list(source[key])
        for key in ("options", "deal"):
            if key in source:
                data[key] = plain_copy(source[key])
        # Snapshots saved before the log left them hold it; a hand-written one may hold
        # neither the log nor the counters.
        log = data["log"] = plain_copy(source.get("log"))
        data.setdefault("moves", len(log) if log else 0)
        data.setdefault("last_action", log[-1] if log else None)
        state = CallTheShotState.__new__(CallTheShotState)
        state.__dict__.update(data)
        return state

    def undo_point(self, state: State, steps: list[str | None] | None = None) -> int:
        """As the base, but a call is never taken back: it showed both cards."""
        if state.last_action and state.last_action[1]["type"] == "call":
            raise IllegalAction(
                "The shot was called and both cards were shown, so that duel cannot be "
                "taken back: its result stands."
            )
        return super().undo_point(state, steps)

    def rematch_deal(self, state: State) -> dict[str, Any] | None:
        """The challenger alternates: the one who did not challenge the last duel starts."""
        return {"challenger": 1 - state.challenger}

    def card_faces(self, options: Any = None) -> dict[str, dict[str, str]]:
        """The six cards with their value: ``"Headshot (9)"``, read "Headshot, worth 9"."""
        return {
            card: {
                "text": f"{rules.name(card)} ({rules.POINTS[card]})",
                "label": f"{rules.name(card)}, worth {rules.POINTS[card]}",
                "colour": "",
            }
            for card in CARDS
        }


GAME = CallTheShotGame()
