"""PULL!: the host's undo never reopens one sealed second shot once they are shown."""

from __future__ import annotations

from companion.games import GAMES
from tests.undo_helpers import act, host_undo, seated


def first_shots(table) -> None:
    """Every seat takes its first shot, in turn."""
    while table.envelope(None)["view"]["phase"] == "first":
        (seat,) = table.envelope(None)["to_act"]
        act(table, seat, table.envelope(seat)["legal"][0])


def pick(table, seat: int) -> str:
    card = table.envelope(seat)["legal"][-1]["card"]
    act(table, seat, {"type": "second", "card": card})
    return card


def test_an_unshown_pick_goes_back_alone_and_the_notice_keeps_it_secret(app):
    table = seated(app, "pull", 3)
    first_shots(table)
    pick(table, 0)
    card = pick(table, 1)
    body = host_undo(table)
    text = body["last_undo"]["text"]
    assert "Bo" in text and "secret" in text
    face = GAMES["pull"].card_faces()[card]
    assert face["label"] not in text and card not in text
    assert table.envelope(None)["view"]["picked"] == [True, False, False]
    assert table.envelope(1)["view"]["my_second"] is None


def test_undo_after_the_reveal_takes_back_every_second_shot_of_the_round(app):
    table = seated(app, "pull", 3)
    first_shots(table)
    firsts = table.state().log
    for seat in range(3):
        pick(table, seat)
    assert table.envelope(None)["view"]["round"] == 2  # shown, scored, next round

    body = host_undo(table)
    assert body["last_undo"]["text"] == (
        "The host took back the second shots of hand 1, round 1: Ada, Bo and Cy choose again."
    )
    view = table.envelope(None)["view"]
    assert view["phase"] == "second" and view["picked"] == [False, False, False]
    assert table.envelope(None)["to_act"] == [0, 1, 2]
    for seat in range(3):
        assert table.envelope(seat)["view"]["my_second"] is None
    # The first shots, made in the open, stand.
    assert table.state().log == firsts


def test_face_up_second_shots_of_two_players_go_back_one_at_a_time(app):
    table = seated(app, "pull", 2)
    first_shots(table)
    firsts = table.state().log
    (seat,) = table.envelope(None)["to_act"]
    card = pick(table, seat)
    body = host_undo(table)
    assert body["last_undo"]["text"].endswith(
        "'s move: " + table.state().describe({"type": "second", "card": card}) + "."
    )
    assert table.state().log == firsts
