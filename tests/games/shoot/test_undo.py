"""Shoot!: the host's undo stops at the reveal of the bids."""

from __future__ import annotations

from companion.games import GAMES
from tests.games.shoot.helpers import SCRIPT_DEAL
from tests.undo_helpers import act, host_undo, refused_undo, seated


def bids_in(table, seat=None) -> list[bool]:
    return table.envelope(seat)["view"]["bids_in"]


def test_an_unrevealed_bid_goes_back_alone_and_the_notice_keeps_it_secret(app):
    table = seated(app, "shoot", 3)
    act(table, 0, {"type": "bid", "bid": 3})
    act(table, 1, {"type": "bid", "bid": 7})
    body = host_undo(table)
    text = body["last_undo"]["text"]
    assert "Bo" in text and "7" not in text and "secret" in text
    assert bids_in(table) == [True, False, False]
    assert table.envelope(0)["view"]["my_bid"] == 3
    assert table.envelope(1)["view"]["my_bid"] is None


# Issue 25: undo used to take back every bid of the deal once they were shown, so
# everyone bid again knowing the others' bids; now undo stops at the reveal.
def test_undo_stops_at_the_reveal_of_the_bids_and_says_why(app):
    table = seated(app, "shoot", 3, {"schedule": [4]}, SCRIPT_DEAL)
    for seat, bid in enumerate([1, 2, 1]):
        act(table, seat, {"type": "bid", "bid": bid})
    shown = table.envelope(None)["view"]
    assert shown["phase"] == "play" and shown["bids"] == [1, 2, 1]

    reason = refused_undo(table)
    assert reason.startswith("Undo stops at the bids of deal 1: it was shown to every phone")
    assert table.envelope(None)["view"]["bids"] == [1, 2, 1]
    # Play goes on from the shown bids: seat 1 leads the scripted deal's first card.
    act(table, 1, {"type": "play", "card": "KH"})
    host_undo(table)
    assert "bids of deal 1" in refused_undo(table)


def test_after_the_reveal_plays_go_back_one_at_a_time_then_undo_stops(app):
    table = seated(app, "shoot", 3)
    for seat in range(3):
        act(table, seat, {"type": "bid", "bid": 2})
    leader = table.envelope(None)["view"]["turn"]
    card = table.envelope(leader)["legal"][0]["card"]
    act(table, leader, {"type": "play", "card": card})

    body = host_undo(table)
    described = GAMES["shoot"].state_class.describe(table.state(), {"type": "play", "card": card})
    assert (
        body["last_undo"]["text"]
        == f"The host took back {['Ada', 'Bo', 'Cy'][leader]}'s move: {described}."
    )
    assert table.envelope(None)["view"]["bids"] == [2, 2, 2]
    assert card in table.envelope(leader)["view"]["hand"]

    assert "bids of deal 1" in refused_undo(table)  # the play went back, the bids stand
    assert table.envelope(None)["view"]["bids"] == [2, 2, 2]


def test_a_changed_bid_before_the_reveal_goes_back_alone(app):
    table = seated(app, "shoot", 2)
    act(table, 0, {"type": "bid", "bid": 1})
    act(table, 0, {"type": "bid", "bid": 4})
    host_undo(table)
    assert table.envelope(0)["view"]["my_bid"] == 1 and bids_in(table) == [True, False]
    act(table, 1, {"type": "bid", "bid": 0})
    assert "bids of deal 1" in refused_undo(table)
