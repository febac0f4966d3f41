"""Pirate Tricks on a score sheet every player joined with their phone (issue 28): the app
is the bank, each phone the player's screen.

The steps of a round (:meth:`JoinedSheet.open_step`, built from what was entered):

1. ``cards`` — the four score cards turned up (any phone or the keeper).
2. The row auction (:mod:`.auction`), one step per entry of its record, named by the
   entry's place ``k`` in it:
   ``row-bids-<k>``   sealed: each player still without a row holds out loon for the row
                      asked (boxes ``row_bid-<k>-<player>``), all shown at once;
   ``row-winner-<k>`` open: a tie was settled by a card show on the table; one of the
                      tied phones (or the keeper) enters who takes the row (box
                      ``row_winner-<k>``; after an all-zero tie on the second pass, the
                      show's winner chose that player).
   A clear winner, a zero tie's 2 loon on the row, the second pass and the free last row
   need no entry: the app does the bank's part.
3. ``predictions`` — only under a prediction card (each phone its own, in the open).
4. ``recruitment`` — each phone the crew cards it lays down (box ``shown-<player>``, the
   cards as text); the sheet works out the loon from the two recruitment cards, as for
   the keeper's ticked cards. ``tricks`` — each phone its own boxes, as declared in the
   spec; the tricks step asks only the counts the treasure and capture cards in play need.

If the keeper saved the ``rows`` step with the ordinary form, the auction is skipped (the
keeper entered its outcome). When the round is added, :meth:`JoinedSheet.read_values`
fills each player's ``bid`` (loon paid) and ``row_loon`` (loon found on the row) from the
auction, so the stored round is exactly what one keeper would have entered; every payout
is then the sheet's own arithmetic (recruitment, treasure, capture, paying all one has,
the top-up to 5).

Loon stays behind the screen (:meth:`JoinedSheet.seen_by`): until the game is over a
phone sees its own loon only, and the keeper, the shared screen, the watch page and the
CSV see nobody's; the payments made in the open (bids paid, loon found on a row, score
card payouts, top-ups) stay public, as in Play mode. A bid above the loon one holds is
refused in words that do not say how much that is.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..errors import SheetError
from ..spec import Step, field_key, read_fields
from .auction import Ask, Auction, AuctionError, row_name
from .spec import AUCTION_STEPS, MAX_BID

BIDS, WINNER, PREDICTIONS = "row-bids", "row-winner", "predictions"
AUCTION_FIELDS = ("row_bid", "row_winner")
# The ledger figures behind a player's screen (totals, before and after a round); the
# payments in the open stay.
HIDDEN = ("start", "before_settling", "end")


def record_of(values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The auction's record from the typed ``row_bid`` and ``row_winner`` boxes: entry
    ``k`` is step ``k``'s bids or its card show's winner; it ends at the first step with
    neither. A step holding both, or an entry after a gap, is refused at its box."""
    bids = values.get("row_bid") or []
    winners = values.get("row_winner") or []
    record: list[dict[str, Any]] = []
    ended = None
    for k in range(AUCTION_STEPS):
        row = bids[k] if k < len(bids) else []
        winner = winners[k] if k < len(winners) else None
        has_bids = any(b is not None for b in row)
        if not has_bids and winner is None:
            ended = k if ended is None else ended
            continue
        if ended is not None:
            key = field_key("row_winner", k) if winner is not None else field_key("row_bid", k)
            raise SheetError("The auction's entries must follow one another.", field=key)
        if has_bids and winner is not None:
            raise SheetError(
                "One step of the auction is a row's bids or a card show, not both.",
                field=field_key("row_winner", k),
            )
        record.append({"bids": list(row)} if has_bids else {"winner": winner})
    return record


def _entry_key(k: int, entry: Mapping[str, Any], player: int | None) -> str:
    if "winner" in entry:
        return field_key("row_winner", k)
    return field_key("row_bid", k, player) if player is not None else field_key("row_bid", k)


class JoinedSheet:
    """The hooks of a joined Pirate Tricks sheet, mixed into ``PirateTricksSheet`` (which
    gives ``names``, ``players``, ``spec``, ``predicting`` and the base ``Sheet``)."""

    names: list[str]
    players: int
    spec: Any

    # -- the steps ------------------------------------------------------------------------

    def open_step(self, done: Sequence[str], boxes: Mapping[str, str]) -> Step | None:
        if "cards" not in done:
            return self.step_named("cards")
        if "rows" not in done:
            record = self._record(boxes)
            auction = Auction([MAX_BID] * self.players, record)
            if auction.ask is not None:
                return self.auction_step(len(record), auction.ask)
            cards = [boxes.get("treasure"), boxes.get("capture")]
            if self.predicting(cards) and PREDICTIONS not in done:  # type: ignore[attr-defined]
                return self.step_named(PREDICTIONS)
        if "recruitment" not in done:
            # each phone enters the crew cards it shows; the sheet works out the loon
            return replace(self.step_named("recruitment"), boxes=("shown",))
        if "tricks" not in done:
            # only the count boxes the treasure and capture cards in play need
            counted = self.counted([boxes.get("treasure"), boxes.get("capture")])  # type: ignore[attr-defined]
            step = self.step_named("tricks")
            parts = ("tricks", *(field_key("count", i) for i in range(len(counted))))
            return replace(step, boxes=parts)
        return None

    def auction_step(self, k: int, ask: Ask) -> Step:
        """Step ``k`` of the auction, as asked: a row's sealed bids by the players still
        without a row, or the card show's winner among the tied players."""
        name = row_name(ask.row)
        if ask.kind == "bids":
            again = " (second pass)" if ask.pass_ == 2 else ""
            return Step(
                f"{BIDS}-{k}",
                f"{name} bids{again}",
                (field_key("row_bid", k),),
                sealed=True,
                owner="each",
                seats=ask.players,
            )
        return Step(
            f"{WINNER}-{k}",
            f"{name} card show",
            (field_key("row_winner", k),),
            owner="each",
            seats=ask.players,
        )

    def step_named(self, name: Any) -> Step | None:
        declared = super().step_named(name)  # type: ignore[misc]
        if declared is not None or not isinstance(name, str):
            return declared
        if name == PREDICTIONS:
            return Step(PREDICTIONS, "predictions", ("prediction",), owner="each")
        kind, _, k = name.rpartition("-")
        if kind not in (BIDS, WINNER) or not k.isdigit() or int(k) >= AUCTION_STEPS:
            return None
        if kind == BIDS:
            return Step(name, "bids", (field_key("row_bid", int(k)),), sealed=True, owner="each")
        return Step(name, "card show", (field_key("row_winner", int(k)),), owner="each")

    def box_owner(self, step: Step, key: str) -> tuple[int, ...] | None:
        field, *index = key.split("-")
        if field == "row_bid" and len(index) == 2:
            return (int(index[1]),)
        if field == "row_winner":
            return tuple(step.seats) if step.seats is not None else None
        return super().box_owner(step, key)  # type: ignore[misc]

    def box_label(self, step: Step, key: str) -> str:
        field, *index = key.split("-")
        if field == "row_bid" and len(index) == 2:
            return f"{self.names[int(index[1])]}: bid"
        if field == "row_winner":
            return f"{step.label.capitalize()}: who takes the row"
        return super().box_label(step, key)  # type: ignore[misc]

    def box_choices(self, step: Step, key: str) -> list[tuple[str, str]] | None:
        """A card show's winner is one of the players who showed a card (the step's
        seats): only they are offered."""
        if key.split("-")[0] == "row_winner" and step.seats is not None:
            return [(str(s), self.names[s]) for s in step.seats]
        return super().box_choices(step, key)  # type: ignore[misc]

    # -- the auction's facts ----------------------------------------------------------------

    def _auction_fields(self) -> list:
        return [f for f in self.spec.sheet_fields if f.name in AUCTION_FIELDS]

    def _record(self, boxes: Mapping[str, str]) -> list[dict[str, Any]]:
        values = read_fields(
            self._auction_fields(),
            boxes,
            self.players,
            len(self.sides()),  # type: ignore[attr-defined]
            self.choices,  # type: ignore[attr-defined]
        )
        return record_of(values)

    def read_values(self, form: Mapping[str, str], stage: str | None = None) -> dict[str, Any]:
        """The round form, with each player's ``bid`` and ``row_loon`` worked out from the
        auction when the phones bid (its boxes are in and the rows' are not)."""
        if stage is None and any(str(k).startswith(AUCTION_FIELDS) for k in form):
            record = self._record(form)
            auction = Auction([MAX_BID] * self.players, record)
            if auction.done and not any(field_key("bid", p) in form for p in range(self.players)):
                filled = form.copy() if hasattr(form, "copy") else dict(form)
                for p, fact in enumerate(auction.facts()):
                    filled[field_key("bid", p)] = str(fact["bid"])
                    filled[field_key("row_loon", p)] = "1" if fact["row_loon"] else ""
                form = filled
        return super().read_values(form, stage)  # type: ignore[misc]

    def check_auction(self, check: Any, start: Sequence[int], values: Mapping[str, Any]) -> None:
        """The auction entered so far against the rules and the loon each player holds at
        the start of the round (``check.fail`` names the box at fault)."""
        try:
            record = record_of(values)
        except SheetError as error:
            check.fail(error.message, field=error.field)
        auction = Auction(start)
        for k, entry in enumerate(record):
            for p, bid in enumerate(entry.get("bids") or []):
                if bid is not None and bid > start[p]:
                    check.fail(
                        f"a bid can't be more loon than {self.names[p]} holds.",
                        p,
                        field_key("row_bid", k, p),
                    )
            try:
                if "bids" in entry:
                    auction = auction.with_bids(entry["bids"])
                else:
                    auction = auction.with_winner(entry["winner"])
            except AuctionError as error:
                check.fail(error.message, error.player, _entry_key(k, entry, error.player))

    def auction_view(
        self, summary: dict[str, Any], boxes: Mapping[str, str], seat: int | None
    ) -> dict[str, Any] | None:
        """The round's auction so far as ``seat`` may see it (None: the keeper, the shared
        screen, the watch page), from the steps saved (``boxes``): the rows (who took each,
        the loon lying on it, what was paid), the settled steps with their revealed bids,
        what is asked now (who enters, never what) and ``loon``, the seat's own only: what
        it holds at the start of the round, less its row's price, plus the row's loon. None
        once the sheet is over, or when the steps saved do not read as an auction."""
        nxt = summary.get("next")
        if not nxt:
            return None
        try:
            auction = Auction(nxt["start"], self._record(boxes))
        except (SheetError, AuctionError):
            return None
        view = auction.view(seat)
        if "treasure" not in boxes:  # the score cards first: no row is bid on yet
            view["ask"] = None
        return view

    table_view = auction_view  # the game's part of a joined round (Sheet.table_view)

    # -- loon behind the screen -----------------------------------------------------------

    def seen_by(self, summary: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """``summary`` as ``seat`` may see it on a joined sheet (None: the keeper, the
        shared screen, the watch page, the CSV): until the game is over, every loon total
        but the seat's own is None — the totals, the running totals, each round's loon at
        the start, before settling and at the end, and the next round's start. A copy."""
        if summary.get("over"):
            return summary
        seen = copy.deepcopy(summary)

        def mine(values: list) -> list:
            return [v if s == seat else None for s, v in enumerate(values)]

        seen["totals"] = mine(seen["totals"])
        seen["running"] = [mine(line) for line in seen["running"]]
        for row in seen["rows"]:
            row["loon"] = mine(row["loon"])
            for s, ledger in enumerate(row["players"]):
                if s != seat:
                    ledger.update(dict.fromkeys(HIDDEN))
        if seen.get("next"):
            seen["next"]["start"] = mine(seen["next"]["start"])
        return seen
