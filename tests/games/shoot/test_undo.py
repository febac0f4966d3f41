"""Shoot!: the host's undo never reopens one sealed bid once the bids are shown."""

from __future__ import annotations

from companion.games import GAMES
from tests.undo_helpers import act, host_undo, seated


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


def test_undo_after_the_reveal_takes_back_every_bid_of_the_deal(app):
    table = seated(app, "shoot", 3)
    for seat, bid in enumerate([3, 7, 5]):
        act(table, seat, {"type": "bid", "bid": bid})
    shown = table.envelope(None)["view"]
    assert shown["phase"] == "play" and shown["bids"] == [3, 7, 5]

    body = host_undo(table)
    assert body["last_undo"]["text"] == (
        "The host took back the bids of deal 1: Ada, Bo and Cy choose again."
    )
    # Nobody's bid stands: no seat can bid again alone knowing the others'.
    assert bids_in(table) == [False, False, False]
    for seat in range(3):
        env = table.envelope(seat)
        assert env["view"]["my_bid"] is None and env["view"]["phase"] == "bid"
        assert {a["type"] for a in env["legal"]} == {"bid"}
    assert table.envelope(None)["to_act"] == [0, 1, 2]
    assert table.state().log == []


def test_after_the_reveal_plays_go_back_one_at_a_time_then_the_whole_bidding(app):
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

    host_undo(table)
    assert bids_in(table) == [False, False, False]


def test_a_changed_bid_is_taken_back_with_the_rest_of_the_bidding(app):
    table = seated(app, "shoot", 2)
    act(table, 0, {"type": "bid", "bid": 1})
    act(table, 0, {"type": "bid", "bid": 4})
    act(table, 1, {"type": "bid", "bid": 0})
    host_undo(table)
    assert bids_in(table) == [False, False] and table.state().log == []
