"""PULL! engine mode: trap shooting as a trick-taking card game, for 2, 3 or 4 players.

Cards (``cards.json``; every value tagged ``seed`` = printed in the rulebook, or ``house`` =
chosen here because the rulebook does not print it):

- Six suits, named by this project (house): trap, skeet, tower, crosser, incomer, looper.
- Shot deck: 48 cards, values 1-8 in each suit (seed); id ``"<suit>-<value>"``, e.g.
  ``"trap-7"``.
- Target deck: 24 cards, four per suit, id ``"<suit>-T<k>"``: ``T1`` = 0, ``T2`` = 5,
  ``T3`` = 10, ``T4`` = -5 on the left (seed). Double values (house): 2, 7, 15 and -10,
  so a Double is always worth more than the left value for the clays. Animals (house):
  the -5 targets (``T4``). A group changes double values and animal flags to match its own
  printed deck with the ``targets`` option, e.g. ``{"trap-T2": {"double": 9}}``; left
  values cannot be changed.

Options (declared in :mod:`.spec`, checked by the one spec checker and
:func:`rules.check_together`): ``teams`` (default true with 4 players, only possible with
4: partners sit across, seats 0+2 against 1+3), ``goal`` (target score, default 200) or
``hands`` (a fixed number of hands, which replaces the goal), ``max_hands`` (a safety
stop, default 100) and ``targets`` (changes to house values, as above).

Explicit first deal (``deal``), every key optional: ``{"dealer": seat, "hands": [[10 shot
ids] per seat], "targets": [10 to 24 different target ids, top of the deck first]}``.
Without it the first dealer is seat 0 and the cards come from the seed. Later hands are
shuffled from the seed, one stream per hand.

Actions: a first shot is ``{"type": "shoot", "card": id, "target": 0 | 1}`` (index into the
two face-up targets); a second shot is ``{"type": "second", "card": id}`` and goes on the
other target by itself. On the integer action path (``legal_ids`` / ``apply_id``) a first
shot of the shot with index ``c`` (:mod:`.deck`) at target ``t`` is id ``2 * c + t`` and a
second shot of it ``96 + c`` (:data:`ACTION_IDS`, fixed by the code).

Our reading of the rulebook where it is silent or ambiguous:

- Play order: the dealer deals 10 shots each, one at a time starting on their left; unused
  shots stay face down all hand. The dealer flips two targets and hands the target deck
  to the left; the deck holder shoots first. After each round the holder flips two new
  targets and passes the deck left, so round r of a hand starts with the seat r places
  left of the dealer. Five rounds a hand; the deal passes left each hand.
- First shot: if you hold a card of either target's suit, your first shot must be a card
  that matches the suit of the target you put it on (with two targets of one suit, either
  target); otherwise any card on either target.
- Second shots with 3 or 4 players are sealed: everyone picks at once, a pick is final
  (no changing it), and all are revealed together once the last player has picked. Others
  only see *that* you have picked. With 2 players the second shots are face up, taken in
  turn starting with the round's first player. A second shot always goes on the target
  the player did not shoot first.
- Winning a target: a 1 (Distraction) cancels every 8 on that target. The highest value
  left wins, the 1 included (a 1 beside only cancelled 8s takes the target). Among shots
  tied for highest, the one matching the target's suit wins (there is only one card of
  each suit and value, so two matching shots can't tie). A tie with no matching shot
  voids the target (discarded, nobody scores) only when the tied shots belong to
  opponents; partners tied with each other still take it for their side (the one
  who shot first is named as the winner).
- A Double belongs to a side: in team play the partners may take one target each. Doubled
  targets score their double value. Every animal taken is a Foul, doubled or not. Points
  are recorded at the end of each hand, and a side loses 20 points for each multiple of 5
  its running foul count crosses in that hand (5th, 10th, ...).
- Undo (the host's): the sealed second shots of a round are one step. Before they are
  revealed the host takes back one pick at a time (the notice does not say which card);
  once they are revealed, undo stops there (refused with the reason), so nobody picks
  again after seeing the others. Face-up second shots (2 players) and first shots go
  back one at a time.
- Rematch: the deal keeps passing left, so the next game's first dealer is the player to
  the left of the last hand's dealer.
- Game end: after the hand in which a side reaches the goal (or after the fixed number of
  hands), if one side is highest; a tie for highest plays one more hand, again and again.
  Safety stop: after ``max_hands`` hands (default 100) the game ends whatever the scores,
  and a tie for highest is then shared.
- Views: beside the common block (sides, scores per seat, winners as seats, prompt),
  your own hand only (not your partner's), the face-up targets (with the values in force
  and where each comes from: ``seed``, ``house`` or ``table`` = changed for this table)
  and shots, the table's changes to house values (``target_changes``: card, left value
  and what changed), who has picked a sealed shot (not which card) and your own pick,
  each side's score pile for this hand, fouls, each side's score (``side_scores``, and
  ``winning_sides`` once over) and the result of the last round; the shots of this hand's
  finished rounds (``played``) and the targets nobody took (``void_targets``), which
  every player saw (a bot reads them instead of remembering). Never the unused shots,
  the target deck's order, nor another player's hand or sealed pick. ``scores()`` gives
  each seat its side's total (partners share one); ``winners()`` both partners of a
  winning side.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any

from .. import moments as m
from ..base import ActionIds, Game, IllegalAction, State, json_is_fresh, plain_copy
from ..cards import reseeded, shuffle
from ..spec import is_whole
from . import rules
from .deck import (
    SHOT,
    SHOT_INDEX,
    SHOT_SUIT,
    SHOT_VALUE,
    SUIT_IDS,
    TARGET,
    TARGET_SUIT,
    resolve,
    shots_of,
    take,
    targets_of,
)
from .sheet import PullSheet
from .spec import SPEC

FIRST = "first"
SECOND = "second"
OVER = "over"
ROUNDS_PER_HAND = rules.ROUNDS_PER_HAND

# The fixed numbering of PULL!'s actions: a first shot of shot ``c`` at target ``t`` is
# ``2 * c + t``, a second shot of ``c`` is ``SECONDS + c``. A hand is kept in deck order,
# so its legal ids come out in the order of its legal list.
SHOTS = len(SHOT)
SECONDS = 2 * SHOTS
ACTION_IDS = ActionIds(
    [{"type": "shoot", "card": card, "target": t} for card in SHOT for t in (0, 1)]
    + [{"type": "second", "card": card} for card in SHOT]
)
ACTIONS = [ACTION_IDS.action_of(action_id) for action_id in range(len(ACTION_IDS))]  # private
ACTION_COUNT = len(ACTION_IDS)
ANY_TARGET = tuple((2 * card, 2 * card + 1) for card in range(SHOTS))  # no matching card
#: MATCHING[first suit][other suit][card]: the first shots of ``card`` matching a target.
MATCHING = tuple(
    tuple(
        tuple(
            tuple(2 * card + t for t, suit in ((0, first), (1, other)) if SHOT_SUIT[card] == suit)
            for card in range(SHOTS)
        )
        for other in range(len(SUIT_IDS))
    )
    for first in range(len(SUIT_IDS))
)
# A hand as bytes (its cards, 0-47) turns into ids at C speed with bytes.translate.
#: FIRST_SHOTS[first target][other target] (target indexes): ``(matching, table,
#: dropped)``, the row of :data:`MATCHING` for the two targets' suits, and for two
#: different suits the table taking a card to its one matching first shot and the cards
#: matching neither target (both None for two targets of one suit). Looked up from the
#: targets at each first shot rather than kept on the state (see PullState).
_BY_SUITS = [
    [
        (
            MATCHING[first][other],
            bytes(
                2 * card + (SHOT_SUIT[card] == other) if card < SHOTS else 0 for card in range(256)
            )
            if first != other
            else None,
            bytes(card for card in range(SHOTS) if SHOT_SUIT[card] not in (first, other))
            if first != other
            else None,
        )
        for other in range(len(SUIT_IDS))
    ]
    for first in range(len(SUIT_IDS))
]
FIRST_SHOTS = tuple(
    tuple(_BY_SUITS[TARGET_SUIT[first]][TARGET_SUIT[other]] for other in range(len(TARGET)))
    for first in range(len(TARGET))
)
#: What :meth:`PullState.to_dict` leaves out: the log, the records not yet written and
#: what :meth:`PullState._derive` sets.
UNSAVED = frozenset({"log", "_unwritten", "_next"})
# The two records ``_unwritten`` holds until they are read (see PullState).
DISCARDED, LAST_SHOTS = 0, 1
#: The most attribute names a PullState may have (see PullState; a test checks it).
MOST_ATTRIBUTES = 29
#: Each card as a one-byte bytes (a hand drops a card by bytes.replace).
ONE_CARD = tuple(bytes((card,)) for card in range(SHOTS))
#: The table taking a card to its second shot.
SECOND_SHOT = bytes(SECONDS + card if card < SHOTS else 0 for card in range(256))


def _suit_name(suit: str) -> str:
    return rules.suits()[suit]["name"]


class PullState(State):
    """One game of PULL!. The live cards are indexes (:mod:`.deck`): ``hands`` (each a
    bytes in deck order, so that ``bytes.translate`` gives its ids; a shot taken leaves a
    new bytes, and a marshalled copy of the state, as the bots' worlds make, keeps them
    bytes), ``unused``,
    ``target_deck``, ``targets``, ``shots`` (``[seat, shot]`` pairs) and ``sealed``;
    :meth:`to_dict` writes them as ids and
    :meth:`PullGame.state_from_dict` reads them back. The records (``piles``, ``void``,
    ``shot_discards``, ``last_round``, ``history``) keep ids, as the views show them.

    A finished round settles at once who takes each target, but writes the records of
    its shots only when someone reads them (a playout does not), from ``_unwritten``:
    ``shot_discards`` from ``_unwritten[DISCARDED]`` (the ids written so far, then the
    ``shots`` of each later round) and ``last_round`` from ``_unwritten[LAST_SHOTS]``
    (``[hand, round, targets, shots]``). Each of these two is None once its record is
    written; neither is part of the snapshot.

    The attributes are kept to :data:`MOST_ATTRIBUTES` (one private list for both
    records; the two targets' tables looked up in :data:`FIRST_SHOTS`, not kept): CPython
    3.11 keeps an object's attributes in its quick shared-key form only up to 29 names
    (a class's first object gets 29 of the 30 slots), and past that every ``self.x`` and
    method call of the hot path takes a slower dictionary look-up (about 5 % more work
    per action when there were 32)."""

    action_ids = ACTION_IDS

    side_of: list[int]
    hand_no: int
    dealer: int
    hands: list[bytes]
    unused: list[int]
    target_deck: list[int]
    targets: list[int]
    round_no: int
    holder: int
    phase: str
    shots: list[list[list[int]]]
    first_target: list[int | None]
    sealed: list[int | None]
    piles: list[list[dict]]
    void: list[str]
    totals: list[int]
    fouls: list[int]
    history: list[dict]
    _unwritten: list[Any]
    _next: int | list[int]

    # -- setup --------------------------------------------------------------------------

    def _setup(self) -> None:
        sides = self.sides()
        self.side_of = [0] * self.players
        for side, seats in enumerate(sides):
            for seat in seats:
                self.side_of[seat] = side
        self.totals = [0] * len(sides)
        self.fouls = [0] * len(sides)
        self.history = []
        self.last_round = None
        self._unwritten = [None, None]
        self.hand_no = 0
        self.dealer = (self.deal or {}).get("dealer", 0)
        self._start_hand()

    def _start_hand(self) -> None:
        self.hand_no += 1
        n = self.players
        given = (self.deal or {}) if self.hand_no == 1 else {}
        # Shuffling indexes moves them exactly as it would move the ids (same length).
        if "hands" in given:
            self.hands = [bytes(sorted(shots_of(hand))) for hand in given["hands"]]
            held = {card for hand in self.hands for card in hand}
            self.unused = [card for card in range(len(SHOT)) if card not in held]
        else:
            # rng(seed, "shots", hand)'s draws from the thread's one generator (no new one)
            deck = shuffle(list(range(len(SHOT))), reseeded(f"{self.seed}:shots:{self.hand_no}"))
            # One card at a time from the dealer's left (deal_one_at_a_time in
            # tests/games/reference.py): the seat k places after the first one gets every
            # n-th card from the k-th.
            dealt, first = n * rules.HAND_SIZE, (self.dealer + 1) % n
            self.hands = [bytes(sorted(deck[(seat - first) % n : dealt : n])) for seat in range(n)]
            self.unused = deck[dealt:]
        if "targets" in given:
            self.target_deck = targets_of(given["targets"])
        else:
            text = f"{self.seed}:targets:{self.hand_no}"  # rng(seed, "targets", hand)'s
            self.target_deck = shuffle(list(range(len(TARGET))), reseeded(text))
        self.piles = [[] for _ in self.totals]
        self.void = []
        self.shot_discards = []
        self._unwritten[DISCARDED] = None
        self.round_no = 0
        self.holder = self.dealer  # flips the first two, then passes the deck left
        self._start_round()

    def _start_round(self) -> None:
        self.round_no += 1
        deck = self.target_deck
        self.targets = deck[:2]
        self.target_deck = deck[2:]
        players = self.players
        self.holder = self._next = (self.holder + 1) % players
        self.phase = FIRST
        self.shots = [[], []]
        self.first_target = [None] * players
        self.sealed = [None] * players

    def _derive(self) -> None:
        """Set what the hot path reads instead of working it out at each action (not in
        the snapshot): ``_next``, the seat to shoot when shots are taken in turn (first
        shots, face-up seconds), and while sealed second shots are picked the list of
        seats still to pick (``to_act`` copies it: no list built from ``sealed`` at each
        action, and no attribute more, see the class's docstring)."""
        if self.phase == SECOND and self.players > 2:
            self._next = [seat for seat, pick in enumerate(self.sealed) if pick is None]
            return
        shots = self.shots
        self._next = (self.holder + len(shots[0]) + len(shots[1])) % self.players

    # -- sides and scores ---------------------------------------------------------------

    def sides(self) -> list[list[int]]:
        return rules.sides_for(self.players, self.options["teams"])

    def scores(self) -> list[int]:
        return [self.totals[self.side_of[seat]] for seat in range(self.players)]

    def winning_sides(self) -> list[int]:
        return rules.winners(self.totals) if self.is_over() else []

    def is_over(self) -> bool:
        return self.phase == OVER

    # -- whose turn ---------------------------------------------------------------------

    @property
    def sealed_seconds(self) -> bool:
        return self.players > 2

    def _shots_taken(self) -> int:
        return len(self.shots[0]) + len(self.shots[1])

    def to_act(self) -> list[int]:
        """As the base's (one call less: the phase says whether the game is over)."""
        phase = self.phase
        if phase == FIRST or (phase == SECOND and self.players == 2):
            return [self._next]
        if phase == SECOND:
            return self._next[:]  # the seats still to pick (see _derive)
        return []

    def _to_act(self) -> list[int]:
        phase = self.phase
        if phase == SECOND and self.players > 2:
            return [seat for seat, pick in enumerate(self.sealed) if pick is None]
        if phase in (FIRST, SECOND):
            # One shot each in turn from the holder: first shots, then face-up seconds.
            return [self._next]
        return []

    # -- legal actions: the integer action path ------------------------------------------

    # Ids (see ACTION_IDS): 2 * card + target for a first shot, SECONDS + card for a
    # second one. The dict contract (legal_actions, apply) reads through the same ids.

    def _legal_ids(self, seat: int) -> list[int]:
        """As the base's :meth:`legal_ids`, seat check included (so it is the method
        itself: one call on a playout's hot path)."""
        if type(seat) is not int:
            return []
        phase = self.phase
        if phase == FIRST:
            if seat != self._next:
                return []
            hand = self.hands[seat]
            targets = self.targets
            matching, table, dropped = FIRST_SHOTS[targets[0]][targets[1]]
            if table is not None:
                ids = list(hand.translate(table, dropped))
            else:  # two targets of one suit: each matching card may go on either target
                ids = [i for card in hand for i in matching[card]]
            return ids if ids else [i for card in hand for i in ANY_TARGET[card]]
        if phase == SECOND:
            if self.players > 2:
                if not 0 <= seat < self.players or self.sealed[seat] is not None:
                    return []
            elif seat != self._next:
                return []
            return list(self.hands[seat].translate(SECOND_SHOT))
        return []

    legal_ids = _legal_ids

    def _id_legal(self, seat: int, action_id: int) -> bool:
        phase = self.phase
        if phase == FIRST:
            if action_id >= SECONDS or seat != self._next:
                return False
            hand = self.hands[seat]
            card = action_id >> 1
            if card not in hand:
                return False
            targets = self.targets
            matching = FIRST_SHOTS[targets[0]][targets[1]][0]
            if action_id in matching[card]:
                return True
            # Off suit: only when no card of the hand matches either target.
            return not any(matching[held] for held in hand)
        if phase == SECOND and action_id >= SECONDS:
            if self.players > 2:
                if self.sealed[seat] is not None:
                    return False
            elif seat != self._next:
                return False
            return action_id - SECONDS in self.hands[seat]
        return False

    def apply_id(self, seat: int, action_id: int) -> None:
        """As the base's, with the legality check and the move inline (the
        hot path of a playout: :meth:`_apply_id` does the same for the dict path);
        anything else goes to the base, which refuses it with the dict path's words."""
        moved = False
        if type(action_id) is int and type(seat) is int:
            phase = self.phase
            if phase == FIRST:
                # _next is a seat, so seat == _next also says that seat is one.
                if seat == self._next and 0 <= action_id < SECONDS:
                    hand = self.hands[seat]
                    card = action_id >> 1
                    targets = self.targets
                    matching = FIRST_SHOTS[targets[0]][targets[1]][0]
                    if card in hand and (
                        action_id in matching[card] or not any(map(matching.__getitem__, hand))
                    ):
                        self.hands[seat] = hand.replace(ONE_CARD[card], b"")
                        target = action_id & 1
                        self.first_target[seat] = target
                        self.shots[target].append([seat, card])
                        players = self.players
                        seat_after = seat + 1 if seat + 1 < players else 0
                        if seat_after == self.holder:  # everyone has shot first
                            self.phase = SECOND
                            # Sealed seconds: _next is the seats still to pick.
                            self._next = seat_after if players == 2 else list(range(players))
                        else:
                            self._next = seat_after
                        moved = True
            elif phase == SECOND and SECONDS <= action_id < ACTION_COUNT:
                card = action_id - SECONDS
                players = self.players
                if players > 2:  # sealed seconds
                    if 0 <= seat < players:
                        sealed = self.sealed
                        hand = self.hands[seat]
                        if sealed[seat] is None and card in hand:
                            self.hands[seat] = hand.replace(ONE_CARD[card], b"")
                            sealed[seat] = card
                            waiting = self._next
                            waiting.remove(seat)
                            if not waiting:
                                self._reveal_seconds()
                            moved = True
                elif seat == self._next:
                    hand = self.hands[seat]
                    if card in hand:
                        self.hands[seat] = hand.replace(ONE_CARD[card], b"")
                        self.shots[1 - self.first_target[seat]].append([seat, card])
                        if seat == self.holder:
                            self._next = 1 - seat
                        else:  # the second of the two face-up seconds
                            self._finish_round()
                        moved = True
        if not moved:
            super().apply_id(seat, action_id)
            return
        self._record([seat, ACTIONS[action_id].copy()])

    @staticmethod
    def _id_of(action: dict) -> int | None:
        """The id of ``action`` as strictly as the table's look-up (exact types, keys)."""
        kind = action["type"]
        card = action.get("card")
        if type(card) is not str:
            return None
        card = SHOT_INDEX.get(card)
        if card is None:
            return None
        if kind == "shoot":
            target = action.get("target")
            if len(action) != 3 or type(target) is not int or not 0 <= target <= 1:
                return None
            return 2 * card + target
        if kind == "second" and len(action) == 2:
            return SECONDS + card
        return None

    def _is_legal(self, seat: int, action: dict) -> bool:
        """Whether ``action`` is one of ``legal_actions(seat)`` (same keys, same JSON
        types), checked through its id without building the list."""
        if type(action.get("type")) is not str:
            return False
        action_id = self._id_of(action)
        return action_id is not None and self._id_legal(seat, action_id)

    def _holds(self, seat: int, card: Any) -> bool:
        index = SHOT_INDEX.get(card) if type(card) is str else None
        return index is not None and index in self.hands[seat]

    def _not_your_turn(self, seat: int) -> str:
        if self.phase == SECOND and self.sealed_seconds and self.sealed[seat] is not None:
            return "You have already picked your second shot; waiting for the others."
        return "It is not your turn to shoot."

    def _explain(self, seat: int, action: dict) -> str:
        return getattr(self, f"_explain_{self.phase}")(seat, action)

    def _explain_first(self, seat: int, action: dict) -> str:
        card = action.get("card")
        if action.get("type") != "shoot":
            return 'Take your first shot: {"type": "shoot", "card": ..., "target": 0 or 1}.'
        if not self._holds(seat, card):
            return "You don't hold that card."
        target = action.get("target")
        if target not in (0, 1) or isinstance(target, bool):
            return "Shoot at target 0 or target 1."
        if set(action) != {"type", "card", "target"}:
            return 'A first shot has just a "card" and a "target".'
        wanted = SUIT_IDS[TARGET_SUIT[self.targets[target]]]
        return (
            f"You hold a card of a target's suit, so your first shot must match the "
            f"target it goes on: {rules.shot_name(card)} can't go on the "
            f"{_suit_name(wanted)} target."
        )

    def _explain_second(self, seat: int, action: dict) -> str:
        if action.get("type") != "second":
            return 'Pick your second shot: {"type": "second", "card": ...}.'
        if not self._holds(seat, action.get("card")):
            return "You don't hold that card."
        return "Your second shot goes on the other target by itself: send only the card."

    def _explain_over(self, seat: int, action: dict) -> str:
        return "The game is over."

    # -- performing actions, per phase --------------------------------------------------

    def _apply_id(self, seat: int, action_id: int) -> None:
        if action_id < SECONDS:  # a first shot
            card, target = action_id >> 1, action_id & 1
            self.hands[seat] = self.hands[seat].replace(ONE_CARD[card], b"")
            self.first_target[seat] = target
            shots = self.shots
            shots[target].append([seat, card])
            players = self.players
            self._next = (seat + 1) % players
            if len(shots[0]) + len(shots[1]) == players:
                self.phase = SECOND
                if players > 2:  # the seats still to pick, as apply_id keeps them
                    self._next = list(range(players))
            return
        card = action_id - SECONDS
        self.hands[seat] = self.hands[seat].replace(ONE_CARD[card], b"")
        players = self.players
        if players > 2:  # sealed seconds
            self.sealed[seat] = card
            waiting = self._next
            waiting.remove(seat)
            if not waiting:
                self._reveal_seconds()
            return
        self._place_second(seat, card)
        self._next = (seat + 1) % players
        if self._shots_taken() == 2 * players:
            self._finish_round()

    def _reveal_seconds(self) -> None:
        """The last sealed pick is in: every pick goes on its target, from the holder on."""
        players, holder, sealed = self.players, self.holder, self.sealed
        shots, first_target = self.shots, self.first_target
        for k in range(players):
            who = (holder + k) % players
            shots[1 - first_target[who]].append([who, sealed[who]])
        self.sealed = [None] * players
        self._finish_round()

    def _place_second(self, seat: int, card: int) -> None:
        other = 1 - self.first_target[seat]
        self.shots[other].append([seat, card])

    def _finish_round(self) -> None:
        side_of, shots, targets = self.side_of, self.shots, self.targets
        round_no = self.round_no
        # The two targets written out (no loops: this runs five times a hand).
        won = take(targets[0], shots[0], side_of)
        first = None if won is None else side_of[won[0]]
        won = take(targets[1], shots[1], side_of)
        second = None if won is None else side_of[won[0]]
        doubled = first is not None and first == second
        if first is None:
            self.void.append(TARGET[targets[0]])
        else:
            self.piles[first].append(
                {"card": TARGET[targets[0]], "double": doubled, "round": round_no}
            )
        if second is None:
            self.void.append(TARGET[targets[1]])
        else:
            self.piles[second].append(
                {"card": TARGET[targets[1]], "double": doubled, "round": round_no}
            )
        unwritten = self._unwritten
        discarded = unwritten[DISCARDED]
        if discarded is None:  # written when read: it goes on from the ids written
            discarded = unwritten[DISCARDED] = [self.shot_discards]
            del self.shot_discards
        discarded.append(shots)
        if unwritten[LAST_SHOTS] is None:
            del self.last_round  # written for the round before: written again when read
        unwritten[LAST_SHOTS] = [self.hand_no, round_no, targets, shots]
        if round_no < ROUNDS_PER_HAND:
            self._start_round()
        else:
            self._finish_hand()

    @cached_property
    def shot_discards(self) -> list[str]:
        """The shots of this hand's finished rounds, ids in the order they were placed
        (the first target's, then the second's, round by round), written from
        ``_unwritten`` the first time it is read after a round."""
        written, *rounds = self._unwritten[DISCARDED]
        for shots in rounds:
            written += [SHOT[card] for on in shots for _, card in on]
        self._unwritten[DISCARDED] = None
        return written

    @cached_property
    def last_round(self) -> dict[str, Any] | None:
        """The record of the last round finished (``hand``, ``round``, ``targets``: each
        target's :func:`deck.resolve` record, ``double``: the side that took both or
        None), written from ``_unwritten`` the first time it is read after the round."""
        hand, round_no, targets, shots = self._unwritten[LAST_SHOTS]
        side_of = self.side_of
        records = [resolve(targets[0], shots[0], side_of), resolve(targets[1], shots[1], side_of)]
        first, second = records[0]["side"], records[1]["side"]
        self._unwritten[LAST_SHOTS] = None
        return {
            "hand": hand,
            "round": round_no,
            "targets": records,
            "double": first if first is not None and first == second else None,
        }

    def _finish_hand(self) -> None:
        values = rules.target_values(self.options["targets"])
        totals, foul_totals = self.totals, self.fouls
        points, fouls, penalties, doubles = [], [], [], []
        for side, pile in enumerate(self.piles):
            # rules.pile_points on the values' tuples; two doubled targets per Double.
            got = fouled = doubled = 0
            for entry in pile:
                left, double, animal = values[entry["card"]]
                if entry["double"]:
                    got += double
                    doubled += 1
                else:
                    got += left
                fouled += animal
            before = foul_totals[side]
            penalty = rules.foul_penalty(before, before + fouled)
            foul_totals[side] = before + fouled
            totals[side] += got - penalty
            points.append(got)
            fouls.append(fouled)
            penalties.append(penalty)
            doubles.append(doubled // 2)
        self.history.append(
            {
                "hand": self.hand_no,
                "dealer": self.dealer,
                "points": points,
                "fouls": fouls,
                "penalties": penalties,
                "doubles": doubles,
                "totals": list(totals),
                "foul_totals": list(foul_totals),
            }
        )
        self.targets = []
        self.shots = [[], []]
        if rules.game_over(self.totals, self.hand_no, self.options):
            self.phase = OVER
            return
        self.dealer = (self.dealer + 1) % self.players
        self._start_hand()

    def sealed_step(self) -> str | None:
        if self.phase == SECOND and self.sealed_seconds:
            return f"the second shots of hand {self.hand_no}, round {self.round_no}"
        return None

    # -- what players see ---------------------------------------------------------------

    def _doubles(self) -> list[int]:
        """Doubles each side took this hand (two doubled targets in its pile per Double)."""
        return [[entry["double"] for entry in pile].count(True) // 2 for pile in self.piles]

    def _target_label(self, index: Any) -> str:
        if is_whole(index) and 0 <= index < len(self.targets):
            return rules.target_name(TARGET[self.targets[index]])
        return f"target {index + 1}" if is_whole(index) else "a target"

    def prompt(self, seat: int | None) -> str:
        if self.is_over():
            return "The game is over."
        where = f"Hand {self.hand_no}, round {self.round_no}"
        names = " or ".join(sorted({_suit_name(SUIT_IDS[TARGET_SUIT[t]]) for t in self.targets}))
        if seat is None:
            kind = "first shots" if self.phase == FIRST else "second shots"
            return f"{where}: {kind}."
        if seat not in self.to_act():
            if self.phase == SECOND and self.sealed_seconds:
                return "Wait: the other second shots are still coming."
            return "Wait: another player is shooting."
        if self.phase == FIRST:
            suits = {TARGET_SUIT[t] for t in self.targets}
            if any(SHOT_SUIT[card] in suits for card in self.hands[seat]):
                article = "an" if names[:1] in "AEIOU" else "a"
                return (
                    f"First shot: you hold {article} {names} card: "
                    "shoot one at the target of its suit."
                )
            return f"First shot: you hold no {names} card: shoot any card at either target."
        other = self._target_label(1 - self.first_target[seat])
        if self.sealed_seconds:
            return f"Second shot: pick a card for the {other}; all picks are shown together."
        return f"Second shot: pick a card; it goes on the {other}."

    def doing(self) -> str:
        return "to shoot"

    def hand_of(self, seat: int) -> list[str]:
        return [SHOT[card] for card in self.hands[seat]]

    def why_not(self, seat: int, card: str) -> dict[str, str]:
        if self.phase != FIRST or not self._holds(seat, card):
            return super().why_not(seat, card)
        names = " or ".join(sorted({_suit_name(SUIT_IDS[TARGET_SUIT[t]]) for t in self.targets}))
        return {
            "reason": (
                f"You hold a {names} card, so your first shot must be one of those, on the "
                f"target of its suit: {rules.shot_name(card)} matches neither target."
            ),
            "anchor": "first-shot",
        }

    def describe(self, action: dict) -> str:
        card = action.get("card")
        shot = rules.shot_name(card) if rules.is_shot(card) else str(card)
        if action.get("type") == "shoot":
            return f"Shoot {shot} at {self._target_label(action.get('target'))}"
        if action.get("type") == "second":
            return f"Second shot: {shot}"
        return super().describe(action)

    # -- the moments every screen shows (companion/games/moments.py) -----------------------

    def _who(self, side: int) -> dict[str, int]:
        """A side as words: its one seat, or the side (partners) in team play."""
        members = self.sides()[side]
        return m.seat(members[0]) if len(members) == 1 else m.side(side)

    def result(self) -> dict[str, Any] | None:
        """The last round's two targets (who took each, a Double), or the hand it ended
        (points, Doubles, Fouls and penalties per side, the new totals)."""
        last = self.last_round
        if last is None:
            return None
        hand, round_no = last["hand"], last["round"]
        lines = []
        for target in last["targets"]:
            name = rules.target_name(target["card"])
            if target["seat"] is not None:
                lines.append(
                    [
                        m.seat(target["seat"]),
                        f" takes the {name} with ",
                        m.card(target["winning_shot"]),
                    ]
                )
            elif target["void"]:
                lines.append([f"The {name} is void: opponents' shots tied."])
            else:
                lines.append([f"Nobody shot at the {name}."])
            if target["cancelled"]:
                count = len(target["cancelled"])
                eights = "an eight" if count == 1 else f"{count} eights"
                lines[-1].append(f" (a Distraction cancelled {eights})")
        cards = [[t["seat"], t["winning_shot"]] for t in last["targets"] if t["seat"] is not None]
        if last["double"] is not None:
            headline = [self._who(last["double"]), " take both targets: a Double!"]
        else:
            takers = [m.seat(t["seat"]) for t in last["targets"] if t["seat"] is not None]
            if len(takers) == 2:
                headline = [*m.joined(takers, " and "), " each take a target"]
            elif takers:
                headline = [takers[0], " takes a target"]
            else:
                headline = ["Nobody takes a target"]
        if not (self.history and self.history[-1]["hand"] == hand and round_no == ROUNDS_PER_HAND):
            return m.result_card(
                f"round-{hand}-{round_no}",
                "target",
                f"Hand {hand}, round {round_no} of {ROUNDS_PER_HAND}: the targets",
                headline,
                cards=cards,
                lines=lines,
            )
        done = self.history[-1]
        totals = done["totals"]
        best = max(totals)
        leaders = [side for side, total in enumerate(totals) if total == best]
        verb = "win" if self.phase == OVER else "lead"
        verb += "" if len(leaders) > 1 or len(self.sides()[leaders[0]]) > 1 else "s"
        return m.result_card(
            f"hand-{hand}",
            "hand",
            f"Hand {hand} is over",
            [*m.joined([self._who(side) for side in leaders], " and "), f" {verb} with {best}"],
            cards=cards,
            columns=["Points", "Doubles", "Fouls", "Penalty", "Total"],
            rows=[
                m.row(
                    self.sides()[side],
                    [
                        f"{done['points'][side]:+d}",
                        done["doubles"][side],
                        done["fouls"][side],
                        -done["penalties"][side] if done["penalties"][side] else 0,
                        totals[side],
                    ],
                    mark=side in leaders,
                )
                for side in range(len(totals))
            ],
            lines=[[f"Last round ({round_no}): "], *lines],
        )

    def chapter(self) -> str:
        return f"Hand {self.hand_no}"

    def _winning(self, index: int) -> int | None:
        """The seat that takes target ``index`` if the round ended on the shots shown."""
        won = take(self.targets[index], self.shots[index], self.side_of)
        return None if won is None else won[0]

    def public_words(self, seat: int, action: dict) -> str | None:
        if self.sealed_step() is not None:
            return "Picks a second shot face down"
        return self.describe(action)

    def _view(self, seat: int | None) -> dict[str, Any]:
        table = rules.target_table(self.options["targets"])

        def target_info(card: str) -> dict:
            data = table[card]
            return {
                "card": card,
                "suit": data["suit"],
                "left": data["left"],
                "double": data["double"],
                "animal": data["animal"],
                "tags": dict(data["tags"]),
            }

        table_changes = sorted(self.options["targets"].items())
        live_fouls = []
        hand_points = []
        for side, pile in enumerate(self.piles):
            got, fouled = rules.pile_points(pile, table)
            hand_points.append(got)
            live_fouls.append(self.fouls[side] + fouled if self.phase != OVER else self.fouls[side])
        view: dict[str, Any] = {
            "teams": self.options["teams"],
            "side": None if seat is None else self.side_of[seat],
            "goal": self.options["goal"],
            "hands_to_play": self.options["hands"],
            "max_hands": self.options["max_hands"],
            "phase": self.phase,
            "hand_no": self.hand_no,
            "round": self.round_no,
            "rounds_per_hand": rules.ROUNDS_PER_HAND,
            "dealer": self.dealer,
            "holder": self.holder,
            "sealed_seconds": self.sealed_seconds,
            "suits": rules.suits(),
            # The values this table changed (public: every seat plays with the same deck).
            "target_changes": [
                {"card": card, "left": table[card]["left"], **change}
                for card, change in table_changes
            ],
            "targets": [
                {
                    **target_info(TARGET[card]),
                    "shots": [
                        {
                            "seat": s,
                            "card": SHOT[c],
                            "suit": SUIT_IDS[SHOT_SUIT[c]],
                            "value": SHOT_VALUE[c],
                            "second": self.first_target[s] != i,
                        }
                        for s, c in self.shots[i]
                    ],
                    # Who would take it on the shots shown so far (None: nobody yet).
                    "winning": self._winning(i),
                }
                for i, card in enumerate(self.targets)
            ],
            "picked": [pick is not None for pick in self.sealed],
            "hand_sizes": [len(hand) for hand in self.hands],
            # Shots of this hand's finished rounds (all were shown) and targets nobody took.
            "played": list(self.shot_discards),
            "void_targets": list(self.void),
            "piles": [
                [
                    {
                        **entry,
                        "points": rules.target_points(entry["card"], entry["double"], table),
                        "animal": table[entry["card"]]["animal"],
                    }
                    for entry in pile
                ]
                for pile in self.piles
            ],
            "hand_points": hand_points,
            "doubles": self._doubles(),
            "fouls": live_fouls,
            "side_scores": list(self.totals),
            "winning_sides": self.winning_sides(),
            "history": [dict(h) for h in self.history],
            "last_round": None if self.last_round is None else plain_copy(self.last_round),
        }
        if seat is not None:
            view["hand"] = self.hand_of(seat)
            pick = self.sealed[seat]
            view["my_second"] = None if pick is None else SHOT[pick]
        return view

    def to_dict(self) -> dict[str, Any]:
        """The snapshot (see SNAPSHOT.md): the live cards written as ids, the records of
        the rounds written."""
        if self._unwritten[DISCARDED] is not None:
            self.shot_discards  # noqa: B018  (reading it writes it)
        if self._unwritten[LAST_SHOTS] is not None:
            self.last_round  # noqa: B018
        cards = {
            "hands": [[SHOT[card] for card in hand] for hand in self.hands],
            "unused": [SHOT[card] for card in self.unused],
            "target_deck": [TARGET[card] for card in self.target_deck],
            "targets": [TARGET[card] for card in self.targets],
            "shots": [[[seat, SHOT[card]] for seat, card in on] for on in self.shots],
            "sealed": [None if pick is None else SHOT[pick] for pick in self.sealed],
        }
        # As the base's, with the cards as ids (in their places) and no private fields.
        state = {
            key: cards.get(key, value) for key, value in vars(self).items() if key not in UNSAVED
        }
        return {"game": self.slug, "state": state if json_is_fresh() else plain_copy(state)}

    def _cards_from_ids(self) -> None:
        """Turn the live cards of a snapshot just loaded (ids) into indexes (its
        records are written)."""
        self._unwritten = [None, None]
        self.hands = [bytes(sorted(shots_of(hand))) for hand in self.hands]
        self.unused = shots_of(self.unused)
        self.target_deck = targets_of(self.target_deck)
        self.targets = targets_of(self.targets)
        self.shots = [[[seat, SHOT_INDEX[card]] for seat, card in on] for on in self.shots]
        self.sealed = [None if pick is None else SHOT_INDEX[pick] for pick in self.sealed]
        self._derive()


class PullGame(Game):
    spec = SPEC
    state_class = PullState
    sheet_class = PullSheet

    def check_together(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        return rules.check_together(players, options)

    def check_deal(self, players: int, options: dict[str, Any], deal: dict[str, Any]) -> None:
        """Refuse an explicit first deal that is not a possible PULL! deal."""
        unknown = sorted(set(deal) - {"dealer", "hands", "targets"})
        if unknown:
            raise IllegalAction(f"A PULL! deal has no {', '.join(map(str, unknown))}.")
        dealer = deal.get("dealer", 0)
        if not is_whole(dealer) or not 0 <= dealer < players:
            raise IllegalAction(f"The dealer must be a seat from 0 to {players - 1}.")
        if "hands" in deal:
            hands = deal["hands"]
            if not isinstance(hands, list) or len(hands) != players:
                raise IllegalAction(f"The deal needs one hand for each of the {players} players.")
            seen: set[str] = set()
            for hand in hands:
                if not isinstance(hand, list) or len(hand) != rules.HAND_SIZE:
                    raise IllegalAction(f"Each hand has {rules.HAND_SIZE} shot cards.")
                for card in hand:
                    if not rules.is_shot(card):
                        raise IllegalAction(f"{card!r} is not a shot card.")
                    if card in seen:
                        raise IllegalAction(f"{card} is dealt twice.")
                    seen.add(card)
        if "targets" in deal:
            targets = deal["targets"]
            need = 2 * rules.ROUNDS_PER_HAND
            if not isinstance(targets, list) or not need <= len(targets) <= 24:
                raise IllegalAction(f"The target deck needs {need} to 24 target cards.")
            for card in targets:
                if not rules.is_target(card):
                    raise IllegalAction(f"{card!r} is not a target card.")
            if len(set(targets)) != len(targets):
                raise IllegalAction("A target card is in the deck twice.")

    def rematch_deal(self, state: State) -> dict[str, Any] | None:
        """The deal passes left: the seat after the last hand's dealer deals first."""
        return {"dealer": (state.dealer + 1) % state.players}

    def state_from_dict(self, d: dict[str, Any]) -> State:
        # Snapshots saved before the common view block kept the sides as an attribute,
        # which would hide the sides() method: they come from the options now.
        if isinstance(d.get("state"), dict) and "sides" in d["state"]:
            d = {**d, "state": {k: v for k, v in d["state"].items() if k != "sides"}}
        state = super().state_from_dict(d)
        try:
            state._cards_from_ids()
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(
                f"not a PULL! snapshot: a card or a card list is wrong ({error!r:.60})"
            ) from None
        return state

    def card_faces(self, options: Mapping[str, Any] | None = None) -> dict[str, dict[str, str]]:
        """All 48 shots and 24 targets: ``"▲ Trap 7"``, ``"▲ Trap target 10"``; the
        colour class is the suit."""
        faces = {}
        for card in [*rules.shot_ids(), *rules.target_ids()]:
            name = rules.card_name(card)
            suit = rules.shot_suit(card) if rules.is_shot(card) else rules.target_suit(card)
            faces[card] = {
                "text": f"{rules.card_symbol(card)} {name}",
                "label": name,
                "colour": suit,
            }
        return faces

    def option_from_form(self, name: str, form: Mapping[str, str]) -> Any:
        """``targets`` from the boxes ``double_<id>`` / ``animal_<id>``: only the values
        the group changed, or None (none changed, or the form did not carry the boxes)."""
        if name != "targets":
            return super().option_from_form(name, form)
        return rules.target_changes_from_form(form)

    def card_rows(self, overrides: dict | None = None) -> list[dict[str, Any]]:
        """The target cards for a rules page or a sheet: values with their seed/house tags."""
        return rules.target_rows(overrides)


GAME = PullGame()
