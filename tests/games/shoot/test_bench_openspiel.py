"""bench/bots_vs_openspiel.py's diagnostics (no OpenSpiel needed): who makes a decision
under --bids-by / --play-by, the table of bids by hand size, and the paired difference of
two logs."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[3] / "bench"


def _bench():
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location(
            "bots_vs_openspiel", BENCH / "bots_vs_openspiel.py"
        )
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
    return module


def test_bids_by_and_play_by_hand_one_half_of_the_decisions_to_one_player():
    bench = _bench()
    match = bench.Match.__new__(bench.Match)  # no oh_hell games: only the choice of player
    match.bids_by, match.play_by = None, None
    assert match._player("strong", bidding=True) == "strong"
    assert match._player("ismcts", bidding=False) == "ismcts"
    match.bids_by = "ismcts"
    assert match._player("strong", bidding=True) == "ismcts"
    assert match._player("strong", bidding=False) == "strong"
    match.bids_by, match.play_by = None, "ismcts"
    assert match._player("strong", bidding=True) == "strong"
    assert match._player("strong", bidding=False) == "ismcts"


def test_the_bid_table_gives_each_side_its_bids_tricks_and_made_bids(capsys):
    bench = _bench()
    # one 2-card deal played twice: side 0 bids 1 and takes 1 (+6) in seats 0 and 2,
    # side 1 bids 0 and takes 0 (+5) and bids 1 and takes 0 (-5)
    results = [
        {"deal": 8, "size": 2, "sides": [0, 1, 0, 1], "bids": [1, 0, 1, 1], "tricks": [1, 0, 1, 0]},
        {"deal": 8, "size": 2, "sides": [1, 0, 1, 0], "bids": [0, 1, 1, 1], "tricks": [0, 1, 0, 1]},
    ]
    bench.bid_table(results, ["strong", "ismcts"])
    row = next(line for line in capsys.readouterr().out.splitlines() if "2 cards" in line)
    assert row.split() == [
        *["2", "cards,", "1", "deals"],
        *["1.00", "1.00", "100%", "+6.00"],
        *["0.50", "0.00", "50%", "+0.00"],
        "+6.00",
    ]


def test_a_redeal_deals_each_seat_its_cards_round_from_seat_0_and_keeps_the_rest():
    bench = _bench()
    # two players, two cards each: tricks 2, dealer 1, the deal (seat 0, 1, 0, 1), the
    # trump, two bids and one play
    history = [2, 1, 10, 20, 11, 21, 30, 52, 53, 10]
    held = [[10, 12], [22, 23]]  # seat 0 keeps the card it played, seat 1 gets others
    assert bench.redeal(history, held, 2, 2) == [2, 1, 10, 22, 12, 23, 30, 52, 53, 10]
    # the same hands give the same history back
    assert bench.redeal(history, [[10, 11], [20, 21]], 2, 2) == history


def test_the_paired_difference_is_the_new_lead_less_the_old_deal_by_deal(tmp_path, capsys):
    """--summarise NEW --against OLD: per deal, the first side's mean score a seat less the
    second's in NEW, less the same in OLD; deals only one log holds whole are left out."""
    bench = _bench()

    def play(deal, size, rotation, first, second):
        return {"deal": deal, "size": size, "rotation": rotation, "scores": [first, second]}

    new = [play(0, 10, 0, [6, 2], [1, 1]), play(0, 10, 1, [4, 4], [3, 1])]  # lead +2.5
    new += [play(1, 2, 0, [5, 5], [5, 5]), play(1, 2, 1, [5, 5], [-5, -5])]  # +5
    old = [play(0, 10, 0, [1, 1], [1, 1]), play(0, 10, 1, [2, 2], [1, 1])]  # +0.5
    old += [play(1, 2, 0, [5, 5], [5, 5]), play(2, 2, 0, [5, 5], [5, 5])]  # deal 1 not whole
    paths = []
    for name, results in (("new", new), ("old", old)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps(result) + "\n" for result in results))
        paths.append(str(path))
    bench.paired(*(bench.whole_deals(path) for path in paths))
    lines = capsys.readouterr().out.splitlines()
    assert "1 deals" in lines[0]
    assert lines[1].split()[:4] == ["all", "1", "deals", "+2.00"]
    assert lines[2].split()[:4] == ["8-10", "cards", "1", "deals"]
