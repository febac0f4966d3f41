"""Pirate Tricks' row auction on a joined sheet (auction.py): each rule clause of the
rulebook's "Place your bids", the record's checks, the facts it gives the sheet, what a
phone may see, and agreement with the engine (which runs the same two rules)."""

from __future__ import annotations

import random

import pytest

from companion.games import GAMES
from companion.games.pirate_tricks.auction import (
    Auction,
    AuctionError,
    bid_outcome,
    next_row,
)

GAME = GAMES["pirate_tricks"]
START = [12, 12, 12, 12]


def run(*entries, start=START):
    """An auction after ``entries``: a list is a row's bids (None: not bidding), an int
    the winner of a card show."""
    auction = Auction(start)
    for entry in entries:
        auction = auction.with_winner(entry) if isinstance(entry, int) else auction.with_bids(entry)
    return auction


def asked(auction):
    ask = auction.ask
    return (ask.kind, ask.row, ask.pass_, list(ask.players))


# -- order and who bids --------------------------------------------------------------------


def test_everybody_bids_first_on_the_top_row_sealed():
    auction = Auction(START)
    assert asked(auction) == ("bids", 0, 1, [0, 1, 2, 3])
    assert auction.ask.sealed


def test_a_clear_winner_pays_the_bank_and_takes_the_row_and_the_go_first_marker():
    auction = run([3, 1, 0, 2])
    assert auction.rows[0]["owner"] == 0 and auction.rows[0]["paid"] == 3
    assert auction.go_first == 0
    assert auction.loon(0) == 9
    assert [auction.loon(s) for s in (1, 2, 3)] == [12, 12, 12]  # the others keep theirs


def test_the_next_row_is_bid_on_by_the_remaining_players_only_from_top_to_bottom():
    auction = run([3, 1, 0, 2])
    assert asked(auction) == ("bids", 1, 1, [1, 2, 3])
    auction = auction.with_bids([None, 0, 4, 1])
    assert asked(auction) == ("bids", 2, 1, [1, 3])


def test_a_winner_of_a_lower_row_takes_no_marker():
    auction = run([0, 0, 0, 0], [0, 5, 0, 0])
    assert auction.rows[1]["owner"] == 1 and auction.go_first is None


def test_a_tie_above_zero_asks_the_tied_players_for_the_winner_who_pays_the_bid():
    auction = run([4, 4, 1, 4])
    ask = auction.ask
    assert (ask.kind, ask.row, list(ask.players), ask.bid, ask.chooses) == (
        "winner",
        0,
        [0, 1, 3],
        4,
        False,
    )
    assert not ask.sealed  # the card show is open on the table
    auction = auction.with_winner(3)
    assert auction.rows[0]["owner"] == 3 and auction.rows[0]["paid"] == 4
    assert auction.loon(3) == 8 and auction.loon(0) == 12  # the other tied keep theirs
    assert asked(auction) == ("bids", 1, 1, [0, 1, 2])


def test_only_a_tied_player_can_be_entered_as_the_card_shows_winner():
    auction = run([4, 4, 1, 4])
    with pytest.raises(AuctionError, match="showed a card"):
        auction.with_winner(2)
    for bad in (7, -1, "3", True, None):
        with pytest.raises(AuctionError):
            auction.with_winner(bad)


def test_a_zero_tie_puts_two_loon_from_the_bank_on_the_row_and_moves_on():
    auction = run([0, 0, 0, 0])
    assert auction.rows[0] == {"owner": None, "loon": 2, "paid": 0, "found": 0}
    assert asked(auction) == ("bids", 1, 1, [0, 1, 2, 3])
    assert auction.events[-1]["result"] == "zero"


def test_a_zero_high_bid_with_one_bidder_above_zero_is_a_clear_win():
    auction = run([0, 1, 0, 0])
    assert auction.rows[0]["owner"] == 1 and auction.rows[0]["paid"] == 1


def test_the_second_pass_bids_again_on_the_open_rows_from_the_top():
    # Row 1 zero-tied, rows 2 and 3 won, row 4 zero-tied: two players and two rows left.
    auction = run([0, 0, 0, 0], [5, 0, 0, 0], [None, 3, 0, 0], [None, None, 0, 0])
    assert [r["loon"] for r in auction.rows] == [2, 0, 0, 2]
    assert asked(auction) == ("bids", 0, 2, [2, 3])
    # a clear win on the second pass pays the bid and finds the row's 2 loon
    auction = auction.with_bids([None, None, 1, 0])
    assert auction.rows[0]["owner"] == 2 and auction.loon(2) == 12 - 1 + 2
    assert auction.go_first == 2


def test_no_second_pass_when_only_one_player_still_needs_a_row():
    auction = run([0, 0, 0, 0], [5, 0, 0, 0], [None, 3, 0, 0], [None, None, 2, 0])
    assert auction.done  # the last row (the top one, with its loon) went free
    assert auction.rows[0]["owner"] == 3 and auction.rows[0]["paid"] == 0
    assert auction.loon(3) == 14 and auction.go_first == 3
    assert [e["result"] for e in auction.events] == ["zero", "won", "won", "won", "free"]


def test_the_last_player_takes_the_last_row_free():
    auction = run([1, 0, 0, 0], [None, 1, 0, 0], [None, None, 1, 0])
    assert auction.done
    assert auction.rows[3]["owner"] == 3 and auction.rows[3]["paid"] == 0


def test_a_zero_tie_on_the_second_pass_is_a_card_show_whose_winner_names_the_taker():
    auction = run([0, 0, 0], [2, 0, 0], [None, 0, 0], [None, 0, 0], start=[12, 12, 12])
    ask = auction.ask
    assert (ask.kind, ask.row, ask.pass_, list(ask.players), ask.chooses) == (
        "winner",
        0,
        2,
        [1, 2],
        True,
    )
    assert auction.rows[0]["loon"] == 2  # no more loon from the bank on the second pass
    auction = auction.with_winner(2)
    assert auction.rows[0]["owner"] == 2 and auction.rows[0]["paid"] == 0
    assert auction.loon(2) == 14 and auction.loon(1) == 14  # row 3 free, with its 2 loon
    assert auction.done


def test_a_tie_above_zero_on_the_second_pass_goes_to_the_card_show_and_the_winner_pays():
    auction = run([0, 0, 0], [2, 0, 0], [None, 0, 0], [None, 3, 3], start=[12, 12, 12])
    assert auction.ask.kind == "winner" and not auction.ask.chooses and auction.ask.bid == 3
    auction = auction.with_winner(1)
    assert auction.loon(1) == 12 - 3 + 2


def test_nobody_bids_three_times_on_a_row_and_every_auction_ends_one_row_each():
    for seed in range(300):
        chooser = random.Random(seed)
        players = 3 + seed % 3
        auction = Auction([chooser.randint(5, 14) for _ in range(players)])
        steps = 0
        while not auction.done:
            ask = auction.ask
            if ask.kind == "bids":
                bids = [chooser.randint(0, 2) if s in ask.players else None for s in range(players)]
                auction = auction.with_bids(bids)
            else:
                auction = auction.with_winner(chooser.choice(ask.players))
            steps += 1
            assert steps <= 3 * players
        per_row: dict = {}
        for event in auction.events:
            for seat, amount in enumerate(event.get("bids") or []):
                if amount is not None:
                    per_row[(seat, event["row"])] = per_row.get((seat, event["row"]), 0) + 1
        assert max(per_row.values(), default=0) <= 2
        assert sorted(r["owner"] for r in auction.rows) == list(range(players))
        facts = auction.facts()
        assert any(f["bid"] == 0 for f in facts)  # the sheet's own check holds
        assert all(f["row_loon"] in (0, 2) for f in facts)


# -- the two shared rules, alone -----------------------------------------------------------


def test_next_row_kinds():
    assert next_row([None, None, None], 0, 1) == ("bid", 0, [0, 1, 2], 1)
    assert next_row([0, None, None], 1, 1) == ("bid", 1, [1, 2], 1)
    assert next_row([None, 0, None], 3, 1) == ("bid", 0, [1, 2], 2)  # second pass
    assert next_row([None, 0, 1], 3, 1) == ("free", 0, [2], 1)
    assert next_row([2, 0, 1], 0, 2) == ("done", None, [], 2)


def test_bid_outcome_kinds():
    assert bid_outcome([3, 1, None], [0, 1], 0) == ("won", [0])
    assert bid_outcome([3, 3, 1], [0, 1, 2], 0) == ("tie", [0, 1])
    assert bid_outcome([0, 0, None], [0, 1], 0) == ("zero", [0, 1])
    assert bid_outcome([0, 0, None], [0, 1], 2) == ("zero-again", [0, 1])
    assert bid_outcome([5, None, 0], [2], 0) == ("won", [2])  # only bidders count


# -- refusals ------------------------------------------------------------------------------


def test_a_bid_above_the_loon_held_is_refused_saying_so_only_to_its_owner():
    auction = Auction([12, 5, 12])
    with pytest.raises(AuctionError, match="You hold 5 loon") as own:
        auction.check_bid(1, 6)
    assert own.value.player == 1
    with pytest.raises(AuctionError) as other:
        auction.check_bid(1, 6, own=False)
    assert "5" not in str(other.value)
    assert auction.check_bid(1, 5) == 5


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True, None])
def test_a_bid_is_a_whole_number_of_loon(bad):
    with pytest.raises(AuctionError):
        Auction(START).check_bid(0, bad)


def test_bids_must_come_from_exactly_the_remaining_players():
    auction = run([3, 1, 0, 2])
    with pytest.raises(AuctionError, match="already has a row"):
        auction.with_bids([0, 0, 0, 0])
    with pytest.raises(AuctionError, match="Every player"):
        auction.with_bids([None, 0, None, 0])
    with pytest.raises(AuctionError):
        auction.with_bids([None, 0, 0])  # one per player
    with pytest.raises(AuctionError, match="already has a row"):
        auction.check_bid(0, 1)


def test_entries_out_of_turn_and_after_the_end_are_refused():
    with pytest.raises(AuctionError):
        Auction(START, [{"winner": 0}])  # nobody tied
    tied = run([4, 4, 0, 0])
    with pytest.raises(AuctionError):
        tied.with_bids([0, 0, 0, 0])  # the card show's winner first
    done = run([1, 0, 0, 0], [None, 1, 0, 0], [None, None, 1, 0])
    with pytest.raises(AuctionError, match="Every row"):
        done.with_bids([None, None, None, 0])
    with pytest.raises(AuctionError, match="not over"):
        tied.facts()
    for record in ("bids", [{"bids": [0, 0, 0, 0], "winner": 1}], [["bids"]]):
        with pytest.raises(AuctionError):
            Auction(START, record)


def test_a_refused_entry_changes_nothing():
    auction = run([4, 4, 0, 0])
    before = auction.view(None)
    with pytest.raises(AuctionError):
        auction.with_winner(2)
    assert auction.view(None) == before


# -- what the sheet stores and what a phone sees -------------------------------------------


def test_facts_are_the_sheets_bid_and_row_loon():
    auction = run(
        [0, 0, 0, 0], [5, 0, 0, 0], [None, 3, 3, 0], 2, [None, 0, None, 0], [None, 1, None, 0]
    )
    assert auction.done
    assert auction.facts() == [
        {"bid": 5, "row_loon": 0},
        {"bid": 1, "row_loon": 2},  # the top row on the second pass, with its loon
        {"bid": 3, "row_loon": 0},  # the card show's winner pays the tied bid
        {"bid": 0, "row_loon": 2},  # the last row, free with its loon
    ]


def test_each_phone_sees_its_own_loon_only_and_the_table_none():
    auction = run([3, 1, 0, 2])
    for seat in range(4):
        loon = auction.view(seat)["loon"]
        assert loon[seat] == auction.loon(seat)
        assert [v for s, v in enumerate(loon) if s != seat] == [None, None, None]
    assert auction.view(None)["loon"] == [None] * 4


def test_the_view_shares_no_list_with_the_auction():
    auction = run([0, 0, 0, 0])
    view = auction.view(0)
    view["events"][0]["bids"].append(99)
    view["rows"][0]["loon"] = 99
    assert auction.view(0)["events"][0]["bids"] == [0, 0, 0, 0]
    assert auction.rows[0]["loon"] == 2


# -- the same rules as the engine ----------------------------------------------------------


def _engine_record(state) -> list:
    """The engine's auction as a joined sheet's record: each row's bids, and after a
    reveal the player who took the row."""
    record = []
    for event in state.events:
        if "bids" in event:
            record.append({"bids": list(event["bids"])})
            if event.get("tied"):
                record.append({"winner": event["taker"]})
    return record


def test_the_engines_auctions_give_the_same_rows_and_facts():
    for seed in range(150):
        chooser = random.Random(seed)
        players = 3 + seed % 3
        state = GAME.new_state(players, seed=seed)
        start = list(state.loon)
        while state.phase in ("bid", "reveal", "assign"):
            seat = chooser.choice(state.to_act())
            legal = state.legal_actions(seat)
            state.apply(seat, chooser.choice(legal[:3] if state.phase == "bid" else legal))
        auction = Auction(start, _engine_record(state))
        assert auction.done
        assert [r["owner"] for r in auction.rows] == [r["owner"] for r in state.rows]
        assert [auction.loon(s) for s in range(players)] == state.loon
        assert auction.go_first == state.go_first
        assert [e["result"] for e in auction.events] == [
            "zero-again" if e["result"] == "chosen" else e["result"] for e in state.events
        ]
