"""Pirate Tricks: the host's undo never reopens one sealed bid, reveal or ditch once the
step is shown (the engine's ``sealed_step``; ``Game.undo_point`` does the rest)."""

from __future__ import annotations

import pytest

from companion.games import GAMES
from tests.undo_helpers import act, host_undo, seated

if "pirate_tricks" not in GAMES:  # until its engine's conversion (branch i9-pirate) is merged
    pytest.skip("Pirate Tricks is not registered yet", allow_module_level=True)


def auction(table, seat=None) -> dict:
    return table.envelope(seat)["view"]["auction"]


def bid(table, seat: int, loon: int) -> None:
    act(table, seat, {"type": "bid", "loon": loon})


def test_an_unshown_bid_goes_back_alone_and_the_notice_keeps_it_secret(app):
    table = seated(app, "pirate_tricks", 3)
    bid(table, 0, 2)
    bid(table, 1, 3)
    text = host_undo(table)["last_undo"]["text"]
    assert "Bo" in text and "secret" in text and "3" not in text
    assert auction(table)["waiting"] == [1, 2]
    assert auction(table, 0)["your_bid"] == 2 and auction(table, 1)["your_bid"] is None


def test_undo_after_the_bids_are_shown_takes_back_every_bid_on_the_row(app):
    table = seated(app, "pirate_tricks", 3)
    for seat, loon in enumerate([1, 2, 3]):
        bid(table, seat, loon)
    view = table.envelope(None)["view"]
    assert view["events"][0]["bids"] == [1, 2, 3] and view["rows"][0]["owner"] == 2

    text = host_undo(table)["last_undo"]["text"]
    assert text == (
        "The host took back the bids on Row 1 (first bids, round 1): Ada, Bo and Cy choose again."
    )
    view = table.envelope(None)["view"]
    assert view["events"] == [] and view["rows"][0]["owner"] is None
    assert view["auction"]["waiting"] == [0, 1, 2] and table.state().log == []
    for seat in range(3):
        assert auction(table, seat)["your_bid"] is None


def test_tie_reveals_go_back_together_and_then_the_bids_that_made_the_tie(app):
    table = seated(app, "pirate_tricks", 3)
    for seat, loon in enumerate([2, 2, 0]):
        bid(table, seat, loon)
    assert auction(table)["step"] == "reveal" and auction(table)["tied"] == [0, 1]
    for seat in (0, 1):
        act(table, seat, table.envelope(seat)["legal"][0])
    assert table.envelope(None)["view"]["rows"][0]["owner"] in (0, 1)

    text = host_undo(table)["last_undo"]["text"]
    assert text.startswith("The host took back the card reveals on Row 1") and "Ada and Bo" in text
    a = auction(table)
    assert a["step"] == "reveal" and a["waiting"] == [0, 1]
    assert table.envelope(None)["view"]["events"][0]["bids"] == [2, 2, 0]  # shown before

    text = host_undo(table)["last_undo"]["text"]
    assert text.startswith("The host took back the bids on Row 1")
    assert auction(table)["step"] == "bid" and table.state().log == []


def test_the_ditch_goes_back_one_unshown_choice_or_all_of_it(app):
    table = seated(app, "pirate_tricks", 3)
    while table.envelope(None)["view"]["phase"] in ("bid", "reveal", "assign"):
        seat = table.envelope(None)["to_act"][0]
        act(table, seat, table.envelope(seat)["legal"][0])
    assert table.envelope(None)["view"]["phase"] == "ditch"
    before = table.state().log

    ditch = table.envelope(0)["legal"][0]
    act(table, 0, ditch)
    act(table, 1, table.envelope(1)["legal"][0])
    text = host_undo(table)["last_undo"]["text"]
    assert "Bo" in text and "secret" in text
    assert table.envelope(None)["view"]["ditch_done"] == [True, False, False]

    for seat in (1, 2):
        act(table, seat, table.envelope(seat)["legal"][0])
    assert table.envelope(None)["view"]["phase"] != "ditch"
    text = host_undo(table)["last_undo"]["text"]
    assert text == "The host took back the ditch of round 1: Ada, Bo and Cy choose again."
    assert table.envelope(None)["view"]["ditch_done"] == [False, False, False]
    assert table.state().log == before
