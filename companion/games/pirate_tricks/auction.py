"""Pirate Tricks' row auction, pure: the rules both modes run, and the record a joined
score sheet keeps while the table bids with its real cards and the phones hold the loon.

The two rules of the auction, shared with the engine (:mod:`.engine` calls them, so the
auction is written once):

* :func:`next_row` — which row is bid on next and by whom: every player still without a
  row, on the first open row at or below the one just settled; once the first pass down
  the rows is over, the rows still open (each then holds 2 loon) once more from the top
  (the second pass); when only one player still needs a row, that player takes the one
  row left, free.
* :func:`bid_outcome` — what the revealed bids on a row decide: a single highest bid wins
  (the winner pays it to the bank); a tie above zero goes to a card show among the tied
  players; an all-zero tie on a row without loon puts 2 loon from the bank on it; an
  all-zero tie on a row already holding loon (the second pass: that is everybody's second
  bid on it) goes to a card show whose winner names the player who takes the row.

Our reading where the rulebook is loose is the engine's (its module docstring): the
second pass is held whenever, after the first pass, two or more players still need a row
(the rulebook's "more than two rows with 2 loon on them" read as "rows still open"), and
nobody bids a third time on a row.

The joined sheet's auction (:class:`Auction`): the table shows cards for real, so the app
asks for what it cannot see — each remaining player's sealed bid, row by row, and after a
card show the player who takes the row — and does the bank's part itself. Its record is
a list of plain entries, in order (JSON as it is stored)::

    {"bids": [n or None per player]}   a row's bids, revealed together (None: not bidding)
    {"winner": seat}                    who takes a tied row (a card show decided it)

``Auction(start, record)`` replays the record from the loon each player holds when the
auction starts (after the round's top-up) and refuses a record that breaks a rule. Its
``ask`` is what the table must enter next (:class:`Ask`, None once every row is taken);
``facts()`` then gives exactly what the score sheet stores per player: ``bid`` (the loon
paid for the row taken, 0 for a free or handed-over row) and ``row_loon`` (the loon found
on it). ``view(seat)`` is what one phone may see: the rows, the settled steps (bids are
shown once revealed, as hands open on the table) and its own loon only.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import IllegalAction

ZERO_TIE_LOON = 2  # the bank's loon put on a row after an all-zero tie

# What comes next in the auction (next_row's first value).
BID, FREE, DONE = "bid", "free", "done"
# What a row's revealed bids decide (bid_outcome's first value).
WON, TIE, ZERO, ZERO_AGAIN = "won", "tie", "zero", "zero-again"


def next_row(
    owners: Sequence[int | None], start: int, pass_: int
) -> tuple[str, int | None, list[int], int]:
    """The auction's next step after the row above ``start`` is settled: ``(kind, row,
    players, pass)``. ``owners`` holds each row's owner (None while open; one row per
    player). ``kind`` is :data:`BID` (``players``, every player still without a row, bid on
    ``row``), :data:`FREE` (one player left: ``players`` is that one, ``row`` the one row
    left) or :data:`DONE` (every row taken). The pass becomes 2 when the first pass down
    the rows is over and rows are still open."""
    open_rows = []
    needy = list(range(len(owners)))
    for r, owner in enumerate(owners):
        if owner is None:
            open_rows.append(r)
        else:
            needy.remove(owner)
    if not needy:
        return DONE, None, [], pass_
    if len(needy) == 1:
        return FREE, open_rows[0], needy, pass_
    if open_rows[-1] >= start:  # the first open row at or below start
        return BID, open_rows[bisect_left(open_rows, start)], needy, pass_
    return BID, open_rows[0], needy, 2


def bid_outcome(
    bids: Sequence[int | None], bidders: Sequence[int], row_loon: int
) -> tuple[str, list[int]]:
    """What the revealed ``bids`` (per player; only ``bidders``' count) on a row holding
    ``row_loon`` decide: ``(WON, [winner])``, ``(TIE, tied)`` (a card show among the tied
    players; the winner pays the bid), ``(ZERO, tied)`` (2 loon from the bank on the row)
    or ``(ZERO_AGAIN, tied)`` (a card show; its winner names who takes the row, free)."""
    high = -1  # the highest bid (every bidder's is in); a loop costs less than max()
    for s in bidders:
        if bids[s] > high:  # type: ignore[operator]
            high = bids[s]
    top = [s for s in bidders if bids[s] == high]
    if len(top) == 1:
        return WON, top
    if high:
        return TIE, top
    return (ZERO_AGAIN if row_loon else ZERO), top


class AuctionError(IllegalAction):
    """An entry the auction refuses: ``message`` in a player's words, ``player`` the seat
    whose entry is at fault (None for the whole entry)."""

    def __init__(self, message: str, player: int | None = None):
        super().__init__(message)
        self.player = player


@dataclass(frozen=True)
class Ask:
    """What the table enters next. ``kind`` is ``"bids"`` (``players`` each enter a sealed
    bid on ``row``) or ``"winner"`` (the tied ``players`` showed a card for ``row``; the
    keeper or one of them enters who takes it). ``bid`` is the tied bid of a winner step;
    ``chooses`` says the card show's winner chooses the taker (an all-zero tie on the second
    pass) rather than taking the row."""

    kind: str
    row: int
    pass_: int
    players: tuple[int, ...]
    bid: int | None = None
    chooses: bool = False

    @property
    def sealed(self) -> bool:
        return self.kind == "bids"

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "row": self.row,
            "row_name": row_name(self.row),
            "pass": self.pass_,
            "players": list(self.players),
            "bid": self.bid,
            "chooses": self.chooses,
        }


def row_name(row: int) -> str:
    """A row as the table says it: "Row 1" is the top row (the Go First row)."""
    return f"Row {row + 1}"


def _whole(value: Any) -> bool:
    return type(value) is int


class Auction:
    """The rows of one round auctioned on a joined score sheet (see the module docstring).
    Immutable: :meth:`with_bids` and :meth:`with_winner` return a new auction."""

    def __init__(self, start: Sequence[int], record: Sequence[Any] = ()):
        if not start or not all(_whole(have) and have >= 0 for have in start):
            raise AuctionError("The loon at the start must be a whole number per player.")
        self.start = list(start)
        self.players = len(self.start)
        self.rows: list[dict[str, Any]] = [
            {"owner": None, "loon": 0, "paid": 0, "found": 0} for _ in range(self.players)
        ]
        self.events: list[dict[str, Any]] = []
        self.record: list[dict[str, Any]] = []
        self.ask: Ask | None = None
        self._pass = 1
        self._advance(0)
        if not isinstance(record, (list, tuple)):
            raise AuctionError("The auction's record must be a list of entries.")
        for entry in record:
            self._enter(entry)

    # -- entering --------------------------------------------------------------------------

    def check_bid(self, seat: int, value: Any, *, own: bool = True) -> int:
        """One sealed bid of ``seat`` on the row asked for, checked before it is kept: a
        whole number of loon from 0 to what the player holds. ``own`` (the player's own
        phone) lets the message say how much that is; anyone else is told less."""
        ask = self.ask
        if ask is None or ask.kind != "bids":
            raise AuctionError("No row is being bid on now.", seat)
        if seat not in ask.players:
            raise AuctionError("That player already has a row and does not bid.", seat)
        if not _whole(value) or value < 0:
            raise AuctionError("A bid is a whole number of loon, 0 or more.", seat)
        have = self.start[seat]
        if value > have:
            if own:
                raise AuctionError(f"You hold {have} loon: bid {have} or less.", seat)
            raise AuctionError("That is more loon than the player holds.", seat)
        return value

    def with_bids(self, bids: Sequence[Any]) -> Auction:
        """The auction after the asked row's bids (one per player, None for a player not
        bidding) are revealed together."""
        return Auction(self.start, [*self.record, {"bids": list(bids)}])

    def with_winner(self, seat: Any) -> Auction:
        """The auction after a card show: ``seat`` takes the tied row."""
        return Auction(self.start, [*self.record, {"winner": seat}])

    def _enter(self, entry: Any) -> None:
        ask = self.ask
        if ask is None:
            raise AuctionError("Every row is taken already.")
        if not isinstance(entry, dict) or len(entry) != 1:
            raise AuctionError("An auction entry is a row's bids or a card show's winner.")
        if ask.kind == "bids":
            bids = entry.get("bids")
            if not isinstance(bids, list) or len(bids) != self.players:
                raise AuctionError(f"{row_name(ask.row)} needs the bids of the players bidding.")
            for seat, bid in enumerate(bids):
                if seat in ask.players:
                    if bid is None:
                        raise AuctionError("Every player still without a row bids.", seat)
                    self.check_bid(seat, bid)
                elif bid is not None:
                    raise AuctionError("That player already has a row and does not bid.", seat)
            self.record.append({"bids": list(bids)})
            self._settle_bids(ask, bids)
        else:
            seat = entry.get("winner")
            if not _whole(seat) or seat not in ask.players:
                raise AuctionError(
                    f"{row_name(ask.row)} goes to one of the players who showed a card.", seat
                )
            self.record.append({"winner": seat})
            self._take(ask.row, seat, ask.bid or 0)
            self._advance(ask.row + 1)

    def _settle_bids(self, ask: Ask, bids: list[int | None]) -> None:
        row = self.rows[ask.row]
        result, seats = bid_outcome(bids, ask.players, row["loon"])
        event: dict[str, Any] = {
            "row": ask.row,
            "pass": ask.pass_,
            "bids": list(bids),
            "result": result,
        }
        self.events.append(event)
        if result == WON:
            self._take(ask.row, seats[0], bids[seats[0]] or 0)
            self._advance(ask.row + 1)
        elif result == ZERO:
            row["loon"] += ZERO_TIE_LOON
            self._advance(ask.row + 1)
        else:
            event["tied"] = seats
            tied_bid = bids[seats[0]] or 0
            self.ask = Ask(
                "winner", ask.row, ask.pass_, tuple(seats), tied_bid, result == ZERO_AGAIN
            )

    def _take(self, row: int, seat: int, paid: int) -> None:
        r = self.rows[row]
        r["owner"] = seat
        r["paid"] = paid
        r["found"], r["loon"] = r["loon"], 0
        event = self.events[-1]
        event["taker"] = seat
        event["paid"] = paid
        event["row_loon"] = r["found"]

    def _advance(self, start: int) -> None:
        kind, row, players, self._pass = next_row(
            [r["owner"] for r in self.rows], start, self._pass
        )
        if kind == DONE:
            self.ask = None
        elif kind == FREE:
            assert row is not None
            self.events.append({"row": row, "pass": self._pass, "result": FREE})
            self._take(row, players[0], 0)
            self._advance(0)
        else:
            assert row is not None
            self.ask = Ask("bids", row, self._pass, tuple(players))

    # -- reading ---------------------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self.ask is None

    @property
    def go_first(self) -> int | None:
        """Who took the top row (and with it the Go First marker), None before."""
        return self.rows[0]["owner"]

    def facts(self) -> list[dict[str, int]]:
        """Per player, what the score sheet stores once every row is taken: ``bid`` (the
        loon paid) and ``row_loon`` (the loon found on the row taken)."""
        if not self.done:
            raise AuctionError("The auction is not over: some rows are still open.")
        taken = {r["owner"]: r for r in self.rows}
        return [
            {"bid": taken[p]["paid"], "row_loon": taken[p]["found"]} for p in range(self.players)
        ]

    def loon(self, seat: int) -> int:
        """The loon ``seat`` holds now (what it paid for its row gone, the row's loon in)."""
        held = self.start[seat]
        for r in self.rows:
            if r["owner"] == seat:
                held += r["found"] - r["paid"]
        return held

    def view(self, seat: int | None) -> dict[str, Any]:
        """What one phone may see (``seat`` None: the keeper, the shared screen, the watch
        page): the rows (owner, loon lying on it, loon paid for it), the settled steps, what
        is asked now (who still enters, never what) and the loon of ``seat`` only."""
        return {
            "rows": [
                {
                    "name": row_name(r),
                    "owner": row["owner"],
                    "loon": row["loon"],
                    "paid": row["paid"] if row["owner"] is not None else None,
                    "found": row["found"] if row["owner"] is not None else None,
                    "go_first": r == 0,
                }
                for r, row in enumerate(self.rows)
            ],
            "events": [
                {key: list(v) if isinstance(v, list) else v for key, v in event.items()}
                for event in self.events
            ],
            "ask": self.ask.as_dict() if self.ask else None,
            "loon": [self.loon(s) if s == seat else None for s in range(self.players)],
            "done": self.done,
        }
