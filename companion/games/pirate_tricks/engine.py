"""Pirate Tricks engine: bid loon for rows of crew, ditch two, then take ten tricks.

Crew cards are ``"R15"``, ``"G3"``, ``"B20"`` (suit letter, number); red is trump. The
card data, the recruitment scoring and the end-of-round settlement live in ``rules.py``;
this module is the state machine that runs a game on the phones.

Phases of a round (``state.phase``)::

    bid -> (reveal -> (assign)) -> ... -> ditch -> (predict) -> play -> next round / over

Actions::

    {"type": "bid", "loon": n}          0 .. own loon, sealed
    {"type": "reveal", "card": "G12"}   a card from hand to break an auction tie, sealed
    {"type": "assign", "seat": s}       the reveal winner of a zero tie on a second bid
                                        hands the row to one of the tied players
    {"type": "ditch", "cards": [a, b]}  two cards out of play for the round, sealed
    {"type": "predict", "tricks": n}    0 .. 10, in turn, only with a prediction card
    {"type": "play", "card": "R15"}     one card to the trick

Options (checked against ``SPEC``): ``rounds`` (3, 4 or 5; default 3) and ``catalog`` (a
group's corrections to the score cards, passed to ``rules.load_catalog``).

``deal`` (first round only; every part optional)::

    {"score_cards": {"recruitment": [id, id], "treasure": id, "capture": id},
     "hands": [[5 crew cards] per seat],
     "rows": [{"up": [5 crew cards], "down": [2 crew cards]} per seat, top row first]}

``hands`` and ``rows`` come together and must use the round's crew deck exactly once
(3 players: 9-20, 4 players: 5-20, 5 players: 1-20 in each suit; 12 cards a player, so
every card is dealt). Later rounds are shuffled with ``rng(seed, "round", k)``; the score
card decks are shuffled once per game with ``rng(seed, "score-decks")`` and drawn without
replacement (cards named in the deal are drawn first).

``view(seat)`` (``seat`` None: the table) holds the common block (``scores``: this seat's
own loon only, the others None, until the game is over) and, from ``_view``:

``round``, ``rounds``, ``phase``, ``turn``
``hand``, ``ditched``       this seat's own cards (None for the table)
``loon``                    per seat: this seat's own only; everybody's once ``over``
``score_cards``             the four score cards of the round (full catalog entries)
``rows``                    per row: ``up`` (5 cards), ``down`` (the 2 face-down cards for
                            the row's owner only, else None), ``down_count``, ``name``
                            ("Row 1", numbered from the top), ``owner``,
                            ``loon`` lying on it, ``go_first`` (the top row)
``go_first``                the seat holding the Go First marker (None before row 0 is taken)
``auction``                 during the auction: ``step``, ``pass``, ``row``, ``bidders``,
                            ``tied``, ``chooser``, ``waiting`` (who still has to choose),
                            ``your_bid``, ``your_reveal`` (this seat's sealed choice)
``events``                  the round's settled auction steps: ``row``, ``pass``,
                            ``bids`` (all shown together), ``result`` (won, tie, zero,
                            zero-again, chosen, free), ``tied``, ``reveals``,
                            ``reveal_winner``, ``chooser``, ``taker``, ``paid``, ``row_loon``
``ditch_done``              per seat, whether it has ditched (never which cards)
``predicting``, ``predictions``   public, None when no card asks for predictions
``recruitment``             per recruitment card, per seat: ``loon``, ``cards`` shown,
                            ``groups``; None until scored
``trick``                   during play: ``leader``, ``plays``, ``winning``, ``led``
``last_trick``, ``tricks``  the last finished trick and tricks taken per seat
``won``                     per seat, the crew cards of the tricks it took this round (every
                            player saw them played; a bot reads them instead of remembering)
``catalog``                 the table's changes to the score cards (the ``catalog`` option)
``history``                 per finished round: score card ids, ``top_ups``, ``go_first``,
                            ``paid_for_rows``, ``recruitment``, ``predictions``, ``tricks``,
                            ``treasure``, ``capture``, ``paid`` (changes, never totals)

Our reading of the row auction (the rulebook leaves the order loose):

* Rows are auctioned from the top down. Everyone who has no row yet bids on the current
  row, all at once and sealed; a bid is final once made (like closing your fist on the
  coins). When every bidder has bid, all bids are shown.
* A single highest bid takes the row: the winner pays the bank, takes the seven cards,
  any loon lying on the row, and the Go First marker if it is the top row.
* A tie above zero: the tied players each choose a card from hand, sealed, then show them.
  The highest number wins, an equal number goes red over green over blue (so a reveal can
  never tie); the winner pays their bid and takes the row. Shown cards go back to hand.
* Everybody bids zero on a row without loon: the bank puts 2 loon on it and bidding moves
  to the next open row below.
* After the first pass down the rows, the rows still open (each now holds 2 loon) are
  auctioned once more from the top, by the players still without a row. That is every
  bidder's second bid on that row, and nobody bids three times on a row, so the second
  pass settles every row: an all-zero tie on a row holding 2 loon is broken by a card
  reveal, and the reveal winner chooses which of the tied players takes the row (they may
  choose themselves); it costs nothing and the 2 loon go with the row. (We read the
  rulebook's "more than two rows with 2 loon" as "any row still open".)
* Whenever only one player still needs a row, exactly one row is left: that player takes
  it free, with any loon on it (and the Go First marker if it is the top row). So the
  auction always ends with each player holding one row: 12 cards.

Other readings:

* Ditching is simultaneous and sealed; ditched cards are never shown to anybody else.
* Predictions (only when a score card in play asks for them, ``rules.needs_prediction``)
  come after the ditch, in turn from the Go First holder to the left, and are public.
* Recruitment is scored automatically after that, from each player's ten cards: the
  cards each player shows for each recruitment card become public for the round.
* Tricks: the Go First holder leads; follow the suit led if you can, otherwise play
  anything; red may be led; the highest red wins, else the highest card of the suit led;
  the winner leads next. Tricks are turned face down: the table sees the current trick,
  the last completed trick and how many tricks each player holds, not the old tricks.
* After the tenth trick, ``rules.settled`` pays or charges the treasure and capture cards
  (ties all collect; nobody pays more than they have) and the next round starts at once.
  At the start of rounds 2 and later anyone under 5 loon is topped up to 5.
* Loon is behind a screen: a seat's view shows its own loon only, everybody's once the
  game is over. Payments that happen in the open (a winning bid, a score card's payout)
  are shown as they happen.
* The game ends after the chosen number of rounds; the most loon wins and tied players
  share the win (``winners()``, from the spec's shared helper).
"""

from __future__ import annotations

import functools
import json
import threading
from bisect import bisect_left
from collections.abc import Mapping
from itertools import combinations
from operator import itemgetter, sub
from typing import Any, NamedTuple

from .. import cards
from .. import moments as m
from ..base import Action, ActionIds, Game, IllegalAction, State, plain_copy
from . import auction, deck, rules
from .auction import ZERO_TIE_LOON
from .deck import CARD, INDEX, SUIT, SUIT_LETTER, SUIT_LOW, SUIT_SIZE
from .rules import TRICKS
from .sheet import PirateTricksSheet
from .spec import SPEC

HAND_SIZE = 5
ROW_UP = 5
ROW_DOWN = 2
ROW_SIZE = ROW_UP + ROW_DOWN
MAX_PREDICTION = 10
SCORE_KINDS = ("recruitment", "treasure", "capture")

BID, REVEAL, ASSIGN, DITCH, PREDICT, PLAY, OVER = (
    "bid",
    "reveal",
    "assign",
    "ditch",
    "predict",
    "play",
    "over",
)


FACE_NAMES = {"R": "Red", "G": "Green", "B": "Blue"}

# The fixed numbering of the actions (the integer action path): a play's id is its card
# (0-59, :mod:`.deck`), then the reveals of each card, the predictions 0-10, the seats a
# row may be assigned to, the ditches of two cards a < b (in ``combinations`` order), and
# last the bids: bid n is ``BIDS + n``. Loon has no fixed ceiling, so the table holds the
# bids up to ``FIRST_BIDS`` and is extended (bids only, in order, so an id never changes)
# whenever a bid phase starts with more loon at the table (:func:`_cover_bids`).
DECK_SIZE = 60
REVEALS = DECK_SIZE
PREDICTS = REVEALS + DECK_SIZE
ASSIGNS = PREDICTS + MAX_PREDICTION + 1
DITCHES = ASSIGNS + SPEC.max_players
PAIRS = list(combinations(range(DECK_SIZE), 2))
BIDS = DITCHES + len(PAIRS)
FIRST_BIDS = 256
# The ditches of a card a are numbered together, in b's order: ditching a < b is
# PAIR_BASE[a] + b, and PAIR_ID[a][b] is that id already made (a ditch's legal list reads
# its ids from this table rather than adding: a third fewer instructions for its 66 ids).
PAIR_BASE = [0] * DECK_SIZE
for _number, (_a, _b) in enumerate(PAIRS):
    if _b == _a + 1:
        PAIR_BASE[_a] = DITCHES + _number - _b
PAIR_ID = [
    [PAIR_BASE[_a] + _b if _a < _b else None for _b in range(DECK_SIZE)] for _a in range(DECK_SIZE)
]
ACTION_IDS = ActionIds(
    [{"type": "play", "card": card} for card in CARD]
    + [{"type": "reveal", "card": card} for card in CARD]
    + [{"type": "predict", "tricks": n} for n in range(MAX_PREDICTION + 1)]
    + [{"type": "assign", "seat": s} for s in range(SPEC.max_players)]
    + [{"type": "ditch", "cards": [CARD[a], CARD[b]]} for a, b in PAIRS]
    + [{"type": "bid", "loon": n} for n in range(FIRST_BIDS)]
)
PLAYS = [{"type": "play", "card": card} for card in CARD]  # private: copied when logged


_CARD_PLAYED = itemgetter(1)  # the card of a trick's [seat, card]
_TABLE = ACTION_IDS._actions  # private: read to copy


def _action_copy(action_id: int) -> Action:
    """A fresh copy of the table's action ``action_id`` (only a ditch holds a list)."""
    action = _TABLE[action_id]
    if DITCHES <= action_id < BIDS:
        return {"type": "ditch", "cards": list(action["cards"])}
    return action.copy()


def _lacks_suit(hand: list[int], low: int) -> bool:
    """Whether the sorted ``hand`` holds no card of the suit whose lowest card is ``low``
    (``not deck.suit_run(hand, low)`` without the list: one look-up, no copy)."""
    at = bisect_left(hand, low)
    return at == len(hand) or hand[at] >= low + SUIT_SIZE


#: The ids of bids 0, 1, ... (as many as the table numbers): a bid's legal list is a slice
#: of it, with no new integers to make.
BID_IDS = list(range(BIDS, BIDS + FIRST_BIDS))
_COVERING = threading.Lock()


def _cover_bids(loon: int) -> None:
    """Make sure the table (and ``BID_IDS``) numbers every bid up to ``loon`` (only bids
    are ever added). Called where an auction starts with loon it has not met: a round's
    start and a snapshot loaded in the auction. (Within an auction only a row's taker
    gains loon, and a taker bids no more that round.)"""
    table = ACTION_IDS
    if table.size <= BIDS + loon:
        with _COVERING:  # two threads covering at once add each id once
            while table.size <= BIDS + loon:
                table.add({"type": "bid", "loon": table.size - BIDS})
            BID_IDS.extend(range(BIDS + len(BID_IDS), table.size))


def face_text(card: str) -> str:
    """A crew card as the screens print it: ``"R7"`` -> ``"Red 7"``."""
    return f"{FACE_NAMES[rules.suit(card)]} {rules.number(card)}"


def row_name(row: int) -> str:
    """A row in words, numbered from the top: 0 -> ``"Row 1"``."""
    return f"Row {row + 1}"


@functools.lru_cache(maxsize=64)
def _index_by_key(key: str) -> dict[str, dict[str, dict]]:
    catalog = rules.load_catalog(json.loads(key) or None)
    return {kind: {card["id"]: card for card in catalog[kind]} for kind in SCORE_KINDS}


def _catalog_key(options: dict) -> str:
    catalog = options.get("catalog")
    return json.dumps(catalog, sort_keys=True) if catalog else "null"


def _index(options: dict) -> dict[str, dict[str, dict]]:
    """Per deck, ``{card id: catalog entry}`` for these options (cached: never change it)."""
    return _index_by_key(_catalog_key(options))


@functools.lru_cache(maxsize=64)
def _sorted_ids(key: str) -> dict[str, tuple[str, ...]]:
    """Per deck, the ids of the catalog of ``key`` sorted: the order a game's score decks
    are shuffled from."""
    return {kind: tuple(sorted(by_id)) for kind, by_id in _index_by_key(key).items()}


class _Round(NamedTuple):
    """A round's score cards (their catalog entries: never change them)."""

    cards: dict[str, Any]  # as PirateTricksState._score_cards gives them (shared)
    predicting: bool  # whether a card in play asks for trick predictions
    counting: tuple[list[int], list[int]]  # the treasure's and the capture's filters (masks)
    recruiting: tuple[tuple, ...]  # the recruitment cards' deck.recruit_plan


@functools.lru_cache(maxsize=256)
def _recruitment_card(key: str, card_id: str) -> tuple[dict, tuple]:
    """A recruitment card of the catalog of ``key``: its entry and ``deck.recruit_plan``."""
    card = _index_by_key(key)["recruitment"][card_id]
    return card, deck.recruit_plan(card)


@functools.lru_cache(maxsize=1024)
def _end_card(key: str, kind: str, card_id: str) -> tuple[dict, bool, list[int]]:
    """A treasure or capture card of the catalog of ``key`` (:func:`_catalog_key`): its
    entry, whether it asks for predictions and the masks of the effects counting cards."""
    card = _index_by_key(key)[kind][card_id]
    masks = [deck.filter_mask(effect["filter"]) for effect in rules.filtered_effects(card)]
    return card, rules.needs_prediction(card), masks


@functools.lru_cache(maxsize=8192)  # the default catalog deals 5,670 combinations
def _round_of(key: str, first: str, second: str, treasure: str, capture: str) -> _Round:
    """The score cards of a round (two recruitment cards, a treasure and a capture card)
    of the catalog of ``key``, ready for the engine: put together once per combination
    (from the cards' own caches), not at every step of a round that needs them."""
    treasure_card, treasure_predicts, treasure_counts = _end_card(key, "treasure", treasure)
    capture_card, capture_predicts, capture_counts = _end_card(key, "capture", capture)
    first_card, first_plan = _recruitment_card(key, first)
    second_card, second_plan = _recruitment_card(key, second)
    return _Round(
        {
            "recruitment": [first_card, second_card],
            "treasure": treasure_card,
            "capture": capture_card,
        },
        treasure_predicts or capture_predicts,
        (treasure_counts, capture_counts),
        (first_plan, second_plan),
    )


def _row(up: list[int], down: list[int]) -> dict[str, Any]:
    """A new row of a deal, not taken yet."""
    return {"up": up, "down": down, "owner": None, "loon": 0}


def _counts(taken: list[int], masks: list[int]) -> list[list[int]] | None:
    """Per seat, how many of the cards it took (masks ``taken``) each of a card's filters
    (``masks``) matches; None for a card that counts none."""
    return [[(took & m).bit_count() for m in masks] for took in taken] if masks else None


class PirateTricksState(State):
    """One game of Pirate Tricks. The live crew cards are indexes (:mod:`.deck`):
    ``hands`` (each sorted, which is hand order), the rows' ``up`` and ``down``, the
    auction's ``reveals``, ``ditched``, ``trick`` and the ``plays`` of ``last_trick``
    (``[seat, card]`` pairs) and ``won``; :meth:`to_dict` writes them as ids and
    :meth:`PirateTricksGame.state_from_dict` reads them back. The records (``events``,
    ``history``) keep ids, as the views show them; ``recruitment`` holds each hand's loon
    and mask until :meth:`to_dict` or a view writes it out (a snapshot's holds it so)."""

    action_ids = ACTION_IDS

    rounds: int
    round: int
    phase: str
    loon: list[int]
    score_decks: dict[str, list[str]]
    hands: list[list[int]]
    rows: list[dict[str, Any]]
    go_first: int | None
    auction: dict[str, Any]
    events: list[dict[str, Any]]
    ditched: list[list[int] | None]
    predictions: list[int | None]
    recruitment: list[list[dict]] | None
    leader: int | None
    turn: int | None
    trick: list[list[int]]
    last_trick: dict[str, Any] | None
    tricks: list[int]
    won: list[list[int]]
    top_ups: list[int]
    history: list[dict[str, Any]]

    # -- setup --------------------------------------------------------------------------

    def _setup(self) -> None:
        n = self.players
        self.rounds = self.options["rounds"]
        self.round = 0
        self.loon = [rules.STARTING_LOON] * n
        self.history = []
        gen = cards.reseeded(f"{self.seed}:score-decks")  # rng(seed, "score-decks")'s draws
        ids = _sorted_ids(_catalog_key(self.options))
        self.score_decks = {kind: deck.shuffle(list(ids[kind]), gen) for kind in SCORE_KINDS}
        given = (self.deal or {}).get("score_cards")
        if given:
            for kind in SCORE_KINDS:
                first = given[kind] if kind == "recruitment" else [given[kind]]
                rest = [c for c in self.score_decks[kind] if c not in first]
                self.score_decks[kind] = list(first) + rest
        self._start_round()

    def _start_round(self) -> None:
        n = self.players
        self.round += 1
        k = self.round
        if k > 1:
            had = self.loon
            self.loon = rules.top_up(had)
            self.top_ups = list(map(sub, self.loon, had))
        else:
            self.top_ups = [0] * n
        deal = self.deal
        if k == 1 and deal and "hands" in deal:
            self.hands = [sorted(deck.indexes(h)) for h in deal["hands"]]
            self.rows = [_row(deck.indexes(r["up"]), deck.indexes(r["down"])) for r in deal["rows"]]
        else:
            # Shuffling indexes moves them exactly as it would move the ids (same length).
            # rng(seed, "round", k)'s draws from the thread's one generator (no new one)
            crew = deck.shuffle(deck.deck(n), cards.reseeded(f"{self.seed}:round:{k}"))
            # One card at a time from seat 0 (tests/games/reference.py, deal_one_at_a_time): every
            # n-th card, then the rows from the top, ROW_UP face up and ROW_DOWN face down each.
            dealt = n * HAND_SIZE
            self.hands = [sorted(crew[seat:dealt:n]) for seat in range(n)]
            self.rows = [
                _row(crew[at : at + ROW_UP], crew[at + ROW_UP : at + ROW_SIZE])
                for at in range(dealt, dealt + n * ROW_SIZE, ROW_SIZE)
            ]
        self.go_first = None
        self.events = []
        self.ditched = [None] * n
        self.predictions = [None] * n
        self.recruitment = None
        self.leader = None
        self.turn = None
        self.trick = []
        self.last_trick = None
        self.tricks = [0] * n
        self.won = [[] for _ in range(n)]
        # The auction as _next_row(0) sets it up with every row open (auction.next_row: all
        # bid on the top row, first pass), written at once rather than worked out.
        self.auction = {
            "pass": 1,
            "row": 0,
            "bidders": list(range(n)),
            "bids": [None] * n,
            "tied": [],
            "reveals": [None] * n,
            "chooser": None,
        }
        self.phase = BID
        _cover_bids(max(self.loon))

    def _score_ids(self) -> dict[str, Any]:
        """The ids of this round's score cards: the next ones of each shuffled deck."""
        k, decks = self.round, self.score_decks
        return {
            "recruitment": decks["recruitment"][2 * (k - 1) : 2 * k],
            "treasure": decks["treasure"][k - 1],
            "capture": decks["capture"][k - 1],
        }

    def _round_cards(self) -> _Round:
        """This round's score cards: the next ones of each shuffled deck."""
        k, decks = self.round, self.score_decks
        first, second = decks["recruitment"][2 * k - 2 : 2 * k]
        return _round_of(
            _catalog_key(self.options),
            first,
            second,
            decks["treasure"][k - 1],
            decks["capture"][k - 1],
        )

    def _score_cards(self) -> dict[str, Any]:
        """This round's score cards, as catalog entries (shared: never change them)."""
        return self._round_cards().cards

    def sealed_step(self) -> str | None:
        """The sealed step in progress, for the host's undo (``Game.undo_point``): the bids
        on a row, the card reveals breaking a tie, the ditch. Once a step is shown, undo
        stops there; predictions, assigning a row and plays are open and go back
        one at a time."""
        a, where = self.auction, f"round {self.round}"
        if self.phase in (BID, REVEAL):
            kind = "bids" if self.phase == BID else "card reveals"
            bids = "first" if a["pass"] == 1 else "second"
            return f"the {kind} on Row {a['row'] + 1} ({bids} bids, {where})"
        return f"the ditch of {where}" if self.phase == DITCH else None

    # -- the auction --------------------------------------------------------------------

    def _next_row(self, start: int) -> None:
        """Move the auction to the next open row at or below ``start`` (or finish it;
        :func:`.auction.next_row` decides)."""
        a = self.auction
        a["bids"] = [None] * self.players
        a["tied"] = []
        a["reveals"] = [None] * self.players
        a["chooser"] = None
        kind, row, needy, a["pass"] = auction.next_row(
            [r["owner"] for r in self.rows], start, a["pass"]
        )
        if kind == auction.FREE:
            self.events.append({"row": row, "pass": a["pass"], "result": "free", "taker": needy[0]})
            self._take(row, needy[0], 0)
            # The last row is taken: done, as _next_row(0) would find (its resets would
            # write the values just written above, and the pass stays).
            kind = auction.DONE
        if kind == auction.DONE:
            a["row"] = None
            a["bidders"] = []
            self.phase = DITCH
            return
        a["row"] = row
        a["bidders"] = needy
        self.phase = BID

    def _take(self, row: int, seat: int, paid: int) -> None:
        r = self.rows[row]
        r["owner"] = seat
        found, r["loon"] = r["loon"], 0
        self.loon[seat] += found - paid
        hand = self.hands[seat]  # the state's own list: sorted in place
        hand += r["up"]
        hand += r["down"]
        hand.sort()
        if row == 0:
            self.go_first = seat
        event = self.events[-1]
        event["taker"] = seat
        event["paid"] = paid
        event["row_loon"] = found

    def _resolve_bids(self) -> None:
        a = self.auction
        row = a["row"]
        bids = a["bids"]
        result, top = auction.bid_outcome(bids, a["bidders"], self.rows[row]["loon"])
        event = {"row": row, "pass": a["pass"], "bids": bids[:], "result": result}
        self.events.append(event)
        if result == auction.WON:
            self._take(row, top[0], bids[top[0]])
            self._next_row(row + 1)
        elif result == auction.ZERO:
            self.rows[row]["loon"] += ZERO_TIE_LOON
            self._next_row(row + 1)
        else:
            event["tied"] = top
            a["tied"] = top
            a["reveals"] = [None] * self.players
            self.phase = REVEAL

    def _resolve_reveals(self) -> None:
        a = self.auction
        row = a["row"]
        event = self.events[-1]
        event["reveals"] = [None if c is None else CARD[c] for c in a["reveals"]]
        best = max(a["tied"], key=lambda s: deck.REVEAL[a["reveals"][s]])
        event["reveal_winner"] = best
        if event["result"] == auction.TIE:
            self._take(row, best, a["bids"][best])
            self._next_row(row + 1)
        else:
            a["chooser"] = best
            self.phase = ASSIGN

    # -- after the auction --------------------------------------------------------------

    def _after_ditch(self) -> None:
        in_play = self._round_cards()
        if in_play.predicting:
            self.phase = PREDICT
            self.turn = self.go_first
        else:
            self._recruit(in_play)

    def _recruit(self, in_play: _Round | None = None) -> None:
        # The loon only: each entry keeps its hand's mask, from which a view or a snapshot
        # finds the cards shown and the groups when it shows them (_recruitment_shown).
        masks = [deck.mask_of(hand) for hand in self.hands]
        result = []
        for plan in (in_play or self._round_cards()).recruiting:
            per_seat = []
            for seat, mask in enumerate(masks):
                loon = deck.plan_loon(plan, mask)
                self.loon[seat] += loon  # recruitment never costs
                per_seat.append({"loon": loon, "hand": mask})
            result.append(per_seat)
        self.recruitment = result
        self.phase = PLAY
        self.leader = self.go_first
        self.turn = self.go_first

    def _recruitment_shown(self) -> list[list[dict]] | None:
        """``recruitment`` as views and snapshots show it (a new list): per card, per
        seat, the loon, the cards shown and the groups (``deck.recruit``), found now for
        the entries of :meth:`_recruit` (a snapshot's entries hold them already)."""
        if self.recruitment is None:
            return None
        in_play = self._round_cards().cards["recruitment"]
        return [
            [
                deck.recruit(card, [deck.cards_of(entry["hand"])])[0]
                if "hand" in entry
                else plain_copy(entry)
                for entry in per_seat
            ]
            for card, per_seat in zip(in_play, self.recruitment, strict=True)
        ]

    def _led(self) -> str | None:
        """The suit led in the trick in progress (a letter), None before the lead."""
        return SUIT_LETTER[SUIT[self.trick[0][1]]] if self.trick else None

    def _finish_trick(self) -> None:
        trick = self.trick
        winner = deck.trick_winner(trick)
        self.tricks[winner] += 1
        self.won[winner] += map(_CARD_PLAYED, trick)
        self.last_trick = {"leader": self.leader, "plays": trick, "winner": winner}
        self.trick = []
        self.leader = self.turn = winner
        if not self.hands[winner]:  # every hand is played out: that was the tenth trick
            self._end_round()

    def _end_round(self) -> None:
        in_play = self._round_cards()
        predictions = list(self.predictions) if in_play.predicting else None
        treasure_masks, capture_masks = in_play.counting
        taken = [deck.mask_of(w) for w in self.won] if treasure_masks or capture_masks else []
        result = rules.settled(  # it changes none of the lists it is given
            in_play.cards["treasure"],
            in_play.cards["capture"],
            self.tricks,
            predictions,
            self.loon,
            counts=(_counts(taken, treasure_masks), _counts(taken, capture_masks)),
        )
        self.loon = result["loon"]  # a new list
        self.history.append(
            {
                "round": self.round,
                "score_cards": self._score_ids(),
                "top_ups": list(self.top_ups),
                "go_first": self.go_first,
                "paid_for_rows": self._row_payments(),
                "recruitment": [
                    [entry["loon"] for entry in per_seat] for per_seat in self.recruitment or []
                ],
                "predictions": predictions,
                "tricks": list(self.tricks),
                "treasure": result["treasure"],  # settled's lists are new
                "capture": result["capture"],
                "paid": result["paid"],
            }
        )
        if self.round >= self.rounds:
            self.phase = OVER
            self.turn = None
        else:
            self._start_round()

    def _row_payments(self) -> list[int]:
        """Per seat, the loon it paid for its row this round, minus loon it found on it
        (from the first event it took a row in; 0 without one)."""
        paid = [0] * self.players
        for event in reversed(self.events):  # the first event of a seat is written last
            taker = event.get("taker")
            if taker is not None:
                paid[taker] = event.get("paid", 0) - event.get("row_loon", 0)
        return paid

    # -- contract -----------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[int]:
        return list(self.loon)

    def to_act(self) -> list[int]:
        """As the base's (a fresh list, [] once over), the trick's seat first."""
        if self.phase == PLAY:
            return [self.turn]
        return [] if self.phase == OVER else self._to_act()

    def _to_act(self) -> list[int]:
        if self.phase == PLAY:
            return [self.turn]
        a = self.auction
        if self.phase == BID:
            return [s for s in a["bidders"] if a["bids"][s] is None]
        if self.phase == REVEAL:
            return [s for s in a["tied"] if a["reveals"][s] is None]
        if self.phase == ASSIGN:
            return [a["chooser"]]
        if self.phase == DITCH:
            return [s for s in range(self.players) if self.ditched[s] is None]
        if self.phase in (PREDICT, PLAY):
            return [self.turn]
        return []

    # -- the integer action path (ids: see ACTION_IDS) --------------------------------------

    def _legal_ids(self, seat: int) -> list[int]:
        """The ids ``seat`` may play now, in the order of its legal list (seat check
        included, so it is ``legal_ids`` itself: one call on a playout's hot path)."""
        phase = self.phase
        if phase == PLAY:  # the seat to play is the one seat checked here
            if seat != self.turn or type(seat) is not int:
                return []
            hand = self.hands[seat]
            trick = self.trick
            if trick:  # deck.suit_run inline: the cards of the suit led, if any
                low = SUIT_LOW[trick[0][1]]
                start = bisect_left(hand, low)
                end = bisect_left(hand, low + SUIT_SIZE, start)
                if start < end:
                    return hand[start:end]
            return hand[:]  # the ids of plays are the cards themselves
        if type(seat) is not int or not 0 <= seat < self.players:
            return []
        a = self.auction
        if phase == BID:
            if seat not in a["bidders"] or a["bids"][seat] is not None:
                return []
            return BID_IDS[: self.loon[seat] + 1]
        if phase == REVEAL:
            if seat not in a["tied"] or a["reveals"][seat] is not None:
                return []
            return [REVEALS + c for c in self.hands[seat]]
        if phase == ASSIGN:
            return [ASSIGNS + s for s in a["tied"]] if seat == a["chooser"] else []
        if phase == DITCH:
            if self.ditched[seat] is not None:
                return []
            return [PAIR_ID[x][y] for x, y in combinations(self.hands[seat], 2)]
        if phase == PREDICT and seat == self.turn:
            return list(range(PREDICTS, ASSIGNS))
        return []

    legal_ids = _legal_ids

    def _id_legal(self, seat: int, action_id: int) -> bool:
        phase = self.phase
        if action_id < REVEALS:
            if phase != PLAY or seat != self.turn:
                return False
            hand = self.hands[seat]
            if action_id not in hand:
                return False
            trick = self.trick
            if not trick:
                return True
            led = trick[0][1]
            return SUIT[action_id] == SUIT[led] or _lacks_suit(hand, SUIT_LOW[led])
        a = self.auction
        if action_id >= BIDS:
            return (
                phase == BID and seat in a["bidders"] and a["bids"][seat] is None
                and action_id - BIDS <= self.loon[seat]
            )  # fmt: skip
        if action_id < PREDICTS:
            return (
                phase == REVEAL and seat in a["tied"] and a["reveals"][seat] is None
                and action_id - REVEALS in self.hands[seat]
            )  # fmt: skip
        if action_id < ASSIGNS:
            return phase == PREDICT and seat == self.turn
        if action_id < DITCHES:
            return phase == ASSIGN and seat == a["chooser"] and action_id - ASSIGNS in a["tied"]
        if phase != DITCH or self.ditched[seat] is not None:
            return False
        x, y = PAIRS[action_id - DITCHES]
        hand = self.hands[seat]
        return x in hand and y in hand

    @staticmethod
    def _id_of(action: dict) -> int | None:
        """The id of ``action`` as strictly as the table's look-up (exact types, keys)."""
        if len(action) != 2:
            return None
        kind = action["type"]
        if kind == "play" or kind == "reveal":
            card = action.get("card")
            found = INDEX.get(card) if type(card) is str else None
            if found is None:
                return None
            return found if kind == "play" else REVEALS + found
        if kind == "bid":
            loon = action.get("loon")
            if type(loon) is not int or loon < 0 or BIDS + loon >= ACTION_IDS.size:
                return None
            return BIDS + loon
        if kind == "ditch":
            chosen = action.get("cards")
            if type(chosen) is not list or len(chosen) != 2:
                return None
            first, second = chosen
            if type(first) is not str or type(second) is not str:
                return None
            x, y = INDEX.get(first), INDEX.get(second)
            if x is None or y is None or x >= y:
                return None
            return PAIR_BASE[x] + y
        if kind == "predict":
            tricks = action.get("tricks")
            if type(tricks) is not int or not 0 <= tricks <= MAX_PREDICTION:
                return None
            return PREDICTS + tricks
        if kind == "assign":
            chosen = action.get("seat")
            if type(chosen) is not int or not 0 <= chosen < SPEC.max_players:
                return None
            return ASSIGNS + chosen
        return None

    def apply_id(self, seat: int, action_id: int) -> None:
        """As the base's, with the check of a legal play or bid inline (the hot path of a
        playout) and the log's copy made here; a refused action goes to the base, which
        words the refusal."""
        if type(seat) is int and type(action_id) is int:
            phase = self.phase
            if phase == PLAY:
                hand = self.hands[seat] if seat == self.turn else ()
                if action_id in hand:  # a play's id is its card
                    trick = self.trick
                    if (
                        not trick
                        or SUIT[action_id] == SUIT[trick[0][1]]
                        or _lacks_suit(hand, SUIT_LOW[trick[0][1]])
                    ):  # _play inline
                        hand.remove(action_id)
                        trick.append([seat, action_id])
                        if len(trick) == self.players:
                            self._finish_trick()
                        else:
                            self.turn = (seat + 1) % self.players
                        self._record([seat, PLAYS[action_id].copy()])
                        return
            elif phase == BID:
                a = self.auction
                bids = a["bids"]
                bidders = a["bidders"]
                loon = action_id - BIDS
                if seat in bidders and bids[seat] is None and 0 <= loon <= self.loon[seat]:
                    bids[seat] = loon
                    if bids.count(None) == self.players - len(bidders):  # all bids are in
                        self._resolve_bids()
                    self._record([seat, {"type": "bid", "loon": loon}])
                    return
            elif phase == DITCH:
                if (
                    DITCHES <= action_id < BIDS
                    and 0 <= seat < self.players
                    and self.ditched[seat] is None
                ):
                    x, y = PAIRS[action_id - DITCHES]
                    hand = self.hands[seat]
                    if x in hand and y in hand:
                        self._ditch(seat, x, y)
                        self._record([seat, {"type": "ditch", "cards": [CARD[x], CARD[y]]}])
                        return
            elif (
                0 <= seat < self.players
                and 0 <= action_id < ACTION_IDS.size
                and self._id_legal(seat, action_id)
            ):
                self._apply_id(seat, action_id)
                self._record([seat, _action_copy(action_id)])
                return
        super().apply_id(seat, action_id)

    def _apply_id(self, seat: int, action_id: int) -> None:
        if action_id < REVEALS:
            self._play(seat, action_id)
        elif action_id >= BIDS:
            a = self.auction
            bids = a["bids"]
            bids[seat] = action_id - BIDS
            if all(bids[s] is not None for s in a["bidders"]):
                self._resolve_bids()
        elif action_id < PREDICTS:
            a = self.auction
            reveals = a["reveals"]
            reveals[seat] = action_id - REVEALS
            if all(reveals[s] is not None for s in a["tied"]):
                self._resolve_reveals()
        elif action_id < ASSIGNS:
            self.predictions[seat] = action_id - PREDICTS
            nxt = (seat + 1) % self.players
            if self.predictions[nxt] is None:
                self.turn = nxt
            else:
                self._recruit()
        elif action_id < DITCHES:
            a = self.auction
            event = self.events[-1]
            event["chooser"] = seat
            event["result"] = "chosen"
            self._take(a["row"], action_id - ASSIGNS, 0)
            self._next_row(a["row"] + 1)
        else:
            self._ditch(seat, *PAIRS[action_id - DITCHES])

    def _ditch(self, seat: int, x: int, y: int) -> None:
        self.ditched[seat] = [x, y]
        hand = self.hands[seat]
        hand.remove(x)
        hand.remove(y)
        if None not in self.ditched:  # everybody has ditched
            self._after_ditch()

    def _play(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        trick = self.trick
        trick.append([seat, card])
        if len(trick) == self.players:
            self._finish_trick()
        else:
            self.turn = (seat + 1) % self.players

    def _is_legal(self, seat: int, action: Action) -> bool:
        """Whether ``action`` is one of ``_legal(seat)`` (same keys, same JSON types),
        checked without building the list."""
        phase, kind = self.phase, action["type"]
        if phase in (PLAY, REVEAL):  # the hot path first
            card = action.get("card")
            if len(action) != 2 or kind != phase or type(card) is not str:
                return False
            card, hand = INDEX.get(card), self.hands[seat]
            if card not in hand:
                return False
            if phase == REVEAL or not self.trick:
                return True
            led = SUIT[self.trick[0][1]]
            # Follow suit: the suit led, or any card without one.
            return SUIT[card] == led or all(SUIT[held] != led for held in hand)
        if phase == BID:
            loon = action.get("loon")
            return (
                len(action) == 2 and kind == BID and type(loon) is int
                and 0 <= loon <= self.loon[seat]
            )  # fmt: skip
        if phase == DITCH:
            chosen = action.get("cards")
            if len(action) != 2 or kind != DITCH or type(chosen) is not list or len(chosen) != 2:
                return False
            first, second = chosen
            if type(first) is not str or type(second) is not str:
                return False
            hand = self.hands[seat]
            first, second = INDEX.get(first), INDEX.get(second)
            # The legal list names the two in hand order (apply sorts them first).
            return first in hand and second in hand and first < second
        if phase == ASSIGN:
            chosen = action.get("seat")
            return (
                len(action) == 2 and kind == ASSIGN and type(chosen) is int
                and chosen in self.auction["tied"]
            )  # fmt: skip
        if phase == PREDICT:
            tricks = action.get("tricks")
            return (
                len(action) == 2 and kind == PREDICT and type(tricks) is int
                and 0 <= tricks <= MAX_PREDICTION
            )  # fmt: skip
        return False

    def apply(self, seat: int, action: Action) -> None:
        # Two ditched cards may come in any order: put them in hand order first.
        if (
            self.phase == DITCH
            and isinstance(action, dict)
            and action.get("type") == "ditch"
            and isinstance(action.get("cards"), list)
            and self._is_seat(seat)
        ):
            chosen = action["cards"]
            if all(isinstance(c, str) and INDEX.get(c) in self.hands[seat] for c in chosen):
                action = {**action, "cards": sorted(chosen, key=INDEX.__getitem__)}
        # The base's id path inline, with a cheaper copy for the log; anything refused
        # goes to the base, which words the refusal.
        if (
            type(seat) is int
            and 0 <= seat < self.players
            and type(action) is dict
            and type(action.get("type")) is str
        ):
            action_id = self._id_of(action)
            if action_id is not None and self._id_legal(seat, action_id):
                self._apply_id(seat, action_id)
                self._record([seat, _action_copy(action_id)])
                return
        super().apply(seat, action)

    def _legal(self, seat: int) -> list[Action]:
        """The table's actions of ``_legal_ids``, built afresh (phase by phase: quicker
        than copying the table's)."""
        ids = self._legal_ids(seat)
        phase = self.phase
        if phase == PLAY:
            return [{"type": "play", "card": CARD[c]} for c in ids]
        if phase == BID:
            return [{"type": "bid", "loon": i - BIDS} for i in ids]
        if phase == DITCH:
            pairs = [PAIRS[i - DITCHES] for i in ids]
            return [{"type": "ditch", "cards": [CARD[x], CARD[y]]} for x, y in pairs]
        return [_action_copy(action_id) for action_id in ids]

    # -- explanations -------------------------------------------------------------------

    def _not_your_turn(self, seat: int) -> str:
        a = self.auction
        if self.phase == BID:
            if seat not in a["bidders"]:
                return "You already have your row; the others are still bidding."
            return "You have already bid on this row; waiting for the others."
        if self.phase == REVEAL:
            if seat not in a["tied"]:
                return "Only the tied bidders reveal a card now."
            return "You have already chosen your card; waiting for the others."
        if self.phase == ASSIGN:
            return f"Seat {a['chooser'] + 1} won the reveal and chooses who takes the row."
        if self.phase == DITCH:
            return "You have already ditched your two cards; waiting for the others."
        if self.phase == PREDICT:
            return f"It is seat {self.turn + 1}'s turn to predict."
        if self.phase == PLAY:
            return f"It is seat {self.turn + 1}'s turn to play."
        return "It is not your turn."

    def _explain(self, seat: int, action: Action) -> str:
        kind = action.get("type")
        expected = {
            BID: "bid",
            REVEAL: "reveal",
            ASSIGN: "assign",
            DITCH: "ditch",
            PREDICT: "predict",
            PLAY: "play",
        }[self.phase]
        if kind != expected:
            what = {
                BID: "bid loon on the row",
                REVEAL: "reveal a card from your hand to break the tie",
                ASSIGN: "choose which tied player takes the row",
                DITCH: "ditch two cards",
                PREDICT: "predict how many tricks you will take",
                PLAY: "play a card to the trick",
            }[self.phase]
            return f"Now you {what}, not {kind!s:.20}."
        hand = self.hands[seat]
        if kind == "bid":
            return f"Bid a whole number of loon from 0 to {self.loon[seat]} (what you have)."
        if kind == "reveal":
            return "Reveal one card that is in your hand."
        if kind == "assign":
            tied = " or ".join(str(s + 1) for s in self.auction["tied"])
            return f"The row goes to one of the tied players: seat {tied}."
        if kind == "ditch":
            chosen = action.get("cards")
            if not isinstance(chosen, list) or len(chosen) != 2:
                return "Ditch exactly two cards."
            if chosen[0] == chosen[1]:
                return "Ditch two different cards."
            return "Ditch two cards that are in your hand."
        if kind == "predict":
            return f"Predict a whole number of tricks from 0 to {MAX_PREDICTION}."
        card = action.get("card")
        if not isinstance(card, str) or INDEX.get(card) not in hand:
            return "Play a card that is in your hand."
        led = self._led()
        return (
            f"You must follow suit: {rules.SUIT_NAMES[led]} was led and you hold "
            f"{rules.SUIT_NAMES[led]}; {rules.card_name(card)} is not {rules.SUIT_NAMES[led]}."
        )

    # -- views --------------------------------------------------------------------------

    def visible_scores(self, seat: int | None) -> list[int | None]:
        """Loon is behind a screen: until the game is over a seat sees its own loon only
        (None for the others) and the table sees none."""
        scores = self.scores()
        if self.is_over():
            return scores
        return [have if s == seat else None for s, have in enumerate(scores)]

    def _view(self, seat: int | None) -> dict[str, Any]:
        n = self.players
        over = self.is_over()
        a = self.auction
        mine = seat is not None
        in_play = self._round_cards()
        score_cards, predicting = in_play.cards, in_play.predicting
        rows = []
        for r, row in enumerate(self.rows):
            rows.append(
                {
                    "up": deck.ids(row["up"]),
                    "down": deck.ids(row["down"]) if mine and row["owner"] == seat else None,
                    "down_count": len(row["down"]),
                    "name": row_name(r),
                    "owner": row["owner"],
                    "loon": row["loon"],
                    "go_first": r == 0,
                }
            )
        auction = None
        if self.phase in (BID, REVEAL, ASSIGN):
            waiting = self._to_act()
            auction = {
                "step": self.phase,
                "pass": a["pass"],
                "row": a["row"],
                "bidders": list(a["bidders"]),
                "tied": list(a["tied"]),
                "chooser": a["chooser"],
                "waiting": waiting,
                "your_bid": a["bids"][seat] if mine and self.phase == BID else None,
                "your_reveal": (
                    CARD[a["reveals"][seat]]
                    if mine and self.phase == REVEAL and a["reveals"][seat] is not None
                    else None
                ),
            }
        trick = None
        if self.phase == PLAY:
            trick = {
                "leader": self.leader,
                "plays": [[s, CARD[c]] for s, c in self.trick],
                "winning": deck.trick_winner(self.trick) if self.trick else None,
                "led": self._led(),
            }
        return {
            "round": self.round,
            "rounds": self.rounds,
            "phase": self.phase,
            "hand": deck.ids(self.hands[seat]) if mine else None,
            "ditched": deck.ids(self.ditched[seat]) if mine and self.ditched[seat] else None,
            "ditch_done": [d is not None for d in self.ditched],
            "loon": [self.loon[s] if over or (mine and s == seat) else None for s in range(n)],
            "score_cards": plain_copy(score_cards),
            "rows": rows,
            "go_first": self.go_first,
            "auction": auction,
            "events": plain_copy(self.events),
            "predicting": predicting,
            "predictions": list(self.predictions) if predicting else None,
            "recruitment": self._recruitment_shown(),
            "turn": self.turn,
            "trick": trick,
            "last_trick": self._last_trick_ids(),
            "tricks": list(self.tricks),
            "won": [deck.ids(pile) for pile in self.won],
            "catalog": plain_copy(self.options.get("catalog")),
            "history": plain_copy(self.history),
        }

    # -- words ----------------------------------------------------------------------------

    def prompt(self, seat: int | None) -> str:
        """What ``seat`` must do now, in a player's words; for the table a short line."""
        if self.is_over():
            return "The game is over."
        a = self.auction
        acting = seat is not None and seat in self.to_act()
        phase = self.phase
        if phase == BID:
            row = row_name(a["row"])
            again = " (second bids)" if a["pass"] == 2 else ""
            if seat is None:
                return f"Bidding on {row}{again}."
            if acting:
                return f"Bid on {row}{again}: how much loon? (0–{self.loon[seat]})"
            if seat not in a["bidders"]:
                return "Wait: you have your row; the others are bidding."
            return "Wait: the other bids are still coming."
        if phase == REVEAL:
            row = row_name(a["row"])
            if seat is None:
                return f"Tie on {row}: the tied bidders each show a card."
            if acting:
                return f"Tie on {row}: choose a card to show (highest number wins)."
            return f"Wait: the tied bidders are choosing a card for {row}."
        if phase == ASSIGN:
            row = row_name(a["row"])
            if acting:
                return f"You won the tie-break: choose who takes {row}."
            return f"Wait: the tie-break winner chooses who takes {row}."
        if phase == DITCH:
            if seat is None:
                return "Everybody ditches two cards."
            if acting:
                return "Ditch two cards: they are out of play this round."
            return "Wait: the others are still ditching."
        if phase == PREDICT:
            if acting:
                return f"Predict: how many tricks will you take? (0–{MAX_PREDICTION})"
            if seat is None:
                return "Predictions, in turn."
            return "Wait: the predictions are still coming."
        if phase == PLAY:
            led = self._led()
            if not acting:
                return "" if seat is not None else f"Trick {sum(self.tricks) + 1} of 10."
            if led is None:
                return "Lead: play any card (red is trump)."
            colour = rules.SUIT_NAMES[led]
            if any(SUIT_LETTER[SUIT[c]] == led for c in self.hands[seat]):
                return f"Follow {colour}: play a {colour} card."
            return f"You have no {colour}: play any card."
        return ""

    def to_dict(self) -> dict[str, Any]:
        """The snapshot (see SNAPSHOT.md): the live crew cards written as ids."""
        saved = super().to_dict()
        state = saved["state"]
        state["hands"] = [deck.ids(hand) for hand in self.hands]
        # New dicts for the nested ones: the snapshot may share them with the live state
        # (base.shared_json), which must keep its integers.
        state["rows"] = [
            {**row, "up": deck.ids(live["up"]), "down": deck.ids(live["down"])}
            for row, live in zip(state["rows"], self.rows, strict=True)
        ]
        reveals = self.auction["reveals"]
        state["auction"] = {
            **state["auction"],
            "reveals": [None if c is None else CARD[c] for c in reveals],
        }
        state["ditched"] = [None if d is None else deck.ids(d) for d in self.ditched]
        state["trick"] = [[seat, CARD[card]] for seat, card in self.trick]
        state["last_trick"] = self._last_trick_ids()
        state["recruitment"] = self._recruitment_shown()
        state["won"] = [deck.ids(pile) for pile in self.won]
        return saved

    # -- the moments every screen shows (companion/games/moments.py) -----------------------

    def result(self) -> dict[str, Any] | None:
        """The last trick taken, or the round it ended (tricks, predictions and the loon
        each seat won or lost; loon totals stay behind the screens)."""
        last = self._last_trick_ids()
        if last is not None and sum(self.tricks) < TRICKS:
            number = sum(self.tricks)
            return m.result_card(
                f"trick-{self.round}-{number}",
                "trick",
                f"Trick {number} of {TRICKS} · round {self.round} of {self.rounds}",
                self._took(last),
                cards=last["plays"],
            )
        if not self.history:
            return None
        done = self.history[-1]
        paid, tricks, predictions = done["paid"], done["tricks"], done["predictions"]
        best = max(paid)
        gainers = [s for s, p in enumerate(paid) if p == best]
        columns = ["Tricks", *(["Predicted"] if predictions else []), "Loon"]
        rows = [
            m.row(
                [s],
                [tricks[s], *([predictions[s]] if predictions else []), f"{paid[s]:+d}"],
                mark=s in gainers,
            )
            for s in range(self.players)
        ]
        ended = done["round"] == self.round and last is not None
        return m.result_card(
            f"round-{done['round']}",
            "round",
            f"Round {done['round']} of {self.rounds} is over",
            [
                *m.joined([m.seat(s) for s in gainers]),
                f" gain{'s' if len(gainers) == 1 else ''} the most: {best:+d} loon",
            ],
            cards=last["plays"] if ended else [],
            columns=columns,
            rows=rows,
            lines=[self._took(last, "the last trick")] if ended else [],
        )

    def _took(self, last: dict[str, Any], what: str = "the trick") -> list[Any]:
        winner = last["winner"]
        won_with = next(c for s, c in last["plays"] if s == winner)
        return [m.seat(winner), f" takes {what} with ", m.card(won_with)]

    def chapter(self) -> str:
        return f"Round {self.round}"

    def public_words(self, seat: int, action: Action) -> str | None:
        kind = action.get("type")
        if kind == "bid":
            return "Bids secretly"
        if kind == "reveal":
            return "Chooses a card to show"
        if kind == "ditch":
            return "Ditches two cards face down"
        return self.describe(action)

    def shown(self) -> list[Any] | None:
        """The bids (or the cards shown for a tie) of the auction step just settled."""
        event = next((e for e in reversed(self.events) if e.get("bids")), None)
        if event is None:
            return None
        bids = event["bids"]
        shown = [[m.seat(s), f" {bid}"] for s, bid in enumerate(bids) if bid is not None]
        return [f"Bids on {row_name(event['row'])}: ", *m.joined(shown, "; ")]

    def _last_trick_ids(self) -> dict[str, Any] | None:
        """``last_trick`` with its cards written as ids (a new dict)."""
        last = self.last_trick
        if last is None:
            return None
        return {**last, "plays": [[seat, CARD[card]] for seat, card in last["plays"]]}

    def _cards_from_ids(self) -> None:
        """Turn the live cards of a snapshot just loaded (ids) into indexes."""
        self.hands = [sorted(deck.indexes(hand)) for hand in self.hands]
        # New dicts: the loaded JSON may be shared (base.shared_json) and must keep its ids.
        self.rows = [
            {**row, "up": deck.indexes(row["up"]), "down": deck.indexes(row["down"])}
            for row in self.rows
        ]
        reveals = self.auction["reveals"]
        self.auction = {
            **self.auction,
            "reveals": [None if c is None else INDEX[c] for c in reveals],
        }
        self.ditched = [None if d is None else deck.indexes(d) for d in self.ditched]
        self.trick = [[seat, INDEX[card]] for seat, card in self.trick]
        last = self.last_trick
        if last is not None:
            plays = [[seat, INDEX[card]] for seat, card in last["plays"]]
            self.last_trick = {**last, "plays": plays}
        self.won = [deck.indexes(pile) for pile in self.won]

    def doing(self) -> str:
        return {
            BID: "to bid",
            REVEAL: "to show a card",
            ASSIGN: "to choose",
            DITCH: "to ditch",
            PREDICT: "to predict",
        }.get(self.phase, "to play")

    def hand_of(self, seat: int) -> list[str]:
        return deck.ids(self.hands[seat])

    def why_not(self, seat: int, card: str) -> dict[str, str]:
        led = self._led() if self.phase == PLAY else None
        if led is None or not isinstance(card, str) or INDEX.get(card) not in self.hands[seat]:
            return super().why_not(seat, card)
        colour = rules.SUIT_NAMES[led]
        return {
            "reason": (
                f"{face_text(CARD[self.trick[0][1]])} was led and you hold {colour}: you must "
                f"follow suit, so {face_text(card)} waits."
            ),
            "anchor": "follow-suit",
        }

    def describe(self, action: Action) -> str:
        """An action in a player's words: "Bid 3 loon", "Show Red 7", "Give Row 2 to seat 3",
        "Ditch Red 7 and Blue 9", "Predict 4 tricks", "Play Green 12"."""
        kind = action.get("type")
        if kind == "bid":
            return f"Bid {action['loon']} loon"
        if kind == "reveal":
            return f"Show {face_text(action['card'])}"
        if kind == "assign":
            row = self.auction.get("row")
            where = f"{row_name(row)} " if row is not None else "the row "
            return f"Give {where}to seat {action['seat'] + 1}"
        if kind == "ditch":
            return "Ditch " + " and ".join(face_text(c) for c in action["cards"])
        if kind == "predict":
            n = action["tricks"]
            return f"Predict {n} trick{'' if n == 1 else 's'}"
        if kind == "play":
            return f"Play {face_text(action['card'])}"
        return super().describe(action)


class PirateTricksGame(Game):
    spec = SPEC
    state_class = PirateTricksState
    sheet_class = PirateTricksSheet

    def state_from_dict(self, d: dict[str, Any]) -> State:
        state = super().state_from_dict(d)
        try:
            state._cards_from_ids()
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(
                f"not a Pirate Tricks snapshot: a card or a card list is wrong ({error!r:.60})"
            ) from None
        if state.phase == BID:
            _cover_bids(max(state.loon))
        return state

    def catalog(self, options: dict | None = None) -> dict:
        """The score cards (seed and house values) for these options."""
        return rules.load_catalog((options or {}).get("catalog") or None)

    def option_from_form(self, name: str, form: Mapping[str, Any]) -> Any:
        """``catalog`` from ``option_catalog.html``: the cards not ticked ``catalog_keep``
        (taken out) and the changes written in ``catalog_changes`` (cards to add or
        replace, as JSON). None when nothing changed or the form did not carry the boxes."""
        if name != "catalog":
            return super().option_from_form(name, form)
        return rules.catalog_from_form(form)

    def card_faces(self, options=None) -> dict[str, dict[str, str]]:
        """Every crew card (``"R7"`` -> Red 7, colour R/G/B); score cards are shown by
        name from the view's catalog entries, not as faces."""
        return {
            card: {"text": face_text(card), "label": face_text(card), "colour": rules.suit(card)}
            for card in rules.crew_deck(5)
        }

    def check_deal(self, players: int, options: dict, deal: dict) -> None:
        unknown = sorted(set(deal) - {"score_cards", "hands", "rows"})
        if unknown:
            raise IllegalAction(f"A Pirate Tricks deal has no {', '.join(unknown)}.")
        given = deal.get("score_cards")
        if given is not None:
            if not isinstance(given, dict) or set(given) != set(SCORE_KINDS):
                raise IllegalAction(
                    "score_cards needs recruitment (two ids), treasure and capture."
                )
            rec = given["recruitment"]
            if not isinstance(rec, list) or len(rec) != 2 or len(set(map(str, rec))) != 2:
                raise IllegalAction("Name two different recruitment cards.")
            for kind in SCORE_KINDS:
                ids = rec if kind == "recruitment" else [given[kind]]
                known = _index(options)[kind]
                for card in ids:
                    if not isinstance(card, str) or card not in known:
                        raise IllegalAction(f"There is no {kind} card {card!r}.")
        if ("hands" in deal) != ("rows" in deal):
            raise IllegalAction("A deal gives both the hands and the rows, or neither.")
        if "hands" not in deal:
            return
        hands, rows = deal["hands"], deal["rows"]
        if not isinstance(hands, list) or len(hands) != players:
            raise IllegalAction(f"Deal one hand to each of the {players} players.")
        if not isinstance(rows, list) or len(rows) != players:
            raise IllegalAction(f"Lay out one row for each of the {players} players.")
        dealt: list = []
        for hand in hands:
            if not isinstance(hand, list) or len(hand) != HAND_SIZE:
                raise IllegalAction(f"Each hand has {HAND_SIZE} crew cards.")
            dealt.extend(hand)
        for row in rows:
            if (
                not isinstance(row, dict)
                or set(row) != {"up", "down"}
                or not isinstance(row["up"], list)
                or not isinstance(row["down"], list)
                or len(row["up"]) != ROW_UP
                or len(row["down"]) != ROW_DOWN
            ):
                raise IllegalAction(
                    f"Each row has {ROW_UP} face-up and {ROW_DOWN} face-down crew cards."
                )
            dealt.extend(row["up"] + row["down"])
        deck = rules.crew_deck(players)
        for card in dealt:
            if not isinstance(card, str) or card not in deck:
                raise IllegalAction(f"{card!r} is not a crew card in the {players}-player deck.")
        if len(set(dealt)) != len(dealt):
            raise IllegalAction("A crew card is dealt twice.")


GAME = PirateTricksGame()
