"""Shoot! in engine mode: the app deals, collects sealed bids, runs the tricks and scores.

Settings
    ``players`` 2 to 5. Options: ``schedule`` (list of hand sizes, one per deal; default
    ``[10, 9, ..., 1]``; every deal must leave a card to turn up for trump, at most 30
    deals) and ``chips`` (bool, default false: keep a pot and stacks as well as scores).

Explicit first deal (``deal``)
    ``{"dealer": seat, "hands": [[card, ...] per seat], "trump": card}``: the first deal
    uses these hands (each of the schedule's first size) and this turned-up card exactly;
    the cards left over form the out-of-play stock. ``dealer`` may be left out, and then
    the one-card draw decides. Later deals are shuffled from the seed.

Actions
    ``{"type": "bid", "bid": n}`` while bidding: every seat may act; a seat that has
    already locked a bid may change it until the last missing bid arrives, and at that
    moment all bids are revealed. ``{"type": "play", "card": "QH"}`` during play.

Phases ``"bid"``, ``"play"``, ``"over"``. The next deal starts as soon as the last trick of
a deal is taken; the view keeps that trick (``last_trick``) and the score table
(``results``) on show.

View (``view(None)`` for the table), beside the common block (``scores`` are the running
totals): ``phase``, ``deal`` / ``deals`` / ``schedule``, ``hand_size``, ``dealer``,
``draw`` (rounds of ``[seat, card]``, or null with an explicit dealer), ``trump`` /
``trump_suit``, ``hand_sizes``, ``bids_in`` (who has locked a bid), ``bids`` (all null
until revealed), ``bid_total`` against ``tricks_available``, ``trick`` (``[seat, card]`` in
order), ``played`` (the cards of this deal's finished tricks, in order), ``led``,
``winning``, ``last_trick``, ``taken``, ``turn``, ``results`` (one row per
finished deal: cards, dealer, trump, bids, tricks, points, totals, and chips), ``chips``
(pot, stacks, stake, shared at the end; null without the option). A seat's view adds
``hand``, ``my_bid``, ``legal_cards`` and ``max_bid``.

Our reading where the rulebook is silent (also in ``templates/games/shoot/reading.html``):

- First dealer: one card each from a shuffled pack; the highest rank deals, suits do not
  count; players tied for highest draw again from the same pack until one is highest. The
  whole draw is public (``view["draw"]``).

Ways of dealing (``ShootGame.dealings``; a game keeps its own, see ``State.dealing``):
1 shuffles each pack whole with ``rng(seed, "draw")`` and ``rng(seed, "deal", k)``; 2, every
new game's, orders only the cards a deal uses, by ``cards.keyed_order`` of the same texts
(the draw's packs are ``"<seed>:draw:<k>"``). Both deal one card at a time from the
dealer's left and turn the next card up for trump; what is left is the stock.
- Any total of bids is allowed (no "hook" rule); a void player may discard or trump.
- Undo (the host's): the bids of a deal are one sealed step. Before they are revealed the
  host takes back one bid at a time (the notice does not say what it was); once they are
  revealed, undoing the last bid takes back the whole bidding of that deal, every bid, so
  nobody bids again alone knowing the others' bids.
- Rematch: the rulebook chooses the first dealer by a one-card draw, so a rematch draws
  again (from its own seed) rather than passing the deal on.
- Chips: see :func:`rules.settle_chips` (negative scores paid in first, then positive
  ones taken out; when the pot is short every player adds another stake first); at the
  end the pot is shared equally and any odd chips stay in it. A stack counts chips won or
  lost including the stake, so it starts at -50.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from .. import moments as m
from ..base import Action, ActionIds, Game, IllegalAction, State, json_is_fresh, plain_copy
from ..cards import (
    CARD_IDS,
    CARD_INDEX,
    RANKS,
    SUIT_INDEX,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    card_ids,
    card_ints,
    card_name,
    card_text,
    is_standard_card,
    keyed_order,
    rank_of,
    reseeded,
    shuffle_steps,
    standard_faces,
    suit_run,
    trick_winner_ints,
)
from ..spec import is_whole
from . import rules
from .sheet import ShootSheet
from .spec import SPEC

BID, PLAY, OVER = "bid", "play", "over"
# The integer cards, shuffled like standard_deck(); a tuple, which [*DECK] copies at once
# (a range is counted out card by card).
DECK = tuple(range(len(CARD_IDS)))
SHUFFLE_STEPS = shuffle_steps(len(DECK))
EVERYONE = [tuple(range(players)) for players in range(SPEC.max_players + 1)]
SUIT_SINGULAR = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
BONUS = rules.BONUS

# The fixed numbering of Shoot!'s actions: a play's id is its integer card, a bid of n is
# BIDS + n (no hand holds more than the 51 cards left beside the trump).
BIDS = len(CARD_IDS)
ACTION_IDS = ActionIds(
    [{"type": "play", "card": card} for card in CARD_IDS]
    + [{"type": "bid", "bid": bid} for bid in range(BIDS)]
)
ACTIONS = [ACTION_IDS.action_of(action_id) for action_id in range(len(ACTION_IDS))]  # private
BID_IDS = [tuple(range(BIDS, BIDS + size + 1)) for size in range(BIDS)]
# A snapshot's last_trick is the state's finished_trick (see ShootState), and back.
SAVED = {"last_trick": "finished_trick"}
LOADED = {"finished_trick": "last_trick"}
SUIT_SIZE = len(RANKS)
SUIT_START = tuple(suit * SUIT_SIZE for suit in SUIT_INDEX)  # card -> its suit's first card
#: [trump suit][suit led][card]: a card's worth in a trick, as trick_winner_ints orders them
#: (highest trump, else highest of the suit led; -1 for a card that cannot win).
TRICK_VALUE = tuple(
    tuple(
        tuple(
            card + 100 if suit == trump else card if suit == led else -1
            for card, suit in enumerate(SUIT_INDEX)
        )
        for led in range(len(SUITS))
    )
    for trump in range(len(SUITS))
)
#: The same row of TRICK_VALUE by the trump card and the card led (two look-ups less a
#: trick): TRICK_VALUES[trump card][card led][card].
TRICK_VALUES = tuple(
    tuple(TRICK_VALUE[SUIT_INDEX[trump]][SUIT_INDEX[led]] for led in DECK) for trump in DECK
)


def sort_hand(hand: list[str]) -> list[str]:
    """Suit by suit (clubs, diamonds, hearts, spades), low to high."""
    return sorted(hand, key=lambda card: (SUITS.index(card[1]), RANKS.index(card[0])))


def draw_for_dealer(seed: int, players: int, dealing: int) -> list[list[list]]:
    """The one-card draw for the first dealer: rounds of ``[seat, card]``, ties redraw.
    The second way of dealing draws from packs in :func:`keyed_order` (see
    :func:`keyed_draw_for_dealer`); what follows is the first.

    Drawn as integer cards (the same shuffles as of the ids; a rank is ``card % 13``).
    Cards come off the end of a pack shuffled with ``rng(seed, "draw")``, which
    ``Random.shuffle`` fills from the end: each card is shuffled into place as it is
    drawn (the same draws of the generator, in the same order), so a draw of a few cards
    costs a few steps of the shuffle, not all of them."""
    if dealing != 1:
        return keyed_draw_for_dealer(seed, players)
    getrandbits = reseeded(f"{seed}:draw").getrandbits  # rng(seed, "draw")'s draws
    deck = [*DECK]
    left = len(deck)  # the cards still in the pack: deck[:left], shuffled from the end
    contenders = list(range(players))
    rounds: list[list[list]] = []
    while True:
        if left < len(contenders):
            for i in range(left - 1, 0, -1):  # the shuffle's remaining steps, then a new pack
                bits = (i + 1).bit_length()
                j = getrandbits(bits)
                while j > i:
                    j = getrandbits(bits)
            deck = [*DECK]
            left = len(deck)
        drawn = []  # this round's [seat, card id]
        top = -1  # the highest rank drawn so far, and the seats that drew it
        for seat in contenders:
            left -= 1
            i = left
            if i:  # Random.shuffle's step for place i (_randbelow(i + 1)); place 0 has none
                bits = (i + 1).bit_length()
                j = getrandbits(bits)
                while j > i:
                    j = getrandbits(bits)
                deck[i], deck[j] = deck[j], deck[i]
            card = deck[i]
            drawn.append([seat, CARD_IDS[card]])
            if card % SUIT_SIZE > top:
                top = card % SUIT_SIZE
                highest = [seat]
            elif card % SUIT_SIZE == top:
                highest.append(seat)
        rounds.append(drawn)
        if len(highest) == 1:
            return rounds
        contenders = highest


def keyed_draw_for_dealer(seed: int, players: int) -> list[list[list]]:
    """The same draw from packs in keyed orders: pack k is ``keyed_order("<seed>:draw:k")``
    and its cards are drawn from the front, a new pack when it has too few left. A keyed
    order's first places do not depend on how many are asked for, so a pack is ordered
    only as far as the draw has gone (one card each, unless the highest ties)."""
    pack_number, text = 0, f"{seed}:draw:0"
    pack, ordered = keyed_order(text, len(DECK), players), players  # its first places
    used = 0  # cards drawn from the pack
    contenders = list(range(players))
    rounds: list[list[list]] = []
    while True:
        wanted = used + len(contenders)
        if wanted > len(DECK):  # too few cards left: a new pack
            pack_number += 1
            text, used, wanted = f"{seed}:draw:{pack_number}", 0, len(contenders)
            pack, ordered = keyed_order(text, len(DECK), wanted), wanted
        elif wanted > ordered:  # a tie to draw again: the rest of the pack in order
            pack, ordered = keyed_order(text, len(DECK), len(DECK)), len(DECK)
        drawn = [DECK[i] for i in pack[used:wanted]]
        used = wanted
        rounds.append(
            [[seat, CARD_IDS[card]] for seat, card in zip(contenders, drawn, strict=True)]
        )
        ranks = [card % SUIT_SIZE for card in drawn]
        top = max(ranks)
        contenders = [seat for seat, rank in zip(contenders, ranks, strict=True) if rank == top]
        if len(contenders) == 1:
            return rounds


def draw_winner(rounds: list[list[list]]) -> int:
    """The seat that drew the highest card in the deciding (last) round."""
    return max(rounds[-1], key=lambda play: rank_of(play[1]))[0]


class ShootState(State):
    """Cards are integers in memory (:mod:`..cards`: sorted hands, suits as runs) and ids
    in the snapshot: :meth:`to_dict` and :meth:`ShootGame.state_from_dict` convert
    ``hands``, ``trump``, ``stock``, ``played`` and ``trick``. The public records
    (``draw``, ``results``) keep ids. The last trick is kept as it was played
    (``finished_trick``) and written out as the snapshot and the views show it
    (:attr:`last_trick`) only when one of them asks: a playout takes many tricks and
    reads none."""

    action_ids = ACTION_IDS

    phase: str
    draw: list | None
    first_dealer: int
    deal_index: int
    dealer: int
    hand_size: int
    hands: list[list[int]]
    trump: int
    stock: list[int]
    bids: list[int | None]
    taken: list[int]
    played: list[int]
    trick: list[list[int]]  # [seat, card]
    turn: int | None
    #: The last trick taken: [deal number, its plays ([seat, card]), the winner], or None.
    finished_trick: list | None
    results: list[dict]
    totals: list[int]
    chips: dict | None

    # -- dealing --------------------------------------------------------------------------

    def _setup(self) -> None:
        n = self.players
        explicit = self.deal
        if explicit is not None and "dealer" in explicit:
            self.draw = None
            self.first_dealer = explicit["dealer"]
        else:
            self.draw = draw_for_dealer(self.seed, n, self.dealing)
            self.first_dealer = draw_winner(self.draw)
        self.results = []
        self.totals = [0] * n
        self.finished_trick = None
        if self.options["chips"]:
            pot, stacks = rules.buy_in(n)
            self.chips = {"pot": pot, "stacks": stacks, "stake": rules.STAKE, "shared": None}
        else:
            self.chips = None
        self._start_deal(0)

    def _start_deal(self, index: int) -> None:
        """Deal deal ``index``: the explicit first deal, else shuffled from the seed."""
        n = self.players
        size = self.options["schedule"][index]
        self.deal_index = index
        self.dealer = dealer = (self.first_dealer + index) % n  # rules.dealer_of inline
        self.hand_size = size
        if index == 0 and self.deal is not None:
            hands = [card_ints(hand) for hand in self.deal["hands"]]
            trump = CARD_INDEX[self.deal["trump"]]
            used = {card for hand in hands for card in hand} | {trump}
            self.hands = [sorted(hand) for hand in hands]
            self.trump = trump
            self.stock = [card for card in DECK if card not in used]
        else:
            end = n * size  # the hands' cards, then the trump
            if self.dealing == 2:  # only the cards dealt are drawn; the rest stay aside
                deck = keyed_order(f"{self.seed}:deal:{index}", len(DECK), end + 1)
            else:
                # shuffled(DECK, rng(self.seed, "deal", index)) inline: the same text seeds
                # the generator and the loop is cards.shuffle's, so the draws and the order
                # are the same (from the thread's one reseeded generator: see
                # cards.reseeded). DECK is shuffled like standard_deck(): a shuffle looks
                # only at the length.
                getrandbits = reseeded(f"{self.seed}:deal:{index}").getrandbits
                deck = [*DECK]
                for i, bits in SHUFFLE_STEPS:
                    j = getrandbits(bits)
                    while j > i:
                        j = getrandbits(bits)
                    deck[i], deck[j] = deck[j], deck[i]
            # deal_one_at_a_time(deck, n, size, first=dealer + 1, sort=True) inline, seat
            # by seat in a plain loop: cheaper than a comprehension for a few seats
            first = dealer + 1
            if n == 2:  # two seats: the dealer's left takes cards 0, 2, 4 ..., the dealer 1, 3 ...
                left, right = deck[0:end:2], deck[1:end:2]
                left.sort()
                right.sort()
                self.hands = [left, right] if dealer else [right, left]
            else:
                self.hands = hands = []
                for seat in EVERYONE[n]:
                    hand = deck[(seat - first) % n : end : n]
                    hand.sort()
                    hands.append(hand)
            self.trump = deck[end]
            self.stock = deck[end + 1 :]
        self.bids = [None] * n
        self.taken = [0] * n
        self.played = []
        self.trick = []
        self.turn = None
        self.phase = BID

    # -- the contract ---------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[int]:
        return list(self.totals)

    def to_act(self) -> list[int]:
        """As the base's (one call less: the phase says whether the game is over). A
        list is built as ``[*items]`` on the hot paths: no call, unlike ``list(items)``."""
        if self.phase == PLAY:
            return [self.turn]
        return [*EVERYONE[self.players]] if self.phase == BID else []

    def _to_act(self) -> list[int]:
        if self.phase == PLAY:
            return (self.turn,)
        if self.phase == BID:
            return EVERYONE[self.players]
        return ()

    # The id path: id c (0-51) plays card c, id BIDS + n bids n (see ACTION_IDS).

    def _legal_ids(self, seat: int) -> list[int]:
        """As the base's :meth:`legal_ids`, seat check included (so it is the method
        itself: one call on a playout's hot path)."""
        if type(seat) is not int:
            return []
        if self.phase == PLAY:
            if seat != self.turn:
                return []
            hand = self.hands[seat]
            trick = self.trick
            if trick:  # the suit led if the hand holds it (suit_run inline), else any card
                low = SUIT_START[trick[0][1]]
                run = hand[bisect_left(hand, low) : bisect_left(hand, low + SUIT_SIZE)]
                if run:
                    return run
            return hand.copy()  # the ids of plays are the cards themselves
        if self.phase == BID and 0 <= seat < self.players:
            return [*BID_IDS[self.hand_size]]
        return []

    legal_ids = _legal_ids

    def apply_id(self, seat: int, action_id: int) -> None:
        """As the base's, with the check of a legal play or bid and the move itself
        (:meth:`_apply_id`) inline: the hot path of a playout. Anything else goes to the
        base, which refuses it (or, should this check be stricter than ``_id_legal``,
        applies it all the same)."""
        phase = self.phase
        if (
            phase == PLAY
            # a hand holds only cards (0-51): no other integer is in it
            and type(action_id) is int
            and seat == self.turn
            and type(seat) is int
            and action_id in (hand := self.hands[seat])
            and (
                not (trick := self.trick)
                or SUIT_START[action_id] == (low := SUIT_START[trick[0][1]])
                or bisect_left(hand, low) == bisect_left(hand, low + SUIT_SIZE)
            )
        ):
            hand.remove(action_id)  # a play: the id is the card
            trick.append([seat, action_id])
            players = self.players
            if len(trick) < players:
                self.turn = (seat + 1) % players
            elif players == 2:  # _take_trick for two plays inline: half the actions
                led = trick[0][1]
                value = TRICK_VALUES[self.trump][led]
                winner = seat if value[action_id] > value[led] else trick[0][0]
                played = self.played
                played.append(led)
                played.append(action_id)
                self.taken[winner] += 1
                self.finished_trick = [self.deal_index + 1, trick, winner]
                self.trick = []
                self.turn = winner
                if not hand:  # both hands are as long: both are empty
                    self._finish_deal()
            else:
                self._take_trick()
        elif (
            phase == BID
            and type(action_id) is int
            and type(seat) is int
            and 0 <= seat < self.players
            and 0 <= action_id - BIDS <= self.hand_size
        ):
            bids = self.bids
            bids[seat] = action_id - BIDS
            if None not in bids:
                self.phase = PLAY
                self.turn = (self.dealer + 1) % self.players
        else:
            super().apply_id(seat, action_id)
            return
        self._record([seat, ACTIONS[action_id].copy()])

    def _id_legal(self, seat: int, action_id: int) -> bool:
        if action_id >= BIDS:
            return self.phase == BID and action_id - BIDS <= self.hand_size
        if self.phase != PLAY or seat != self.turn:
            return False
        hand = self.hands[seat]
        if action_id not in hand:
            return False
        trick = self.trick
        if not trick:
            return True
        led = SUIT_INDEX[trick[0][1]]
        return SUIT_INDEX[action_id] == led or not suit_run(hand, led)

    @staticmethod
    def _id_of(action: dict) -> int | None:
        """The id of ``action`` as strictly as the table's look-up (exact types, keys)."""
        if len(action) != 2:
            return None
        kind = action["type"]
        if kind == "play":
            card = action.get("card")
            return CARD_INDEX.get(card) if type(card) is str else None
        if kind == "bid":
            bid = action.get("bid")
            return BIDS + bid if type(bid) is int and 0 <= bid < BIDS else None
        return None

    def _led(self) -> int | None:
        """The suit led (0 clubs .. 3 spades), None before the first card of a trick."""
        return SUIT_INDEX[self.trick[0][1]] if self.trick else None

    def _apply_id(self, seat: int, action_id: int) -> None:
        if action_id >= BIDS:
            bids = self.bids
            bids[seat] = action_id - BIDS
            if None not in bids:
                self.phase = PLAY
                self.turn = (self.dealer + 1) % self.players
            return
        self.hands[seat].remove(action_id)  # a play: the id is the card
        trick = self.trick
        trick.append([seat, action_id])
        if len(trick) < self.players:
            self.turn = (seat + 1) % self.players
            return
        self._take_trick()

    def _take_trick(self) -> None:
        trick = self.trick
        # trick_winner_ints inline, by a table of what each card is worth in this trick
        value = TRICK_VALUES[self.trump][trick[0][1]]
        best = -1
        played = self.played
        for who, card in trick:
            if value[card] > best:
                best = value[card]
                winner = who
            played.append(card)
        self.taken[winner] += 1
        self.finished_trick = [self.deal_index + 1, trick, winner]
        self.trick = []
        self.turn = winner
        if not self.hands[winner]:  # every hand is as long: all are empty
            self._finish_deal()

    @property
    def last_trick(self) -> dict | None:
        """The last trick taken as the views and the snapshot show it: ``{"deal",
        "plays" ([seat, card id] in order), "winner"}`` (a new dict each time), or None."""
        finished = self.finished_trick
        if finished is None:
            return None
        deal, plays, winner = finished
        return {
            "deal": deal,
            "plays": [[seat, CARD_IDS[card]] for seat, card in plays],
            "winner": winner,
        }

    def _finish_deal(self) -> None:
        bids, taken = self.bids, self.taken
        # rules.deal_scores inline, and the totals in the same loop: a deal ends every
        # dozen actions or so of a two-player playout, and zip, map and comprehensions
        # each cost an object or a call. test_sweep compares every row with deal_scores.
        points = []
        totals = []
        for seat, total in enumerate(self.totals):
            tricks = taken[seat]
            points.append(tricks + BONUS if tricks == bids[seat] else tricks - BONUS)
            totals.append(total + points[seat])
        self.totals = totals
        deal = self.deal_index + 1
        result = {
            "deal": deal,
            "cards": self.hand_size,
            "dealer": self.dealer,
            "trump": CARD_IDS[self.trump],
            "bids": bids,
            "tricks": taken,
            "points": points,
            "totals": totals,
        }
        if deal == len(self.options["schedule"]):  # the row keeps its own lists; before
            # another deal no copy is needed: _start_deal gives the state new bids and
            # tricks, and the next deal's totals are a new list (none changes in place)
            result["bids"] = bids.copy()
            result["tricks"] = taken.copy()
            result["totals"] = totals.copy()
        chips = self.chips
        if chips is not None:
            settled = rules.settle_chips(chips["pot"], chips["stacks"], points)
            chips["pot"] = settled["pot"]
            chips["stacks"] = list(settled["stacks"])
            result["chips"] = settled
        self.results.append(result)
        if deal < len(self.options["schedule"]):
            self._start_deal(deal)
            return
        self.phase = OVER
        self.turn = None
        if chips is not None:
            chips.update(rules.share_pot(chips["pot"], chips["stacks"]))

    def sealed_step(self) -> str | None:
        return f"the bids of deal {self.deal_index + 1}" if self.phase == BID else None

    def to_dict(self) -> dict[str, Any]:
        """As the base, with card ids for the integers (the snapshot format is ids) and
        ``last_trick`` in the place of ``finished_trick``."""
        d = super().to_dict()
        # new lists only: never change what the base gave
        state = {LOADED.get(key, key): value for key, value in d["state"].items()}
        if "last_trick" in state:
            state["last_trick"] = self.last_trick
        state["hands"] = [card_ids(hand) for hand in self.hands]
        state["trump"] = CARD_IDS[self.trump]
        state["stock"] = card_ids(self.stock)
        state["played"] = card_ids(self.played)
        state["trick"] = [[seat, CARD_IDS[card]] for seat, card in self.trick]
        return {**d, "state": state}

    # -- words for people -----------------------------------------------------------------

    def prompt(self, seat: int | None) -> str:
        if self.phase == OVER:
            return "The game is over."
        deal = f"Deal {self.deal_index + 1} of {len(self.options['schedule'])}"
        if self.phase == BID:
            if seat is None:
                count = sum(b is not None for b in self.bids)
                return f"{deal}: {count} of {self.players} bids are in."
            if self.bids[seat] is None:
                return f"Bid: how many tricks will you take? (0–{self.hand_size})"
            return (
                f"Your bid of {self.bids[seat]} is in: you may change it until the last "
                "bid arrives."
            )
        trump = f"{SUIT_SYMBOLS[self._trump_suit()]} is trump"
        led = self._led()
        led = None if led is None else SUITS[led]
        lead_card = f"{card_text(CARD_IDS[self.trick[0][1]])} led" if self.trick else ""
        if seat is None:
            done = sum(self.taken) + 1
            where = f"{deal}: trick {done} of {self.hand_size}"
            return f"{where}, {lead_card}." if lead_card else f"{where}."
        if seat != self.turn:
            if lead_card:
                return f"{lead_card}."
            return "Wait: another player is to lead."
        if led is None:
            return f"Lead: play any card ({trump})."
        symbol = SUIT_SYMBOLS[led]
        if suit_run(self.hands[seat], SUITS.index(led)):
            return f"{lead_card} — follow {symbol}: play a {SUIT_SINGULAR[led]}."
        return f"{lead_card} — no {symbol} in your hand: play a trump or any card ({trump})."

    def doing(self) -> str:
        return "to bid" if self.phase == BID else "to play"

    # -- the moments every screen shows (companion/games/moments.py) -----------------------

    def result(self) -> dict[str, Any] | None:
        """The last trick taken, or the deal it ended (bids, tricks, points, totals)."""
        last = self.last_trick
        if last is None:
            return None
        deal, plays, winner = last["deal"], last["plays"], last["winner"]
        won_with = next(c for s, c in plays if s == winner)
        deals = len(self.options["schedule"])
        if not self.results or self.results[-1]["deal"] != deal:
            number = sum(self.taken)
            return m.result_card(
                f"trick-{deal}-{number}",
                "trick",
                f"Trick {number} of {self.hand_size} · deal {deal} of {deals}",
                [m.seat(winner), " takes the trick with ", m.card(won_with)],
                cards=plays,
            )
        done = self.results[-1]
        totals = done["totals"]
        best = max(totals)
        leaders = [s for s, total in enumerate(totals) if total == best]
        lead = m.joined([m.seat(s) for s in leaders])
        verb = "win" if self.phase == OVER else "lead"
        verb += "" if len(leaders) > 1 else "s"
        made = [s for s in range(self.players) if done["tricks"][s] == done["bids"][s]]
        return m.result_card(
            f"deal-{deal}",
            "deal",
            f"Deal {deal} of {deals} is over",
            [*lead, f" {verb} with {best}"],
            cards=plays,
            columns=["Bid", "Tricks", "Points", "Total"],
            rows=[
                m.row(
                    [s],
                    [done["bids"][s], done["tricks"][s], f"{done['points'][s]:+d}", totals[s]],
                    mark=s in made,
                )
                for s in range(self.players)
            ],
            lines=[
                [m.seat(winner), " took the last trick with ", m.card(won_with), "."],
                [f"{len(made)} of {self.players} made their bid exactly (+{BONUS} each)."],
            ],
        )

    def chapter(self) -> str:
        return f"Deal {self.deal_index + 1}"

    def public_words(self, seat: int, action: Action) -> str | None:
        """A bid is sealed: the table sees only that one is in (a change shows nothing)."""
        if self.phase == BID:
            return "Locks in a bid" if self.bids[seat] is None else None
        return self.describe(action)

    def shown(self) -> list[Any] | None:
        """The bids, shown together once the last is in."""
        parts = [
            "Bids shown: ",
            *m.joined([[m.seat(s), f" {bid}"] for s, bid in enumerate(self.bids)], "; "),
        ]
        total = sum(self.bids)
        tricks = f"{self.hand_size} trick{'s' if self.hand_size != 1 else ''}"
        parts.append(f" ({total} bid for {tricks})")
        return parts

    def hand_of(self, seat: int) -> list[str]:
        return card_ids(self.hands[seat])

    def _trump_suit(self) -> str:
        return SUITS[SUIT_INDEX[self.trump]]

    def why_not(self, seat: int, card: str) -> dict[str, str]:
        led = self._led()
        if self.phase != PLAY or led is None or CARD_INDEX.get(card) not in self.hands[seat]:
            return super().why_not(seat, card)
        led = SUITS[led]
        return {
            "reason": (
                f"{card_text(CARD_IDS[self.trick[0][1]])} was led and you hold "
                f"{SUIT_NAMES[led]}: "
                f"you must follow suit, so the {card_name(card)} waits."
            ),
            "anchor": "follow-suit",
        }

    def describe(self, action: dict) -> str:
        if action.get("type") == "bid":
            return f"Bid {action.get('bid')}"
        if action.get("type") == "play" and is_standard_card(action.get("card")):
            return f"Play {card_text(action['card'])}"
        return super().describe(action)

    # -- refusals in the player's words ---------------------------------------------------

    def _explain(self, seat: int, action: dict) -> str:
        kind = action.get("type")
        if kind == "bid":
            if self.phase != BID:
                return "The bids are already revealed: it is time to play a card."
            if set(action) != {"type", "bid"} or not is_whole(action.get("bid")):
                return "A bid is a whole number of tricks."
            return (
                f"Bids go from 0 to {self.hand_size}: "
                f"each hand has {self.hand_size} card{'s' if self.hand_size != 1 else ''}."
            )
        if kind == "play":
            if self.phase == BID:
                return "Wait until every bid is in: play starts once the bids are revealed."
            card = action.get("card")
            if set(action) != {"type", "card"} or not is_standard_card(card):
                return f"{str(card)[:20]!r} is not a card."
            if CARD_INDEX[card] not in self.hands[seat]:
                return f"You don't hold the {card_name(card)}."
            led = SUITS[self._led()]
            return (
                f"You must follow suit: {SUIT_NAMES[led]} were led and you hold {SUIT_NAMES[led]}."
            )
        return super()._explain(seat, action)

    def _not_your_turn(self, seat: int) -> str:
        return "It is not your turn to play: wait for the player whose turn it is."

    # -- views ----------------------------------------------------------------------------

    def _view(self, seat: int | None) -> dict[str, Any]:
        revealed = self.phase != BID
        trump = self._trump_suit()
        led = self._led()
        public: dict[str, Any] = {
            "phase": self.phase,
            "deal": self.deal_index + 1,
            "deals": len(self.options["schedule"]),
            "schedule": list(self.options["schedule"]),
            "hand_size": self.hand_size,
            "dealer": self.dealer,
            "draw": plain_copy(self.draw),  # the live state's own lists: copied
            "trump": CARD_IDS[self.trump],
            "trump_suit": trump,
            "hand_sizes": [len(hand) for hand in self.hands],
            "bids_in": [bid is not None for bid in self.bids],
            "bids": list(self.bids) if revealed else [None] * self.players,
            "bid_total": sum(self.bids) if revealed else None,
            "tricks_available": self.hand_size,
            "trick": [[seat, CARD_IDS[card]] for seat, card in self.trick],
            "played": card_ids(self.played),
            "led": None if led is None else SUITS[led],
            "winning": trick_winner_ints(self.trick, SUIT_INDEX[self.trump]),
            "last_trick": self.last_trick,  # a new dict each time
            "taken": list(self.taken),
            "turn": self.turn,
            # The only parts the state keeps (and goes on changing): copied.
            "results": plain_copy(self.results),
            "chips": plain_copy(self.chips),
        }
        if seat is None:
            return public
        public["hand"] = card_ids(self.hands[seat])
        public["my_bid"] = self.bids[seat]
        public["legal_cards"] = [a["card"] for a in self.legal_actions(seat) if a["type"] == "play"]
        public["max_bid"] = self.hand_size if self.phase == BID else None
        return public


class ShootGame(Game):
    spec = SPEC
    state_class = ShootState
    sheet_class = ShootSheet
    #: 1: every pack shuffled whole by ``rng`` (games created before December 2026);
    #: 2: keyed orders (:func:`cards.keyed_order`), only the cards a deal uses.
    dealings = (1, 2)

    def check_deal(self, players: int, options: dict[str, Any], deal: dict[str, Any]) -> None:
        """Refuse an explicit first deal that could not come from one pack."""
        size = options["schedule"][0]
        unknown = sorted(set(deal) - {"dealer", "hands", "trump"}, key=str)
        if unknown:
            raise IllegalAction(f"A Shoot! deal has no field {', '.join(map(str, unknown))}.")
        if "dealer" in deal:
            dealer = deal["dealer"]
            if not is_whole(dealer) or not 0 <= dealer < players:
                raise IllegalAction(f"The dealer must be a seat from 0 to {players - 1}.")
        hands = deal.get("hands")
        if not isinstance(hands, list) or len(hands) != players:
            raise IllegalAction(f"The deal needs one hand for each of the {players} players.")
        seen: set[str] = set()
        for seat, hand in enumerate(hands):
            if not isinstance(hand, list) or len(hand) != size:
                raise IllegalAction(f"Seat {seat}'s hand must hold {size} cards in the first deal.")
            for card in hand:
                if not is_standard_card(card):
                    raise IllegalAction(f"Seat {seat}'s hand holds {str(card)[:20]!r}, not a card.")
                if card in seen:
                    raise IllegalAction(f"The {card_name(card)} is dealt twice.")
                seen.add(card)
        trump = deal.get("trump")
        if not is_standard_card(trump):
            raise IllegalAction('The turned-up trump card must be a card, for example "7H".')
        if trump in seen:
            raise IllegalAction(f"The turned-up {card_name(trump)} is also in a hand.")

    def card_faces(self, options=None) -> dict[str, dict[str, str]]:
        return standard_faces()

    def state_from_dict(self, d: dict[str, Any]) -> State:
        """As the base, cards read from ids into integers, dropping the ``winners`` list
        that states saved before the common view block kept (it would hide
        :meth:`State.winners`). An unknown card id is a :class:`ValueError`.

        Quicker than the base's deep copy (the searches load a sampled world once per
        action tried): the state gets new lists of everything it changes in play, and
        shares with ``d`` only the public records it never changes once written (the
        draw, the last action, each row of ``results``)."""
        if d.get("game") != self.slug:
            raise ValueError(f"not a {self.slug} state: {d.get('game')!r}")
        source = d["state"]
        # in the same order, the last trick kept as it was played (see ShootState)
        data = {SAVED.get(key, key): value for key, value in source.items() if key != "winners"}
        try:
            last = source.get("last_trick")
            if last is not None:
                plays = [[seat, CARD_INDEX[card]] for seat, card in last["plays"]]
                data["finished_trick"] = [last["deal"], plays, last["winner"]]
            data["hands"] = [[CARD_INDEX[card] for card in hand] for hand in source["hands"]]
            data["trump"] = CARD_INDEX[source["trump"]]
            data["stock"] = [CARD_INDEX[card] for card in source["stock"]]
            data["played"] = [CARD_INDEX[card] for card in source["played"]]
            data["trick"] = [[seat, CARD_INDEX[card]] for seat, card in source["trick"]]
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a card id in a Shoot! state: {error}") from None
        if not json_is_fresh():  # freshly parsed JSON (shared_json) is the state's own
            for key in ("bids", "taken", "totals", "results"):
                if key in source:
                    data[key] = list(source[key])
            for key in ("options", "deal", "chips", "log"):
                if key in source:
                    data[key] = plain_copy(source[key])
        # Snapshots saved before the log left them hold it; a hand-written one may hold
        # neither the log nor the counters.
        log = data.setdefault("log", None)
        data.setdefault("moves", len(log) if log else 0)
        data.setdefault("last_action", log[-1] if log else None)
        state = ShootState.__new__(ShootState)
        state.__dict__.update(data)
        return state


GAME = ShootGame()
